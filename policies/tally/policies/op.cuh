// Operator policies: *what* is reduced, separate from *how* (load / block / smem policies).
//
// Contract (check_operator and can_reduce; docs/policies.md), for an accumulator type Acc chosen by
// the accum policy and elements of type T:
//   name                  static constexpr const char*
//   state<Acc>            the value carried through the reduction (Acc, or arg<Acc> for arg_min/arg_max)
//   identity<Acc>()       the neutral state: combine(identity, s) == s; the result for n == 0
//   lift<Acc>(x, i)       element x at global index i -> state
//   operator()(a, b)      combine two states: associative and commutative, since every policy folds
//                         a thread's elements strided and meets other threads' states in a tree
//   finalize<Out>(s)      state -> the caller's output type
// Optional:
//   append(a, b)          a combined with b where b follows a in index order (every index of b above
//                         every index of a, and a not the identity); load::vector folds a 16-byte chunk
//                         with it. arg_min / arg_max skip the index comparison there.
//   lift_run<Acc>(v, i)   the state of the consecutive elements v[0..E) at indices i, i + 1, ...;
//                         load::vector lifts a 16-byte chunk with it where present.
// is_exact<Op, Acc> (determinism.cuh) says whether the result is independent of the order of
// combination; it is for integer sum, min, max, arg_min and arg_max.
//
// sum, min, max and any user functor (make_op) carry the value alone; arg_min and arg_max carry the
// value and its 64-bit index, and the lowest index wins ties, so the result never depends on the
// order of combination. make_op(f, identity, lift) builds an operator with a state of the user's own
// type. f and lift may be __device__ lambdas (compiled with nvcc --extended-lambda): nvcc cannot
// tell their return type in host code, so they are checked in the device pass instead.
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
// depends on where the NaN meets the other values; on data without NaN both agree (docs/numerics.md).
//
// Integer sums with the native accumulator wrap modulo 2^bits (two's complement), as CUB's do: signed
// states are added in the unsigned type of the same width, where wrapping is defined behaviour
// (signed overflow is undefined in C++). accum::wide sums int32 in int64, which is exact up to 2^32
// elements.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <type_traits>

#include <cuda/std/bit>
#include <cuda/std/limits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "binned.cuh"
#include "binned_warp.cuh"
#include "config.cuh"
#include "contract.cuh"
#include "determinism.cuh"

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
template <class T>
inline constexpr bool is_16bit_floating = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// True for a NaN of a floating type; false (folded away) for every other type. NaN is the one value
// that does not equal itself (__half's and bf16's == are ordered comparisons too).
template <class T>
TALLY_HD bool is_nan(const T& x) {
  if constexpr (is_floating<T>) return !(x == x);
  else return false;
}

// The bits of a 16-bit floating value (__half, __nv_bfloat16), and back.
template <class V>
TALLY_HD unsigned short bits16(const V& x) {
  if constexpr (std::is_same_v<V, __half>) return static_cast<__half_raw>(x).x;
  else return static_cast<__nv_bfloat16_raw>(x).x;
}
template <class V>
TALLY_HD V from_bits16(unsigned short b) {
  if constexpr (std::is_same_v<V, __half>) return V(__half_raw{b});
  else return V(__nv_bfloat16_raw{b});
}

// The sign bit of a floating value (tells -0 from +0).
template <class T>
TALLY_HD bool sign_bit(const T& x) {
  if constexpr (is_16bit_floating<T>) return (bits16(x) & 0x8000u) != 0;
  else if constexpr (std::is_same_v<T, float>) return (cuda::std::bit_cast<std::uint32_t>(x) >> 31) != 0;
  else return (cuda::std::bit_cast<std::uint64_t>(x) >> 63) != 0;
}

