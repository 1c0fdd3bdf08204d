// reduce_segments: the rules (docs/testing.md). Other tile shapes (down to one item a thread, so that
// segments cross many tiles and blocks), the checked form's errors with the output untouched,
// offsets that break the unchecked precondition, graph capture, determinism, the one-off calls, a
// segment longer than 2^31 and more than 2^31 elements in all, the begin / end form, row shares,
// short shares, lane groups, long segments over many tiles and shares from every 16-byte phase, and
// the begin / end form's shares folded by warps.
#include <algorithm>
#include <iterator>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "../common/argument_error.hpp"
#include "support/graph.cuh"
#include "support/segments.cuh"
#include "support/user_elements.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// The default float policy without row shares and short shares: every share in tiles.
using default_float = default_segments_policy<float>;
using tiles = segments_policy<default_float::threads, default_float::items, default_float::accum, default_float::launch,
                              default_float::group_items, false, false>;
// Row shares without short shares: the only policy that reads shares of one length of 6 or fewer
// as rows (the default reads them a segment a thread).
using rows_no_short = segments_policy<default_float::threads, default_float::items, default_float::accum,
                                      default_float::launch, default_float::group_items, true, false>;

// Layout l through the default's operators, blocks of 2 warps, binned sums, double and the tiles
// alone, against the host; the input never written.
void check_against_tiles(const segment_layout& l) {
  const dataset<float> data(l.end(), l.seed);
  const auto truth = host_segments_truth<float>(l);
  check_segments<default_segments_policy<float>, op::sum, float, int>(l, data, truth);
  check_segments<default_segments_policy<float, op::max>, op::max, float, index_t>(l, data, truth);
  check_segments<default_segments_policy<float, op::arg_min>, op::arg_min, float, int>(l, data, truth);
  check_segments<segments_policy<64, 3>, op::arg_max, float, index_t>(l, data, truth);  // blocks of 2 warps
  check_segments<segments_policy<256, 17, accum::reproducible>, op::sum, float, int>(l, data, truth);  // binned
  check_segments<tiles, op::sum, float, int>(l, data, truth);
  const dataset<double> wide(l.end(), l.seed);
  const auto wide_truth = host_segments_truth<double>(l);
  check_segments<default_segments_policy<double>, op::sum, double, index_t>(l, wide, wide_truth);
  check_segments<default_segments_policy<double, op::arg_max>, op::arg_max, double, int>(l, wide, wide_truth);
  CHECK(data.changed() == 0);
}

// Whether P's float sums over l differ in any bit from the tiles alone's: they do where a share
// took another path (rows, short shares), which adds in another order.
template <class P = default_float>
bool sums_differ_from_tiles(const segment_layout& l) {
  const dataset<float> data(l.end(), l.seed);
  const index_t S = l.segments();
  const auto offsets = upload<int>(l.offsets);
  device_buffer<float> by_policy(static_cast<std::size_t>(S)), by_tiles(static_cast<std::size_t>(S));
  reduce_segments<P>(data.data(), offsets.get(), S, by_policy.get());
  reduce_segments<tiles>(data.data(), offsets.get(), S, by_tiles.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  return by_policy.bytes() != by_tiles.bytes();
}

segment_layout mixed(index_t count) {
  const index_t pick[] = {0, 1, 31, 32, 33, 1023, 1025, 5000};
  return {offsets_of(draw_lengths(count, next_seed(), [&](std::mt19937_64& g) { return pick[g() % 8]; })), next_seed()};
}

}  // namespace

