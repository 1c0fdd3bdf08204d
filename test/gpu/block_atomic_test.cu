// Seed 003's block strategies (block_atomic.cuh): block::atomic and block::atomic_hybrid<G> fold the
// block's states with shared-memory atomics. Every 32- and 64-bit integer type under sum, min and
// max, over every test size, against the host and CUB; other group sizes, block sizes and smem
// layouts on int32. (A float state is rejected at compile time: test/compile_fail.)
#include "support/compositions.cuh"

using namespace tally;
using namespace tally::test;

TEST_CASE("block::atomic and block::atomic_hybrid<8>: integer sum, min and max match the host and CUB") {
  static_assert(block::check_block_policy<block::atomic>());
  static_assert(block::check_block_policy<block::atomic_hybrid<8>>());
  static_assert(!reduce_policies::atomic::fixed_order);  // its order follows the schedule...
  static_assert(meets_determinism<determinism::run_to_run, false, op::sum, std::int64_t>);  // ...and integer ops are exact
  for (const index_t n : test_sizes()) {
    for_each_type(type_list<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t>{}, [&](auto t) {
      using T = typename decltype(t)::type;
      const dataset<T> d(n, next_seed());
      for_each_type(type_list<op::sum, op::min, op::max>{}, [&](auto o) {
        using Op = typename decltype(o)::type;
        const auto truth = host_truth<Op>(d);
        check_reduce<reduce_policies::atomic, Op>(d, truth);
        check_reduce<reduce_policies::atomic_hybrid, Op>(d, truth);
      });
    });
  }
}

TEST_CASE("block::atomic_hybrid<G>: other groups, block sizes and smem layouts (int32)") {
  for (const index_t n : test_sizes()) {
    const dataset<std::int32_t> d(n, next_seed());
    const auto sum = host_truth<op::sum>(d);
    const auto max = host_truth<op::max>(d);
    check_reduce<reduce_policy<load::vector<4>, block::atomic_hybrid<32>, smem::padded, 1024>, op::sum>(d, sum);
    check_reduce<reduce_policy<load::single, block::atomic_hybrid<4>, smem::dynamic, 64, accum::native, grid::per_tile>, op::max>(d, max);
    check_reduce<reduce_policy<load::vector<2>, block::atomic, smem::padded, 32>, op::sum>(d, sum);
  }
}
