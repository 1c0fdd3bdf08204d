// check_reduce<P, Op>(data, truth): one reduction through tally::reducer<P>, compared with the
// host reference (exactly, or within a stated rounding bound for floating sums) and with
// cub::DeviceReduce on the same buffer (exactly for integers, min, max and arg_*), after which the
// input must be unchanged.
#pragma once
#include <cmath>
#include <string>
#include <type_traits>

#include <tally/reduce.cuh>

#include "reference.cuh"

namespace tally::test {

template <class... Ts> struct type_list {};
template <class T> struct type_tag { using type = T; };

template <class... Ts, class F>
void for_each_type(type_list<Ts...>, F&& f) {
  (f(type_tag<Ts>{}), ...);
}

// Unit roundoff of the accumulator; 0 for integers, whose sums are exact (bounds built on it then
// demand equality with the host's exact sum).
template <class Acc>
constexpr long double unit_roundoff() {
  if constexpr (is_compensated<Acc>::value) return unit_roundoff<accum::value_t<Acc>>();  // a valid (loose) bound
  else if constexpr (std::is_integral_v<Acc>) return 0.0L;
  else if constexpr (std::is_same_v<Acc, double>) return 0x1p-53L;
  else if constexpr (std::is_same_v<Acc, float>) return 0x1p-24L;
  else if constexpr (std::is_same_v<Acc, __half>) return 0x1p-11L;
  else return 0x1p-8L;  // __nv_bfloat16
}

inline int log2_ceil(index_t x) {
  int d = 0;
  while ((index_t{1} << d) < x) ++d;
  return d;
}

// First-order bound on the rounding error of tally's floating sum for plan p: every element passes
// through at most (elements per thread + 2 for the vector head/tail) sequential additions, log2(B)
// block-tree levels, and in the second pass ceil(blocks / B) sequential additions and another
// log2(B) levels. |error| <= k * u * sum|x|.
template <class P, class Acc>
long double tally_sum_bound(const reduce_plan& p, long double abs_sum) {
  const index_t threads = p.blocks * P::threads;
  const index_t per_thread = p.n / threads + 1 + 2;
  const int depth = log2_ceil(P::threads);
  const index_t second = p.two_pass() ? p.blocks / P::threads + 1 + depth : 0;
  return 1.01L * static_cast<long double>(per_thread + depth + second) * unit_roundoff<Acc>() * abs_sum;
}

// The same bound for CUB, whose grid for large n holds at least one 256-thread block per SM and
// whose single-tile path gives a thread at most a few dozen elements.
template <class Acc>
long double cub_sum_bound(index_t n, int sm_count, long double abs_sum) {
  const index_t per_thread = n / (index_t{sm_count} * 256) + 64;
  return 1.01L * static_cast<long double>(per_thread + 20) * unit_roundoff<Acc>() * abs_sum;
}

inline int device_sm_count() {
  int device = 0, sms = 0;
  cudaGetDevice(&device);
  cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
  return sms;
}

template <class V> std::string show(const V& v) {
  if constexpr (is_arg<V>::value) return "{" + show(v.value) + ", " + std::to_string(v.index) + "}";
  else if constexpr (std::is_integral_v<V>) return std::to_string(v);
  else return std::to_string(static_cast<double>(host_value(v)));
}

// got, the result of Op over d by policy P with launch plan p, against the host reference
// (exactly, or within tally_sum_bound for floating sums) and against CUB on the same buffer.
template <class P, class Op, class T, class Truth, class Out>
void expect_matches_reference(const dataset<T>& d, const Truth& truth, const Out& got, const reduce_plan& p,
                              Op op = Op{}) {
  using Acc = accum::value_t<typename P::accum::template type<T>>;  // float for compensated<float>
  constexpr bool is_sum = std::is_same_v<Op, op::sum>;
  const index_t n = d.size();
  INFO("tally returned " << show(got));
  if constexpr (is_sum && std::is_integral_v<Acc>) {
    CHECK(got == static_cast<Out>(truth.wrapped));
    CHECK(got == (cub_result<Op, Acc>(d)));
  } else if constexpr (is_sum) {
    const long double value = static_cast<long double>(host_value(got));
    const long double bound = tally_sum_bound<P, Acc>(p, truth.abs_sum);
    INFO("host reference " << static_cast<double>(truth.value) << ", bound " << static_cast<double>(bound));
    CHECK(std::fabs(value - truth.value) <= bound);
    const long double cub = static_cast<long double>(host_value(cub_result<Op, Acc>(d)));
    INFO("cub returned " << static_cast<double>(cub));
    CHECK(std::fabs(value - cub) <= bound + cub_sum_bound<Acc>(n, device_sm_count(), truth.abs_sum));
  } else if constexpr (is_arg<Out>::value) {
    CHECK(got.index == truth.index);  // -1 for n == 0
    if (n == 0) {
      CHECK(host_value(got.value) == host_value(op.template identity<T>().value));  // T's, whatever Acc
    } else {
      CHECK(host_value(got.value) == truth.value);
      const arg<T> cub = cub_result<Op, T>(d);
      INFO("cub returned " << show(cub));
      CHECK(host_value(got.value) == host_value(cub.value));
      CHECK(got.index == cub.index);
    }
  } else {
    if (n == 0) {
      CHECK(host_value(got) == host_value(op.template identity<T>()));  // T's, whatever Acc
    } else {
      CHECK(host_value(got) == truth.value);
      CHECK(host_value(got) == host_value(cub_result<Op, T>(d)));
    }
  }
}

// One reduction through tally::reducer<P, T, Op> into a poisoned output, checked against the
// reference; the input must be unchanged afterwards.
template <class P, class Op, class T, class Truth>
void check_reduce(const dataset<T>& d, const Truth& truth, Op op = Op{}) {
  using R = reducer<P, T, Op>;
  using Acc = accum::value_t<typename R::accum_type>;
  constexpr bool is_sum = std::is_same_v<Op, op::sum>;
  constexpr bool is_arg_op = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
  using Out = std::conditional_t<is_sum, Acc, std::conditional_t<is_arg_op, arg<T>, T>>;
  const index_t n = d.size();
  INFO("policy " << P::name() << ", op " << std::string(Op::name) << ", n = " << n << ", seed = " << d.seed());

  device_buffer<Out> out(1);
  out.poison();
  R r(op);
  r(d.data(), n, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  expect_matches_reference<P>(d, truth, out.read(), r.plan(n), op);
  CHECK(d.changed() == 0);
}

}  // namespace tally::test
