// GPU time of reductions from CUDA events.
//
// A measurement is `calls` reductions enqueued back to back between two events on the benchmark
// stream; it returns the time per call. calls = 1 is the `single` mode: one call bracketed by
// events, so the host's launch latency and every launch the call makes show in the figure.
// calls = B is `back_to_back`: the GPU runs the calls one after the other while the host enqueues
// ahead, so launch latency is hidden wherever the host keeps up (what a pipeline of reductions sees).
#pragma once
#include <cstdint>

#include <cuda_runtime_api.h>

#include "algorithm.hpp"

namespace bench {

enum class mode { single, back_to_back };
const char* mode_name(mode m);

// A prepared and warmed-up call of one algorithm at one n, ready to be timed repeatedly.
class timed_call {
 public:
  // Prepares the call (allocations) and warms it up: max(calls, 3) calls, then a wait, so that lazy
  // module loading, first-touch of workspace and the libraries' one-time queries are not timed.
  timed_call(const algorithm& alg, std::int64_t n, int calls, cudaStream_t stream)
      : timed_call(alg.prepare(n), calls, stream) {}
  timed_call(launcher call, int calls, cudaStream_t stream);
  ~timed_call();
  timed_call(const timed_call&) = delete;
  timed_call& operator=(const timed_call&) = delete;

  // One measurement: seconds per call. Successive calls walk through the input slices.
  double measure();

 private:
  launcher call_;
  int calls_;
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr, stop_ = nullptr;
  std::int64_t next_slice_ = 0;
};

}  // namespace bench
