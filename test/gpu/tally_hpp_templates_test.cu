// Every function of <tally/tally.hpp> (libtally) against the template entry points instantiated
// here with the same default compositions, on the same input: bit-identical, one-off and through
// one device_reducer, whose workspace another algorithm used just before (so a row call's tickets
// land where a reduction's partials were). Row shapes take every plan of by_shape.
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include <tally/matvec.cuh>
#include <tally/reduce.cuh>
#include <tally/reduce_rows.cuh>
#include <tally/tally.hpp>
#include <tally/transpose.cuh>

#include "support/check.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

struct shape {
  index_t m, n, ld;
};

// A lane a row (8), a group (64), a warp (1000), a warp a row at M >= the resident warps, split
// rows (3 x 2^16 + 3), misaligned rows (ld = N + 3), N = 0.
const shape shapes[] = {{1000, 8, 8},       {3000, 64, 64}, {500, 1000, 1000},       {40000, 300, 300},
                        {3, 65539, 65539},  {37, 100, 103}, {5, 0, 0}};

template <class T>
using value_out = std::conditional_t<detail::is_16bit_float<T>, float, T>;

// One row operation three ways: the template, the library's free function, the device_reducer.
template <class Op, class Out, class T, class Free, class Member>
void check_rows_op(const char* name, const dataset<T>& a, const shape& s, device_reducer& r, const dataset<float>& other,
                   Free free_fn, Member member_fn) {
  INFO(name << ", M = " << s.m << ", N = " << s.n << ", ld = " << s.ld);
  const std::size_t m = static_cast<std::size_t>(s.m);
  device_buffer<Out> want(m), once(m), reused(m);
  once.poison();
  reused.poison();
  tally::reduce_rows<default_rows_policy<T, Op>>(a.data(), s.m, s.n, s.ld, want.get(), Op{});
  free_fn(a.data(), s.m, s.n, s.ld, once.get());
  device_buffer<float> total(1);
  r.sum(other.data(), other.size(), total.get());  // partials where the next call's tickets may go
  member_fn(r, a.data(), s.m, s.n, s.ld, reused.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(once.bytes() == want.bytes());
  CHECK(reused.bytes() == want.bytes());
}

#define TALLY_ROWS_OP(OP, NAME, OUT)                                                                           \
  check_rows_op<op::OP, OUT>(                                                                                   \
      "tally::" #NAME, a, s, r, other, [](auto... x) { tally::NAME(x...); },                                    \
      [](device_reducer& rr, auto... x) { rr.NAME(x...); })

template <class T>
void check_rows_on() {
  device_reducer r;
  const dataset<float> other(capped((index_t{1} << 22) + 3), next_seed());
  for (const shape& s : shapes) {
    if (s.m * s.ld > max_test_size()) continue;  // sizes capped (TALLY_TEST_MAX_N)
    const dataset<T> a(s.m * s.ld + 1, next_seed());
    TALLY_ROWS_OP(sum, row_sum, value_out<T>);
    TALLY_ROWS_OP(min, row_min, value_out<T>);
    TALLY_ROWS_OP(max, row_max, value_out<T>);
    if constexpr (!detail::is_16bit_float<T>) {
      TALLY_ROWS_OP(arg_min, row_arg_min, arg<T>);
      TALLY_ROWS_OP(arg_max, row_arg_max, arg<T>);
    }
  }
}

template <class T>
void check_matvec_on() {
  device_reducer r;
  const dataset<float> other(capped((index_t{1} << 22) + 3), next_seed());
  for (const shape& s : shapes) {
    if (s.m * s.ld > max_test_size()) continue;
    INFO("matvec, M = " << s.m << ", N = " << s.n << ", ld = " << s.ld);
    const dataset<T> a(s.m * s.ld + 1, next_seed()), x(s.n + 1, next_seed());
    using Y = value_out<T>;
    const std::size_t m = static_cast<std::size_t>(s.m);
    device_buffer<Y> want(m), once(m), reused(m), total(1);
    tally::matvec<default_rows_policy<T, op::sum>>(a.data(), s.m, s.n, s.ld, x.data(), want.get());
    tally::matvec(a.data(), s.m, s.n, s.ld, x.data(), once.get());
    device_buffer<float> sum(1);
    r.sum(other.data(), other.size(), sum.get());
    r.matvec(a.data(), s.m, s.n, s.ld, x.data(), reused.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(once.bytes() == want.bytes());
    CHECK(reused.bytes() == want.bytes());
  }
}

// One device-wide reduction three ways: the template, the free function, the device_reducer (after a
// row call in its workspace).
template <class Op, class Out, class T, class Free, class Member>
void check_reduction_op(const char* name, device_reducer& r, Free free_fn, Member member_fn) {
  const dataset<double> rows(3 * 65539, next_seed());
  device_buffer<double> row_sums(3);
  for (const index_t n : {index_t{0}, index_t{1}, index_t{4097}, capped((index_t{1} << 22) + 3)}) {
    INFO(name << ", n = " << n);
    const dataset<T> d(n, next_seed());
    device_buffer<Out> want(1), once(1), reused(1);
    once.poison();
    reused.poison();
    tally::reduce<default_reduce_policy<T, Op>>(d.data(), n, want.get(), Op{});
    free_fn(d.data(), n, once.get());
    r.row_sum(rows.data(), 3, 65539, 65539, row_sums.get());  // split rows: tickets, then partials
    member_fn(r, d.data(), n, reused.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(once.bytes() == want.bytes());
    CHECK(reused.bytes() == want.bytes());
  }
}

#define TALLY_REDUCTION_OP(OP, OUT) \
  check_reduction_op<op::OP, OUT, T>("tally::" #OP, r, [](auto... x) { tally::OP(x...); }, [](device_reducer& rr, auto... x) { rr.OP(x...); })

template <class T>
void check_reductions_on() {
  device_reducer r;
  TALLY_REDUCTION_OP(sum, value_out<T>);
  TALLY_REDUCTION_OP(min, value_out<T>);
  TALLY_REDUCTION_OP(max, value_out<T>);
  if constexpr (!detail::is_16bit_float<T>) {
    TALLY_REDUCTION_OP(arg_min, arg<T>);
    TALLY_REDUCTION_OP(arg_max, arg<T>);
  }
}

template <class T>
void check_transpose_on() {
  for (const shape& s : {shape{1, 1, 1}, shape{1000, 8, 8}, shape{513, 1027, 1027}, shape{2048, 4096, 4096}}) {
    if (s.m * s.n > max_test_size()) continue;
    INFO("transpose, " << s.m << " x " << s.n << ", " << sizeof(T) << "-byte elements");
    const dataset<T> in(s.m * s.n, next_seed());
    const std::size_t count = static_cast<std::size_t>(s.m * s.n);
    device_buffer<T> want(count), got(count);
    got.poison();
    tally::transpose<default_transpose_policy<T>>(in.data(), want.get(), s.m, s.n);
    tally::transpose(in.data(), got.get(), s.m, s.n);  // libtally's, moved as bits
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(got.bytes() == want.bytes());
  }
}

}  // namespace

TEST_CASE("tally.hpp: every device-wide reduction on every type equals the templates, bit for bit") {
  check_reductions_on<std::int32_t>();
  check_reductions_on<std::int64_t>();
  check_reductions_on<std::uint32_t>();
  check_reductions_on<std::uint64_t>();
  check_reductions_on<float>();
  check_reductions_on<double>();
  check_reductions_on<__half>();
  check_reductions_on<__nv_bfloat16>();
}

TEST_CASE("tally.hpp rows: every row function on int32, int64, float, double, __half, bf16 equals the templates, bit for bit") {
  check_rows_on<std::int32_t>();
  check_rows_on<std::int64_t>();
  check_rows_on<float>();
  check_rows_on<double>();
  check_rows_on<__half>();
  check_rows_on<__nv_bfloat16>();
}

TEST_CASE("tally.hpp matvec: float, double, __half, bf16 equal the templates, bit for bit") {
  check_matvec_on<float>();
  check_matvec_on<double>();
  check_matvec_on<__half>();
  check_matvec_on<__nv_bfloat16>();
}

TEST_CASE("tally.hpp transposes: 2-, 4- and 8-byte elements equal the templates, bit for bit") {
  check_transpose_on<__half>();
  check_transpose_on<std::int32_t>();
  check_transpose_on<double>();
}

TEST_CASE("tally.hpp: row calls through a device_reducer allocate nothing, so they capture into a CUDA graph") {
  cudaStream_t s;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  device_reducer r;
  const shape split{3, 65539, 65539};  // blocks per row: tickets and partials
  const dataset<double> a(split.m * split.ld, next_seed()), x(split.n, next_seed());
  device_buffer<double> sums(3), y(3), want_sums(3), want_y(3);
  device_buffer<arg<double>> where(3);
  {
    const captured_graph graph(s, [&] {
      r.row_sum(a.data(), split.m, split.n, split.ld, sums.get(), s);
      r.row_arg_max(a.data(), split.m, split.n, split.ld, where.get(), s);
      r.matvec(a.data(), split.m, split.n, split.ld, x.data(), y.get(), s);
    });
    tally::row_sum(a.data(), split.m, split.n, split.ld, want_sums.get(), s);
    tally::matvec(a.data(), split.m, split.n, split.ld, x.data(), want_y.get(), s);
    graph.run(
        3,
        [&] {
          CHECK(sums.bytes() == want_sums.bytes());
          CHECK(y.bytes() == want_y.bytes());
        },
        sums, y);
  }
  cudaStreamDestroy(s);
}