// An element in the accumulator type. A bf16 is the high half of a float, so on the device bf16 ->
// float is a shift (one integer instruction, exact, NaN payload kept) where the conversion
// instruction costs more: 18 % on bf16 row sums of 65536 x 1000 (docs/performance.md).
template <class Acc, class T>
TALLY_HD Acc widen(const T& x) {
#ifdef __CUDA_ARCH__
  if constexpr (std::is_same_v<T, __nv_bfloat16> && std::is_same_v<Acc, float>)
    return __uint_as_float(static_cast<unsigned>(__bfloat16_as_ushort(x)) << 16);
  else
#endif
    return static_cast<Acc>(x);
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
// sm_80 and later: one min.NaN / max.NaN (a NaN in gives the canonical NaN out, 0x7fffffff), half
// the instructions of the compare-and-select (docs/performance.md).
template <class V>
TALLY_HD V nan_min(const V& a, const V& b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>) {
    float r;
    asm("min.NaN.f32 %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b));
    return r;
  } else if constexpr (is_16bit_floating<V>) {
    return __hmin_nan(a, b);  // min.NaN.f16 / .bf16
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
  } else if constexpr (is_16bit_floating<V>) {
    return __hmax_nan(a, b);  // max.NaN.f16 / .bf16
  }
#endif
  return replaces_max(a, b) ? b : a;
}

// IEEE 754-2019 minimum / maximum (-0 < +0): nan_min / nan_max, and on float, half and bf16 on
// sm_80 and later the sign of a zero result set from the operands, since PTX leaves min.NaN(-0,
// +0)'s choice of zero unstated. A zero minimum means neither operand is negative, so it is -0
// exactly when either operand is (for max: +0 unless both are -0). Elsewhere replaces_min /
// replaces_max already order the zeros.
// The sign is set without a compare: a minimum's sign is the operands' sign bits ORed (negative if
// either is), a maximum's them ANDed, whatever the result (a nonzero result has that sign already;
// a NaN stays a NaN, and its bits depend on the operands' signs alone, not on the order). Float's
// rows read 3 - 19 % faster than with a compare for the zero (docs/performance.md).
template <class V>
TALLY_HD V minimum(const V& a, const V& b) {
  const V r = nan_min(a, b);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>)
    return __uint_as_float(__float_as_uint(r) | ((__float_as_uint(a) | __float_as_uint(b)) & 0x80000000u));
  else if constexpr (is_16bit_floating<V>)
    return from_bits16<V>(bits16(r) | ((bits16(a) | bits16(b)) & 0x8000u));
#endif
  return r;
}
template <class V>
TALLY_HD V maximum(const V& a, const V& b) {
  const V r = nan_max(a, b);
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (std::is_same_v<V, float>)
    return __uint_as_float(__float_as_uint(r) & ((__float_as_uint(a) & __float_as_uint(b)) | 0x7fffffffu));
  else if constexpr (is_16bit_floating<V>)
    return from_bits16<V>(bits16(r) & ((bits16(a) & bits16(b)) | 0x7fffu));
#endif
  return r;
}

// The IEEE minimum (Max = false) or maximum of a run of E 16-bit elements, E even: two elements at a
// time (min.NaN / max.NaN on f16x2 / bf16x2 words), the sign bits ORed (min) or ANDed (max) a word at
// a time and set once, as minimum / maximum set them: about 1.5 instructions an element where E - 1
// calls of minimum / maximum take 3 each. The run's words are its elements' bits, as a 16-byte load
// leaves them in registers.
template <bool Max, class T, int E>
TALLY_DEVICE T extreme_run16(const T (&v)[E]) {
  static_assert(E % 2 == 0, "extreme_run16: an even run");
  using T2 = std::conditional_t<std::is_same_v<T, __half>, __half2, __nv_bfloat162>;
  alignas(16) T run[E];  // the elements, wherever v lies (a byte-wise copy of global memory otherwise)
  TALLY_UNROLL
  for (int e = 0; e < E; ++e) run[e] = v[e];
  T2 w[E / 2];
  unsigned bits[E / 2];
  memcpy(w, run, sizeof(w));
  memcpy(bits, run, sizeof(bits));
  T2 m = w[0];
  unsigned signs = bits[0];
  TALLY_UNROLL
  for (int k = 1; k < E / 2; ++k) {
    m = Max ? __hmax2_nan(m, w[k]) : __hmin2_nan(m, w[k]);
    signs = Max ? signs & bits[k] : signs | bits[k];
  }
  const T r = Max ? __hmax_nan(m.x, m.y) : __hmin_nan(m.x, m.y);
  const unsigned short sign = static_cast<unsigned short>(Max ? signs & (signs >> 16) : signs | (signs >> 16));
  return from_bits16<T>(Max ? bits16(r) & (sign | 0x7fffu) : bits16(r) | (sign & 0x8000u));
}

