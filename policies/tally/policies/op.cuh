// Operator policies: *what* is reduced, separate from *how* (load / block / smem policies).
//
// An operator defines, for an accumulator type Acc (chosen by the accum policy):
//   state<Acc>            the value carried through the reduction (Acc, or arg<Acc> for arg_min/arg_max)
//   identity<Acc>()       the neutral state; the result for n == 0
//   lift<Acc>(x, i)       element x at global index i -> state
//   operator()(a, b)      associative combine of two states
//   finalize<Out>(s)      state -> the caller's output type
//   append(a, b)          optional: a combined with b where b follows a in index order (every index
//                         of b above every index of a, and a not the identity); load::vector folds
//                         a 16-byte chunk with it. arg_min / arg_max skip the index comparison there.
//   lift_run<Acc>(v, i)   optional: the state of the consecutive elements v[0..E) at indices i, i + 1,
//                         ...; load::vector lifts a 16-byte chunk with it where present (arg_min /
//                         arg_max: the run's extreme first, then its first index).
//
// sum, min, max and any user functor (make_op) carry the value alone; arg_min and arg_max carry the
// value and its 64-bit index, and the lowest index wins ties, so the result never depends on the
// order of combination.
//
// Special values (floating types: float, double, __half, __nv_bfloat16). Every rule below picks one
// answer whatever the order of combination, so it does not depend on the policy or the block shape:
//   sum      IEEE arithmetic: a NaN anywhere, or +inf and -inf together, give NaN; +inf (-inf) alone
//            gives +inf (-inf). A finite running sum that overflows becomes +-inf, and where it does
//            depends on the order of additions (as in CUB).
//   min/max  IEEE 754-2019 minimum / maximum: a NaN anywhere gives NaN, and -0 < +0 (min of {-0, +0}
//            is -0, max is +0). Which NaN (payload, sign) is unspecified when the input holds several.
//   arg_min  a NaN anywhere gives the lowest index holding a NaN (and that NaN); otherwise the lowest
//   arg_max  index of the extreme value, where -0 and +0 are equal values (as in CUB).
// CUB's min / max / ArgMin / ArgMax compare with `<` alone, so their answer on data holding a NaN
// depends on where the NaN meets the other values; on data without NaN both agree.
//
// Integer sums with the native accumulator wrap modulo 2^bits (two's complement), as CUB's do: signed
// states are added in the unsigned type of the same width, where wrapping is defined behaviour
// (signed overflow is undefined in C++). accum::wide sums int32 in int64, which is exact up to 2^32
// elements.
#pragma once
#include <cstdint>
#include <type_traits>

#include <cuda/std/bit>
#include <cuda/std/limits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "config.cuh"

