// Segmented-reduction test support: segment layouts (lengths drawn from a rule), their offsets on
// the device in the caller's offset type, the host reference per segment (row_truth: long double
// sums, exact min / max / arg with the index within the segment), CUB's DeviceSegmentedReduce on the
// same buffers, and check_segments, which runs one policy and compares.
#pragma once
#include <algorithm>
#include <cmath>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <cub/device/device_segmented_reduce.cuh>

#include <tally/csr_matvec.cuh>
#include <tally/reduce_segments.cuh>

#include "rows.cuh"

namespace tally::test {

// Offsets of segments with these lengths, starting at element `base`. Under TALLY_TEST_MAX_N (the
// sanitizer runs) the layout is cut where its elements reach the cap: fewer segments, the last one
// shorter.
inline std::vector<index_t> offsets_of(const std::vector<index_t>& lengths, index_t base = 0) {
  std::vector<index_t> o(1, base);
  for (std::size_t s = 0; s < lengths.size(); ++s) {
    const index_t room = max_test_size() - o.back();
    if (room <= 0 && s > 0) break;
    o.push_back(o.back() + std::min(lengths[s], std::max<index_t>(room, 0)));
  }
  return o;
}

// count lengths drawn from `pick` (pick(rng) -> length).
template <class Pick>
std::vector<index_t> draw_lengths(index_t count, std::uint64_t seed, Pick pick) {
  std::mt19937_64 rng(seed);
  std::vector<index_t> l(static_cast<std::size_t>(count));
  for (auto& v : l) v = pick(rng);
  return l;
}

// Length picks whose layouts the segment kernel reads as short shares (segments_short_share.cuh: a
// mean of 6 or fewer): 0 - 4 with runs of empty segments, 1 - 8 (the lane's first round of 8), 0 -
// 12 (a further round in the lane), and 0 - 2 with one segment of 17 - 300 in every 80 or so (the
// warp finishes it; its window of 32 segments then holds up to 364 elements, within the 512 of
// short_window).
inline std::vector<std::function<index_t(std::mt19937_64&)>> short_share_picks() {
  return {
      [](std::mt19937_64& g) { return static_cast<index_t>(g() % 7 == 0 ? 0 : g() % 5); },
      [](std::mt19937_64& g) { return static_cast<index_t>(1 + g() % 8); },
      [](std::mt19937_64& g) { return static_cast<index_t>(g() % 13); },
      [](std::mt19937_64& g) { return static_cast<index_t>(g() % 79 == 0 ? 17 + g() % 284 : g() % 3); },
  };
}

template <class Off>
device_buffer<Off> upload(const std::vector<index_t>& v) {
  std::vector<Off> h(v.begin(), v.end());
  device_buffer<Off> d(h.size());
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(Off), cudaMemcpyHostToDevice));
  return d;
}

// One layout over a data set: elements [offsets[0], offsets[S]) of data set `seed`, and for CSR, the
// column of element j (cols) and x.
struct segment_layout {
  std::vector<index_t> offsets;
  std::uint64_t seed = 0;
  index_t segments() const { return static_cast<index_t>(offsets.size()) - 1; }
  index_t end() const { return offsets.back(); }
  std::string describe() const {
    index_t longest = 0, empty = 0;
    for (index_t s = 0; s < segments(); ++s) {
      longest = std::max(longest, offsets[s + 1] - offsets[s]);
      empty += offsets[s + 1] == offsets[s];
    }
    return std::to_string(segments()) + " segments, elements [" + std::to_string(offsets[0]) + ", " +
           std::to_string(end()) + "), longest " + std::to_string(longest) + ", " + std::to_string(empty) +
           " empty, seed " + std::to_string(seed);
  }
};

// Column of element j of a CSR test matrix with `cols` columns.
inline index_t csr_col(std::uint64_t seed, index_t j, index_t cols) {
  return static_cast<index_t>(mix(seed ^ 0xC0FFEEull, static_cast<std::uint64_t>(j)) % static_cast<std::uint64_t>(cols));
}

