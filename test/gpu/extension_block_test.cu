// A block strategy written outside the library, as a user would (docs/composing.md walks through
// one): one struct that keeps the block family's contract (policies/tally/policies/block.cuh), then
// composed and checked like tally's own members.
//
// serial_warps: each warp's lane 0 adds its warp's 32 states in lane order, then thread 0 adds the
// warp totals in warp order. Slow (two serial chains) and simple: a fixed order, no shuffles.
#include "support/compositions.cuh"

namespace {

struct serial_warps {
  static constexpr const char* name = "serial_warps";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads;

  template <int Threads, class S, class View, class Op>
  __device__ static S reduce(S v, View smem, Op op) {
    constexpr int warp = 32;
    const int tid = threadIdx.x;
    smem[tid] = v;
    __syncthreads();
    if (tid % warp == 0) {
      for (int k = 1; k < warp; ++k) v = op(v, smem[tid + k]);
    }
    __syncthreads();  // every lane 0 has read its warp's slots before any writes its total
    if (tid % warp == 0) smem[tid / warp] = v;
    __syncthreads();
    if (tid == 0) {
      for (int w = 1; w < Threads / warp; ++w) v = op(v, smem[w]);
    }
    return v;
  }
};

}  // namespace

using namespace tally;
using namespace tally::test;

TEST_CASE("a block strategy defined outside the library: every load x smem, sums and arg_max, against the host and CUB") {
  static_assert(block::check_block_policy<serial_warps>());
  for (const index_t n : test_sizes()) {
    const dataset<float> f(n, next_seed());
    const auto f_sum = host_truth<op::sum>(f);
    const dataset<std::int64_t> i(n, next_seed());
    const auto i_max = host_truth<op::arg_max>(i);
    for_each_type(all_smems{}, [&](auto s) {
      using Smem = typename decltype(s)::type;
      check_reduce<reduce_policy<load::vector<4>, serial_warps, Smem, 256>, op::sum>(f, f_sum);
      check_reduce<reduce_policy<load::single, serial_warps, Smem, 64, accum::native, grid::per_tile>, op::sum>(f, f_sum);
      check_reduce<reduce_policy<load::unroll<2>, serial_warps, Smem, 1024, accum::wide, grid::resident, launch::pdl>,
                   op::arg_max>(i, i_max);
    });
  }
}
