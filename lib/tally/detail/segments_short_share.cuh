// Shares of short segments: a block of the segment kernel (segments_kernel.cuh) whose share holds
// segments of a few elements each reads them a segment a thread, with no end count, walk or scan
// (docs/segments.md).
//
// The share runs from merge-path point (i, j) to (i1, j1): segment i is open at its start (it may
// have begun in an earlier share), segments i + 1 .. i1 - 1 begin and end inside it, and segment i1
// (when i1 < S) is open at its end. Thread t takes segments i + t, i + t + Threads, ..., two an
// iteration (four for 16-bit elements: short_shape): it loads the first 8 elements of each (4)
// straight from global memory, all in flight (a warp's segments lie side by side, so the L1 serves
// its lanes), folds each in order and writes its result; the offsets are loaded an iteration ahead.
// The rest of a segment's first 16 elements follows in rounds of 8 (4) loads in its lane; a longer
// segment (rare) is finished by its warp, coalesced, with a shuffle tree. The share's first segment
// (when it closes in the share) and its open last one become the share's two entries, as the tiles
// would leave them. A share is read this way when its segments average short_mean elements or
// fewer and every 32 consecutive ones hold short_window elements or fewer; the order of every
// combination depends on the offsets and the grid alone.
#pragma once
#include <tally/detail/segments_carry.cuh>
#include <tally/detail/segments_merge_path.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

// Shares whose segments average this many elements or fewer are read a segment a thread (with 8 the
// shares of uniform 2 - 12 went there too and gained nothing: docs/segments.md).
inline constexpr index_t short_mean = 6;
// The most elements 32 consecutive segments of such a share may hold: it bounds what a longer
// segment costs its warp.
inline constexpr int short_window = 16 * warp_size;
// Segments a thread an iteration, and elements a segment loads before its first fold: 2 and 8, or
// 4 and 4 for 16-bit elements over 32-bit offsets with states of 4 bytes or fewer (half and bf16
// sums, min, max), whose segments' loads are small: twice the segments in flight read uniform 0-4
// and every segment 4 12 % faster (H200). 4 and 4 spilled the float sum and the 16-bit kernels
// over 64-bit offsets (docs/segments.md).
template <class K>
struct short_shape {
  static constexpr bool quads =
      sizeof(typename K::element) == 2 && sizeof(typename K::state) <= 4 && sizeof(typename K::offset) == 4;
  static constexpr int batches = quads ? 4 : 2;
  static constexpr int ahead = quads ? 4 : 8;
};
// Elements a segment folds in its lane; the warp folds the rest of a longer one.
inline constexpr int short_in_lane = 16;
// Batches whose first offsets the share test loads (the others' are loaded when the share starts:
// four held the kernel's other values across the test, and the 16-bit kernel spilled).
inline constexpr int short_first_batches = 2;

template <class S>
struct short_share_states {
  S head;  // segment i over the share's elements (thread 0's; meaningful where i < i1)
  S tail;  // segment i1 over the share's elements from its start, or segment i's when i == i1
};

// The share's last segment, counted from its first (i): i1 where segment i1 exists (open at the
// share's end), else S - 1. Negative for a share with no segment.
TALLY_DEVICE index_t share_last_segment(index_t segments, index_t i, index_t i1) {
  return (i1 < segments ? i1 : i1 - 1) - i;
}

// The share's segments, relative to it: segment s is segment i + s, and its elements [b, e) are
// relative to the share's first element j, in the offsets' own width (32-bit arithmetic for 32-bit
// offsets: the share's first element is itself an offset value). Segment 0 starts at the share's
// start, segment `open` (i1 - i where i1 < S, else -1) ends at its end, and every bound is clamped
// to [0, z], z = j1 - j, so that offsets that break the precondition read nothing outside the share.
template <class Off>
struct short_segments {
  const Off* offsets;  // offsets + i
  Off first;           // offsets[0] + j: the share's first element
  Off z;               // the share's elements
  int last;            // the share's last segment
  int open;            // the segment open at its end, or -1

