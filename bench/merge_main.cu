// tally_bench_merge: tally::merge against cub::DeviceMerge::MergeKeys and a device-to-device copy of
// the same bytes, float keys, in one process on the same buffers. Two sorted lists of n / 2 keys
// (random values in [0, 500000) in steps of 0.5), n = 2^20, 2^24, 2^27; then tally's 32-list merge
// (5 passes). Time per call: the best of 5 batches of 10 calls back to back, after 3 warm-up calls.
//
//   tally_bench_merge
#include <algorithm>
#include <cstdio>
#include <exception>
#include <random>
#include <vector>

#include <cub/device/device_merge.cuh>

#include <tally/merge.cuh>

#include "cuda_check.hpp"

namespace {

struct less_float {
  __device__ bool operator()(float a, float b) const { return a < b; }
};

template <class F>
double best_us(F call) {
  for (int i = 0; i < 3; ++i) call();
  cudaEvent_t a, b;
  BENCH_CHECK(cudaEventCreate(&a));
  BENCH_CHECK(cudaEventCreate(&b));
  float best = 1e30f;
  for (int r = 0; r < 5; ++r) {
    BENCH_CHECK(cudaEventRecord(a));
    for (int i = 0; i < 10; ++i) call();
    BENCH_CHECK(cudaEventRecord(b));
    BENCH_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, a, b));
    best = std::min(best, ms / 10);
  }
  cudaEventDestroy(a);
  cudaEventDestroy(b);
  return best * 1e3;
}

}  // namespace

int run() {
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("tally::merge on %s (float keys, time per call in us; GB/s count n keys read and written)\n\n", prop.name);
  std::printf("| n | tally 2 lists | GB/s | CUB DeviceMerge | tally / CUB speed | copy of n keys | tally 32 lists |\n");
  std::printf("|---|---:|---:|---:|---:|---:|---:|\n");
  for (const long n : {1L << 20, 1L << 24, 1L << 27}) {
    std::vector<float> h(static_cast<std::size_t>(n));
    std::mt19937 g(1);
    for (float& x : h) x = static_cast<float>(g() % 1000000) * 0.5f;
    std::sort(h.begin(), h.begin() + n / 2);
    std::sort(h.begin() + n / 2, h.end());
    float *keys = nullptr, *out = nullptr;
    long* offsets = nullptr;
    BENCH_CHECK(cudaMalloc(&keys, n * sizeof(float)));
    BENCH_CHECK(cudaMalloc(&out, n * sizeof(float)));
    BENCH_CHECK(cudaMalloc(&offsets, 33 * sizeof(long)));
    BENCH_CHECK(cudaMemcpy(keys, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    const long two[3] = {0, n / 2, n};
    BENCH_CHECK(cudaMemcpy(offsets, two, sizeof two, cudaMemcpyHostToDevice));
    tally::merger<float> m;
    m.reserve(n);
    const double t_tally = best_us([&] { m(keys, offsets, 2, n, out); });
    std::size_t bytes = 0;
    BENCH_CHECK(cub::DeviceMerge::MergeKeys(nullptr, bytes, keys, n / 2, keys + n / 2, n - n / 2, out, less_float{}));
    void* temp = nullptr;
    BENCH_CHECK(cudaMalloc(&temp, bytes));
    const double t_cub = best_us([&] { cub::DeviceMerge::MergeKeys(temp, bytes, keys, n / 2, keys + n / 2, n - n / 2, out, less_float{}); });
    const double t_copy = best_us([&] { cudaMemcpyAsync(out, keys, n * sizeof(float), cudaMemcpyDeviceToDevice); });
    std::vector<long> o32(33);
    for (int i = 0; i <= 32; ++i) o32[static_cast<std::size_t>(i)] = n * i / 32;
    for (int i = 0; i < 32; ++i) std::sort(h.begin() + o32[static_cast<std::size_t>(i)], h.begin() + o32[static_cast<std::size_t>(i) + 1]);
    BENCH_CHECK(cudaMemcpy(keys, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    BENCH_CHECK(cudaMemcpy(offsets, o32.data(), 33 * sizeof(long), cudaMemcpyHostToDevice));
    const double t_32 = best_us([&] { m(keys, offsets, 32, n, out); });
    BENCH_CHECK(cudaGetLastError());
    std::printf("| 2^%d | %.1f | %.0f | %.1f | %.2f | %.1f | %.1f |\n", __builtin_ctzl(static_cast<unsigned long>(n)), t_tally,
                8.0 * static_cast<double>(n) / t_tally / 1e3, t_cub, t_cub / t_tally, t_copy, t_32);
    cudaFree(keys);
    cudaFree(out);
    cudaFree(offsets);
    cudaFree(temp);
  }
  return 0;
}

int main() {
  try {
    return run();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tally_bench_merge: %s\n", e.what());
    return 1;
  }
}
