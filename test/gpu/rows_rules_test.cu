// Row reduction and matvec: the rules (docs/testing.md) on the GPU, other block policies and
// accumulators, user functors, the one-off calls, and matrices beyond 2^31 elements.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "../common/argument_error.hpp"
#include "support/graph.cuh"
#include "support/rows.cuh"
#include "support/user_elements.cuh"

using namespace tally;
using namespace tally::test;

namespace {

bool fits(index_t m, index_t ld) { return m * ld <= max_test_size(); }

// A user functor (the host cannot see an extended lambda's return type, so a struct).
struct larger {
  __host__ __device__ float operator()(float p, float q) const { return p < q ? q : p; }
};

}  // namespace

TEST_CASE("rows: other block policies, shared-memory layouts and block sizes") {
  for (const rows_shape s : {rows_shape{3, (1 << 20) + 5, (1 << 20) + 5, 0}, rows_shape{300, 1000, 1003, 0},
                             rows_shape{64, 64, 64, 0}}) {
    if (!fits(s.m, s.ld)) continue;
    const test_matrix<float> a(s.m, s.n, s.ld, next_seed());
    const auto truth = host_rows_truth(a, 0);
    using seq_padded = rows::blocks_per_row<64, block::sequential, smem::padded>;
    using unrolled_dynamic = rows::block_per_row<512, block::sequential_unrolled, smem::dynamic>;
    using strided_1024 = rows::blocks_per_row<1024, block::interleaved_strided, smem::static_array>;
    check_rows<seq_padded, op::sum>(a, truth);
    check_rows<seq_padded, op::arg_max>(a, truth);
    check_rows<unrolled_dynamic, op::sum>(a, truth);
    check_rows<unrolled_dynamic, op::arg_max>(a, truth);
    check_rows<strided_1024, op::min>(a, truth);
    check_rows<rows::group_per_row<8, 64>, op::sum>(a, truth);
    check_rows<rows::group_per_row<32, 1024>, op::arg_max>(a, truth);
  }
}