  TALLY_DEVICE short_segments(const Off* all, index_t segments, index_t base, index_t i, index_t j, index_t i1,
                              index_t j1)
      : offsets(all + i),
        first(static_cast<Off>(base + j)),
        z(static_cast<Off>(j1 - j)),
        last(static_cast<int>(share_last_segment(segments, i, i1))),
        open(i1 < segments ? static_cast<int>(i1 - i) : -1) {}

  struct raw {
    Off b, e;  // the offsets segment s needs, loaded apart from their use so that they can go ahead
  };
  TALLY_DEVICE raw load(int s) const {
    raw r{first, first};
    if (s <= last) {
      if (s != 0) r.b = offsets[s];
      if (s != open) r.e = offsets[s + 1];
    }
    return r;
  }
  // Segment s's elements [b, e); b = e = z past the share's last segment.
  TALLY_DEVICE void bounds(int s, raw r, int& b, int& e) const {
    const Off rb = r.b - first, re = r.e - first;
    b = static_cast<int>(s > last ? z : rb < Off{0} ? Off{0} : rb < z ? rb : z);
    e = static_cast<int>(s > last || s == open ? z : re < Off(b) ? Off(b) : re < z ? re : z);
  }
};

// Whether the share's segments average short_mean elements or fewer (and number fewer than 2^30, as
// do its elements: ints index them). No load: the merge-path points tell.
TALLY_DEVICE bool short_mean_fits(index_t segments, index_t i, index_t j, index_t i1, index_t j1) {
  const index_t last = share_last_segment(segments, i, i1);
  return last >= 0 && j1 - j <= short_mean * (last + 1) && j1 - j < (index_t{1} << 30) && last < (index_t{1} << 30);
}

// The offsets of short_share's first iteration, into first (short_share_fits loads them with its
// test; a planned call, which knows the test's answer, with short_share_first).
template <int Threads, class Off>
TALLY_DEVICE void load_short_first(const short_segments<Off>& at,
                                   typename short_segments<Off>::raw (&first)[short_first_batches]) {
#pragma unroll
  for (int k = 0; k < short_first_batches; ++k) first[k] = at.load(static_cast<int>(threadIdx.x) + k * Threads);
}
template <int Threads, class Off>
TALLY_DEVICE void short_share_first(const Off* offsets, index_t segments, index_t base, index_t i, index_t j,
                                    index_t i1, index_t j1,
                                    typename short_segments<Off>::raw (&first)[short_first_batches]) {
  load_short_first<Threads>(short_segments<Off>(offsets, segments, base, i, j, i1, j1), first);
}

// Whether a share that short_mean_fits is read by short_share: every 32 consecutive segments (a
// warp's in an iteration) hold short_window elements or fewer. Two loads a 32 segments, all of a
// thread's in flight, and with them the offsets of short_share's first iteration (into first).
// Called by every thread; the answer is uniform over the block.
template <int Threads, class Off>
TALLY_DEVICE bool short_share_fits(const Off* offsets, index_t segments, index_t base, index_t i, index_t j,
                                   index_t i1, index_t j1,
                                   typename short_segments<Off>::raw (&first)[short_first_batches]) {
  const short_segments<Off> at(offsets, segments, base, i, j, i1, j1);
  load_short_first<Threads>(at, first);
  bool fits = true;
#pragma unroll 4
  for (int s = warp_size * static_cast<int>(threadIdx.x); s <= at.last; s += warp_size * Threads) {
    const int z = s + warp_size - 1 < at.last ? s + warp_size - 1 : at.last;
    int b, e, bz, ez;
    at.bounds(s, at.load(s), b, e);
    at.bounds(z, at.load(z), bz, ez);
    fits &= ez - b <= short_window;
  }
  return __syncthreads_and(fits);
}

