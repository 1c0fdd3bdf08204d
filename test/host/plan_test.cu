// Grid and block sizing: plan_reduce is a pure host function.
#include <doctest/doctest.h>

#include <tally/reduce.cuh>

using namespace tally;

using resident_p = reduce_policy<load::unroll<4>, block::sequential, smem::static_array, 256>;  // tile 1024
using per_tile_p = reduce_policy<load::single, block::sequential, smem::static_array, 128, accum::native, grid::per_tile>;

TEST_CASE("plan: one launch up to one tile") {
  for (index_t n : {0, 1, 255, 1023, 1024}) {
    CAPTURE(n);
    const reduce_plan p = plan_reduce<resident_p, float>(n, 132, 8);
    CHECK(p.blocks == 1);
    CHECK_FALSE(p.two_pass());
  }
  CHECK(plan_reduce<resident_p, float>(1025, 132, 8).blocks == 2);
  CHECK(plan_reduce<resident_p, float>(1025, 132, 8).two_pass());
}

TEST_CASE("plan: a resident grid is capped at SMs x blocks per SM") {
  CHECK(plan_reduce<resident_p, float>(1024 * 500, 132, 8).blocks == 500);
  CHECK(plan_reduce<resident_p, float>(1024 * 5000, 132, 8).blocks == 132 * 8);
  CHECK(plan_reduce<resident_p, float>(index_t{1} << 40, 132, 8).blocks == 132 * 8);
  CHECK(plan_reduce<resident_p, float>(index_t{1} << 40, 132, 8).tiles == index_t{1} << 30);
}

TEST_CASE("plan: per_tile grids grow with n, beyond 2^31 elements too") {
  CHECK(plan_reduce<per_tile_p, int>(128 * 1000 + 1, 132, 8).blocks == 1001);
  const index_t big = (index_t{1} << 31) + 11;
  CHECK(plan_reduce<per_tile_p, int>(big, 132, 8).blocks == (big + 127) / 128);
  // The grid limit (2^31 - 1 blocks) caps the grid; the grid-stride loop covers the rest.
  CHECK(plan_reduce<per_tile_p, int>(index_t{1} << 45, 132, 8).blocks == grid::max_blocks);
}

TEST_CASE("plan: vector loads size tiles by the element type") {
  using V = reduce_policy<load::vector<2>, block::warp_shuffle, smem::static_array, 256>;
  CHECK(plan_reduce<V, float>(2048, 132, 8).blocks == 1);    // 2 x 4 floats x 256 threads
  CHECK(plan_reduce<V, double>(2048, 132, 8).blocks == 2);   // 2 x 2 doubles x 256 threads
}
