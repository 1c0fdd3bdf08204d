// Accumulator policies: which type a reduction accumulates in, given the input type T.
//
// Contract (check_accum_policy; docs/policies.md):
//   name     static constexpr const char*
//   type<T>  the accumulator type for elements of type T: what the operator's states hold
// The accumulator decides rounding and overflow, never the order of combination.
//
//   native  accumulate in T itself (CUB's behaviour; integer sums wrap on overflow)
//   wide    a wider type: int32 -> int64, uint32 -> uint64, __half / __nv_bfloat16 -> float,
//           float -> double; other types accumulate natively
//   kahan   compensated sums (compensated.cuh): float, __half and __nv_bfloat16 in
//           compensated<float>, double in compensated<double>; for op::sum of floating types only.
//   reproducible  binned sums (binned.cuh): float, __half and __nv_bfloat16 in binned<float>,
//           double in binned<double>; for op::sum of floating types only. The result depends on
//           the multiset of elements alone (not the policy, grid, device or split of the input)
//           and is the exact sum of all but bits far below the largest element, rounded once.
//
// Integer overflow: native integer sums wrap modulo 2^bits (two's complement, as CUB's; op::sum
// adds signed states in the unsigned type, so the wrap is defined behaviour). wide sums int32 in
// int64, exact for up to 2^32 elements of any int32 values.
//
// value_t<Acc> is the plain value an accumulator type holds: what a sum writes (float for
// compensated<float>).
#pragma once
#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "binned.cuh"
#include "compensated.cuh"
#include "contract.cuh"

namespace tally::accum {

namespace detail {
template <class T> struct widen { using type = T; };
template <> struct widen<std::int32_t> { using type = std::int64_t; };
template <> struct widen<std::uint32_t> { using type = std::uint64_t; };
template <> struct widen<__half> { using type = float; };
template <> struct widen<__nv_bfloat16> { using type = float; };
template <> struct widen<float> { using type = double; };

template <class T> struct always_false : std::false_type {};
template <class T> struct compensate {
  static_assert(always_false<T>::value, "tally::accum::kahan: compensated sums are for float, double, __half and __nv_bfloat16");
  using type = T;
};
template <> struct compensate<float> { using type = compensated<float>; };
template <> struct compensate<__half> { using type = compensated<float>; };
template <> struct compensate<__nv_bfloat16> { using type = compensated<float>; };
template <> struct compensate<double> { using type = compensated<double>; };

template <class T> struct bin {
  static_assert(always_false<T>::value, "tally::accum::reproducible: reproducible sums are for float, double, __half and __nv_bfloat16");
  using type = T;
};
template <> struct bin<float> { using type = binned<float>; };
template <> struct bin<__half> { using type = binned<float>; };
template <> struct bin<__nv_bfloat16> { using type = binned<float>; };
template <> struct bin<double> { using type = binned<double>; };

template <class Acc> struct value_of { using type = Acc; };
template <class F> struct value_of<compensated<F>> { using type = F; };
template <class F, int K> struct value_of<binned<F, K>> { using type = F; };
}  // namespace detail

template <class Acc>
using value_t = typename detail::value_of<Acc>::type;

// Whether Acc is a plain value (native and wide accumulators, not kahan's or reproducible's states):
// matvec and csr_matvec form their products in it.
template <class Acc>
inline constexpr bool is_plain = std::is_same_v<value_t<Acc>, Acc>;

// matvec and csr_matvec ask `static_assert(accum::takes_products<Acc>)`: true, or a compile error that
// names the accumulators they take (one message for both).
template <class Acc>
struct products_check {
  static_assert(is_plain<Acc>, "tally::matvec / csr_matvec: products accumulate in accum::native or accum::wide (accum::kahan and accum::reproducible sum elements, not products)");
  static constexpr bool value = true;
};
template <class Acc>
inline constexpr bool takes_products = products_check<Acc>::value;

struct native {
  template <class T> using type = T;
  static constexpr const char* name = "native";
};

struct wide {
  template <class T> using type = typename detail::widen<T>::type;
  static constexpr const char* name = "wide";
};

// Compensated (Kahan-Babuska / TwoSum) sums: about 7 flops per element instead of 1, free while
// the load is memory-bound.
struct kahan {
  template <class T> using type = typename detail::compensate<T>::type;
  static constexpr const char* name = "kahan";
};

// Reproducible (binned) sums: 4 to 7 double additions per element, nearly free while the load is
// memory-bound (docs/numerics.md has the accuracy, docs/reproducible.md the cost).
struct reproducible {
  template <class T> using type = typename detail::bin<T>::type;
  static constexpr const char* name = "reproducible";
};

namespace detail {
template <class A> using type_member = typename A::template type<float>;
}  // namespace detail

template <class A>
constexpr bool check_accum_policy() {
  static_assert(tally::detail::is_detected<tally::detail::name_member, A>,
                "tally accum policy: missing 'static constexpr const char* name'");
  static_assert(tally::detail::is_detected<detail::type_member, A>,
                "tally accum policy: missing 'template <class T> using type' (the accumulator type for T)");
  return true;
}

}  // namespace tally::accum