// acc combined with the run v[0, E) by minimum (Max = false) or maximum: on the device at once
// (extreme_run16), elsewhere element by element.
template <bool Max, class T, int E>
TALLY_HD T fold_extreme_run(T acc, const T (&v)[E]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const T r = extreme_run16<Max>(v);
  return Max ? maximum(acc, r) : minimum(acc, r);
#else
  for (int e = 0; e < E; ++e) acc = Max ? maximum(acc, v[e]) : minimum(acc, v[e]);
  return acc;
#endif
}

// Whether op.fold_run<Acc>(acc, v) folds a run of E elements of T into a state S at once (16-bit min /
// max; op::sum into binned states): the kernels that hold such runs ask.
template <class Op, class Acc, class S, class T, int E, class = void>
struct has_op_fold_run : std::false_type {};
template <class Op, class Acc, class S, class T, int E>
struct has_op_fold_run<Op, Acc, S, T, E,
                       std::void_t<decltype(std::declval<const Op&>().template fold_run<Acc>(
                           std::declval<S>(), std::declval<const T (&)[E]>()))>> : std::true_type {};

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
// bools costs integer instructions in the load loop.
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
  TALLY_HD Acc lift(const T& x, index_t) const { return widen<Acc>(x); }
  template <class Out, class S>
  TALLY_HD Out finalize(const S& s) const { return static_cast<Out>(s); }
};

// Operators whose state is a value and the index it came from.
template <class Op>  // CRTP: the empty result needs Op's identity
struct index_state {
  template <class Acc> using state = arg<Acc>;
  template <class Acc, class T>
  TALLY_HD arg<Acc> lift(const T& x, index_t i) const { return {widen<Acc>(x), i}; }
  // The state of E consecutive elements v[0], v[1], ... at indices first, first + 1, ...: the same
  // as lifting the first and appending the others, for fewer instructions (load::vector lifts a
  // 16-byte chunk with it). First the run's extreme m (a NaN if the run holds one), then the first
  // element equal to m or, when m is a NaN, the first NaN: with no NaN in the run no element is a
  // NaN, and with one none equals m. (Fewer instructions than E - 1 appends: docs/performance.md.)
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
    return {widen<Acc>(x), first + k};
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

// Whether F is an extended __device__ lambda (nvcc --extended-lambda). nvcc's host pass cannot
// call one, nor tell its return type: code that checks an operator in host code skips those checks
// for it, and call_user checks it in the device pass instead.
#if defined(__CUDACC__)
template <class F>
inline constexpr bool is_device_lambda = __nv_is_extended_device_lambda_closure_type(F);
#else
template <class F>
inline constexpr bool is_device_lambda = false;
#endif

// Whether f(args...) converts to R where it can be told (in host code, every callable but a
// __device__ lambda).
template <class R, class F, class... A>
inline constexpr bool user_callable = is_device_lambda<F> || std::is_invocable_r_v<R, const F&, const A&...>;

// f(args...) as R, for a user's function: in the device pass an error names the problem.
template <class R, class F, class... A>
TALLY_HD R call_user(const F& f, const A&... args) {
#ifdef __CUDA_ARCH__
  static_assert(std::is_invocable_r_v<R, const F&, const A&...>,
                "tally::op::make_op: the function cannot be called here: f(state, state) must return a state, "
                "and lift(element, tally::index_t) a state (for make_op(f, identity) the state is the accumulator "
                "type)");
  return static_cast<R>(f(args...));
#else
  if constexpr (std::is_invocable_r_v<R, const F&, const A&...>) {
    return static_cast<R>(f(args...));
  } else {
    std::abort();  // a __device__ lambda cannot run on the host
  }
#endif
}

}  // namespace detail