// Host reference of every segment. With x (CSR), dot is sum of a_j * x[col(j)].
template <class T>
std::vector<row_truth> host_segments_truth(const segment_layout& l, const std::vector<double>* x = nullptr,
                                           std::uint64_t col_seed = 0) {
  const index_t cols = x ? static_cast<index_t>(x->size()) : 1;
  const auto fold = [&](row_truth t, index_t s, index_t j) {
    const double a = host_value(value_at<T>(l.seed, j));
    const double xv = x ? (*x)[static_cast<std::size_t>(csr_col(col_seed, j, cols))] : 0.0;
    return fold_truth(t, a, xv, j - l.offsets[s]);
  };
  std::vector<row_truth> out(static_cast<std::size_t>(l.segments()));
  constexpr index_t long_segment = index_t{1} << 22;  // folded on every core; shorter ones one a core
  for (index_t s = 0; s < l.segments(); ++s) {
    const index_t b = l.offsets[s], e = l.offsets[s + 1];
    if (e - b > long_segment)
      out[s] = host_reduce(e - b, row_truth{}, [&](row_truth t, index_t k) { return fold(t, s, b + k); }, combine_truth);
  }
  const int workers = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      for (index_t s = w; s < l.segments(); s += workers) {
        const index_t b = l.offsets[s], e = l.offsets[s + 1];
        if (e - b > long_segment) continue;
        row_truth t;
        for (index_t j = b; j < e; ++j) t = fold(t, s, j);
        out[s] = t;
      }
    });
  for (auto& t : threads) t.join();
  return out;
}

// Additions on the longest path of a merge-path segment sum of `len` elements: a thread's items,
// the warp and block scans, one per tile the segment spans, and the fix-up's run and scan.
inline index_t segment_additions(index_t len, int threads, int items) {
  return items + 5 + 32 + len / (index_t{threads} * items) + 2 + 64;
}

// The same for the begin / end form, whose shares of long segments warps may fold
// (segments_warp_share.cuh): a lane's every 32nd element of a warp's part (the whole segment at
// most), the shuffle tree, the block's warps in order (32 at most), the fix-up's run and scan.
inline index_t begin_end_additions(index_t len, int threads, int items) {
  const index_t by_warps = len / 32 + 5 + 32 + 2 + 64;
  const index_t by_tiles = segment_additions(len, threads, items);
  return by_warps > by_tiles ? by_warps : by_tiles;
}