namespace tally {

template <class T> struct is_arg : std::false_type {};
template <class V> struct is_arg<arg<V>> : std::true_type {};

namespace detail {

// Largest and smallest values of T; +-infinity for floating types, so that min/max identities are
// true identities (an input of +inf still reduces to +inf under min).
template <class T, class = void> struct limits {
  static constexpr bool known = false;
};
template <class T>
struct limits<T, std::enable_if_t<std::is_integral_v<T>>> {
  static constexpr bool known = true;
  TALLY_HD static T highest() { return cuda::std::numeric_limits<T>::max(); }
  TALLY_HD static T lowest() { return cuda::std::numeric_limits<T>::lowest(); }
};
template <class T>
struct limits<T, std::enable_if_t<std::is_floating_point_v<T>>> {
  static constexpr bool known = true;
  TALLY_HD static T highest() { return cuda::std::numeric_limits<T>::infinity(); }
  TALLY_HD static T lowest() { return -cuda::std::numeric_limits<T>::infinity(); }
};
template <> struct limits<__half> {
  static constexpr bool known = true;
  TALLY_HD static __half highest() { return __half(__half_raw{0x7C00}); }
  TALLY_HD static __half lowest() { return __half(__half_raw{0xFC00}); }
};
template <> struct limits<__nv_bfloat16> {
  static constexpr bool known = true;
  TALLY_HD static __nv_bfloat16 highest() { return __nv_bfloat16(__nv_bfloat16_raw{0x7F80}); }
  TALLY_HD static __nv_bfloat16 lowest() { return __nv_bfloat16(__nv_bfloat16_raw{0xFF80}); }
};

template <class T>
inline constexpr bool is_floating = std::is_floating_point_v<T> || std::is_same_v<T, __half> ||
                                    std::is_same_v<T, __nv_bfloat16>;

// True for a NaN of a floating type; false (folded away) for every other type. NaN is the one value
// that does not equal itself (__half's and bf16's == are ordered comparisons too).
template <class T>
TALLY_HD bool is_nan(const T& x) {
  if constexpr (is_floating<T>) return !(x == x);
  else return false;
}

// The sign bit of a floating value (tells -0 from +0).
template <class T>
TALLY_HD bool sign_bit(const T& x) {
  if constexpr (std::is_same_v<T, __half>) return (static_cast<__half_raw>(x).x & 0x8000u) != 0;
  else if constexpr (std::is_same_v<T, __nv_bfloat16>) return (static_cast<__nv_bfloat16_raw>(x).x & 0x8000u) != 0;
  else if constexpr (std::is_same_v<T, float>) return (cuda::std::bit_cast<std::uint32_t>(x) >> 31) != 0;
  else return (cuda::std::bit_cast<std::uint64_t>(x) >> 63) != 0;
}

// b replaces a as the running minimum (maximum): b is strictly smaller (larger), b is a NaN (NaN
// propagates; a NaN already held stays, since no comparison with it is true), or a and b are equal
// zeros and b is -0 (+0). Integers and user types reduce to the plain comparison. Bitwise | and &,
// not || and &&: every predicate is cheap, and no short-circuit branch reaches the per-element loop
// (a few predicate instructions and one select per element).
template <class V>
TALLY_HD bool replaces_min(const V& a, const V& b) {
  if constexpr (is_floating<V>) return (b < a) | is_nan(b) | ((b == a) & sign_bit(b));
  else return b < a;
}
template <class V>
TALLY_HD bool replaces_max(const V& a, const V& b) {
  if constexpr (is_floating<V>) return (a < b) | is_nan(b) | ((b == a) & !sign_bit(b));
  else return a < b;
}

// The smaller (larger) of a and b with a NaN in giving a NaN out; of two equal zeros either may
// come back. This is what arg_min / arg_max need (they treat -0 and +0 as equal values). float on
// sm_80 and later: one min.NaN / max.NaN (FMNMX.NAN; a NaN in gives the canonical NaN out,
// 0x7fffffff) instead of the compare-and-select (8 instructions an element).
template <class V>
TALLY_HD V nan_min(const V& a, const V& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>) {
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
  }
#endif
  return replaces_min(a, b) ? b : a;
}
template <class V>
TALLY_HD V nan_max(const V& a, const V& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>) {
    float r;
    asm("max.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
  }
#endif
  return replaces_max(a, b) ? b : a;
}

// IEEE 754-2019 minimum / maximum (-0 < +0): nan_min / nan_max, and on float on sm_80 and later
// the sign of a zero result set from the operands, since PTX leaves min.NaN(-0, +0)'s choice of
// zero unstated. A zero minimum means neither operand is negative, so it is -0 exactly when either
// operand is (for max: +0 unless both are -0). About 4 instructions an element. Elsewhere
// replaces_min / replaces_max already order the zeros.
template <class V>
TALLY_HD V minimum(const V& a, const V& b) {
  const V r = nan_min(a, b);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>)
    return r == 0.0f ? __uint_as_float((__float_as_uint(a) | __float_as_uint(b)) & 0x80000000u) : r;
#endif
  return r;
}
template <class V>
TALLY_HD V maximum(const V& a, const V& b) {
  const V r = nan_max(a, b);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>)
    return r == 0.0f ? __uint_as_float(__float_as_uint(a) & __float_as_uint(b) & 0x80000000u) : r;
#endif
  return r;
}

struct value_less {
  template <class V> TALLY_HD bool operator()(const V& x, const V& y) const { return x < y; }
};
struct value_greater {
  template <class V> TALLY_HD bool operator()(const V& x, const V& y) const { return y < x; }
};

