// reduce_segments and csr_matvec: every operator on float, double and int32, 32- and 64-bit offsets
// (sum, min, max, arg_min and arg_max on __half and __nv_bfloat16),
// the length mixes of the issue (0/1/31/32/33/1023/1025, uniform, power law, all empty, one segment)
// against the host reference and CUB's DeviceSegmentedReduce.
#include <random>
#include <vector>

#include "support/segments.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// Lengths of the issue's mix: 0, 1, 31, 32, 33, 1023 and 1025, in random order.
std::vector<index_t> mixed_lengths(index_t count, std::uint64_t seed) {
  const index_t pick[] = {0, 1, 31, 32, 33, 1023, 1025};
  return draw_lengths(count, seed, [&](std::mt19937_64& g) { return pick[g() % 7]; });
}

// Pareto(alpha) lengths, capped.
std::vector<index_t> power_law_lengths(index_t count, std::uint64_t seed, double alpha, index_t cap) {
  return draw_lengths(count, seed, [&](std::mt19937_64& g) {
    const double u = (static_cast<double>(g() >> 11) + 0.5) * 0x1p-53;
    return std::min<index_t>(cap, static_cast<index_t>(std::pow(u, -1.0 / alpha)) - 1);
  });
}

template <class T, class Off>
void every_op(const segment_layout& l, bool with_cub) {
  const dataset<T> data(l.end(), l.seed);
  const auto truth = host_segments_truth<T>(l);
  using Acc = typename segments_reducer<default_segments_policy<T>, T>::accum_type;
  std::vector<Acc> sums;
  std::vector<cub::KeyValuePair<int, T>> arg_max;
  if (with_cub) {
    const auto offsets = upload<Off>(l.offsets);
    sums = cub_segment_sums<Acc>(data.data(), offsets.get(), l.segments());
    arg_max = cub_segment_arg_max(data.data(), offsets.get(), l.segments());
  }
  check_segments<default_segments_policy<T>, op::sum, T, Off>(l, data, truth, sums);
  check_segments<default_segments_policy<T, op::min>, op::min, T, Off>(l, data, truth);
  check_segments<default_segments_policy<T, op::max>, op::max, T, Off>(l, data, truth);
  check_segments<default_segments_policy<T, op::arg_min>, op::arg_min, T, Off>(l, data, truth);
  check_segments<default_segments_policy<T, op::arg_max>, op::arg_max, T, Off>(l, data, truth, arg_max);
}

std::vector<segment_layout> layouts() {
  std::vector<segment_layout> out;
  const auto add = [&](std::vector<index_t> lengths, index_t base = 0) {
    out.push_back({offsets_of(lengths, base), next_seed()});
  };
  add(mixed_lengths(5000, next_seed()));
  add(mixed_lengths(3, next_seed()), 17);  // a base past element 0
  add(draw_lengths(200000, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(1 + g() % 8); }));
  add(draw_lengths(20000, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(g() % 129); }));
  add(power_law_lengths(20000, next_seed(), 0.6, index_t{1} << 22));
  add(std::vector<index_t>(1000, 0));                  // all empty
  add({(index_t{1} << 20) + 7});                       // one segment
  add({0});                                            // one empty segment
  add({1});
  std::vector<index_t> spiky = draw_lengths(100000, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(g() % 5); });
  spiky[777] = index_t{1} << 22;                       // one long among many short
  add(spiky);
  return out;
}

// Every operator a 16-bit element type takes (sum, min, max, arg_min, arg_max), over 32- and 64-bit
// offsets, against the host.
template <class T>
void every_16bit_op(const segment_layout& l) {
  const dataset<T> data(l.end(), l.seed);
  const auto truth = host_segments_truth<T>(l);
  check_segments<default_segments_policy<T>, op::sum, T, int>(l, data, truth);
  check_segments<default_segments_policy<T, op::min>, op::min, T, index_t>(l, data, truth);
  check_segments<default_segments_policy<T, op::max>, op::max, T, int>(l, data, truth);
  // Each element's index in its segment, from whole tiles without an end too.
  check_segments<default_segments_policy<T, op::arg_min>, op::arg_min, T, int>(l, data, truth);
  check_segments<default_segments_policy<T, op::arg_max>, op::arg_max, T, index_t>(l, data, truth);
}

}  // namespace

TEST_CASE("segments: every operator on float, 32- and 64-bit offsets, against the host and CUB") {
  for (const auto& l : layouts()) {
    every_op<float, int>(l, true);
    every_op<float, index_t>(l, false);
  }
}

// 16-bit elements: tiles that start on odd elements (base 13), tiles cut by the input's end, and
// long segments whose whole tiles hold no end (segments_kernel.cuh's paths without compares).
TEST_CASE("segments: __half and __nv_bfloat16 sums, min, max, arg_min and arg_max, from even and odd first elements") {
  std::vector<segment_layout> ls;
  for (const index_t base : {index_t{0}, index_t{13}}) {
    ls.push_back({offsets_of(mixed_lengths(3000, next_seed()), base), next_seed()});
    ls.push_back({offsets_of({(index_t{1} << 21) + 7}, base), next_seed()});
    std::vector<index_t> spiky = draw_lengths(50000, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(g() % 5); });
    spiky[333] = (index_t{1} << 21) + 3;
    ls.push_back({offsets_of(spiky, base), next_seed()});
  }
  for (const auto& l : ls) {
    every_16bit_op<__half>(l);
    every_16bit_op<__nv_bfloat16>(l);
  }
}

