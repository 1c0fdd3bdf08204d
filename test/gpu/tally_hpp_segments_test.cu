// The segmented reductions and CSR SpMV of <tally/tally.hpp> (libtally) against the templates they
// wrap (tally::reduce_segments of <tally/reduce_segments.cuh> and tally::csr_matvec of
// <tally/csr_matvec.cuh>, instantiated here with the same default policies), bit for bit, and
// against the host (support/segments.cuh: exact min / max / arg with the index within the segment,
// integer sums exact modulo 2^bits, floating sums within a rounding bound of a long double sum):
// segment_sum ... segment_arg_max on int32, int64, float, double (sum, min, max on __half and
// __nv_bfloat16, float results), unchecked and checked, 32- and 64-bit offsets; csr_matvec on float
// and double, 32- and 64-bit row offsets. Layouts: random ragged lengths with many empty segments,
// from element 0 and from a base past it, long segments across blocks, all empty, one segment over
// 2^20, num_segments = 0. The checked form's errors name the first bad segment with the output
// untouched; the input is never written; nothing past the last segment is written. Every function
// again through one device_reducer (its members, unchecked and checked), bit for bit the same; a
// segment_sum and a csr_matvec of a device_reducer captured into a CUDA graph; the checked member's
// errors. Plans (offsets_plan): planned segment_sum on every type and csr_matvec, the unplanned
// calls' bits; plans refused by other calls, empty plans; planned calls captured into a graph.
// (tally_h_test.cu checks the C functions against these; the host tests
// tally_hpp_errors_test.cpp and tally_h_errors_test.cpp check the argument errors.)
#include <cmath>
#include <cstdint>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tally/csr_matvec.cuh>
#include <tally/reduce_segments.cuh>
#include <tally/tally.hpp>

#include "../common/argument_error.hpp"
#include "support/graph.cuh"
#include "support/segments.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// Random lengths 0..40, a third of them 0.
index_t ragged(std::mt19937_64& g) { return g() % 3 == 0 ? index_t{0} : static_cast<index_t>(g() % 41); }

// Ragged layouts with empty segments (from element 0 and from element 13), lengths that cross tiles
// and blocks, all empty, one long segment, one empty segment, and no segment at all.
std::vector<segment_layout> layouts() {
  std::vector<segment_layout> out;
  const auto add = [&](std::vector<index_t> lengths, index_t base = 0) {
    out.push_back({offsets_of(lengths, base), next_seed()});
  };
  add(draw_lengths(3000, next_seed(), ragged));
  add(draw_lengths(777, next_seed(), ragged), 13);
  const index_t pick[] = {0, 0, 1, 31, 33, 1025, 5000, 70001};
  add(draw_lengths(300, next_seed(), [&](std::mt19937_64& g) { return pick[g() % 8]; }));
  add(std::vector<index_t>(2000, 0));
  add({(index_t{1} << 20) + 7});
  add({0});
  add({}, 5);  // num_segments = 0: nothing to do
  return out;
}

template <class Op>
inline constexpr bool arg_op = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
template <class Op>
inline constexpr bool min_op = std::is_same_v<Op, op::min> || std::is_same_v<Op, op::arg_min>;

// The result type of tally.hpp's segment function for Op on T.
template <class T, class Op>
using lib_out = std::conditional_t<arg_op<Op>, arg<T>, std::conditional_t<detail::is_16bit_float<T>, float, T>>;

