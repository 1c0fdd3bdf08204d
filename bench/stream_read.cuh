// The streaming-read kernel behind the ceiling (ceiling.cu) and the read_floor rows (read_floor.cu):
// sums 16-byte vectors grid-stride, K independent loads in flight per thread, and writes nothing
// but a result no input produces. Launched with programmatic dependent launch it waits for the
// kernel ahead first, as tally's kernels do; otherwise the wait is a no-op.
#pragma once
#include <cstdint>

#include <tally/detail/launch.cuh>

namespace bench {

template <int K>
__global__ void __launch_bounds__(1024) stream_read(const uint4* __restrict__ in, std::int64_t count, unsigned* sink) {
  tally::detail::wait_for_previous_grid();
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  unsigned acc = 0;
  for (; i + (K - 1) * stride < count; i += K * stride) {
    uint4 v[K];
#pragma unroll
    for (int k = 0; k < K; ++k) v[k] = in[i + k * stride];
#pragma unroll
    for (int k = 0; k < K; ++k) acc += v[k].x + v[k].y + v[k].z + v[k].w;
  }
  for (; i < count; i += stride) {
    const uint4 v = in[i];
    acc += v.x + v.y + v.z + v.w;
  }
  // A store the compiler cannot prove dead keeps the loads; it is (almost) never taken.
  if (acc == 0x5A5A5A5Bu) *sink = acc;
}

}  // namespace bench
