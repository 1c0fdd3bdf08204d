#include "timing.hpp"

#include <algorithm>
#include <utility>

#include "cuda_check.hpp"

namespace bench {

const char* mode_name(mode m) { return m == mode::single ? "single" : "back_to_back"; }

timed_call::timed_call(launcher call, int calls, cudaStream_t stream)
    : call_(std::move(call)), calls_(calls), stream_(stream) {
  BENCH_CHECK(cudaEventCreate(&start_));
  BENCH_CHECK(cudaEventCreate(&stop_));
  for (int i = 0; i < std::max(calls_, 3); ++i) call_(next_slice_++);
  BENCH_CHECK(cudaStreamSynchronize(stream_));
}

timed_call::~timed_call() {
  cudaEventDestroy(start_);
  cudaEventDestroy(stop_);
}

double timed_call::measure() {
  BENCH_CHECK(cudaEventRecord(start_, stream_));
  for (int i = 0; i < calls_; ++i) call_(next_slice_++);
  BENCH_CHECK(cudaEventRecord(stop_, stream_));
  BENCH_CHECK(cudaEventSynchronize(stop_));
  float ms = 0;
  BENCH_CHECK(cudaEventElapsedTime(&ms, start_, stop_));
  return 1e-3 * static_cast<double>(ms) / calls_;
}

}  // namespace bench