// got (segment of length len) against the host truth t.
template <class T, class Op, class Out>
bool matches_host(const Out& got, const row_truth& t, index_t len) {
  if constexpr (std::is_same_v<Op, op::sum>) {
    if constexpr (std::is_integral_v<T>) {
      return got == static_cast<T>(static_cast<std::int64_t>(t.sum));  // integer sums wrap, as T's own
    } else {
      using P = default_segments_policy<T, op::sum>;
      using Acc = typename segments_reducer<P, T, op::sum>::accum_type;
      const long double bound = segment_additions(len, P::threads, P::items) * unit_roundoff<Acc>() * t.abs_sum;
      return std::fabs(static_cast<long double>(host_value(got)) - t.sum) <= bound;
    }
  } else if constexpr (arg_op<Op>) {
    if (len == 0) return got.index == -1 && host_value(got.value) == host_value(Op{}.template identity<T>().value);
    return host_value(got.value) == (min_op<Op> ? t.min : t.max) && got.index == (min_op<Op> ? t.arg_min : t.arg_max);
  } else {
    if (len == 0) return host_value(got) == host_value(Op{}.template identity<Out>());
    return host_value(got) == (min_op<Op> ? t.min : t.max);
  }
}

// One segment function (lib(nullptr, ...): tally::segment_<op>; lib(&r, ...): r.segment_<op>) on T
// with Offset offsets: unchecked and checked, free and through the device_reducer r, against the
// template, bit for bit, and against the host; nothing written past the last segment, the input
// untouched.
template <class T, class Offset, class Op, class Lib>
void check_op(const char* name, const segment_layout& l, const dataset<T>& data, const std::vector<row_truth>& truth,
              device_reducer& r, Lib lib) {
  using Out = lib_out<T, Op>;
  const index_t S = l.segments(), n = l.end();
  INFO(name << ", offsets of " << sizeof(Offset) << " bytes, " << l.describe());
  const auto offsets = upload<Offset>(l.offsets);
  const auto count = static_cast<std::size_t>(S + 1);
  device_buffer<Out> unchecked(count), checked(count), reused(count), reused_checked(count), tmpl(count);
  unchecked.poison();
  checked.poison();
  reused.poison();
  reused_checked.poison();
  tmpl.poison();
  lib(nullptr, data.data(), offsets.get(), S, unchecked.get());  // libtally
  lib(nullptr, data.data(), n, offsets.get(), S, checked.get());  // libtally, checked against n
  lib(&r, data.data(), offsets.get(), S, reused.get());  // libtally's device_reducer
  lib(&r, data.data(), n, offsets.get(), S, reused_checked.get());
  tally::reduce_segments<default_segments_policy<T, Op>>(data.data(), offsets.get(), S, tmpl.get(), Op{});
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const auto want = tmpl.bytes();
  CHECK(unchecked.bytes() == want);
  CHECK(checked.bytes() == want);
  CHECK(reused.bytes() == want);
  CHECK(reused_checked.bytes() == want);

  const std::vector<Out> got = unchecked.values();
  index_t bad = 0;
  for (index_t s = 0; s < S && bad < 5; ++s) {
    const index_t len = l.offsets[s + 1] - l.offsets[s];
    if (!matches_host<T, Op>(got[s], truth[s], len)) {
      ++bad;
      FAIL_CHECK("segment " << s << " of length " << len << ": tally " << show(got[s]) << "; host sum "
                            << static_cast<double>(truth[s].sum) << ", min " << truth[s].min << " at " << truth[s].arg_min
                            << ", max " << truth[s].max << " at " << truth[s].arg_max);
    }
  }
  CHECK(bad == 0);
  CHECK(device_buffer<Out>::all_bytes(got[static_cast<std::size_t>(S)]));  // nothing past the last segment
  CHECK(data.changed() == 0);
}

#define TALLY_SEGMENT_OP(OP, NAME)                                                        \
  check_op<T, Offset, op::OP>("tally::" #NAME, l, data, truth, r, [](device_reducer* via, auto... a) { \
    via != nullptr ? via->NAME(a...) : tally::NAME(a...);                                 \
  })

