// One pass of tally::merge: sorted runs merged in pairs by merge path (Odeh, Green, Mwassi, Shmueli and
// Birk, "Merge Path - Parallel Merging Made Simple", 2012), every key moved once.
//
// Run r of a pass is lists [r * run, (r + 1) * run) of the caller's offsets, already one sorted run in
// `in`; pair p merges runs 2p (A) and 2p + 1 (B) into out's range of the same two runs. The runs stay
// where the caller's lists were, so the pass needs no offsets of its own and the offsets never leave
// the device. The split kernel first places every tile boundary of the output (Threads * Items
// outputs a tile): its pair, and how many of the pair's outputs before it come from A (a binary search
// along the merge path, stable: A's key first on a tie). The merge kernel's block then takes a tile,
// cut at the ends of the pairs it crosses; for each piece the A and B keys go to shared memory, each
// thread merges Items outputs from its own diagonal there, and the block writes the piece out in
// order (coalesced).
#pragma once
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::detail {

// How many of the first d outputs of merging a[0, la) and b[0, lb) come from a, A first on ties.
template <class K, class Get_a, class Get_b>
TALLY_DEVICE index_t merge_path(index_t d, index_t la, index_t lb, Get_a a, Get_b b) {
  index_t lo = d > lb ? d - lb : 0, hi = d < la ? d : la;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo) / 2;
    if (key_order<K>::less(b(d - 1 - mid), a(mid))) hi = mid;  // b's key goes first: fewer from a
    else lo = mid + 1;
  }
  return lo;
}

// The start of run r (lists [r * run, ...)) in the caller's offsets, past the end clamped to it.
template <class Offset>
TALLY_DEVICE index_t run_start(const Offset* offsets, index_t lists, index_t run, index_t r) {
  const index_t l = r * run < lists ? r * run : lists;
  return static_cast<index_t>(offsets[l]);
}

