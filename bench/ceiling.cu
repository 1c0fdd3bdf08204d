#include "ceiling.hpp"

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "stream_read.cuh"
#include "timing.hpp"

namespace bench {

namespace {

constexpr int ceiling_runs = 7;

double median_seconds(timed_call& t) {
  std::vector<double> s(ceiling_runs);
  for (double& x : s) x = t.measure();
  std::nth_element(s.begin(), s.begin() + ceiling_runs / 2, s.end());
  return s[ceiling_runs / 2];
}

template <int K>
void try_read_kernel(const device_info& dev, const device_buffer& in, unsigned* sink, cudaStream_t stream,
                     bandwidth_ceiling& best) {
  for (const int threads : {256, 512, 1024}) {
    int per_sm = 0;
    BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, stream_read<K>, threads, 0));
    const int blocks = dev.sm_count * std::max(per_sm, 1);
    const auto* data = in.as<const uint4>();
    const auto count = static_cast<std::int64_t>(in.bytes() / sizeof(uint4));
    timed_call t(
        [=](std::int64_t) {
          stream_read<K><<<blocks, threads, 0, stream>>>(data, count, sink);
          BENCH_CHECK(cudaGetLastError());
        },
        1, stream);
    const double gbps = static_cast<double>(in.bytes()) / median_seconds(t) * 1e-9;
    if (gbps > best.read_GBps) {
      best.read_GBps = gbps;
      best.read_config = "16-byte loads x" + std::to_string(K) + " in flight, " + std::to_string(threads) +
                         " threads, " + std::to_string(blocks) + " blocks";
    }
  }
}

}  // namespace

bandwidth_ceiling measure_ceiling(const device_info& dev, cudaStream_t stream) {
  constexpr std::size_t GiB = std::size_t{1} << 30;
  bandwidth_ceiling c;
  c.buffer_bytes = std::max(GiB, (4 * dev.l2_bytes + 15) / 16 * 16);
  device_buffer src(c.buffer_bytes), dst(c.buffer_bytes), sink(sizeof(unsigned));
  BENCH_CHECK(cudaMemsetAsync(src.get(), 0x5A, c.buffer_bytes, stream));

  try_read_kernel<1>(dev, src, sink.as<unsigned>(), stream, c);
  try_read_kernel<2>(dev, src, sink.as<unsigned>(), stream, c);
  try_read_kernel<4>(dev, src, sink.as<unsigned>(), stream, c);
  try_read_kernel<8>(dev, src, sink.as<unsigned>(), stream, c);

  timed_call copy(
      [&](std::int64_t) {
        BENCH_CHECK(cudaMemcpyAsync(dst.get(), src.get(), c.buffer_bytes, cudaMemcpyDeviceToDevice, stream));
      },
      1, stream);
  c.copy_GBps = 2.0 * static_cast<double>(c.buffer_bytes) / median_seconds(copy) * 1e-9;
  return c;
}

}  // namespace bench
