// Operator policies: *what* is reduced, separate from *how* (load / block / smem policies).
//
// An operator defines, for an accumulator type Acc (chosen by the accum policy):
//   state<Acc>            the value carried through the reduction (Acc, or arg<Acc> for arg_min/arg_max)
//   identity<Acc>()       the neutral state; the result for n == 0
//   lift<Acc>(x, i)       element x at global index i -> state
//   operator()(a, b)      associative combine of two states
//   finalize<Out>(s)      state -> the caller's output type
//
// sum, min, max and any user functor (make_op) carry the value alone; arg_min and arg_max carry the
// value and its 64-bit index, and the lowest index wins ties, so the result never depends on the
// order of combination.
#pragma once
#include <cstdint>
#include <type_traits>

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

// The index an identity carries: larger than any real index, so a real element always wins a tie.
inline constexpr index_t no_index = INT64_MAX;

// Operators whose state is the accumulated value itself.
struct value_state {
  template <class Acc> using state = Acc;
  template <class Acc, class T>
  TALLY_HD Acc lift(const T& x, index_t) const { return static_cast<Acc>(x); }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const { return static_cast<Out>(s); }
};

// Operators whose state is a value and the index it came from.
struct index_state {
  template <class Acc> using state = arg<Acc>;
  template <class Acc, class T>
  TALLY_HD arg<Acc> lift(const T& x, index_t i) const { return {static_cast<Acc>(x), i}; }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const {
    static_assert(is_arg<Out>::value,
                  "tally: arg_min / arg_max write a tally::arg<V> (value + index): pass an arg<V>* output");
    using V = decltype(Out::value);
    return Out{static_cast<V>(s.value), s.index == no_index ? index_t{-1} : s.index};
  }
};

}  // namespace detail

namespace op {

struct sum : detail::value_state {
  static constexpr const char* name = "sum";
  template <class Acc> TALLY_HD Acc identity() const { return static_cast<Acc>(0); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(a + b) { return a + b; }
};

// min / max follow CUB's `b < a ? b : a`: for equal values the left operand is kept.
struct min : detail::value_state {
  static constexpr const char* name = "min";
  template <class Acc> TALLY_HD Acc identity() const { return detail::limits<Acc>::highest(); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(b < a, S()) { return b < a ? b : a; }
};

struct max : detail::value_state {
  static constexpr const char* name = "max";
  template <class Acc> TALLY_HD Acc identity() const { return detail::limits<Acc>::lowest(); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(a < b, S()) { return a < b ? b : a; }
};

struct arg_min : detail::index_state {
  static constexpr const char* name = "arg_min";
  template <class Acc> TALLY_HD arg<Acc> identity() const { return {detail::limits<Acc>::highest(), detail::no_index}; }
  template <class V>
  TALLY_HD auto operator()(const arg<V>& a, const arg<V>& b) const -> decltype(b.value < a.value, arg<V>()) {
    const bool b_wins = b.value < a.value || (!(a.value < b.value) && b.index < a.index);
    return b_wins ? b : a;
  }
};

struct arg_max : detail::index_state {
  static constexpr const char* name = "arg_max";
  template <class Acc> TALLY_HD arg<Acc> identity() const { return {detail::limits<Acc>::lowest(), detail::no_index}; }
  template <class V>
  TALLY_HD auto operator()(const arg<V>& a, const arg<V>& b) const -> decltype(a.value < b.value, arg<V>()) {
    const bool b_wins = a.value < b.value || (!(b.value < a.value) && b.index < a.index);
    return b_wins ? b : a;
  }
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