// The pair holding output position pos: the last of the `pairs` pairs that starts at or before it (a
// later one starts past pos).
template <class Offset>
TALLY_DEVICE index_t pair_at(const Offset* offsets, index_t lists, index_t run, index_t pairs, index_t pos) {
  index_t lo = 0, hi = pairs - 1;
  while (lo < hi) {
    const index_t mid = lo + (hi - lo + 1) / 2;
    if (run_start(offsets, lists, run, 2 * mid) <= pos) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// Where a tile boundary falls: its pair, the pair's runs A = [a0, b0) and B = [b0, b1), and how many
// of the pair's outputs before the boundary come from A.
struct merge_split {
  index_t pair, a, a0, b0, b1;
};

// Every tile boundary t (output position first + t * Tile, or the end) at once, one thread each, so
// that a tile of the merge kernel starts from one load instead of searches and offsets.
template <index_t Tile, class K, class Offset>
__global__ void merge_split_kernel(const K* __restrict__ in, const Offset* __restrict__ offsets, index_t lists, index_t run,
                                   index_t boundaries, merge_split* __restrict__ split) {
  const index_t pairs = (lists + 2 * run - 1) / (2 * run);
  const index_t first = static_cast<index_t>(offsets[0]), last = static_cast<index_t>(offsets[lists]);
  for (index_t t = index_t{blockIdx.x} * blockDim.x + threadIdx.x; t < boundaries; t += index_t{gridDim.x} * blockDim.x) {
    const index_t pos = first + t * Tile < last ? first + t * Tile : last;
    const index_t p = pair_at(offsets, lists, run, pairs, pos);
    const index_t a0 = run_start(offsets, lists, run, 2 * p), b0 = run_start(offsets, lists, run, 2 * p + 1),
                  b1 = run_start(offsets, lists, run, 2 * p + 2);
    const K* a = in + a0;
    const K* b = in + b0;
    const index_t i = merge_path<K>(pos - a0, b0 - a0, b1 - b0, [a](index_t x) { return a[x]; }, [b](index_t x) { return b[x]; });
    split[t] = {p, i, a0, b0, b1};
  }
}

// Full occupancy (2048 threads an SM) asked of the register allocator: 32 registers, no spills at
// 256 x 8, twice the resident blocks of the unbounded kernel (docs/merge.md).
template <int Threads, int Items, class K, class Offset>
__global__ void __launch_bounds__(Threads, 2048 / Threads)
    merge_pass_kernel(const K* __restrict__ in, K* __restrict__ out, const Offset* __restrict__ offsets, index_t lists,
                      index_t run, index_t tiles, const merge_split* __restrict__ split) {
  constexpr index_t tile = index_t{Threads} * Items;
  using rank_t = typename key_order<K>::rank_t;
  // Output k of a piece is staged at k + k / 32: a thread's Items consecutive outputs would otherwise
  // put the lanes of a warp Items words apart, on the same few banks.
  const auto staged_at = [](int k) { return k + (k >> 5); };
  __shared__ K keys[tile];                 // the piece's A keys, then its B keys
  __shared__ K merged[tile + tile / 32];   // the piece in output order, padded
  const index_t first = static_cast<index_t>(offsets[0]), last = static_cast<index_t>(offsets[lists]);
  for (index_t t = blockIdx.x; t < tiles; t += gridDim.x) {
    const index_t t0 = first + t * tile, t1 = t0 + tile < last ? t0 + tile : last;
    const merge_split here = split[t];
    const index_t next_pair = split[t + 1].pair, next_a = split[t + 1].a;
    index_t p = here.pair, i0 = here.a, a0 = here.a0, b0 = here.b0, b1 = here.b1;
    // Pieces: the tile cut at the ends of its pairs. Every thread walks the same pieces.
    for (index_t pos = t0; pos < t1;) {
      const index_t la = b0 - a0;
      // A piece ends at the tile's end (the next boundary is in this pair) or at its pair's end.
      const index_t end = next_pair == p ? t1 : b1;
      const index_t i1 = next_pair == p ? next_a : la;
      const index_t d0 = pos - a0, d1 = end - a0;
      const int na = static_cast<int>(i1 - i0), nb = static_cast<int>((d1 - i1) - (d0 - i0)), count = na + nb;
      // Items loads in flight a thread, then the stores: a loop to `count` would wait for each load.
      K staged[Items];
#pragma unroll
      for (int u = 0; u < Items; ++u) {
        const int k = static_cast<int>(threadIdx.x) + u * Threads;
        if (k < count) staged[u] = k < na ? in[a0 + i0 + k] : in[b0 + (d0 - i0) + (k - na)];
      }
#pragma unroll
      for (int u = 0; u < Items; ++u) {
        const int k = static_cast<int>(threadIdx.x) + u * Threads;
        if (k < count) keys[k] = staged[u];
      }
      __syncthreads();
      // This thread's outputs [s, s + Items) of the piece, from keys[0, na) and keys[na, count): its
      // diagonal (32-bit, in shared memory), then one comparison and one load an output, the two heads
      // in registers.
      const int s = static_cast<int>(threadIdx.x) * Items;
      if (s < count) {
        int lo = s > nb ? s - nb : 0, hi = s < na ? s : na;
        while (lo < hi) {
          const int mid = (lo + hi) >> 1;
          if (key_order<K>::less(keys[na + s - 1 - mid], keys[mid])) hi = mid;
          else lo = mid + 1;
        }
        int i = lo, j = s - lo;
        // The heads and their ranks (each key ranked once); a head past its run is never taken.
        K ka = i < na ? keys[i] : K{}, kb = j < nb ? keys[na + j] : K{};
        rank_t ra = key_order<K>::rank(ka), rb = key_order<K>::rank(kb);
        const int e = s + Items < count ? s + Items : count;
#pragma unroll
        for (int u = 0; u < Items; ++u) {
          const int k = s + u;
          if (k < e) {
            const bool take_b = i >= na || (j < nb && rb < ra);
            merged[staged_at(k)] = take_b ? kb : ka;
            if (take_b) {
              ++j;
              if (j < nb) {
                kb = keys[na + j];
                rb = key_order<K>::rank(kb);
              }
            } else {
              ++i;
              if (i < na) {
                ka = keys[i];
                ra = key_order<K>::rank(ka);
              }
            }
          }
        }
      }
      __syncthreads();
#pragma unroll
      for (int u = 0; u < Items; ++u) {
        const int k = static_cast<int>(threadIdx.x) + u * Threads;
        if (k < count) out[pos + k] = merged[staged_at(k)];
      }
      __syncthreads();  // keys and merged are reused by the next piece
      pos = end;
      // The next piece starts the next pair at its first output (an empty pair gives an empty piece).
      ++p;
      i0 = 0;
      if (pos < t1) {
        a0 = run_start(offsets, lists, run, 2 * p);
        b0 = run_start(offsets, lists, run, 2 * p + 1);
        b1 = run_start(offsets, lists, run, 2 * p + 2);
      }
    }
  }
}

}  // namespace tally::detail
