// tile_sort::registers<Threads, Items>, the first step of tally::sort (as in CUB's BlockMergeSort):
// every block sorts one tile stably in key_order and writes it out. Each thread sorts its Items
// consecutive keys in registers with an odd-even transposition network, then log2(Threads) rounds
// merge runs of 1, 2, 4 ... threads' keys in pairs through shared memory, each thread finding its
// diagonal of the merge path and merging Items outputs. Values ride along: V = no_values sorts keys
// only.
#pragma once
#include <type_traits>

#include <tally/detail/sort_steps.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::detail {

template <int Threads, int Items, class K, class V>
__global__ void __launch_bounds__(Threads)
    sort_tile_kernel(const K* __restrict__ in_k, const V* __restrict__ in_v, K* __restrict__ out_k, V* __restrict__ out_v,
                     index_t n) {
  constexpr int tile = Threads * Items;
  constexpr bool pairs = !std::is_same_v<V, no_values>;
  __shared__ smem_array<K, smem_elements<tile, Items>> keys;
  __shared__ smem_array<V, smem_elements<tile, Items>> values;
  const index_t t0 = index_t{blockIdx.x} * tile;
  const int count = n - t0 < tile ? static_cast<int>(n - t0) : tile;
  const int tid = static_cast<int>(threadIdx.x);

  // Striped loads (coalesced, Items in flight a thread), then each thread reads its Items
  // consecutive keys.
  K k[Items];
  V v[Items];
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid + u * Threads;
    if (e < count) {
      k[u] = in_k[t0 + e];
      if constexpr (pairs) v[u] = in_v[t0 + e];
    }
  }
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid + u * Threads;
    if (e < count) {
      keys[padded(e)] = k[u];
      if constexpr (pairs) values[padded(e)] = v[u];
    }
  }
  __syncthreads();
  // A thread's keys past the tile's end rank last and stay after its real ones (the network only
  // swaps a strictly smaller key forward), and the merges below never reach them.
  using rank_t = typename key_order<K>::rank_t;
  rank_t r[Items];
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid * Items + u;
    if (e < count) {
      k[u] = keys[padded(e)];
      if constexpr (pairs) v[u] = values[padded(e)];
    }
    r[u] = e < count ? key_order<K>::rank(k[u]) : ~rank_t{0};
  }
#pragma unroll
  for (int round = 0; round < Items; ++round) {
#pragma unroll
    for (int u = round & 1; u + 1 < Items; u += 2) {
      if (r[u + 1] < r[u]) {
        const rank_t tr = r[u];
        r[u] = r[u + 1];
        r[u + 1] = tr;
        const K tk = k[u];
        k[u] = k[u + 1];
        k[u + 1] = tk;
        if constexpr (pairs) {
          const V tv = v[u];
          v[u] = v[u + 1];
          v[u + 1] = tv;
        }
      }
    }
  }
  // Runs of w threads' keys, merged in pairs.
#pragma unroll 1
  for (int w = 1; w < Threads; w *= 2) {
    __syncthreads();  // the last round's reads are done
#pragma unroll
    for (int u = 0; u < Items; ++u) {
      keys[padded(tid * Items + u)] = k[u];
      if constexpr (pairs) values[padded(tid * Items + u)] = v[u];
    }
    __syncthreads();
    const int first = tid & ~(2 * w - 1);  // the first thread of this pair of runs
    const int a0 = first * Items < count ? first * Items : count;
    const int b0 = a0 + w * Items < count ? a0 + w * Items : count;
    const int b1 = b0 + w * Items < count ? b0 + w * Items : count;
    const int la = b0 - a0, lb = b1 - b0;
    const int d = (tid - first) * Items < la + lb ? (tid - first) * Items : la + lb;
    const auto key = [&](int e) { return keys[padded(e)]; };
    const int i = smem_merge_path<K>(d, key, a0, la, b0, lb);
    int from[Items];
    serial_merge<Items, K>(key, a0, la, i, b0, lb, d - i, [&](int u, K x, int at) {
      k[u] = x;
      from[u] = at;
    });
    if constexpr (pairs) {
#pragma unroll
      for (int u = 0; u < Items; ++u)
        if (tid * Items + u < count) v[u] = values[padded(from[u])];
    }
  }
  // Blocked to striped through shared memory, for coalesced stores.
  __syncthreads();
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    keys[padded(tid * Items + u)] = k[u];
    if constexpr (pairs) values[padded(tid * Items + u)] = v[u];
  }
  __syncthreads();
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid + u * Threads;
    if (e < count) {
      out_k[t0 + e] = keys[padded(e)];
      if constexpr (pairs) out_v[t0 + e] = values[padded(e)];
    }
  }
}

}  // namespace tally::detail
