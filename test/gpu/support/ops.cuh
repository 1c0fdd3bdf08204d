// Every operator on element type T with the default policy and two others that differ in every
// family (load, block, smem, threads, grid), over every test size, with fresh data per case.
#pragma once
#include "check.cuh"

namespace tally::test {

// 16-bit floating sums accumulate in float in every policy here: a __half running sum is only
// meaningful for short inputs (rules_test covers that case).
template <class T, class Op>
using test_accum = std::conditional_t<detail::is_16bit_float<T> && std::is_same_v<Op, op::sum>, accum::wide, accum::native>;

template <class T, class Op>
using other_policy_a = reduce_policy<load::unroll<8>, block::sequential_unrolled, smem::padded, 512, test_accum<T, Op>>;
template <class T, class Op>
using other_policy_b =
    reduce_policy<load::single, block::interleaved_strided, smem::dynamic, 128, test_accum<T, Op>, grid::per_tile>;

using all_ops = type_list<op::sum, op::min, op::max, op::arg_min, op::arg_max>;

template <class T>
void check_ops_on_type() {
  for (const index_t n : test_sizes()) {
    for_each_type(all_ops{}, [&](auto o) {
      using Op = typename decltype(o)::type;
      const dataset<T> d(n, next_seed());
      const auto truth = host_truth<Op>(d);
      check_reduce<default_reduce_policy<T, Op>, Op>(d, truth);
      check_reduce<other_policy_a<T, Op>, Op>(d, truth);
      check_reduce<other_policy_b<T, Op>, Op>(d, truth);
    });
  }
}

}  // namespace tally::test
