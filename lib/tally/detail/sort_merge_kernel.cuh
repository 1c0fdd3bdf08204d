// One merge pass of tally::sort: sorted runs of `run` keys (the last one shorter) merged in pairs, by
// merge path (Odeh et al., 2012), every key (and value) moved once.
//
// The runs are arithmetic: pair p is A = [2p * run, (2p + 1) * run) and B = [(2p + 1) * run,
// (2p + 2) * run), cut at n. Tiles are Threads * Items outputs and run is a multiple of the tile
// (tally::sort's passes start at its tile sort's tile, at least half the merge tile, and double), so a
// tile never crosses a pair. A block first places its tile's two ends on its pair's merge path (how many of
// the pair's outputs before each come from A; stable: A first on a tie), a warp each; then it loads
// the tile's A and B keys into shared memory, each thread finds its diagonal there and merges Items
// outputs into a second shared array, and the block stores them (coalesced). Values follow their
// keys: each output remembers where in the tile it came from.
#pragma once
#include <cuda_pipeline.h>

#include <tally/detail/merge_kernel.cuh>
#include <tally/detail/sort_steps.cuh>

namespace tally::detail {

// How many of the first pos - a0 outputs of the pair holding output position pos come from its A run,
// A first on a tie: the pair's merge path at pos, found by one whole warp. Each step the 32 lanes
// test 32 evenly spaced points of the remaining range at once, so a search over 2^24 keys takes 5
// rounds of loads instead of 24.
template <class K>
TALLY_DEVICE index_t warp_split(const K* __restrict__ in, index_t n, index_t run, index_t pos) {
  const int lane = static_cast<int>(threadIdx.x) & 31;
  const index_t a0 = pos / (2 * run) * (2 * run);
  const index_t b0 = a0 + run < n ? a0 + run : n, b1 = b0 + run < n ? b0 + run : n;
  const index_t d = pos - a0, la = b0 - a0, lb = b1 - b0;
  // The answer: the first x in [lo, hi) with b[d - 1 - x] < a[x] (fewer from A past it), else hi.
  index_t lo = d > lb ? d - lb : 0, hi = d < la ? d : la;
  while (lo < hi) {
    const index_t span = hi - lo;
    // Lane l tests lo + span * l / 32; with span <= 32 every x in [lo, hi) is tested and the search ends.
    const index_t x = span <= 32 ? lo + lane : lo + span * lane / 32;
    const bool past = x < hi && key_order<K>::less(in[b0 + d - 1 - x], in[a0 + x]);
    const unsigned ballot = __ballot_sync(0xffffffffu, past);
    const int f = ballot ? __ffs(ballot) - 1 : 32;  // the first lane whose point is past the answer
    if (span <= 32) {
      lo = hi = f < 32 ? lo + f : hi;
    } else {
      const index_t next_hi = f < 32 ? lo + span * f / 32 : hi;
      lo = f > 0 ? lo + span * (f - 1) / 32 + 1 : lo;
      hi = next_hi;
    }
  }
  return lo;
}

// Every tile boundary's split at once, a thread each (a binary search along the merge path): one
// chain of dependent loads a boundary, for large sorts, where a block that searched itself would
// leave its SM's memory pipe idle meanwhile.
template <index_t Tile, class K>
__global__ void sort_split_kernel(const K* __restrict__ in, index_t n, index_t run, index_t boundaries,
                                  index_t* __restrict__ split) {
  for (index_t t = index_t{blockIdx.x} * blockDim.x + threadIdx.x; t < boundaries; t += index_t{gridDim.x} * blockDim.x) {
    const index_t pos = t * Tile < n ? t * Tile : n;
    const index_t a0 = pos / (2 * run) * (2 * run);
    const index_t b0 = a0 + run < n ? a0 + run : n, b1 = b0 + run < n ? b0 + run : n;
    const K* a = in + a0;
    const K* b = in + b0;
    split[t] = merge_path<K>(pos - a0, b0 - a0, b1 - b0, [a](index_t x) { return a[x]; }, [b](index_t x) { return b[x]; });
  }
}

// Blocks an SM the merge kernel asks the register allocator for: 1536 threads (40 registers) where
// keys go alone, 1024 with values.
template <int Threads, class K, class V>
inline constexpr int merge_blocks_per_sm = (std::is_same_v<V, no_values> ? 1536 : 1024) / Threads;

// Keys merge straight from one shared array into another (the staged output), so no thread holds
// its Items outputs in registers: 40 registers or fewer, six blocks an SM (docs/sort.md).
template <int Threads, int Items, class K, class V>
__global__ void __launch_bounds__(Threads, merge_blocks_per_sm<Threads, K, V>)
    sort_merge_kernel(const K* __restrict__ in_k, const V* __restrict__ in_v, K* __restrict__ out_k, V* __restrict__ out_v,
                      index_t n, index_t run, const index_t* __restrict__ split) {
  constexpr int tile = Threads * Items;
  constexpr bool pairs = !std::is_same_v<V, no_values>;
  __shared__ smem_array<K, smem_elements<tile, Items>> keys;  // the tile's A keys, then its B keys
  // Keys alone merge into a second array; with values (three arrays would pass 48 KB) each thread
  // holds its outputs in registers and the block stages them back into the first two.
  __shared__ smem_array<std::conditional_t<pairs, no_values, K>, smem_elements<tile, Items>> merged;
  __shared__ smem_array<V, smem_elements<tile, Items>> values;  // in A-then-B order, then in output order
  const int tid = static_cast<int>(threadIdx.x);
  const index_t t0 = index_t{blockIdx.x} * tile;
  const index_t a0 = t0 / (2 * run) * (2 * run);
  const index_t b0 = a0 + run < n ? a0 + run : n, b1 = b0 + run < n ? b0 + run : n;
  const index_t t1 = t0 + tile < b1 ? t0 + tile : b1;
  // This tile's outputs come from A[i0, i1) and B[j0, j1): warp 0 finds i0, warp 1 i1 (none needed
  // where the tile ends its pair). A block's searches overlap other blocks' merging.
  __shared__ index_t ends[2];
  if (split != nullptr) {
    if (tid < 2) ends[tid] = tid == 1 && t1 == b1 ? b0 - a0 : split[blockIdx.x + tid];
  } else if (tid < 64) {
    const int w = tid / 32;
    const index_t i = w == 1 && t1 == b1 ? b0 - a0 : warp_split(in_k, n, run, w == 0 ? t0 : t1);
    if ((tid & 31) == 0) ends[w] = i;
  }
  __syncthreads();
  const index_t i0 = ends[0], i1 = ends[1];
  const index_t j0 = (t0 - a0) - i0, j1 = (t1 - a0) - i1;
  const int na = static_cast<int>(i1 - i0), nb = static_cast<int>(j1 - j0), count = na + nb;
  const K* a_k = in_k + a0 + i0;
  const K* b_k = in_k + b0 + j0 - na;  // b_k[e] for e in [na, count)
  // Global to shared memory without passing through registers (cp.async, sm_80 and later): all of
  // a thread's Items loads in flight at once at no register cost.
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid + u * Threads;
    if (e < count) {
      __pipeline_memcpy_async(&keys[e], e < na ? a_k + e : b_k + e, sizeof(K));
      if constexpr (pairs) __pipeline_memcpy_async(&values[e], e < na ? in_v + (a0 + i0 + e) : in_v + (b0 + j0 - na + e), sizeof(V));
    }
  }
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  const int d = tid * Items < count ? tid * Items : count;
  // The merge reads the keys unpadded (its reads are scattered: padding would not spread them); the
  // staged outputs, Items consecutive a thread, are padded. s is a multiple of Items, so a thread's
  // outputs never cross a padding word: padded(s + u) = padded(s) + u.
  const auto key = [&](int e) { return keys[e]; };
  const int i = smem_merge_path<K>(d, key, 0, na, na, nb);
  const int s = padded(tid * Items);
  if constexpr (!pairs) {
    serial_merge<Items, K>(key, 0, na, i, na, nb, d - i, [&](int u, K x, int) { merged[s + u] = x; });
    __syncthreads();
#pragma unroll
    for (int u = 0; u < Items; ++u) {
      const int e = tid + u * Threads;
      if (e < count) out_k[t0 + e] = merged[padded(e)];
    }
  } else {
    K k[Items];
    V v[Items];
    int from[Items];
    serial_merge<Items, K>(key, 0, na, i, na, nb, d - i, [&](int u, K x, int at) {
      k[u] = x;
      from[u] = at;
    });
#pragma unroll
    for (int u = 0; u < Items; ++u)
      if (d + u < count) v[u] = values[from[u]];
    __syncthreads();  // every thread has read its keys and values
#pragma unroll
    for (int u = 0; u < Items; ++u)
      if (d + u < count) {
        keys[s + u] = k[u];
        values[s + u] = v[u];
      }
    __syncthreads();
#pragma unroll
    for (int u = 0; u < Items; ++u) {
      const int e = tid + u * Threads;
      if (e < count) {
        out_k[t0 + e] = keys[padded(e)];
        out_v[t0 + e] = values[padded(e)];
      }
    }
  }
}

}  // namespace tally::detail