template <class T, class Offset>
void check_every_op(const segment_layout& l, const dataset<T>& data, const std::vector<row_truth>& truth,
                    device_reducer& r) {
  TALLY_SEGMENT_OP(sum, segment_sum);
  TALLY_SEGMENT_OP(min, segment_min);
  TALLY_SEGMENT_OP(max, segment_max);
  if constexpr (!detail::is_16bit_float<T>) {
    TALLY_SEGMENT_OP(arg_min, segment_arg_min);
    TALLY_SEGMENT_OP(arg_max, segment_arg_max);
  }
  // No segments: nothing to do, null pointers and all.
  using Out = lib_out<T, op::sum>;
  CHECK_NOTHROW(tally::segment_sum(static_cast<const T*>(nullptr), static_cast<const Offset*>(nullptr), 0,
                                   static_cast<Out*>(nullptr)));
  CHECK_NOTHROW(tally::segment_sum(static_cast<const T*>(nullptr), 0, static_cast<const Offset*>(nullptr), 0,
                                   static_cast<Out*>(nullptr)));
  CHECK_NOTHROW(r.segment_sum(static_cast<const T*>(nullptr), static_cast<const Offset*>(nullptr), 0, static_cast<Out*>(nullptr)));
  CHECK_NOTHROW(r.segment_sum(static_cast<const T*>(nullptr), 0, static_cast<const Offset*>(nullptr), 0,
                              static_cast<Out*>(nullptr)));
}

// Every layout, offset type and operation on T, through the free functions and the device_reducer r.
template <class T>
void check_segments_on(const char* type, device_reducer& r) {
  INFO("element type " << type);
  for (const auto& l : layouts()) {
    const dataset<T> data(l.end(), l.seed);
    const auto truth = host_segments_truth<T>(l);
    check_every_op<T, std::int32_t>(l, data, truth, r);
    check_every_op<T, std::int64_t>(l, data, truth, r);
  }
}

// csr_matvec on T with Offset row offsets: libtally's (taken by its exact type, so that no template
// stands in for it), free and through the device_reducer r, against the template, bit for bit, and
// against the host.
template <class T, class Offset>
void check_csr_with(const segment_layout& l, const dataset<T>& values, const device_buffer<std::int32_t>& cols,
                    const dataset<T>& x, const std::vector<row_truth>& truth, device_reducer& r) {
  const index_t S = l.segments();
  INFO("csr_matvec, row offsets of " << sizeof(Offset) << " bytes, " << l.describe());
  void (*const lib)(const T*, const std::int32_t*, const Offset*, index_t, const T*, T*, cudaStream_t) = tally::csr_matvec;
  void (device_reducer::*const member)(const T*, const std::int32_t*, const Offset*, index_t, const T*, T*, cudaStream_t) =
      &device_reducer::csr_matvec;
  const auto offsets = upload<Offset>(l.offsets);
  const auto count = static_cast<std::size_t>(S + 1);
  device_buffer<T> got_lib(count), reused(count), tmpl(count);
  got_lib.poison();
  reused.poison();
  tmpl.poison();
  lib(values.data(), cols.get(), offsets.get(), S, x.data(), got_lib.get(), 0);
  (r.*member)(values.data(), cols.get(), offsets.get(), S, x.data(), reused.get(), 0);
  tally::csr_matvec<default_csr_policy<T>>(values.data(), cols.get(), offsets.get(), S, x.data(), tmpl.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(got_lib.bytes() == tmpl.bytes());
  CHECK(reused.bytes() == tmpl.bytes());

  const std::vector<T> got = got_lib.values();
  using P = default_segments_policy<T>;
  index_t bad = 0;
  for (index_t s = 0; s < S && bad < 5; ++s) {
    const index_t len = l.offsets[s + 1] - l.offsets[s];
    const long double bound = segment_additions(len, P::threads, P::items) * unit_roundoff<T>() * truth[s].abs_dot;
    if (std::fabs(static_cast<long double>(got[s]) - truth[s].dot) > bound) {
      ++bad;
      FAIL_CHECK("row " << s << " of " << len << " non-zeros: tally " << show(got[s]) << ", host "
                        << static_cast<double>(truth[s].dot) << ", bound " << static_cast<double>(bound));
    }
  }
  CHECK(bad == 0);
  CHECK(device_buffer<T>::all_bytes(got[static_cast<std::size_t>(S)]));
  CHECK(values.changed() == 0);
  CHECK(x.changed() == 0);
  CHECK_NOTHROW(lib(nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0));  // no rows: nothing to do
  CHECK_NOTHROW((r.*member)(nullptr, nullptr, nullptr, 0, nullptr, nullptr, 0));
}

template <class T>
void check_csr_on(const segment_layout& l, index_t ncols, const device_buffer<std::int32_t>& cols, std::uint64_t col_seed,
                  std::uint64_t x_seed, device_reducer& r) {
  const dataset<T> values(l.end(), l.seed), x(ncols, x_seed);
  std::vector<double> hx(static_cast<std::size_t>(ncols));
  for (index_t c = 0; c < ncols; ++c) hx[c] = host_value(x.at(c));
  const auto truth = host_segments_truth<T>(l, &hx, col_seed);
  check_csr_with<T, std::int32_t>(l, values, cols, x, truth, r);
  check_csr_with<T, std::int64_t>(l, values, cols, x, truth, r);
}

// Layouts for plans: layouts(), and short segments (shares read a segment a thread, whose paths the
// plan records).
std::vector<segment_layout> plan_layouts() {
  std::vector<segment_layout> out = layouts();
  out.push_back({offsets_of(draw_lengths(100003, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(g() % 5); })),
                 next_seed()});
  return out;
}