TEST_CASE("segments: other tile shapes and accumulators") {
  for (const auto& l : {mixed(3000), segment_layout{offsets_of({100000}), next_seed()},
                        segment_layout{offsets_of(std::vector<index_t>(5000, 0)), next_seed()}}) {
    const dataset<float> data(l.end(), l.seed);
    const auto truth = host_segments_truth<float>(l);
    check_segments<segments_policy<32, 1>, op::sum, float, int>(l, data, truth);
    check_segments<segments_policy<32, 1>, op::arg_max, float, int>(l, data, truth);
    check_segments<segments_policy<64, 3>, op::arg_min, float, index_t>(l, data, truth);
    check_segments<segments_policy<256, 11, accum::wide>, op::sum, float, int>(l, data, truth);  // double out
    check_segments<segments_policy<1024, 5, accum::native, launch::stream_ordered>, op::max, float, int>(l, data, truth);
  }
}

TEST_CASE("segments: deterministic, and a reducer reused across layouts and streams") {
  const segment_layout a = mixed(20000), b = mixed(300);
  const dataset<float> da(a.end(), a.seed), db(b.end(), b.seed);
  const auto oa = upload<int>(a.offsets);
  const auto ob = upload<int>(b.offsets);
  device_buffer<float> out1(static_cast<std::size_t>(a.segments())), out2(static_cast<std::size_t>(a.segments()));
  device_buffer<float> small(static_cast<std::size_t>(b.segments()));
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  segments_reducer<default_segments_policy<float>, float> r;
  r(da.data(), oa.get(), a.segments(), out1.get(), stream);
  r(db.data(), ob.get(), b.segments(), small.get(), stream);
  r(da.data(), oa.get(), a.segments(), out2.get(), stream);
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK(out1.bytes() == out2.bytes());
  device_buffer<float> once(static_cast<std::size_t>(a.segments()));
  reduce_segments(da.data(), oa.get(), a.segments(), once.get(), op::sum{}, stream);  // one-off, pool workspace
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK(once.bytes() == out1.bytes());
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("segments: graph capture") {
  const segment_layout l = mixed(5000);
  const dataset<float> data(l.end(), l.seed);
  const auto offsets = upload<index_t>(l.offsets);
  device_buffer<arg<float>> direct(static_cast<std::size_t>(l.segments())), graphed(static_cast<std::size_t>(l.segments()));
  segments_reducer<default_segments_policy<float, op::arg_max>, float, op::arg_max> r;
  r(data.data(), offsets.get(), l.segments(), direct.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());  // a reducer's calls share its workspace: order them
  r.reserve();
  // Fields, not bytes: what lands in arg<float>'s padding word is not part of the result.
  const auto fields = [](const device_buffer<arg<float>>& b) {
    const std::vector<arg<float>> h = b.values();
    std::vector<std::pair<float, index_t>> f;
    for (const auto& a : h) f.emplace_back(a.value, a.index);
    return f;
  };
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  {
    const captured_graph graph(stream, [&] { r(data.data(), offsets.get(), l.segments(), graphed.get(), stream); });
    graph.run(3, [&] { CHECK(fields(graphed) == fields(direct)); }, graphed);
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("segments: the checked form names the first bad segment and leaves the output untouched") {
  const dataset<float> data(100, next_seed());
  device_buffer<float> out(4);
  out.poison();
  const auto before = out.bytes();
  const auto error_for = [&](std::vector<index_t> offsets, index_t n) {
    const auto d = upload<int>(offsets);
    return argument_error_of([&] { reduce_segments(data.data(), n, d.get(), 4, out.get()); });
  };
  std::string e = error_for({0, 10, 5, 20, 30}, 100);
  CHECK(contains(e, "tally::reduce_segments: segment 1 (offsets[1] = 10, offsets[2] = 5) ends before it begins"));
  e = error_for({0, 10, 20, 120, 30}, 100);
  CHECK(contains(e, "segment 2 (offsets[2] = 20, offsets[3] = 120) ends beyond n = 100"));
  e = error_for({-3, 10, 20, 30, 40}, 100);
  CHECK(contains(e, "segment 0 (offsets[0] = -3, offsets[1] = 10) begins before element 0"));
  CHECK(error_for({0, 10, 20, 30, 100}, 100).empty());
  CHECK(out.bytes() != before);  // the good call wrote
  out.poison();
  CHECK(!error_for({0, 50, 40, 30, 100}, 100).empty());
  CHECK(out.bytes() == before);

  // Argument errors, before anything is queued.
  const auto d = upload<int>({0, 1, 2, 3, 4});
  CHECK(contains(argument_error_of([&] { reduce_segments(data.data(), d.get(), -1, out.get()); }), "num_segments = -1 is negative"));
  CHECK(contains(argument_error_of([&] { reduce_segments(data.data(), d.get(), 4, static_cast<float*>(nullptr)); }),
                 "output pointer is null but num_segments = 4"));
  CHECK(contains(argument_error_of([&] { reduce_segments(static_cast<const float*>(nullptr), d.get(), 4, out.get()); }),
                 "input pointer is null"));
  CHECK(contains(argument_error_of([&] { reduce_segments(data.data(), static_cast<const int*>(nullptr), 4, out.get()); }),
                 "offsets pointer is null"));
  CHECK(contains(argument_error_of([&] { reduce_segments(data.data(), -5, d.get(), 4, out.get()); }), "n = -5 is negative"));
  CHECK(argument_error_of([&] { reduce_segments(static_cast<const float*>(nullptr), d.get(), 0, static_cast<float*>(nullptr)); }).empty());
}

TEST_CASE("segments: offsets that break the unchecked precondition stay in bounds") {
  // Decreasing offsets and an end past the data: results are meaningless, but the kernel must end
  // and touch nothing outside [offsets[0], offsets[S]) and out[0, S) (compute-sanitizer's memcheck
  // run checks the reads).
  const dataset<float> data(64, next_seed());
  for (const std::vector<index_t>& o : {std::vector<index_t>{0, 40, 3, 60, 10, 64}, std::vector<index_t>{30, 2, 2, 1, 0, 10},
                                         std::vector<index_t>{64, 0, 0, 0, 0, 0}}) {
    const auto d = upload<int>(o);
    device_buffer<float> out(6);
    out.poison();
    segments_reducer<segments_policy<32, 1>, float> r;
    r(data.data(), d.get(), 5, out.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(device_buffer<float>::all_bytes(out.read(5)));
  }
  CHECK(data.changed() == 0);
}

TEST_CASE("segments: a segment longer than 2^31 and more than 2^31 elements in all") {
  const index_t big = (index_t{1} << 31) + 11;
  if (big + 2000 > max_test_size()) return;
  const segment_layout l{offsets_of({5, big, 0, 1025, 3}), next_seed()};
  const dataset<float> data(l.end(), l.seed);
  const auto truth = host_segments_truth<float>(l);
  check_segments<default_segments_policy<float>, op::sum, float, index_t>(l, data, truth);
  check_segments<default_segments_policy<float, op::arg_max>, op::arg_max, float, index_t>(l, data, truth);
  std::vector<index_t> many(2100000, 1000);  // 2.1e9 elements in segments of 1000, int64 offsets
  const segment_layout m{offsets_of(many), next_seed()};
  const dataset<int> ints(m.end(), m.seed);
  check_segments<default_segments_policy<int, op::max>, op::max, int, index_t>(m, ints, host_segments_truth<int>(m));
}

namespace {

// Host truth of begin / end segments over data set `seed`: fold_truth with the index in the segment.
std::vector<row_truth> ranges_truth(const std::vector<index_t>& b, const std::vector<index_t>& e, std::uint64_t seed) {
  std::vector<row_truth> out(b.size());
  for (std::size_t s = 0; s < b.size(); ++s)
    for (index_t j = b[s]; j < e[s]; ++j) out[s] = fold_truth(out[s], host_value(value_at<float>(seed, j)), 0.0, j - b[s]);
  return out;
}

template <class P, class Op, class Off, class Out>
void check_ranges(const dataset<float>& data, const std::vector<index_t>& b, const std::vector<index_t>& e,
                  const std::vector<row_truth>& truth) {
  const auto db = upload<Off>(b);
  const auto de = upload<Off>(e);
  const index_t S = static_cast<index_t>(b.size());
  device_buffer<Out> out(static_cast<std::size_t>(S + 1));
  out.poison();
  segments_reducer<P, float, Op> r;
  r(data.data(), db.get(), de.get(), S, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<Out> got = out.values();
  INFO("policy " << P::name() << ", op " << std::string(Op::name) << ", " << S << " begin/end segments");
  index_t bad = 0;
  for (index_t s = 0; s < S && bad < 5; ++s) {
    const index_t len = e[s] > b[s] ? e[s] - b[s] : 0;
    bool ok;
    if constexpr (std::is_same_v<Op, op::sum>) {
      ok = std::fabs(static_cast<long double>(got[s]) - truth[s].sum) <=
           begin_end_additions(len, P::threads, P::items) * unit_roundoff<float>() * truth[s].abs_sum;
    } else {
      ok = len == 0 ? got[s].index == -1 : got[s].value == truth[s].max && got[s].index == truth[s].arg_max;
    }
    if (!ok) {
      ++bad;
      FAIL_CHECK("segment " << s << " [" << b[s] << ", " << e[s] << "): tally " << show(got[s]) << ", host sum "
                            << static_cast<double>(truth[s].sum) << ", max " << truth[s].max << " at " << truth[s].arg_max);
    }
  }
  CHECK(bad == 0);
  CHECK(device_buffer<Out>::all_bytes(got[static_cast<std::size_t>(S)]));
}

}  // namespace

TEST_CASE("segments: begin / end offsets (not contiguous, overlapping, out of order, end < begin empty)") {
  const index_t n = capped(300000);
  const dataset<float> data(n, next_seed());
  std::mt19937_64 g(next_seed());
  const index_t pick[] = {0, 1, 31, 32, 33, 1023, 1025, 5000};
  std::vector<index_t> b(4000), e(4000);
  for (std::size_t s = 0; s < b.size(); ++s) {
    const index_t len = std::min<index_t>(pick[g() % 8], n);
    b[s] = static_cast<index_t>(g() % static_cast<std::uint64_t>(n - len + 1));
    e[s] = g() % 9 == 0 ? b[s] - 1 - static_cast<index_t>(g() % 5) : b[s] + len;  // some end below their begin
  }
  const auto truth = ranges_truth(b, e, data.seed());
  check_ranges<default_segments_policy<float>, op::sum, int, float>(data, b, e, truth);
  check_ranges<default_segments_policy<float, op::arg_max>, op::arg_max, index_t, arg<float>>(data, b, e, truth);
  check_ranges<segments_policy<32, 1>, op::sum, index_t, float>(data, b, e, truth);
  check_ranges<segments_policy<64, 3>, op::arg_max, int, arg<float>>(data, b, e, truth);

  // Contiguous segments given as begin / end; the same bits call after call.
  const segment_layout l = mixed(3000);
  const dataset<float> d2(l.end(), l.seed);
  const std::vector<index_t> b2(l.offsets.begin(), l.offsets.end() - 1), e2(l.offsets.begin() + 1, l.offsets.end());
  check_ranges<default_segments_policy<float>, op::sum, int, float>(d2, b2, e2, ranges_truth(b2, e2, d2.seed()));
  const auto offsets = upload<int>(l.offsets);
  device_buffer<float> by_ranges(static_cast<std::size_t>(l.segments())), again(static_cast<std::size_t>(l.segments()));
  segments_reducer<default_segments_policy<float>, float> r;
  r(d2.data(), offsets.get(), offsets.get() + 1, l.segments(), by_ranges.get());
  r(d2.data(), offsets.get(), offsets.get() + 1, l.segments(), again.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(by_ranges.bytes() == again.bytes());

  // Graph capture after reserve(S).
  r.reserve(l.segments());
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  device_buffer<float> graphed(static_cast<std::size_t>(l.segments()));
  {
    const captured_graph graph(stream, [&] { r(d2.data(), offsets.get(), offsets.get() + 1, l.segments(), graphed.get(), stream); });
    graph.run(1, [&] { CHECK(graphed.bytes() == by_ranges.bytes()); }, graphed);
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(stream));
  CHECK(data.changed() == 0);
  CHECK(d2.changed() == 0);
}

TEST_CASE("segments: the checked begin / end form names the first bad segment") {
  const dataset<float> data(100, next_seed());
  device_buffer<float> out(3);
  out.poison();
  const auto before = out.bytes();
  const auto error_for = [&](std::vector<index_t> b, std::vector<index_t> e) {
    const auto db = upload<int>(b);
    const auto de = upload<int>(e);
    return argument_error_of([&] { reduce_segments(data.data(), 100, db.get(), de.get(), 3, out.get()); });
  };
  CHECK(contains(error_for({0, 50, -2}, {10, 120, 3}), "segment 1 (begins[1] = 50, ends[1] = 120) ends beyond n = 100"));
  CHECK(contains(error_for({0, -7, 3}, {10, 20, 3}), "segment 1 (begins[1] = -7, ends[1] = 20) begins before element 0"));
  CHECK(out.bytes() == before);
  CHECK(error_for({0, -7, 90}, {10, -9, 100}).empty());  // an empty segment's offsets are not read
  CHECK(contains(argument_error_of([&] {
                   reduce_segments(data.data(), upload<int>({0}).get(), static_cast<const int*>(nullptr), 1, out.get());
                 }),
                 "end offsets pointer is null"));
}

TEST_CASE("segments: shares of one segment length read as rows, with heads, tails and a break, against the tiles alone") {
  int sms = 0;
  TALLY_TEST_CHECK_CUDA(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  // Lengths 1, 3 and 5 average 6 or fewer: the default reads those shares a segment a thread, not as
  // rows (segments_kernel.cuh); rows_no_short reads them as rows (a lane a row).
  for (const index_t length : {1, 3, 5, 8, 17, 64, 100, 257, 1000}) {
    CAPTURE(length);
    // Enough segments that every share of the resident grid (4 blocks of 256 an SM) holds 3 times
    // the rows it needs: 256 / lanes, lanes = 1 to 32 (segments_row_share.cuh).
    index_t lanes = 1;
    while (lanes < 32 && 8 * lanes <= length) lanes *= 2;
    const index_t count = 3 * 4 * index_t{sms} * (256 / lanes);
    // A first segment of another length (a share's head that began earlier), many of one length,
    // one of length + 1 in the middle (shares around it go to the tiles), and a short last one.
    std::vector<index_t> lengths(static_cast<std::size_t>(count), length);
    lengths.front() = 3 * length + 7;
    lengths[lengths.size() / 2] = length + 1;
    lengths.back() = length / 2;
    const segment_layout l{offsets_of(lengths, 5), next_seed()};
    check_against_tiles(l);

    // The rows ran: with two lanes a segment or more they add in another order than the tiles, so
    // some sums differ in their last bits (unless the layout was cut to TALLY_TEST_MAX_N).
    if (lanes > 1 && l.segments() == count) CHECK(sums_differ_from_tiles(l));

    if (length <= 6) {  // the rows of a lane each, without short shares
      const dataset<float> data(l.end(), l.seed);
      check_segments<rows_no_short, op::sum, float, int>(l, data, host_segments_truth<float>(l));
      // A lane adds a row in order, where the tiles join a row split a | b c d e as a + (b + c + d + e).
      // Only from 4 elements on can the order show: the test's floats are 24-bit multiples of 2^-23
      // in [-1, 1), so any two of them add exactly and a sum of 3 is rounded once, in any order.
      if (length == 5 && l.segments() == count) CHECK(sums_differ_from_tiles<rows_no_short>(l));
    }
  }
}

TEST_CASE("segments: shares of short segments read a segment a thread, with longer ones among them, against the tiles alone") {
  // Mean lengths of 2 to 6 (short_share_picks), from element 3 so that no share starts on a 16-byte
  // boundary.
  const auto picks = short_share_picks();
  for (std::size_t k = 0; k < std::size(picks); ++k) {
    CAPTURE(k);
    const index_t count = 3000000;
    const segment_layout l{offsets_of(draw_lengths(count, next_seed(), picks[k]), 3), next_seed()};
    check_against_tiles(l);

    // The short shares ran: a thread adds a segment in order where the tiles join the parts of a
    // segment that crosses two threads' positions, so some sums differ in their last bits (unless
    // the layout was cut to TALLY_TEST_MAX_N).
    if (l.segments() == count) CHECK(sums_differ_from_tiles(l));
  }
}

TEST_CASE("segments: long segments over many tiles and shares, from every 16-byte phase") {
  // Shares of the resident grid hold several tiles only when the input is large: about 16 M elements
  // in segments of 0 to 300001, many of them near multiples of the default 4-byte tile, from element
  // `base` on, so that tiles start at every 16-byte phase.
  constexpr index_t D = index_t{default_segments_policy<float>::threads} * default_segments_policy<float>::items;
  const index_t pick[] = {0, 1, 7, D - 1, D, D + 1, 2 * D - 1, 2 * D, 2 * D + 1, 3 * D + 5, 20000, 65537, 300001};
  for (const index_t base : {0, 1, 2, 3}) {
    CAPTURE(base);
    std::mt19937_64 g(next_seed());
    std::vector<index_t> lengths;
    for (index_t n = 0; n < capped(16000000); n += lengths.back()) lengths.push_back(pick[g() % 13]);
    const segment_layout l{offsets_of(lengths, base), next_seed()};
    const dataset<float> data(l.end(), l.seed);
    const auto truth = host_segments_truth<float>(l);
    check_segments<default_segments_policy<float>, op::sum, float, int>(l, data, truth);
    check_segments<default_segments_policy<float, op::max>, op::max, float, int>(l, data, truth);
    check_segments<default_segments_policy<float, op::arg_min>, op::arg_min, float, index_t>(l, data, truth);
    check_segments<default_segments_policy<float, op::arg_max>, op::arg_max, float, int>(l, data, truth);
    check_segments<segments_policy<256, 17, accum::reproducible>, op::sum, float, int>(l, data, truth);  // binned
    const dataset<double> wide(l.end(), l.seed);
    const auto wide_truth = host_segments_truth<double>(l);
    check_segments<default_segments_policy<double>, op::sum, double, index_t>(l, wide, wide_truth);
    check_segments<default_segments_policy<double, op::arg_max>, op::arg_max, double, int>(l, wide, wide_truth);
    if (base == 1) {
      // The begin / end form reads its tiles from begins[s]; CSR gathers x for each element.
      const std::vector<index_t> b(l.offsets.begin(), l.offsets.end() - 1), e(l.offsets.begin() + 1, l.offsets.end());
      const auto rt = ranges_truth(b, e, data.seed());
      check_ranges<default_segments_policy<float, op::arg_max>, op::arg_max, int, arg<float>>(data, b, e, rt);
      check_ranges<default_segments_policy<float>, op::sum, int, float>(data, b, e, rt);
      const index_t ncols = 4099;
      const std::uint64_t col_seed = next_seed();
      std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
      for (index_t j = 0; j < l.end(); ++j) cols[j] = csr_col(col_seed, j, ncols);
      const auto cols32 = upload<int>(cols);
      const dataset<float> xf(ncols, next_seed());
      std::vector<double> x(static_cast<std::size_t>(ncols));
      for (index_t c = 0; c < ncols; ++c) x[c] = host_value(xf.at(c));
      check_segments<default_segments_policy<float>, op::sum, float, index_t, int>(
          l, data, host_segments_truth<float>(l, &x, col_seed), {}, xf.data(), cols32.get());
    }
    CHECK(data.changed() == 0);
  }
}

TEST_CASE("segments: lane groups (mean lengths 2 to 400), against the walk alone and the begin / end form") {
  // The default walks float sums' tiles and gives arg states lane groups: each the other way too.
  using walk = segments_policy<256, 17, default_segments_policy<float>::accum, launch::pdl, 0>;
  using groups = segments_policy<256, 17, default_segments_policy<float>::accum, launch::pdl, 4>;
  for (const index_t mean : {2, 6, 12, 24, 48, 96, 192, 400}) {
    CAPTURE(mean);
    const segment_layout l{offsets_of(draw_lengths(capped(300000) / mean + 1, next_seed(),
                                                   [mean](std::mt19937_64& g) { return static_cast<index_t>(g() % (2 * mean + 1)); })),
                           next_seed()};
    const dataset<float> data(l.end(), l.seed);
    const auto truth = host_segments_truth<float>(l);
    check_segments<default_segments_policy<float>, op::sum, float, int>(l, data, truth);
    check_segments<default_segments_policy<float, op::arg_min>, op::arg_min, float, index_t>(l, data, truth);
    // Groups of up to 8 lanes (a lane's share of a segment 1 element or more; 31 items a thread, so
    // that tiles of mean length up to 14 take groups), in blocks of 2 warps.
    check_segments<segments_policy<64, 31, accum::native, launch::pdl, 1>, op::arg_max, float, int>(l, data, truth);
    check_segments<groups, op::sum, float, int>(l, data, truth);
    check_segments<walk, op::arg_max, float, int>(l, data, truth);

    // The begin / end form reads lane groups' elements from the input.
    const std::vector<index_t> b(l.offsets.begin(), l.offsets.end() - 1), e(l.offsets.begin() + 1, l.offsets.end());
    const auto rt = ranges_truth(b, e, data.seed());
    check_ranges<default_segments_policy<float, op::arg_max>, op::arg_max, int, arg<float>>(data, b, e, rt);
    check_ranges<default_segments_policy<float>, op::sum, int, float>(data, b, e, rt);
    CHECK(data.changed() == 0);
  }
  // Tiles of segments of 0 - 4 with one of 40 - 239 here and there: the long one keeps the tile
  // from lane groups after it looked short enough for them (group_lanes' pass), so it is walked.
  const segment_layout l{offsets_of(draw_lengths(capped(300000) / 3 + 1, next_seed(),
                                                 [](std::mt19937_64& g) {
                                                   return static_cast<index_t>(g() % 997 == 0 ? 40 + g() % 200 : g() % 5);
                                                 })),
                         next_seed()};
  const dataset<float> data(l.end(), l.seed);
  const auto truth = host_segments_truth<float>(l);
  check_segments<default_segments_policy<float>, op::sum, float, int>(l, data, truth);
  check_segments<default_segments_policy<float, op::arg_min>, op::arg_min, float, index_t>(l, data, truth);
  check_segments<groups, op::sum, float, int>(l, data, truth);
  CHECK(data.changed() == 0);
}

TEST_CASE("segments: the begin / end form's shares of long segments, folded by warps") {
  // Shares of few, long pieces go to the warps (segments_warp_share.cuh):
  // segments of about 1000 with empty ones among them; three long ones; long ones among runs of
  // short ones (shares of both kinds, parts of warps that start and end inside a run). Each in its
  // own order and shuffled (the segments read from anywhere).
  // Tens of millions of elements: a share must hold some 16 rounds of loads for each round its
  // pieces waste.
  std::mt19937_64 g(next_seed());
  std::vector<index_t> thousand, three{9000001, 12000007, 7000003}, runs;
  for (index_t n = 0; n < capped(index_t{1} << 25); n += thousand.back())
    thousand.push_back(g() % 8 == 0 ? 0 : 990 + static_cast<index_t>(g() % 21));
  for (index_t n = 0; n < capped(index_t{1} << 25); n += runs.back())
    runs.push_back(g() % 64 == 0 ? 20000 + static_cast<index_t>(g() % 60000) : static_cast<index_t>(g() % 9));
  for (const auto* lengths : {&thousand, &three, &runs}) {
    const segment_layout l{offsets_of(*lengths, 3), next_seed()};
    CAPTURE(l.segments());
    const dataset<float> data(l.end(), l.seed);
    std::vector<index_t> b(l.offsets.begin(), l.offsets.end() - 1), e(l.offsets.begin() + 1, l.offsets.end());
    for (const bool shuffled : {false, true}) {
      CAPTURE(shuffled);
      if (shuffled) {
        std::vector<std::size_t> order(b.size());
        std::iota(order.begin(), order.end(), std::size_t{0});
        std::shuffle(order.begin(), order.end(), g);
        const auto b0 = b, e0 = e;
        for (std::size_t s = 0; s < order.size(); ++s) b[s] = b0[order[s]], e[s] = e0[order[s]];
      }
      const auto truth = ranges_truth(b, e, data.seed());
      check_ranges<default_segments_policy<float>, op::sum, int, float>(data, b, e, truth);
      check_ranges<default_segments_policy<float, op::arg_max>, op::arg_max, index_t, arg<float>>(data, b, e, truth);
      check_ranges<segments_policy<64, 3>, op::sum, index_t, float>(data, b, e, truth);  // blocks of 2 warps
      check_ranges<segments_policy<32, 1>, op::arg_max, int, arg<float>>(data, b, e, truth);  // of 1 warp
    }
    // The warps ran: they add in another order than the offsets form's tiles, so that some sums
    // differ in their last bits, and their bits are the same call after call.
    const auto offsets = upload<int>(l.offsets);
    const index_t S = l.segments();
    device_buffer<float> by_offsets(static_cast<std::size_t>(S)), by_ranges(static_cast<std::size_t>(S)),
        again(static_cast<std::size_t>(S));
    segments_reducer<default_segments_policy<float>, float> r;
    r(data.data(), offsets.get(), S, by_offsets.get());
    r(data.data(), offsets.get(), offsets.get() + 1, S, by_ranges.get());
    r(data.data(), offsets.get(), offsets.get() + 1, S, again.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    if (l.end() == std::accumulate(lengths->begin(), lengths->end(), index_t{0}) + 3)  // not cut to TALLY_TEST_MAX_N
      CHECK(by_offsets.bytes() != by_ranges.bytes());
    CHECK(by_ranges.bytes() == again.bytes());
    CHECK(data.changed() == 0);
  }
}

TEST_CASE("segments of a user's struct aligned below its size (two floats off an 8-byte boundary)") {
  const auto o = two_floats_sum();
  const segment_layout l = mixed(3000);
  const misaligned_two_floats d(l.end(), l.seed);
  const auto offsets = upload<int>(l.offsets);
  const index_t S = l.segments();
  device_buffer<float> out(static_cast<std::size_t>(S));
  reduce_segments<default_segments_policy<two_floats, decltype(o)>>(d.data(), offsets.get(), S, out.get(), o);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> got = out.values();
  index_t wrong = 0;
  for (index_t s = 0; s < S; ++s) {
    double want = 0;
    for (index_t j = l.offsets[s]; j < l.offsets[s + 1]; ++j) want += d.element(j);
    wrong += static_cast<double>(got[s]) != want;
  }
  CAPTURE(l.describe());
  CHECK(wrong == 0);
}