// b replaces a as the running arg_min (Better = value_less) or arg_max (value_greater): a NaN beats
// every number, and among NaNs or equal numbers the lower index wins. When exactly one of the two
// is a NaN, b wins iff it is that NaN; otherwise by value, then index (two NaNs compare neither
// better nor worse, so they fall to the index). One expression of predicates: a select between two
// bools would cost four integer instructions per element in the load loop (seen in the SASS).
template <class V, class Better>
TALLY_HD bool replaces_arg(const arg<V>& a, const arg<V>& b, Better better) {
  const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);  // constant false for integers
  const bool by_value = better(b.value, a.value) | (!better(a.value, b.value) & (b.index < a.index));
  return ((a_nan == b_nan) & by_value) | (b_nan & !a_nan);
}

// The same rule when b follows a: every index of b is above every index of a, and a holds at least
// one element (not the identity). Equal values then keep a, so no index is compared.
template <class V, class Better>
TALLY_HD bool follower_replaces_arg(const arg<V>& a, const arg<V>& b, Better better) {
  const bool a_nan = is_nan(a.value), b_nan = is_nan(b.value);
  return ((a_nan == b_nan) & better(b.value, a.value)) | (b_nan & !a_nan);
}

// Signed integers add in their unsigned type, so that overflow wraps (defined) instead of being
// undefined behaviour; the bits are those of two's complement wrapping.
template <class S>
TALLY_HD S add(const S& a, const S& b) {
  if constexpr (std::is_integral_v<S> && std::is_signed_v<S>) {
    using U = std::make_unsigned_t<S>;
    return static_cast<S>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}

// The index an identity carries: larger than any real index, so a real element always wins a tie.
inline constexpr index_t no_index = INT64_MAX;

// min / max of no element is the identity of the output type. A wider accumulator's identity is no
// value of the output type (int64's highest would narrow to -1 for an int32 min), so it is mapped,
// not converted; where Acc is the output type the two are the same.
template <class Out, class Op, class S>
TALLY_HD Out finalize_extreme(const Op& op, const S& s) {
  if constexpr (limits<Out>::known && limits<S>::known && !std::is_same_v<Out, S>) {
    if (s == op.template identity<S>()) return op.template identity<Out>();
  }
  return static_cast<Out>(s);
}

// Operators whose state is the accumulated value itself.
struct value_state {
  template <class Acc> using state = Acc;
  template <class Acc, class T>
  TALLY_HD Acc lift(const T& x, index_t) const { return static_cast<Acc>(x); }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const { return static_cast<Out>(s); }
};

// Operators whose state is a value and the index it came from.
template <class Op>  // CRTP: the empty result needs Op's identity
struct index_state {
  template <class Acc> using state = arg<Acc>;
  template <class Acc, class T>
  TALLY_HD arg<Acc> lift(const T& x, index_t i) const { return {static_cast<Acc>(x), i}; }
  // The state of E consecutive elements v[0], v[1], ... at indices first, first + 1, ...: the same
  // as lifting the first and appending the others, for fewer instructions (load::vector lifts a
  // 16-byte chunk with it). First the run's extreme m (a NaN if the run holds one), then the first
  // element equal to m or, when m is a NaN, the first NaN: with no NaN in the run no element is a
  // NaN, and with one none equals m. Float arg_min: 3 min.NaN and about 12 predicates and selects
  // for 4 elements, where 3 appends took about 30 instructions.
  template <class Acc, class T, int E>
  TALLY_HD arg<Acc> lift_run(const T (&v)[E], index_t first) const {
    T m = v[0];
    TALLY_UNROLL
    for (int e = 1; e < E; ++e) m = Op::run_extreme(m, v[e]);
    int k = E - 1;
    T x = v[E - 1];
    TALLY_UNROLL
    for (int e = E - 2; e >= 0; --e) {
      if ((v[e] == m) | is_nan(v[e])) {  // no branch: two selects
        k = e;
        x = v[e];
      }
    }
    return {static_cast<Acc>(x), first + k};
  }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const {
    static_assert(is_arg<Out>::value,
                  "tally: arg_min / arg_max write a tally::arg<V> (value + index): pass an arg<V>* output");
    using V = decltype(Out::value);
    // No element (the identity's index): the op's identity value in V, as min / max give, index -1.
    if (s.index == no_index) return Out{static_cast<const Op&>(*this).template identity<V>().value, index_t{-1}};
    return Out{static_cast<V>(s.value), s.index};
  }
};

}  // namespace detail

