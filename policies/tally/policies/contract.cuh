// How tally checks a policy against its family's contract at compile time.
//
// Every family header states, at its top, what a member must provide; its check_*() function turns
// each required member into one static_assert whose message names the family and the member, so
// that a policy missing one gets a sentence, not a page of template errors. Compositions
// (reduce_policy, rows_policy, transpose_policy) call the checks of their families.
//
// The checks ask for members with the simplest arguments a policy must accept: the probes below.
#pragma once
#include <type_traits>

#include "config.cuh"

namespace tally::detail {

// is_detected<Op, Args...>: whether Op<Args...> is a valid type (the detection idiom).
template <class, template <class...> class Op, class... Args>
struct detector : std::false_type {};
template <template <class...> class Op, class... Args>
struct detector<std::void_t<Op<Args...>>, Op, Args...> : std::true_type {};
template <template <class...> class Op, class... Args>
inline constexpr bool is_detected = detector<void, Op, Args...>::value;

// A static_assert(dependent_false<T>, ...) fires only when its branch is instantiated.
template <class...>
inline constexpr bool dependent_false = false;

// Members every policy of every family has.
template <class P> using name_member = std::enable_if_t<std::is_convertible_v<decltype(P::name), const char*>>;
template <class P> using fixed_order_member = std::enable_if_t<std::is_same_v<std::remove_cv_t<decltype(P::fixed_order)>, bool>>;

// Probes: a state (int, or probe_state where a layout only stores it), a shared-memory view of an
// int, an element lift and a combine. Declared only: they appear in unevaluated contexts alone.
struct probe_state {
  int word;
};
struct probe_view {
  __device__ int& operator[](int) const;
};
struct probe_lift {
  __device__ int operator()(const float&, index_t) const;
};
struct probe_op {
  template <class Acc> __host__ __device__ Acc identity() const;
  __host__ __device__ int operator()(const int&, const int&) const;
};

}  // namespace tally::detail
