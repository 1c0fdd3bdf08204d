// Shares of long segments, folded by warps: a block of the segment kernel (segments_kernel.cuh) whose
// share holds few, long pieces of segments (warp_share_fits) cuts it among its warps by the merge
// path, an end weighing warp_end_weight elements, and each warp folds its part segment by segment:
// lane l every 32nd element of the segment, 64 bytes of loads in flight a round, a shuffle tree a
// segment, lane 0 writing the result. No tile, no end count, no walk; a barrier for the warps'
// points and one for their states. The loads are coalesced wherever the elements lie, which is what
// the begin / end form needs (its tiles' walk reads each thread's consecutive elements from the
// input, and cannot load a tile ahead: docs/segments.md).
//
// The warps' states meet as the tiles' threads' do (block_carry's rule, in warp order): a warp
// leaves whether it closes a segment, the state of its first close (head_part) and the state after
// its last (tail). The share's first close is segment i's, left to the fix-up in *head_state; the
// others are written. The order of combination depends on the offsets and the grid alone.
#pragma once
#include <tally/detail/segments_carry.cuh>
#include <tally/detail/segments_merge_path.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

// Loads a lane keeps in flight: 64 bytes (16 elements of 4 bytes, 8 of 8); 8 where states are
// larger than 8 bytes (arg_min / arg_max: 16 spill).
template <class E, class S>
inline constexpr int warp_share_unroll = sizeof(E) >= 8 || sizeof(S) > 8 ? 8 : 16;

// What an end costs a warp, in elements: a round of loads (a trip to memory, which no other load of
// the warp overlaps) and a shuffle tree.
template <class E, class S>
inline constexpr index_t warp_end_weight = index_t{warp_size} * warp_share_unroll<E, S>;

// The block's total of v (one per thread). Called by every thread, once a kernel.
template <int Threads>
TALLY_DEVICE index_t block_sum(index_t v) {
  __shared__ index_t warp_sums[Threads / warp_size];
#pragma unroll
  for (int offset = warp_size / 2; offset > 0; offset /= 2) v += __shfl_down_sync(full_mask, v, offset);
  if (threadIdx.x % warp_size == 0) warp_sums[threadIdx.x / warp_size] = v;
  __syncthreads();
  index_t total = 0;
#pragma unroll
  for (int w = 0; w < Threads / warp_size; ++w) total += warp_sums[w];
  return total;
}

// Whether the share from (i, j) to (i1, j1) is folded by warps: its pieces of segments take the
// warps at most 17/16 as many rounds as its elements alone would (a round reads warp_end_weight
// elements of one segment: a piece of 3 elements costs a round, as one of 500 does). The grid cuts
// its shares by the element source's end weight, which does not see that: a share of a long piece
// and a few hundred short segments would keep its warps a trip to memory a short segment. An end
// in every warp_end_weight elements at most, then one pass over the share's offsets. Called by
// every thread; the answer is uniform.
template <int Threads, class E, class S, class Off>
TALLY_DEVICE bool warp_share_fits(const Off* offsets, index_t base, index_t i, index_t j, index_t i1, index_t j1) {
  constexpr index_t W = warp_end_weight<E, S>;
  if (j1 <= j || (i1 - i) * W > j1 - j) return false;
  index_t rounds = 0;
  for (index_t s = i + static_cast<index_t>(threadIdx.x); s <= i1; s += Threads) {
    const index_t b = s == i ? j : static_cast<index_t>(offsets[s]) - base;
    const index_t e = s == i1 ? j1 : static_cast<index_t>(offsets[s + 1]) - base;
    rounds += e > b ? (e - b + W - 1) / W : 0;
  }
  return 16 * W * block_sum<Threads>(rounds) <= 17 * (j1 - j);
}