namespace op {

// Native integer sums wrap (see the top of this file); accum::kahan's compensated<F> state brings
// its own operator+ (compensated.cuh).
struct sum : detail::value_state {
  static constexpr const char* name = "sum";
  template <class Acc> TALLY_HD Acc identity() const { return static_cast<Acc>(0); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(a + b) { return detail::add(a, b); }
};

// min / max: CUB's `<` comparison, plus the NaN and signed-zero rules at the top of this file (for
// floating types; one or two more predicates per element, next to a memory-bound load).
struct min : detail::value_state {
  static constexpr const char* name = "min";
  template <class Acc> TALLY_HD Acc identity() const { return detail::limits<Acc>::highest(); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(b < a, S()) {
    return detail::minimum(a, b);
  }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const { return detail::finalize_extreme<Out>(*this, s); }
};

struct max : detail::value_state {
  static constexpr const char* name = "max";
  template <class Acc> TALLY_HD Acc identity() const { return detail::limits<Acc>::lowest(); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(a < b, S()) {
    return detail::maximum(a, b);
  }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const { return detail::finalize_extreme<Out>(*this, s); }
};

struct arg_min : detail::index_state<arg_min> {
  static constexpr const char* name = "arg_min";
  template <class Acc> TALLY_HD arg<Acc> identity() const { return {detail::limits<Acc>::highest(), detail::no_index}; }
  template <class V>
  TALLY_HD auto operator()(const arg<V>& a, const arg<V>& b) const -> decltype(b.value < a.value, arg<V>()) {
    return detail::replaces_arg(a, b, detail::value_less{}) ? b : a;
  }
  // a combined with b where b follows a in index order (see load::vector): cheaper, same result.
  template <class V>
  TALLY_HD arg<V> append(const arg<V>& a, const arg<V>& b) const {
    return detail::follower_replaces_arg(a, b, detail::value_less{}) ? b : a;
  }
  template <class V> TALLY_HD static V run_extreme(const V& a, const V& b) { return detail::nan_min(a, b); }
};

struct arg_max : detail::index_state<arg_max> {
  static constexpr const char* name = "arg_max";
  template <class Acc> TALLY_HD arg<Acc> identity() const { return {detail::limits<Acc>::lowest(), detail::no_index}; }
  template <class V>
  TALLY_HD auto operator()(const arg<V>& a, const arg<V>& b) const -> decltype(a.value < b.value, arg<V>()) {
    return detail::replaces_arg(a, b, detail::value_greater{}) ? b : a;
  }
  template <class V>
  TALLY_HD arg<V> append(const arg<V>& a, const arg<V>& b) const {
    return detail::follower_replaces_arg(a, b, detail::value_greater{}) ? b : a;
  }
  template <class V> TALLY_HD static V run_extreme(const V& a, const V& b) { return detail::nan_max(a, b); }
};

// Any associative functor F with an identity value: make_op(f, identity).
// F must be callable on device as f(Acc, Acc) -> Acc.
template <class F, class I>
struct custom : detail::value_state {
  static constexpr const char* name = "custom";
  F f;
  I init;
  template <class Acc> TALLY_HD Acc identity() const { return static_cast<Acc>(init); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(f(a, b)) { return f(a, b); }
};

template <class F, class I>
custom<F, I> make_op(F f, I identity) { return {{}, f, identity}; }

}  // namespace op

// True when Op can reduce elements of type T in accumulator type Acc (state type is combinable
// and an identity exists). Used to turn unsupported pairs into one readable compile-time error.
template <class Op, class Acc, class = void>
struct has_identity : std::true_type {};
template <class Acc> struct has_identity<op::min, Acc> : std::bool_constant<detail::limits<Acc>::known> {};
template <class Acc> struct has_identity<op::max, Acc> : std::bool_constant<detail::limits<Acc>::known> {};
template <class Acc> struct has_identity<op::arg_min, Acc> : std::bool_constant<detail::limits<Acc>::known> {};
template <class Acc> struct has_identity<op::arg_max, Acc> : std::bool_constant<detail::limits<Acc>::known> {};

template <class Op, class T, class Acc, class = void>
struct can_reduce : std::false_type {};
template <class Op, class T, class Acc>
struct can_reduce<Op, T, Acc,
                  std::void_t<decltype(std::declval<const Op&>()(
                                  std::declval<const typename Op::template state<Acc>&>(),
                                  std::declval<const typename Op::template state<Acc>&>())),
                              decltype(static_cast<Acc>(std::declval<const T&>()))>>
    : has_identity<Op, Acc> {};

}  // namespace tally