// 16-bit short shares (segments_short_share.cuh: four segments a thread over 32-bit offsets, 4
// elements a round, the warp finishing a segment past 16; arg states and 64-bit offsets two a
// thread, 8 a round): short_share_picks' mean lengths of 2 to 6 with longer segments among them.
TEST_CASE("segments: 16-bit shares of short segments, every round in the lane and the warp's finish") {
  for (const auto& pick : short_share_picks()) {
    const segment_layout l{offsets_of(draw_lengths(1000000, next_seed(), pick), 3), next_seed()};
    every_16bit_op<__half>(l);
    every_16bit_op<__nv_bfloat16>(l);
  }
}

// 16-bit segments longer than a block's share (a share is the input over the resident grid: some
// 40 K elements on an H200): shares inside one segment, and long segments' first and last stretches
// beside short ones, from an odd first element too.
TEST_CASE("segments: 16-bit segments longer than a share, every operator") {
  for (const index_t base : {index_t{0}, index_t{13}})
    every_16bit_op<__half>({offsets_of({(index_t{1} << 23) + 5, 3, 0, (index_t{1} << 22) + 1, 7, 40000, (index_t{1} << 23) + 11}, base),
                            next_seed()});
}

TEST_CASE("segments: double and int32") {
  for (const auto& l : layouts()) {
    every_op<double, index_t>(l, false);
    every_op<int, int>(l, false);
  }
}

// An element source whose raw part (the column) has the element's type (int values, int columns,
// int sums) once had the kernel take the column itself for the element. The columns and values
// also start 5 elements into their allocation: the tiles' loads from 128-byte lines then begin
// mid-line at the array's start.
TEST_CASE("segments: CSR with int values and int columns multiplies, exactly") {
  const auto lengths_1_8 = draw_lengths(60000, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(g() % 9); });
  for (const segment_layout& l : {segment_layout{offsets_of(mixed_lengths(3000, next_seed()), 0), next_seed()},
                                 segment_layout{offsets_of(lengths_1_8, 0), next_seed()}}) {
    INFO(l.describe());
    const index_t n = l.end(), S = l.segments(), ncols = 3001;
    std::mt19937_64 g(l.seed);
    std::vector<index_t> cols(static_cast<std::size_t>(n)), values(static_cast<std::size_t>(n)), x(static_cast<std::size_t>(ncols));
    for (index_t j = 0; j < n; ++j) {
      cols[j] = static_cast<index_t>(g() % ncols);
      values[j] = static_cast<index_t>(g() % 201) - 100;
    }
    for (auto& v : x) v = static_cast<index_t>(g() % 21) - 10;
    const auto d_x = upload<int>(x);
    const auto d_offsets = upload<int>(l.offsets);
    for (const index_t pad : {index_t{0}, index_t{5}}) {
      INFO("arrays start " << pad << " elements into their allocation");
      std::vector<index_t> padded_cols(static_cast<std::size_t>(pad), 0), padded_values(static_cast<std::size_t>(pad), 0);
      padded_cols.insert(padded_cols.end(), cols.begin(), cols.end());
      padded_values.insert(padded_values.end(), values.begin(), values.end());
      const auto d_cols = upload<int>(padded_cols), d_values = upload<int>(padded_values);
      device_buffer<int> y(static_cast<std::size_t>(S));
      segments_reducer<default_csr_policy<int>, int> r;
      r.dot(d_values.get() + pad, d_cols.get() + pad, d_offsets.get(), S, d_x.get(), y.get());
      const std::vector<int> got = y.values();
      index_t bad = 0;
      for (index_t s = 0; s < S && bad < 5; ++s) {
        std::int64_t want = 0;  // at most 1025 products of at most 1000: exact in int
        for (index_t j = l.offsets[s]; j < l.offsets[s + 1]; ++j) want += values[j] * x[cols[j]];
        if (got[s] != want) {
          ++bad;
          FAIL_CHECK("segment " << s << ": got " << got[s] << ", want " << want);
        }
      }
      CHECK(bad == 0);
    }
  }
}

TEST_CASE("segments: CSR matrix-vector product, float and double, 32- and 64-bit column indices") {
  for (const auto& l : layouts()) {
    const index_t ncols = 1 + static_cast<index_t>(l.seed % 5000);
    const std::uint64_t col_seed = next_seed(), x_seed = next_seed();
    std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
    for (index_t j = 0; j < l.end(); ++j) cols[j] = csr_col(col_seed, j, ncols);
    const auto cols64 = upload<index_t>(cols);
    const auto cols32 = upload<int>(cols);
    std::vector<double> x(static_cast<std::size_t>(ncols));
    const dataset<float> xf(ncols, x_seed);
    const dataset<double> xd(ncols, x_seed);
    for (index_t c = 0; c < ncols; ++c) x[c] = host_value(xf.at(c));
    const dataset<float> af(l.end(), l.seed);
    check_segments<default_csr_policy<float>, op::sum, float, index_t, int>(
        l, af, host_segments_truth<float>(l, &x, col_seed), {}, xf.data(), cols64.get());
    for (index_t c = 0; c < ncols; ++c) x[c] = host_value(xd.at(c));
    const dataset<double> ad(l.end(), l.seed);
    check_segments<default_csr_policy<double>, op::sum, double, int, int>(
        l, ad, host_segments_truth<double>(l, &x, col_seed), {}, xd.data(), cols32.get());
  }
}
