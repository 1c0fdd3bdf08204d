#include "read_floor.hpp"

#include <algorithm>

#include <tally/detail/launch.cuh>
#include <tally/policies/grid.cuh>

#include "cuda_check.hpp"
#include "stream_read.cuh"

namespace bench {

namespace {

constexpr int floor_threads = 256;
constexpr int floor_loads = 4;  // 16-byte loads in flight a thread, as tally_default's load::vector<4>
// (Measured on an H200: reading each block's tiles in tally's load::vector order instead of
// grid-stride gives the same times, 2^10-2^28, float and double.)
constexpr auto floor_kernel = stream_read<floor_loads>;

}  // namespace

read_floor::read_floor(std::size_t bytes, cudaStream_t stream) : bytes_(bytes), stream_(stream), sink_(sizeof(unsigned)) {
  int device = 0, sms = 0, per_sm = 0;
  BENCH_CHECK(cudaGetDevice(&device));
  BENCH_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
  BENCH_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, floor_kernel, floor_threads, 0));
  // The resident grid tally_default sizes its launch with: a block a tile, at most SMs x occupancy.
  const auto vectors = static_cast<tally::index_t>(bytes / sizeof(uint4));
  const tally::index_t tiles = (vectors + floor_threads * floor_loads - 1) / (floor_threads * floor_loads);
  blocks_ = static_cast<unsigned>(std::max<tally::index_t>(tally::grid::resident::blocks(tiles, sms, per_sm), 1));
}

void read_floor::operator()(const void* in) {
  BENCH_CHECK(tally::detail::launch_kernel(floor_kernel, blocks_, floor_threads, 0, stream_, true,
                                           static_cast<const uint4*>(in),
                                           static_cast<std::int64_t>(bytes_ / sizeof(uint4)), sink_.as<unsigned>()));
}

}  // namespace bench
