// Merge-path points of the segment kernel (segments_kernel.cuh): where a share of the merged
// sequence of segment ends and elements starts, for a block (split_share) or a warp
// (merge_path_point), or for a whole grid once, for many calls (segments_split_kernel).
//
// End s (e_s = offsets[s + 1] - base) weighs W elements: the point of cost c is i ends (those with
// s * W + e_s < c, a prefix of the ends since s * W + e_s grows with s) and
// j = max(c - i * W, e_(i-1)) elements, so that e_(i-1) <= j <= e_i.
#pragma once
#include <tally/policies/config.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

TALLY_DEVICE index_t lesser(index_t a, index_t b) { return a < b ? a : b; }
TALLY_DEVICE index_t greater(index_t a, index_t b) { return a > b ? a : b; }

struct merge_point {
  index_t i;  // ends before it
  index_t j;  // elements before it
};

// The point of cost c, searched by one warp over ends [lo, hi) (the answer lies in [lo, hi]): each
// lane probes split_probes offsets a round, all in flight together, counted by ballots:
// log_128(hi - lo) rounds, then a trip for e_(i-1). Few probes keep a grid's searches within L2's
// request rate (the whole block probing, 256 or 2048 offsets a round, took longer:
// docs/segments.md). Every lane of the warp calls it and gets the answer.
inline constexpr int split_probes = 4;

template <index_t W, class Off>
TALLY_DEVICE merge_point merge_path_point(const Off* offsets, index_t base, index_t n, index_t c, index_t lo,
                                          index_t hi) {
  constexpr index_t fan = index_t{warp_size} * split_probes;  // probes a round
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  while (hi > lo) {
    const index_t span = hi - lo;
    const index_t step = span / fan + (span % fan != 0);
    bool before[split_probes];
#pragma unroll
    for (int q = 0; q < split_probes; ++q) {
      const index_t s = lo + (index_t{q} * warp_size + lane) * step;
      before[q] = s < hi && s * W + (static_cast<index_t>(offsets[s + 1]) - base) < c;
    }
    index_t count = 0;  // probes 0 .. count-1 hold, the rest do not
#pragma unroll
    for (int q = 0; q < split_probes; ++q) count += __popc(__ballot_sync(full_mask, before[q]));
    if (step == 1) {
      lo += count;
      break;
    }
    const index_t next_hi = lo + count * step;
    lo = count == 0 ? lo : lo + (count - 1) * step + 1;
    hi = next_hi < hi ? next_hi : hi;
  }
  const index_t previous_end = lesser(greater(static_cast<index_t>(offsets[lo]) - base, 0), n);  // e_(i-1)
  return {lo, lesser(greater(c - lo * W, previous_end), n)};
}

// The cost line that a grid of `blocks` blocks splits: the offsets' base (offsets[0]), the elements
// n (offsets[S] - base, 0 if negative), the cost S * W + n, and each block's share of it (block b's
// starts at start(b)). The kernel and the plans' split compute it alike.
struct cost_line {
  index_t base, n, cost, share;
  TALLY_DEVICE index_t start(index_t b) const { return lesser(b * share, cost); }
};
template <index_t W, class Off>
TALLY_DEVICE cost_line cost_line_of(const Off* offsets, index_t segments, index_t blocks) {
  const index_t base = static_cast<index_t>(offsets[0]);
  const index_t top = static_cast<index_t>(offsets[segments]) - base;
  const index_t n = top > 0 ? top : 0;
  const index_t cost = segments * W + n;
  return {base, n, cost, cost / blocks + (cost % blocks != 0)};
}

// Where the block's share [c0, c1) of the cost S * W + n starts and ends: points (i0, j0) and
// (i1, j1), warps 0 and 1 searching side by side. Every thread calls it and gets the answer.
template <int Threads, index_t W, class Off>
TALLY_DEVICE void split_share(const Off* offsets, index_t segments, index_t base, index_t n, index_t c0, index_t c1,
                              index_t& i0, index_t& j0, index_t& i1, index_t& j1) {
  constexpr int warps = Threads / warp_size;
  __shared__ merge_point points[2];  // the share's start and end
  for (int k = static_cast<int>(threadIdx.x) / warp_size; k < 2; k += warps) {  // warp-uniform
    const index_t c = k == 0 ? c0 : c1;
    const merge_point q = merge_path_point<W>(offsets, base, n, c, 0, lesser(segments, c / W + 1));
    if (threadIdx.x % warp_size == 0) points[k] = q;
  }
  __syncthreads();
  i0 = points[0].i;
  j0 = points[0].j;
  i1 = points[1].i;
  j1 = points[1].j;
}

// How a segments_kernel finds its share: by its searches (split_share), from a segments_plan
// (planned_share), or, planning, from the plan's points to record each share's path for the planned
// calls (the short-share tests' answers), doing no other work.
enum class split_mode { search, planned, planning };

// The same from a segments_plan's points (block b's share runs from points[b] to points[b + 1]),
// clamped to this call's segments and elements: offsets changed since the plan (against its
// contract) still read nothing outside them. (Through shared memory, as split_share's, it ran no
// faster: docs/segments.md.)
TALLY_DEVICE void planned_share(const merge_point* points, index_t segments, index_t n, index_t& i0, index_t& j0,
                                index_t& i1, index_t& j1) {
  const merge_point a = points[blockIdx.x], b = points[blockIdx.x + 1];
  i0 = lesser(a.i, segments);
  j0 = lesser(a.j, n);
  i1 = lesser(greater(b.i, i0), segments);
  j1 = lesser(greater(b.j, j0), n);
}

// A segments_plan's points (reduce_segments.cuh): warp k finds point k of a grid of `grid` blocks,
// k = 0 .. grid, as split_share would for block k's start (block grid - 1's end is point grid).
template <index_t W, class Off>
__global__ void segments_split_kernel(const Off* offsets, index_t segments, int grid, merge_point* points) {
  const index_t k = (static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x) / warp_size;
  if (k > grid) return;  // warp-uniform
  const cost_line line = cost_line_of<W>(offsets, segments, grid);
  const index_t c = line.start(k);
  const merge_point q = merge_path_point<W>(offsets, line.base, line.n, c, 0, lesser(segments, c / W + 1));
  if (threadIdx.x % warp_size == 0) points[k] = q;
}

}  // namespace tally::detail