// segment_sum on T over a plan of Offset offsets (plan_segment_sum<T>), free and through r: the
// unplanned call's bits, call after call; nothing past the last segment; the input untouched.
template <class T, class Offset>
void check_planned_sum(const segment_layout& l, device_reducer& r) {
  using Out = lib_out<T, op::sum>;
  const index_t S = l.segments();
  INFO("planned segment_sum, offsets of " << sizeof(Offset) << " bytes, " << l.describe());
  const dataset<T> data(l.end(), l.seed);
  const auto offsets = upload<Offset>(l.offsets);
  const Offset* o = offsets.get();
  const auto count = static_cast<std::size_t>(S + 1);
  device_buffer<Out> unplanned(count), planned(count), reused(count);
  unplanned.poison();
  planned.poison();
  reused.poison();
  const offsets_plan plan = plan_segment_sum<T>(o, S);
  CHECK(!plan.empty());
  CHECK(plan.num_segments() == S);
  tally::segment_sum(data.data(), o, S, unplanned.get());
  for (int call = 0; call < 2; ++call) {
    tally::segment_sum(data.data(), plan, planned.get());
    r.segment_sum(data.data(), plan, reused.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(planned.bytes() == unplanned.bytes());
    CHECK(reused.bytes() == unplanned.bytes());
  }
  CHECK(data.changed() == 0);
}

template <class T>
void check_planned_sums_on(const char* type, device_reducer& r) {
  INFO("element type " << type);
  for (const auto& l : plan_layouts()) {
    check_planned_sum<T, std::int32_t>(l, r);
    check_planned_sum<T, std::int64_t>(l, r);
  }
}

// csr_matvec on T over a plan of Offset row offsets (plan_csr_matvec<T>), free and through r: the
// unplanned call's bits.
template <class T, class Offset>
void check_planned_csr(const segment_layout& l, device_reducer& r) {
  const index_t S = l.segments(), ncols = 1 + static_cast<index_t>(l.seed % 5000);
  INFO("planned csr_matvec, row offsets of " << sizeof(Offset) << " bytes, " << l.describe());
  const std::uint64_t col_seed = next_seed();
  std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
  for (index_t j = 0; j < l.end(); ++j) cols[j] = csr_col(col_seed, j, ncols);
  const auto d_cols = upload<std::int32_t>(cols);
  const std::int32_t* c = d_cols.get();
  const dataset<T> values(l.end(), l.seed), x(ncols, next_seed());
  const auto offsets = upload<Offset>(l.offsets);
  const Offset* o = offsets.get();
  const auto count = static_cast<std::size_t>(S + 1);
  device_buffer<T> unplanned(count), planned(count), reused(count);
  unplanned.poison();
  planned.poison();
  reused.poison();
  const offsets_plan plan = plan_csr_matvec<T>(o, S);
  CHECK(plan.num_segments() == S);
  tally::csr_matvec(values.data(), c, o, S, x.data(), unplanned.get());
  tally::csr_matvec(values.data(), c, plan, x.data(), planned.get());
  r.csr_matvec(values.data(), c, plan, x.data(), reused.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(planned.bytes() == unplanned.bytes());
  CHECK(reused.bytes() == unplanned.bytes());
  CHECK(values.changed() == 0);
}

}  // namespace

TEST_CASE("tally.hpp planned segment_sum (every element type) and csr_matvec (float, double), 32- and 64-bit offsets, free and through a device_reducer: the unplanned calls' bits") {
  device_reducer r;
  check_planned_sums_on<std::int32_t>("int32", r);
  check_planned_sums_on<std::int64_t>("int64", r);
  check_planned_sums_on<float>("float", r);
  check_planned_sums_on<double>("double", r);
  check_planned_sums_on<__half>("__half", r);
  check_planned_sums_on<__nv_bfloat16>("__nv_bfloat16", r);
  for (const auto& l : plan_layouts()) {
    check_planned_csr<float, std::int32_t>(l, r);
    check_planned_csr<float, std::int64_t>(l, r);
    check_planned_csr<double, std::int32_t>(l, r);
    check_planned_csr<double, std::int64_t>(l, r);
  }
}

TEST_CASE("tally.hpp plans serve the calls they were made for: other calls, empty plans and bad arguments are named, the output untouched") {
  const dataset<float> data(100, next_seed());
  const dataset<double> wide(100, next_seed());
  const auto offsets = upload<std::int32_t>({0, 10, 20, 30, 100});
  const std::int32_t* o = offsets.get();
  const auto cols = upload<std::int32_t>(std::vector<index_t>(100, 3));
  const std::int32_t* c = cols.get();
  device_buffer<float> out(4);
  device_buffer<double> wide_out(4);
  out.poison();
  wide_out.poison();
  const auto before = out.bytes();
  const auto wide_before = wide_out.bytes();
  device_reducer r;
  const offsets_plan sums = plan_segment_sum<float>(o, 4);
  const offsets_plan products = plan_csr_matvec<float>(o, 4);
  CHECK(contains(argument_error_of([&] { tally::segment_sum(wide.data(), sums, wide_out.get()); }),
                 "tally::segment_sum: a plan made by tally::plan_segment_sum<float> cannot serve this call, which takes one "
                 "made by tally::plan_segment_sum<double>"));
  CHECK(contains(argument_error_of([&] { r.csr_matvec(data.data(), c, sums, data.data(), out.get()); }),
                 "tally::device_reducer::csr_matvec: a plan made by tally::plan_segment_sum<float> cannot serve this call, "
                 "which takes one made by tally::plan_csr_matvec<float>"));
  CHECK(contains(argument_error_of([&] { tally::segment_sum(data.data(), products, out.get()); }),
                 "tally::segment_sum: a plan made by tally::plan_csr_matvec<float> cannot serve this call"));
  offsets_plan moved = plan_segment_sum<float>(o, 4);
  const offsets_plan taker(std::move(moved));
  CHECK(moved.empty());
  CHECK(moved.num_segments() == 0);
  CHECK(taker.num_segments() == 4);
  CHECK(contains(argument_error_of([&] { r.segment_sum(data.data(), moved, out.get()); }),
                 "tally::device_reducer::segment_sum: the plan is empty (default-constructed or moved from)"));
  CHECK(contains(argument_error_of([&] { tally::csr_matvec(wide.data(), c, offsets_plan(), wide.data(), wide_out.get()); }),
                 "tally::csr_matvec: the plan is empty (default-constructed or moved from)"));
  CHECK(contains(argument_error_of([&] { tally::segment_sum(static_cast<const float*>(nullptr), taker, out.get()); }),
                 "tally::segment_sum: input pointer is null but num_segments = 4"));
  CHECK(contains(argument_error_of([&] { (void)plan_segment_sum<double>(static_cast<const std::int64_t*>(nullptr), 3); }),
                 "tally::plan_segment_sum<double>: offsets pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { (void)plan_csr_matvec<float>(o, -1); }),
                 "tally::plan_csr_matvec<float>: num_segments = -1 is negative"));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(out.bytes() == before);
  CHECK(wide_out.bytes() == wide_before);
  // The plan that served: it writes.
  tally::segment_sum(data.data(), taker, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(out.bytes() != before);
  // A plan of no segments: its calls queue nothing, null pointers and all.
  const offsets_plan none = plan_csr_matvec<double>(static_cast<const std::int64_t*>(nullptr), 0);
  CHECK(none.num_segments() == 0);
  CHECK_NOTHROW(tally::csr_matvec(static_cast<const double*>(nullptr), nullptr, none, nullptr, nullptr));
  CHECK_NOTHROW(r.csr_matvec(static_cast<const double*>(nullptr), nullptr, none, nullptr, nullptr));
}

TEST_CASE("tally.hpp segmented reductions on int32 and int64: unchecked and checked, free and through a device_reducer, equal the template bit for bit and the host") {
  device_reducer r;
  check_segments_on<std::int32_t>("int32", r);
  check_segments_on<std::int64_t>("int64", r);
}

TEST_CASE("tally.hpp segmented reductions on float and double: unchecked and checked, free and through a device_reducer, equal the template bit for bit and the host") {
  device_reducer r;
  check_segments_on<float>("float", r);
  check_segments_on<double>("double", r);
}

TEST_CASE("tally.hpp segmented reductions on __half and __nv_bfloat16 (float results), free and through a device_reducer: equal the template bit for bit and the host") {
  device_reducer r;
  check_segments_on<__half>("__half", r);
  check_segments_on<__nv_bfloat16>("__nv_bfloat16", r);
}

TEST_CASE("tally.hpp csr_matvec: float and double, 32- and 64-bit row offsets, free and through a device_reducer, equal the template bit for bit and the host") {
  device_reducer r;
  for (const auto& l : layouts()) {
    const index_t ncols = 1 + static_cast<index_t>(l.seed % 5000);
    const std::uint64_t col_seed = next_seed(), x_seed = next_seed();
    std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
    for (index_t j = 0; j < l.end(); ++j) cols[j] = csr_col(col_seed, j, ncols);
    const auto d_cols = upload<std::int32_t>(cols);
    check_csr_on<float>(l, ncols, d_cols, col_seed, x_seed, r);
    check_csr_on<double>(l, ncols, d_cols, col_seed, x_seed, r);
  }
}

TEST_CASE("tally.hpp segmented reductions: the checked form, free and through a device_reducer, names the first bad segment and leaves the output untouched") {
  const dataset<float> data(100, next_seed());
  const dataset<std::int64_t> ints(100, next_seed());
  const dataset<__half> halves(100, next_seed());
  const auto o32 = upload<std::int32_t>({0, 10, 5, 20, 30});
  const auto o64 = upload<std::int64_t>({0, 10, 20, 120, 30});
  const auto negative = upload<std::int32_t>({-3, 10, 20, 30, 40});
  const auto good = upload<std::int64_t>({0, 10, 20, 30, 100});
  device_reducer reducer;
  for (device_reducer* r : {static_cast<device_reducer*>(nullptr), &reducer}) {
    const std::string p = r != nullptr ? "tally::device_reducer::" : "tally::";
    INFO(p);
    const auto sum = [r](auto... a) { r != nullptr ? r->segment_sum(a...) : tally::segment_sum(a...); };
    const auto min = [r](auto... a) { r != nullptr ? r->segment_min(a...) : tally::segment_min(a...); };
    const auto arg_max = [r](auto... a) { r != nullptr ? r->segment_arg_max(a...) : tally::segment_arg_max(a...); };
    device_buffer<float> out(4);
    device_buffer<arg<std::int64_t>> where(4);
    out.poison();
    where.poison();
    const auto out_before = out.bytes();
    const auto where_before = where.bytes();

    CHECK(contains(argument_error_of([&] { sum(data.data(), 100, o32.get(), 4, out.get()); }),
                   p + "segment_sum: tally::reduce_segments: segment 1 (offsets[1] = 10, offsets[2] = 5) ends before it begins"));
    CHECK(contains(argument_error_of([&] { arg_max(ints.data(), 100, o64.get(), 4, where.get()); }),
                   p + "segment_arg_max: tally::reduce_segments: segment 2 (offsets[2] = 20, offsets[3] = 120) ends beyond n = 100"));
    CHECK(contains(argument_error_of([&] { min(halves.data(), 100, negative.get(), 4, out.get()); }),
                   p + "segment_min: tally::reduce_segments: segment 0 (offsets[0] = -3, offsets[1] = 10) begins before element 0"));
    CHECK(out.bytes() == out_before);
    CHECK(where.bytes() == where_before);

    CHECK(argument_error_of([&] { arg_max(ints.data(), 100, good.get(), 4, where.get()); }).empty());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(where.bytes() != where_before);  // the good call wrote
  }
}

TEST_CASE("tally.hpp segmented reductions and csr_matvec: on a stream, the same bits as on the default stream") {
  cudaStream_t s;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const segment_layout l{offsets_of(draw_lengths(20000, next_seed(), ragged)), next_seed()};
  const index_t S = l.segments();
  const dataset<double> data(l.end(), l.seed);
  const auto offsets = upload<std::int64_t>(l.offsets);
  const auto count = static_cast<std::size_t>(S);
  device_buffer<double> on_default(count), on_stream(count), checked_on_stream(count), csr_default(count), csr_stream(count);
  on_stream.poison();
  checked_on_stream.poison();
  csr_stream.poison();
  std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
  for (index_t j = 0; j < l.end(); ++j) cols[j] = j % 1000;
  const auto d_cols = upload<std::int32_t>(cols);
  const dataset<double> x(1000, next_seed());
  tally::segment_sum(data.data(), offsets.get(), S, on_default.get());
  tally::csr_matvec(data.data(), static_cast<const std::int32_t*>(d_cols.get()), static_cast<const std::int64_t*>(offsets.get()),
                    S, x.data(), csr_default.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  tally::segment_sum(data.data(), offsets.get(), S, on_stream.get(), s);
  tally::segment_sum(data.data(), l.end(), offsets.get(), S, checked_on_stream.get(), s);
  tally::csr_matvec(data.data(), static_cast<const std::int32_t*>(d_cols.get()), static_cast<const std::int64_t*>(offsets.get()),
                    S, x.data(), csr_stream.get(), s);
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(s));
  CHECK(on_stream.bytes() == on_default.bytes());
  CHECK(checked_on_stream.bytes() == on_default.bytes());
  CHECK(csr_stream.bytes() == csr_default.bytes());
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(s));
}

TEST_CASE("tally.hpp: segment_sum and csr_matvec through a device_reducer, unplanned and planned, allocate nothing, so they capture into a CUDA graph") {
  cudaStream_t s;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  device_reducer r;
  // Enough segments for every resident block, and rows of thousands: the kernels' partials and tickets.
  std::vector<index_t> lengths = draw_lengths(20000, next_seed(), ragged);
  lengths.push_back(70001);
  const segment_layout l{offsets_of(lengths), next_seed()};
  const index_t S = l.segments();
  const dataset<float> data(l.end(), l.seed), x(1000, next_seed());
  const auto offsets = upload<std::int32_t>(l.offsets);
  std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
  for (index_t j = 0; j < l.end(); ++j) cols[j] = (j * 7) % 1000;
  const auto d_cols = upload<std::int32_t>(cols);
  const auto* c = static_cast<const std::int32_t*>(d_cols.get());
  const auto* o = static_cast<const std::int32_t*>(offsets.get());
  const auto count = static_cast<std::size_t>(S);
  device_buffer<float> sums(count), y(count), planned_sums(count), planned_y(count), want_sums(count), want_y(count);

  {
    const offsets_plan sum_plan = plan_segment_sum<float>(o, S, s);  // before the capture: plans allocate
    const offsets_plan csr_plan = plan_csr_matvec<float>(o, S, s);
    const captured_graph graph(s, [&] {
      r.segment_sum(data.data(), o, S, sums.get(), s);
      r.csr_matvec(data.data(), c, o, S, x.data(), y.get(), s);
      r.segment_sum(data.data(), sum_plan, planned_sums.get(), s);
      r.csr_matvec(data.data(), c, csr_plan, x.data(), planned_y.get(), s);
    });
    tally::segment_sum(data.data(), o, S, want_sums.get(), s);
    tally::csr_matvec(data.data(), c, o, S, x.data(), want_y.get(), s);
    TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(s));
    graph.run(
        3,
        [&] {
          CHECK(sums.bytes() == want_sums.bytes());
          CHECK(y.bytes() == want_y.bytes());
          CHECK(planned_sums.bytes() == want_sums.bytes());
          CHECK(planned_y.bytes() == want_y.bytes());
        },
        sums, y, planned_sums, planned_y);
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(s));
}

