// The compile-time checks of every entry point that reduces (reducer, rows_reducer): the
// operator's contract, whether it fits the element and accumulator types, and the caller's
// determinism requirement against the composition's (determinism.cuh). Each failure is one sentence.
#pragma once
#include <tally/policies/determinism.cuh>
#include <tally/policies/op.cuh>

namespace tally::detail {

template <class Op, class T, class Acc, class Determinism, bool FixedOrder>
constexpr bool check_reduction() {
  static_assert(check_operator<Op>());
  static_assert(can_reduce<Op, T, Acc>::value,
                "tally: this operator cannot reduce this element type (it has no identity for the accumulator type, "
                "or the accumulator type has no operator+ / operator< the operator needs). Pick another accum policy "
                "or operator, or wrap a functor with tally::op::make_op(f, identity).");
  static_assert(meets_determinism<Determinism, FixedOrder, Op, Acc>,
                "tally: this composition does not fix its order of combination (one of its policies declares "
                "fixed_order = false) and the operator is not exact on this accumulator type, so its results could "
                "change from run to run; ask for tally::determinism::not_guaranteed to accept that");
  return true;
}

}  // namespace tally::detail
