// rows_policy: a row strategy (rows/strategy.cuh), an accumulator (accum.cuh) and a launch policy
// (launch.cuh), the composition reduce_rows and matvec take. A bare strategy is accepted where a
// rows_policy is expected: reduce_rows<rows::warp_per_row>(...) means rows_policy<rows::warp_per_row>.
//
// default_rows_policy<T, Op> picks the strategy by shape at every call and launches with PDL. Sums
// accumulate in T (float sums in float, as cuBLAS's sgemv and CUB do), except 16-bit floats, which
// accumulate in float; rows_policy<rows::by_shape, accum::wide> accumulates float in double.
#pragma once
#include <string>
#include <type_traits>

#include <tally/default_policy.cuh>
#include <tally/policies/accum.cuh>
#include <tally/policies/launch.cuh>
#include <tally/policies/op.cuh>
#include <tally/policies/rows.cuh>

namespace tally {

template <class Strategy = rows::by_shape, class Accum = accum::native, class Launch = launch::pdl>
struct rows_policy {
  static_assert(rows::check_row_strategy<Strategy>());
  static_assert(accum::check_accum_policy<Accum>());
  static_assert(launch::check_launch_policy<Launch>());
  using strategy = Strategy;
  using accum = Accum;
  using launch = Launch;
  static constexpr bool fixed_order = Strategy::fixed_order;
  template <class A> using with_accum = rows_policy<Strategy, A, Launch>;
  template <class L> using with_launch = rows_policy<Strategy, Accum, L>;
  // "warp_per_row/native/pdl": for test output and benchmark names.
  static std::string name() { return std::string(Strategy::name) + "/" + Accum::name + "/" + Launch::name; }
};

template <class T, class Op = op::sum>
using default_rows_policy = rows_policy<rows::by_shape, detail::default_accum<T, Op>, launch::pdl>;

namespace detail {
template <class P, class = void>
struct as_rows_policy {
  using type = rows_policy<P>;
};
template <class P>
struct as_rows_policy<P, std::void_t<typename P::strategy, typename P::accum>> {
  using type = P;
};
}  // namespace detail

template <class P>
using as_rows_policy_t = typename detail::as_rows_policy<P>::type;

}  // namespace tally