TEST_CASE("rows: wide accumulation, user functors and arg_min on double") {
  const test_matrix<float> a(500, 3000, 3000, next_seed());
  const std::uint64_t x_seed = next_seed();
  const dataset<float> x(3000, x_seed);
  const auto truth = host_rows_truth(a, x_seed);
  using wide = rows_policy<rows::by_shape, accum::wide>;
  check_rows<wide, op::sum>(a, truth);  // writes double
  check_rows<wide, op::sum>(a, truth, std::vector<int>{}, rows_job::dot, x.data());
  check_rows<rows_policy<rows::warp_per_row, accum::wide>, op::sum>(a, truth);

  // A user functor: max, compared exactly with the host's max.
  const auto max_fn = op::make_op(larger{}, -INFINITY);
  rows_reducer<default_rows_policy<float>, float, std::remove_const_t<decltype(max_fn)>> r(max_fn);
  device_buffer<float> out(500);
  r(a.data(), 500, 3000, 3000, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> got = out.values();
  for (index_t i = 0; i < 500; ++i) CHECK(static_cast<double>(got[i]) == truth[i].max);
}

TEST_CASE("rows: M = 0 writes nothing; N = 0 writes identities") {
  const test_matrix<float> a(4, 16, 16, next_seed());
  device_buffer<float> out(4);
  out.poison();
  const float before = out.read();
  rows_reducer<default_rows_policy<float>, float> r;
  r(a.data(), 0, 16, 16, out.get());
  reduce_rows(a.data(), 0, 16, 16, out.get());
  matvec(a.data(), 0, 16, 16, a.data(), out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const float after = out.read();
  CHECK(std::memcmp(&before, &after, sizeof(float)) == 0);

  reduce_rows(static_cast<const float*>(nullptr), 4, 0, 0, out.get(), op::max{});
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  for (float v : out.values()) CHECK(std::isinf(v));
  device_buffer<arg<float>> arg_out(4);
  reduce_rows(static_cast<const float*>(nullptr), 4, 0, 7, arg_out.get(), op::arg_min{});
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  for (const arg<float>& v : arg_out.values()) CHECK(v.index == -1);
}

TEST_CASE("rows: bad arguments throw before any work, and the output is untouched") {
  const test_matrix<float> a(4, 16, 16, next_seed());
  device_buffer<float> out(4);
  out.poison();
  const std::vector<float> before = out.values();
  rows_reducer<default_rows_policy<float>, float> r;
  CHECK(contains(argument_error_of([&] { r(a.data(), 4, 17, 16, out.get()); }), "ld = 16 is smaller than N = 17"));
  CHECK(contains(argument_error_of([&] { r.dot(a.data(), 4, 16, 16, nullptr, out.get()); }), "vector x pointer is null"));
  CHECK(contains(argument_error_of([&] { reduce_rows<rows::blocks_per_row<>>(a.data(), -4, 16, 16, out.get()); }),
                 "M = -4 is negative"));
  // Caller-provided workspace too small for a split plan.
  rows_reducer<rows::blocks_per_row<>, float> split;
  CHECK(split.workspace_bytes(4, 16, 16) > 0);
  CHECK(contains(argument_error_of([&] { split.run(a.data(), 4, 16, 16, out.get(), nullptr, 0, 0); }),
                 "workspace of 0 bytes is smaller"));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> after = out.values();
  CHECK(std::memcmp(before.data(), after.data(), before.size() * sizeof(float)) == 0);
}

TEST_CASE("rows: deterministic across calls, one-off calls, and graph capture") {
  const index_t m = 3, n = capped((index_t{1} << 22) + 3);
  const test_matrix<float> a(m, n, n, next_seed());
  const std::uint64_t x_seed = next_seed();
  const dataset<float> x(n, x_seed);
  const auto truth = host_rows_truth(a, x_seed);

  rows_reducer<default_rows_policy<float>, float> r;
  INFO("plan " << r.plan(a.data(), m, n, n).strategy());
  device_buffer<float> first(m), again(m);
  r(a.data(), m, n, n, first.get());
  const std::vector<float> reference = first.values();
  for (int call = 0; call < 50; ++call) {
    r(a.data(), m, n, n, again.get());
    const std::vector<float> got = again.values();
    CHECK(std::memcmp(got.data(), reference.data(), m * sizeof(float)) == 0);
  }

  // The one-off calls take their workspace from the stream-ordered pool and agree bit for bit.
  reduce_rows(a.data(), m, n, n, again.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(std::memcmp(again.values().data(), reference.data(), m * sizeof(float)) == 0);
  device_buffer<float> y(m), y_again(m);
  r.dot(a.data(), m, n, n, x.data(), y.get());
  matvec(a.data(), m, n, n, x.data(), y_again.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> got_y = y.values();
  CHECK(std::memcmp(got_y.data(), y_again.values().data(), m * sizeof(float)) == 0);
  for (index_t i = 0; i < m; ++i) CHECK(std::fabs(static_cast<long double>(got_y[i]) - truth[i].dot) <= 1e-3L * truth[i].abs_dot);

  // Graph capture once the workspace is reserved; replays give the same bits.
  cudaStream_t s;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  r.reserve(m, n, n);
  device_buffer<float> captured(m);
  {
    const captured_graph graph(s, [&] { r(a.data(), m, n, n, captured.get(), s); });
    graph.run(3, [&] { CHECK(std::memcmp(captured.values().data(), reference.data(), m * sizeof(float)) == 0); }, captured);
  }
  cudaStreamDestroy(s);
}

// 16-bit matvec reads two rows a warp on long rows (M >= a quarter of the resident warps) and two rows
// a block on split rows: against the host, with an odd M, a tail element and rows of every plan.
template <class T>
void check_16bit_matvec() {
  const rows_device d = rows_reducer<default_rows_policy<T>, T>().device_facts();
  const index_t warps = index_t{d.sm_count} * d.warps_per_sm;
  for (const rows_shape s : {rows_shape{warps / 4 + 1, 4096, 4096, 0}, rows_shape{warps + 1, 1000, 1000, 0},
                             rows_shape{3, (index_t{1} << 20) + 5, (index_t{1} << 20) + 8, 0}, rows_shape{64, 70001, 70008, 0},
                             rows_shape{100, 1000, 1000, 0}, rows_shape{37, 1001, 1003, 0}}) {
    if (!fits(s.m, s.ld)) continue;
    const test_matrix<T> a(s.m, s.n, s.ld, next_seed());
    const std::uint64_t x_seed = next_seed();
    const dataset<T> x(s.n, x_seed);
    const auto truth = host_rows_truth(a, x_seed);
    for_each_type(type_list<default_rows_policy<T>, rows::warp_per_row, rows::blocks_per_row<>>{}, [&](auto p) {
      check_rows<typename decltype(p)::type, op::sum>(a, truth, std::vector<int>{}, rows_job::dot, x.data());
    });
  }
}

TEST_CASE("rows: matvec in half and bf16 against the host, two rows at once included") {
  check_16bit_matvec<__half>();
  check_16bit_matvec<__nv_bfloat16>();
}

TEST_CASE("rows: matrices beyond 2^31 elements (64-bit row offsets)") {
  // Few long rows: 3 x (2^30 + 17) floats, 12.9 GB; split rows, a block per row, matvec.
  const index_t n = (index_t{1} << 30) + 17;
  if (fits(3, n)) {
    const test_matrix<float> a(3, n, n, next_seed());
    const std::uint64_t x_seed = next_seed();
    const dataset<float> x(n, x_seed);
    const auto truth = host_rows_truth(a, x_seed);
    check_rows<default_rows_policy<float>, op::sum>(a, truth);
    check_rows<default_rows_policy<float, op::max>, op::max>(a, truth);
    check_rows<default_rows_policy<float, op::arg_max>, op::arg_max>(a, truth);
    check_rows<rows::block_per_row<>, op::arg_max>(a, truth);
    check_rows<default_rows_policy<float>, op::sum>(a, truth, std::vector<int>{}, rows_job::dot, x.data());
  }
  // Many short rows: (2^21 + 1) x 1024 floats, the last rows start beyond 2^31 elements.
  const index_t m = (index_t{1} << 21) + 1;
  if (fits(m, 1024)) {
    const test_matrix<float> a(m, 1000, 1024, next_seed());
    const auto truth = host_rows_truth(a, 0);
    check_rows<default_rows_policy<float>, op::sum>(a, truth);
    check_rows<default_rows_policy<float, op::arg_max>, op::arg_max>(a, truth);
    check_rows<rows::sub_warp_per_row<8>, op::min>(a, truth);
  }
}

// A reducer's workspace holds the tickets of a split call, then its partials. A later call with
// more rows (and short ones, so that its partials are few) puts its tickets where an earlier call
// left partials, in a workspace that needs no regrowth: the owner must clear them (found while
// writing detail/workspace.hpp: the reducer used to zero its workspace only when it grew).
TEST_CASE("rows: one reducer across shapes whose tickets land on an earlier call's partials") {
  const index_t long_n = 4096, short_n = 8;
  if (!fits(2, long_n)) return;  // sizes capped (TALLY_TEST_MAX_N)
  rows_reducer<rows::blocks_per_row<>, double> r;
  const test_matrix<double> few(2, long_n, long_n, next_seed());
  const auto few_truth = host_rows_truth(few, 0);
  const auto need_of = [&](index_t m, index_t n) { return decltype(r)::need(r.plan(few.data(), m, n, n)); };
  int overlapping = 0;
  for (const index_t m : {index_t{30}, index_t{100}, index_t{200}}) {
    const test_matrix<double> many(m, short_n, short_n, next_seed());
    const auto many_truth = host_rows_truth(many, 0);
    CAPTURE(m);
    // This call's tickets reach past the first call's, and its bytes fit in what the first left.
    const bool overlaps = need_of(m, short_n).tickets > need_of(2, long_n).tickets &&
                          need_of(m, short_n).total <= need_of(2, long_n).total;
    overlapping += overlaps;
    device_buffer<double> out2(2), outm(static_cast<std::size_t>(m));
    outm.poison();
    r(few.data(), 2, long_n, long_n, out2.get());
    r(many.data(), m, short_n, short_n, outm.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    const std::vector<double> got2 = out2.values(), gotm = outm.values();
    for (index_t i = 0; i < 2; ++i) CHECK(std::fabs(got2[i] - static_cast<double>(few_truth[i].sum)) <= 1e-9 * few_truth[i].abs_sum);
    for (index_t i = 0; i < m; ++i)
      REQUIRE(std::fabs(gotm[i] - static_cast<double>(many_truth[i].sum)) <= 1e-9 * many_truth[i].abs_sum);
  }
  CHECK(overlapping > 0);  // the case the test is for happened on this device
}

TEST_CASE("rows of a user's struct aligned below its size (two floats off an 8-byte boundary)") {
  const auto o = two_floats_sum();
  for (const rows_shape s : {rows_shape{300, 1000, 1003, 0}, rows_shape{3, 100003, 100003, 0}, rows_shape{5000, 7, 9, 0}}) {
    const misaligned_two_floats d(s.m * s.ld, next_seed());
    device_buffer<float> out(static_cast<std::size_t>(s.m));
    reduce_rows<default_rows_policy<two_floats, decltype(o)>>(d.data(), s.m, s.n, s.ld, out.get(), o);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    const std::vector<float> got = out.values();
    index_t wrong = 0;
    for (index_t r = 0; r < s.m; ++r) {
      double want = 0;
      for (index_t c = 0; c < s.n; ++c) want += d.element(r * s.ld + c);
      wrong += static_cast<double>(got[static_cast<std::size_t>(r)]) != want;
    }
    CAPTURE(s.m);
    CAPTURE(s.n);
    CHECK(wrong == 0);
  }
}
