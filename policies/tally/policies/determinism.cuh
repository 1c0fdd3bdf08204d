// Determinism: what a caller asks of an entry point, and what a composition can promise.
//
// Every policy that combines states (load, block, grid, row strategy) declares
//   static constexpr bool fixed_order   true when the order in which it combines states depends on
//                                       the call's shape and the device alone, never on timing
// A composition keeps its order fixed when all of its policies do. Its results are then the same bits
// run to run for the same input, shape and device. They are too, whatever the order, when the
// operator is exact on the accumulator type: is_exact<Op, Acc> (integer sums, which wrap, and
// min / max / arg_min / arg_max of integers; op.cuh). Floating sums are not exact: their rounding
// depends on the order, and so does the NaN a floating min returns when the input holds several.
//
// Entry points take the requirement as a type (reducer, rows_reducer: the last template parameter):
//   determinism::run_to_run      the default: same device, input and shape give the same bits.
//                                A composition that cannot promise it is rejected at compile time.
//   determinism::not_guaranteed  the caller accepts results that vary with the scheduling of blocks
//                                (the price of atomic strategies on floating states)
#pragma once
#include <type_traits>

namespace tally {

namespace determinism {
struct not_guaranteed {
  static constexpr const char* name = "not_guaranteed";
};
struct run_to_run {
  static constexpr const char* name = "run_to_run";
};
}  // namespace determinism

// True when Op's result on states of type Acc does not depend on the order of combination.
// Specialise it for an operator of your own that is exact (bitwise or / and / xor, say).
template <class Op, class Acc, class = void>
struct is_exact : std::false_type {};

// Whether a composition whose policies keep their order fixed (FixedOrder) and which reduces with
// Op in Acc meets the requirement Determinism.
template <class Determinism, bool FixedOrder, class Op, class Acc>
inline constexpr bool meets_determinism =
    std::is_same_v<Determinism, determinism::not_guaranteed> || FixedOrder || is_exact<Op, Acc>::value;

}  // namespace tally