// Reads the share's segments a thread each (short_share_fits said it may, and loaded `first`).
// `begin` is where segment i begins (the elements' indices within it count from there). Called by
// every thread.
template <int Threads, class K>
TALLY_DEVICE short_share_states<typename K::state> short_share(const typename K::args& p, const typename K::op& op,
                                                              index_t base, index_t begin, index_t i, index_t j,
                                                              index_t i1, index_t j1,
                                                              const typename short_segments<typename K::offset>::raw (&first)[short_first_batches],
                                                              carry_slot<typename K::state>* slots) {
  using E = typename K::element;
  using S = typename K::state;
  using Acc = typename K::acc;
  using Off = typename K::offset;
  constexpr int batches = short_shape<K>::batches;
  constexpr int ahead = short_shape<K>::ahead;
  const int t = static_cast<int>(threadIdx.x);
  const int lane = t % warp_size;
  const short_segments<Off> at(p.offsets, p.segments, base, i, j, i1, j1);
  const E* const in = p.elements.in + (base + j);
  typename K::out* const out = p.out + i;
  short_share_states<S> r{op.template identity<Acc>(), op.template identity<Acc>()};
  typename short_segments<Off>::raw next[batches];
#pragma unroll
  for (int k = 0; k < batches; ++k) next[k] = k < short_first_batches ? first[k] : at.load(t + k * Threads);
  for (int s0 = t; s0 - lane <= at.last; s0 += batches * Threads) {  // warp-uniform: every lane meets the votes
    int b[batches], e[batches];
#pragma unroll
    for (int k = 0; k < batches; ++k) {
      at.bounds(s0 + k * Threads, next[k], b[k], e[k]);
      next[k] = at.load(s0 + (k + batches) * Threads);
    }
    E v[batches][ahead];
#pragma unroll
    for (int k = 0; k < batches; ++k)
#pragma unroll
      for (int u = 0; u < ahead; ++u) v[k][u] = u < e[k] - b[k] ? in[b[k] + u] : E{};
#pragma unroll
    for (int k = 0; k < batches; ++k) {
      const int s = s0 + k * Threads;
      const int length = e[k] - b[k];
      const index_t within0 = s == 0 ? j - begin : 0;  // + u: the element's index in its segment
      S acc = op.template identity<Acc>();
#pragma unroll
      for (int u = 0; u < ahead; ++u)
        if (u < length) acc = op(acc, op.template lift<Acc>(v[k][u], within0 + u));
      // Elements ahead .. short_in_lane - 1 in the lane, `ahead` a round, all in flight, while a
      // lane of the warp needs them. Not unrolled: unrolled, the 16-bit kernel spilled and lost 3 -
      // 7 % on long segments (docs/segments.md).
#pragma unroll 1
      for (int from = ahead; from < short_in_lane && __any_sync(full_mask, length > from); from += ahead) {
        E w[ahead];
#pragma unroll
        for (int u = 0; u < ahead; ++u) w[u] = from + u < length ? in[b[k] + from + u] : E{};
#pragma unroll
        for (int u = 0; u < ahead; ++u)
          if (from + u < length) acc = op(acc, op.template lift<Acc>(w[u], within0 + from + u));
      }
      // The rest of a longer segment (short_window elements at most): the warp folds it, coalesced,
      // and the total goes to its lane.
      for (unsigned longer = __ballot_sync(full_mask, length > short_in_lane); longer != 0; longer &= longer - 1) {
        const int owner = __ffs(longer) - 1;
        const int from = __shfl_sync(full_mask, b[k], owner);
        const int to = __shfl_sync(full_mask, e[k], owner);
        const index_t w = (__shfl_sync(full_mask, s, owner) == 0 ? j - begin : 0) - from;  // + q: the index
        S part = op.template identity<Acc>();
#pragma unroll 4
        for (int q = from + short_in_lane + lane; q < to; q += warp_size)
          part = op(part, op.template lift<Acc>(in[q], w + q));
        part = shfl_up(warp_reduce<warp_size>(part, op), owner);  // lane 0's total, in lane `owner`
        if (lane == owner) acc = op(acc, part);
      }
      if (s <= at.last) {
        if (s == at.open) r.tail = acc;  // open at the share's end (segment i itself where i == i1)
        else if (s == 0) r.head = acc;
        else store_words(out + s, op.template finalize<typename K::out>(acc));
      }
    }
  }
  // The open segment's state, to every thread: the carry the share leaves.
  if (at.open >= 0 && at.open % Threads == t) slots[0].value = r.tail;
  __syncthreads();
  if (at.open >= 0) r.tail = slots[0].value;
  return r;
}

}  // namespace tally::detail