namespace op {

// Native integer sums wrap (see the top of this file); accum::kahan's compensated<F> state brings
// its own operator+ (compensated.cuh).
struct sum : detail::value_state {
  static constexpr const char* name = "sum";
  template <class Acc> TALLY_HD Acc identity() const { return static_cast<Acc>(0); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(a + b) { return detail::add(a, b); }
  // Faster forms for binned states (binned.cuh): a 16-byte chunk of elements folded with one
  // check (load::vector), and a whole warp's states summed at once (warp.cuh).
  template <class Acc, class S, class T, int E>
  TALLY_HD auto fold_run(S acc, const T (&v)[E]) const -> decltype(acc.add_run(v), S()) {
    acc.add_run(v);
    return acc;
  }
  template <class S>
  TALLY_DEVICE auto warp_total(const S& v, bool counts) const -> decltype(binned_warp_sum(v, counts)) {
    return binned_warp_sum(v, counts);
  }
};

// min / max: CUB's `<` comparison, plus the NaN and signed-zero rules at the top of this file (for
// floating types: min.NaN / max.NaN where PTX has them, float, half and bf16 on sm_80 and later; a
// compare-and-select elsewhere).
struct min : detail::value_state {
  static constexpr const char* name = "min";
  template <class Acc> TALLY_HD Acc identity() const { return detail::limits<Acc>::highest(); }
  template <class S>
  TALLY_HD auto operator()(const S& a, const S& b) const -> decltype(b < a, S()) {
    return detail::minimum(a, b);
  }
  // A run of 16-bit elements folded at once (load::vector's chunks, the segments kernel's whole
  // tiles, the row kernels' items).
  template <class Acc, class S, class T, int E>
  TALLY_HD auto fold_run(S acc, const T (&v)[E]) const
      -> std::enable_if_t<std::is_same_v<S, T> && detail::is_16bit_floating<T> && E % 2 == 0, S> {
    return detail::fold_extreme_run<false>(acc, v);
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
  template <class Acc, class S, class T, int E>
  TALLY_HD auto fold_run(S acc, const T (&v)[E]) const
      -> std::enable_if_t<std::is_same_v<S, T> && detail::is_16bit_floating<T> && E % 2 == 0, S> {
    return detail::fold_extreme_run<true>(acc, v);
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

// Any associative and commutative function f with an identity value: make_op(f, identity) reduces
// states of the accumulator type, f(Acc, Acc) -> Acc; make_op(f, identity, lift) reduces states of
// identity's type S, lift(x, index) -> S turning each element into one, f(S, S) -> S (an arg-style
// state of your own, say). f and lift may be functors, __host__ __device__ lambdas or __device__
// lambdas; the result of a reduction with a user state is that state (finalize converts it to Out).
template <class F, class I>
struct custom : detail::value_state {
  static constexpr const char* name = "custom";
  F f;
  I init;
  template <class Acc> TALLY_HD Acc identity() const { return static_cast<Acc>(init); }
  template <class S>
  TALLY_HD S operator()(const S& a, const S& b) const { return detail::call_user<S>(f, a, b); }
};

template <class F, class S, class L>
struct custom_state {
  static constexpr const char* name = "custom";
  F f;
  S init;
  L lift_fn;
  template <class Acc> using state = S;
  template <class Acc> TALLY_HD S identity() const { return init; }
  template <class Acc, class T>
  TALLY_HD S lift(const T& x, index_t i) const { return detail::call_user<S>(lift_fn, x, i); }
  TALLY_HD S operator()(const S& a, const S& b) const { return detail::call_user<S>(f, a, b); }
  template <class Out, class State>
  TALLY_HD Out finalize(const State& s) const { return static_cast<Out>(s); }
};

template <class F, class I>
custom<F, I> make_op(F f, I identity) { return {{}, f, identity}; }

template <class F, class S, class L>
custom_state<F, S, L> make_op(F f, S identity, L lift) { return {f, identity, lift}; }

}  // namespace op

// Integer states combine exactly under sum (wrapping), min, max, arg_min and arg_max: the result
// does not depend on the order of combination.
template <class Acc> struct is_exact<op::sum, Acc, std::enable_if_t<std::is_integral_v<Acc>>> : std::true_type {};
template <class Acc> struct is_exact<op::min, Acc, std::enable_if_t<std::is_integral_v<Acc>>> : std::true_type {};
template <class Acc> struct is_exact<op::max, Acc, std::enable_if_t<std::is_integral_v<Acc>>> : std::true_type {};
// binned sums add exactly (binned.cuh): the order of combination cannot change the bits.
template <class Acc> struct is_exact<op::sum, Acc, std::enable_if_t<is_binned<Acc>::value>> : std::true_type {};
template <class Acc> struct is_exact<op::arg_min, Acc, std::enable_if_t<std::is_integral_v<Acc>>> : std::true_type {};
template <class Acc> struct is_exact<op::arg_max, Acc, std::enable_if_t<std::is_integral_v<Acc>>> : std::true_type {};

// True when Op can reduce elements of type T in accumulator type Acc (state type is combinable
// and an identity exists). Used to turn unsupported pairs into one readable compile-time error.
template <class Op, class Acc, class = void>
struct has_identity : std::true_type {};
template <class Acc> struct has_identity<op::min, Acc> : std::bool_constant<detail::limits<Acc>::known> {};
template <class Acc> struct has_identity<op::max, Acc> : std::bool_constant<detail::limits<Acc>::known> {};
template <class Acc> struct has_identity<op::arg_min, Acc> : std::bool_constant<detail::limits<Acc>::known> {};
template <class Acc> struct has_identity<op::arg_max, Acc> : std::bool_constant<detail::limits<Acc>::known> {};

// What a user's function must accept, where host code can tell (make_op's operators).
template <class Op, class T, class Acc>
struct user_functions_fit : std::true_type {};
template <class F, class I, class T, class Acc>
struct user_functions_fit<op::custom<F, I>, T, Acc> : std::bool_constant<detail::user_callable<Acc, F, Acc, Acc>> {};
template <class F, class S, class L, class T, class Acc>
struct user_functions_fit<op::custom_state<F, S, L>, T, Acc>
    : std::bool_constant<detail::user_callable<S, F, S, S> && detail::user_callable<S, L, T, index_t>> {};

template <class Op, class T, class Acc>
using lifted_state_t = decltype(std::declval<const Op&>().template lift<Acc>(std::declval<const T&>(), index_t{}));

template <class Op, class T, class Acc, class = void>
struct can_reduce : std::false_type {};
template <class Op, class T, class Acc>
struct can_reduce<Op, T, Acc,
                  std::void_t<decltype(std::declval<const Op&>()(
                                  std::declval<const typename Op::template state<Acc>&>(),
                                  std::declval<const typename Op::template state<Acc>&>())),
                              lifted_state_t<Op, T, Acc>, decltype(static_cast<Acc>(std::declval<const T&>()))>>
    : std::bool_constant<has_identity<Op, Acc>::value && user_functions_fit<Op, T, Acc>::value> {};

namespace detail {
template <class Op> using state_member = typename Op::template state<float>;
template <class Op> using identity_member = decltype(std::declval<const Op&>().template identity<float>());
}  // namespace detail

// The members every operator has, whatever the element type (can_reduce then asks whether they fit
// this element and accumulator type).
template <class Op>
constexpr bool check_operator() {
  using detail::is_detected;
  static_assert(is_detected<detail::name_member, Op>, "tally operator: missing 'static constexpr const char* name'");
  static_assert(is_detected<detail::state_member, Op>,
                "tally operator: missing 'template <class Acc> using state' (the state carried through the reduction)");
  static_assert(is_detected<detail::identity_member, Op>,
                "tally operator: missing 'template <class Acc> state<Acc> identity() const' (the neutral state)");
  return true;
}

}  // namespace tally