// Runs P's segments_reducer for Op into a poisoned output of S + 1 entries (plain, or CSR with x
// and cols), compares each segment with the host truth and with `cub` (empty: not compared), and
// checks that nothing past the last segment and no input element was written.
template <class P, class Op, class T, class Off, class CubOut = int, class Col = void>
void check_segments(const segment_layout& l, const dataset<T>& data, const std::vector<row_truth>& truth,
                    const std::vector<CubOut>& cub = {}, const T* x = nullptr, const Col* cols = nullptr) {
  using R = segments_reducer<P, T, Op>;
  using Acc = typename R::accum_type;
  constexpr bool is_sum = std::is_same_v<Op, op::sum>;
  constexpr bool is_arg_op = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
  constexpr bool is_min = std::is_same_v<Op, op::min> || std::is_same_v<Op, op::arg_min>;
  using Out = std::conditional_t<is_sum, Acc, std::conditional_t<is_arg_op, arg<T>, T>>;
  const index_t S = l.segments();
  INFO("policy " << P::name() << ", op " << std::string(Op::name) << ", offsets of " << sizeof(Off) << " bytes"
                 << std::string(x ? " (CSR)" : "") << ", " << l.describe());
  const auto offsets = upload<Off>(l.offsets);
  device_buffer<Out> out(static_cast<std::size_t>(S + 1));
  out.poison();
  R r;
  if constexpr (std::is_void_v<Col>) r(data.data(), offsets.get(), S, out.get());
  else r.dot(data.data(), cols, offsets.get(), S, x, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<Out> got(static_cast<std::size_t>(S + 1));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(got.data(), out.get(), got.size() * sizeof(Out), cudaMemcpyDeviceToHost));

  const long double u = unit_roundoff<Acc>();
  index_t bad = 0;
  for (index_t s = 0; s < S && bad < 5; ++s) {
    const row_truth& t = truth[s];
    const index_t len = l.offsets[s + 1] - l.offsets[s];
    bool ok = true;
    std::string seen = "tally " + show(got[s]);
    if constexpr (is_sum) {
      const long double v = static_cast<long double>(host_value(got[s]));
      const long double want = x ? t.dot : t.sum;
      const long double bound = segment_additions(len, P::threads, P::items) * u * (x ? t.abs_dot : t.abs_sum);
      ok = std::fabs(v - want) <= bound;
      seen += ", host " + std::to_string(static_cast<double>(want)) + ", bound " + std::to_string(static_cast<double>(bound));
      if constexpr (!std::is_same_v<CubOut, int>) {
        if (!cub.empty()) {
          const long double c = static_cast<long double>(host_value(cub[s]));
          ok = ok && std::fabs(v - c) <= bound + cub_segment_bound_additions(len) * u * t.abs_sum;
          seen += ", cub " + show(cub[s]);
        }
      }
    } else if (len == 0) {
      if constexpr (is_arg_op)
        ok = got[s].index == -1 && host_value(got[s].value) == host_value(static_cast<T>(Op{}.template identity<Acc>().value));
      else
        ok = host_value(got[s]) == host_value(static_cast<T>(Op{}.template identity<Acc>()));
    } else if constexpr (is_arg_op) {
      ok = host_value(got[s].value) == (is_min ? t.min : t.max) && got[s].index == (is_min ? t.arg_min : t.arg_max);
      if constexpr (!std::is_same_v<CubOut, int>)
        if (!cub.empty()) ok = ok && host_value(cub[s].value) == host_value(got[s].value) && cub[s].key == got[s].index;
    } else {
      ok = host_value(got[s]) == (is_min ? t.min : t.max);
      if constexpr (!std::is_same_v<CubOut, int>)
        if (!cub.empty()) ok = ok && host_value(cub[s]) == host_value(got[s]);
    }
    if (!ok) {
      ++bad;
      FAIL_CHECK("segment " << s << " of length " << len << ": " << seen << "; host min " << t.min << " at "
                            << t.arg_min << ", max " << t.max << " at " << t.arg_max);
    }
  }
  CHECK(bad == 0);
  CHECK(device_buffer<Out>::all_bytes(got[static_cast<std::size_t>(S)]));
  CHECK(data.changed() == 0);
}

// CUB's DeviceSegmentedReduce over the same buffers: Sum (in Acc) or ArgMax.
template <class Acc, class T, class Off>
std::vector<Acc> cub_segment_sums(const T* in, const Off* offsets, index_t segments) {
  device_buffer<Acc> out(static_cast<std::size_t>(segments));
  std::size_t bytes = 0;
  TALLY_TEST_CHECK_CUDA(cub::DeviceSegmentedReduce::Sum(nullptr, bytes, in, out.get(), segments, offsets, offsets + 1));
  device_buffer<unsigned char> temp(bytes);
  TALLY_TEST_CHECK_CUDA(cub::DeviceSegmentedReduce::Sum(temp.get(), bytes, in, out.get(), segments, offsets, offsets + 1));
  std::vector<Acc> h(static_cast<std::size_t>(segments));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(h.data(), out.get(), h.size() * sizeof(Acc), cudaMemcpyDeviceToHost));
  return h;
}
template <class T, class Off>
std::vector<cub::KeyValuePair<int, T>> cub_segment_arg_max(const T* in, const Off* offsets, index_t segments) {
  using KV = cub::KeyValuePair<int, T>;
  device_buffer<KV> out(static_cast<std::size_t>(segments));
  std::size_t bytes = 0;
  TALLY_TEST_CHECK_CUDA(cub::DeviceSegmentedReduce::ArgMax(nullptr, bytes, in, out.get(), segments, offsets, offsets + 1));
  device_buffer<unsigned char> temp(bytes);
  TALLY_TEST_CHECK_CUDA(cub::DeviceSegmentedReduce::ArgMax(temp.get(), bytes, in, out.get(), segments, offsets, offsets + 1));
  std::vector<KV> h(static_cast<std::size_t>(segments));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(h.data(), out.get(), h.size() * sizeof(KV), cudaMemcpyDeviceToHost));
  return h;
}

}  // namespace tally::test