// Folds the share from merge-path point (i, j) to (i1, j1) with every segment read where the element
// source puts it; returns the state of segment i1 open at the share's end (i1 == i: the share's
// whole state). Segment i's state, where it closes in the share (i1 > i), goes to *head_state.
// Called by every thread; slots holds a warp's entry each.
template <int Threads, class K>
TALLY_DEVICE typename K::state warp_share(const typename K::args& p, const typename K::op& op, index_t base, index_t n,
                                          index_t i, index_t j, index_t i1, index_t j1,
                                          carry_slot<typename K::state>* slots, typename K::state* head_state) {
  using E = typename K::element;
  using S = typename K::state;
  using Acc = typename K::acc;
  constexpr int warps = Threads / warp_size;
  constexpr int unroll = warp_share_unroll<E, S>;
  constexpr index_t W = warp_end_weight<E, S>;
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  const int warp = static_cast<int>(threadIdx.x) / warp_size;

  // The warps' parts: warp w from point w to point w + 1 of equal costs.
  __shared__ merge_point points[warps + 1];
  const index_t c0 = i * W + j;
  const index_t c1 = i1 * W + j1;
  if (warp > 0) {
    const merge_point q = merge_path_point<W>(p.offsets, base, n, c0 + (c1 - c0) * warp / warps, i, i1);
    if (lane == 0) points[warp] = q;
  } else if (lane == 0) {
    points[0] = {i, j};
    points[warps] = {i1, j1};
  }
  __syncthreads();
  const merge_point from = points[warp];
  const merge_point to = points[warp + 1];

  // Elements [pos, pos + count) of a segment that starts at element `start`, which the source keeps
  // at `at` on: lane l folds every 32nd from l, all of a round's loads in flight; lane 0 gets the
  // total.
  const auto fold = [&](index_t at, index_t start, index_t pos, index_t count) {
    S acc = op.template identity<Acc>();
    if (count == 0) return acc;  // warp-uniform
    const E* src = p.elements.in + (at + (pos - start) + lane);  // this lane's first element
    index_t within = pos - start + lane;  // its index in the segment
    for (index_t k0 = 0; k0 < count; k0 += warp_size * unroll) {  // warp-uniform
      const index_t left = count - k0 - lane;  // this lane's elements from src on, times 32
      E x[unroll];
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (u * warp_size < left) x[u] = src[u * warp_size];
#pragma unroll
      for (int u = 0; u < unroll; ++u)
        if (u * warp_size < left) acc = op(acc, op.template lift<Acc>(x[u], within + u * warp_size));
      src += warp_size * unroll;
      within += warp_size * unroll;
    }
    return warp_reduce<warp_size>(acc, op);
  };

  // The warp's segments from.i .. to.i (the last open at its part's end), 32 at a time: lane l holds
  // segment s + l's start and end and where the source keeps it (one trip for all of them; the
  // begin / end form's begins[s] is a load).
  index_t known = from.i;  // the first segment whose bounds the lanes hold
  index_t my_start = 0, my_end = 0, my_at = 0;
  const auto learn = [&](index_t s0) {
    known = s0;
    const index_t s = s0 + lane;
    if (s <= to.i && s < p.segments) {
      my_start = static_cast<index_t>(p.offsets[s]) - base;
      my_end = static_cast<index_t>(p.offsets[s + 1]) - base;
      my_at = p.elements.start(s);
    }
  };
  learn(from.i);
  const auto bounds = [&](index_t s, index_t& at, index_t& start, index_t& end) {
    if (s - known == warp_size) learn(s);  // warp-uniform
    const int r = static_cast<int>(s - known);
    at = __shfl_sync(full_mask, my_at, r);
    start = __shfl_sync(full_mask, my_start, r);
    end = __shfl_sync(full_mask, my_end, r);
  };

  bool closes = false;
  S head_part = op.template identity<Acc>();
  index_t pos = from.j;
  index_t s = from.i;
  for (; s < to.i; ++s) {  // the segments that close in this part: warp-uniform
    index_t at, start, end;
    bounds(s, at, start, end);
    const S v = fold(at, start, pos, end - pos);
    if (!closes) head_part = v;
    else if (lane == 0) store_words(p.out + s, op.template finalize<typename K::out>(v));
    closes = true;
    pos = end;
  }
  S tail = op.template identity<Acc>();
  if (s < p.segments && pos < to.j) {  // the segment open at the part's end
    index_t at, start, end;
    bounds(s, at, start, end);
    tail = fold(at, start, pos, to.j - pos);
  }

  // The warps' states in warp order: each warp's lane 0 finishes its first close.
  if (lane == 0) slots[warp] = {tail, closes};
  __syncthreads();
  const block_carry_result<S> open = fold_warp_slots<warps>(slots, op.template identity<Acc>(), warp, op);
  if (lane == 0 && closes) {
    const S value = op(open.before, head_part);
    if (from.i == i) *head_state = value;  // the share's first close: left to the fix-up
    else store_words(p.out + from.i, op.template finalize<typename K::out>(value));
  }
  __syncthreads();  // *head_state is visible, and slots free for the fix-up
  return open.total;
}

}  // namespace tally::detail
