// __device__ lambdas as operators (op::make_op), through every entry point that takes an operator:
// reduce and reducer, an arg-style state of the user's own (make_op with a lift), and reduce_rows /
// rows_reducer. nvcc cannot tell a __device__ lambda's return type in host code; make_op's
// operators declare theirs, so the checks that need it move to the device pass.
#include <cmath>
#include <vector>

#include "support/compositions.cuh"
#include "support/rows.cuh"

using namespace tally;
using namespace tally::test;

// (Extended lambdas cannot be made in a function with a deduced return type, so each test makes its own.)
TEST_CASE("a __device__ lambda reduces: bitwise xor over uint32 with three compositions, the one-off and the reducer") {
  const auto o = op::make_op([] __device__(std::uint32_t a, std::uint32_t b) { return a ^ b; }, std::uint32_t{0});
  using O = decltype(o);
  static_assert(tally::detail::is_device_lambda<decltype(o.f)>);
  static_assert(can_reduce<O, std::uint32_t, std::uint32_t>::value);
  for (const index_t n : test_sizes()) {
    const dataset<std::uint32_t> d(n, next_seed());
    const std::uint32_t want = host_reduce(
        n, std::uint32_t{0}, [&](std::uint32_t a, index_t i) { return a ^ d.at(i); },
        [](std::uint32_t a, std::uint32_t b) { return a ^ b; });
    device_buffer<std::uint32_t> out(4);
    out.poison();
    reducer<default_reduce_policy<std::uint32_t, O>, std::uint32_t, O> r(o);
    r(d.data(), n, out.get());
    tally::reduce<reduce_policies::unroll_last_warp>(d.data(), n, out.get() + 1, o);
    tally::reduce<reduce_policy<load::vector<2>, block::sequential, smem::padded, 1024>>(d.data(), n, out.get() + 2, o);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CAPTURE(n);
    for (int k = 0; k < 3; ++k) CHECK(out.read(k) == want);
  }
}

TEST_CASE("a __host__ __device__ lambda and a __device__ lambda give the same float max") {
  const auto hd = op::make_op([] __host__ __device__(float a, float b) { return a < b ? b : a; }, -INFINITY);
  const auto dev = op::make_op([] __device__(float a, float b) { return fmaxf(a, b); }, -INFINITY);
  CHECK(hd(1.0f, 2.0f) == 2.0f);  // a __host__ __device__ lambda also runs on the host
  for (const index_t n : {index_t{1}, index_t{1000}, capped((index_t{1} << 22) + 3)}) {
    const dataset<float> d(n, next_seed());
    device_buffer<float> out(2);
    tally::reduce<default_reduce_policy<float, decltype(hd)>>(d.data(), n, out.get(), hd);
    tally::reduce<default_reduce_policy<float, decltype(dev)>>(d.data(), n, out.get() + 1, dev);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CAPTURE(n);
    CHECK(out.read(0) == static_cast<float>(host_truth<op::max>(d).value));
    CHECK(out.read(1) == out.read(0));
  }
}

// arg_max as a user would write it: the larger value wins, the lower index on ties (no NaN in the
// test data).
TEST_CASE("an arg-style state of the user's own, lifted and combined by __device__ lambdas, equals op::arg_max") {
  const auto o = op::make_op(
      [] __device__(arg<float> a, arg<float> b) {
        return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
      },
      arg<float>{-INFINITY, INT64_MAX}, [] __device__(float x, index_t i) { return arg<float>{x, i}; });
  using O = decltype(o);
  for (const index_t n : test_sizes()) {
    if (n == 0) continue;  // the user's identity is its own answer for no element
    const dataset<float> d(n, next_seed());
    device_buffer<arg<float>> out(2);
    out.poison();
    tally::reduce<default_reduce_policy<float, O>>(d.data(), n, out.get(), o);
    tally::reduce<default_reduce_policy<float, op::arg_max>>(d.data(), n, out.get() + 1, op::arg_max{});
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CAPTURE(n);
    const arg<float> got = out.read(0), want = out.read(1);
    CHECK(got.value == want.value);
    CHECK(got.index == want.index);
    CHECK(got.index == host_truth<op::arg_max>(d).index);
  }
}

TEST_CASE("__device__ lambdas reduce rows: a max and the user's arg_max over every shape and strategy") {
  const auto max_op = op::make_op([] __device__(double a, double b) { return a < b ? b : a; }, -INFINITY);
  const auto arg_op = op::make_op(
      [] __device__(arg<double> a, arg<double> b) {
        return (b.value > a.value || (b.value == a.value && b.index < a.index)) ? b : a;
      },
      arg<double>{-INFINITY, INT64_MAX}, [] __device__(double x, index_t j) { return arg<double>{x, j}; });
  for (const rows_shape& s : {rows_shape{1000, 8, 8, 0}, rows_shape{37, 100, 103, 0}, rows_shape{300, 1000, 1000, 1},
                              rows_shape{3, 70001, 70001, 0}, rows_shape{5000, 64, 64, 0}}) {
    const test_matrix<double> a(s.m, s.n, s.ld, next_seed(), s.offset);
    const std::vector<row_truth> truth = host_rows_truth(a, next_seed());
    const auto check = [&](auto policy_tag) {
      using P = typename decltype(policy_tag)::type;
      device_buffer<double> maxima(static_cast<std::size_t>(s.m));
      device_buffer<arg<double>> args(static_cast<std::size_t>(s.m));
      rows_reducer<P, double, decltype(arg_op)> r(arg_op);
      tally::reduce_rows<P>(a.data(), s.m, s.n, s.ld, maxima.get(), max_op);
      r(a.data(), s.m, s.n, s.ld, args.get());
      TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
      INFO(as_rows_policy_t<P>::name() << ", " << a.describe());
      for (index_t i = 0; i < s.m; ++i) {
        CAPTURE(i);
        REQUIRE(maxima.read(i) == truth[static_cast<std::size_t>(i)].max);
        REQUIRE(args.read(i).index == truth[static_cast<std::size_t>(i)].arg_max);
      }
    };
    check(type_tag<default_rows_policy<double>>{});
    check(type_tag<rows::warp_per_row>{});
    check(type_tag<rows::blocks_per_row<>>{});
  }
}