TEST_CASE("tally.hpp: segmented reductions and csr_matvec of a moved-from device_reducer, or of one used while another device is current, throw") {
  const dataset<double> data(100, next_seed());
  const auto offsets = upload<std::int64_t>({0, 10, 100});
  const auto cols = upload<std::int32_t>(std::vector<index_t>(100, 3));
  const auto* c = static_cast<const std::int32_t*>(cols.get());
  const auto* o = static_cast<const std::int64_t*>(offsets.get());
  device_buffer<double> out(2);
  out.poison();
  const auto before = out.bytes();
  device_reducer a;
  device_reducer b(std::move(a));
  CHECK(contains(argument_error_of([&] { a.segment_max(data.data(), o, 2, out.get()); }),
                 "tally::device_reducer::segment_max: this device_reducer has been moved from"));
  CHECK(contains(argument_error_of([&] { a.segment_max(data.data(), 100, o, 2, out.get()); }),
                 "tally::device_reducer::segment_max: this device_reducer has been moved from"));
  CHECK(contains(argument_error_of([&] { a.csr_matvec(data.data(), c, o, 2, data.data(), out.get()); }),
                 "tally::device_reducer::csr_matvec: this device_reducer has been moved from"));
  CHECK(out.bytes() == before);

  int devices = 0;
  TALLY_TEST_CHECK_CUDA(cudaGetDeviceCount(&devices));
  int device = 0;
  TALLY_TEST_CHECK_CUDA(cudaGetDevice(&device));
  if (devices < 2 || device != 0) {
    MESSAGE("one device (or not on device 0): nothing to switch to");
    return;
  }
  TALLY_TEST_CHECK_CUDA(cudaSetDevice(1));
  const std::string sum = argument_error_of([&] { b.segment_sum(data.data(), o, 2, out.get()); });
  const std::string csr = argument_error_of([&] { b.csr_matvec(data.data(), c, o, 2, data.data(), out.get()); });
  TALLY_TEST_CHECK_CUDA(cudaSetDevice(0));
  CHECK(contains(sum, "tally::device_reducer::segment_sum: the current device is 1 but this device_reducer was made on device 0"));
  CHECK(contains(csr, "tally::device_reducer::csr_matvec: the current device is 1 but this device_reducer was made on device 0"));
  CHECK(out.bytes() == before);
}
