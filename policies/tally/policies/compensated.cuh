// compensated<F>: a floating sum carried with its rounding error, the state accum::kahan gives
// op::sum. Every step keeps (sum, comp) such that sum + comp is the exact total up to second-order
// terms:
//
//   a + b   TwoSum (Knuth) of the two sums: s = a.sum + b.sum exactly equals s + e (6 flops, no
//           branch, exact whatever the magnitudes); comp = (a.comp + b.comp) + e.
//
// It is a plain value type with an operator+, so the kernel needs nothing special: the per-thread
// loop, the warp shuffles (8 or 16 bytes, split into words), the block's shared memory, the grid's
// partials and the last block's combine all carry both words, and a single rounding happens at the
// end (value()). sum alone is the running IEEE sum of the same additions a native accumulator
// makes, so +-inf and NaN behave as in the native sum: value() returns sum itself once it is not
// finite (inf - inf in the compensation would otherwise turn an infinite sum into NaN).
//
// An element enters as {x, -0}: adding -0 to a compensation is an identity the compiler may fold
// (adding +0 is not: -0 + +0 = +0), so the per-element step costs TwoSum plus one add.
//
// Error (Ogita, Rump and Oishi's Sum2 bound): |result - S| <= u|S| + (k u / (1 - k u))^2 sum|x_i|,
// S the exact sum, u = 2^-24 (float) or 2^-53 (double), k the longest chain of additions one element
// passes through (a thread's elements, then the tree levels): within 1 ulp of S for same-sign data,
// and within 2u sum|x_i| whenever k^2 u <= 1 (k <= 4096 in float; a GPU thread at 2^28 elements
// makes about a thousand).
//
// Nothing may reassociate these additions (that would cancel e to 0): nvcc never reassociates
// floating additions, even under --use_fast_math (which tally does not use: it flushes subnormals);
// a host compiler's -ffast-math would, and tally's flags do not pass it.
#pragma once
#include <type_traits>

#include <cuda/std/cmath>

#include "config.cuh"

namespace tally {

template <class F>
struct compensated {
  static_assert(std::is_same_v<F, float> || std::is_same_v<F, double>,
                "tally::compensated<F>: F is float or double");
  F sum;
  F comp;

  compensated() = default;  // trivial: a shuffle-able, shared-memory-able state
  TALLY_HD constexpr compensated(F s, F c) : sum(s), comp(c) {}
  // One element (or the identity, from 0): no error yet.
  template <class U>
  TALLY_HD explicit compensated(const U& x) : sum(static_cast<F>(x)), comp(F(-0.0)) {}

  // The compensated total, rounded once.
  TALLY_HD F value() const { return cuda::std::isfinite(sum) ? sum + comp : sum; }
  template <class U>
  TALLY_HD explicit operator U() const { return static_cast<U>(value()); }
};

namespace detail {
// s + e == a + b exactly (Knuth's TwoSum; round-to-nearest, no reassociation).
template <class F>
TALLY_HD compensated<F> two_sum(F a, F b) {
  const F s = a + b;
  const F bv = s - a;
  const F av = s - bv;
  return {s, (a - av) + (b - bv)};
}
}  // namespace detail

template <class F>
TALLY_HD compensated<F> operator+(const compensated<F>& a, const compensated<F>& b) {
  const compensated<F> t = detail::two_sum(a.sum, b.sum);
  return {t.sum, (a.comp + b.comp) + t.comp};
}

template <class T> struct is_compensated : std::false_type {};
template <class F> struct is_compensated<compensated<F>> : std::true_type {};

}  // namespace tally
