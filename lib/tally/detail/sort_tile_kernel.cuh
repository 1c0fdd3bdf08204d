// The first step of tally::sort: every block sorts one tile of the input in shared memory, stably, in
// key_order, and writes it out. How it sorts is the tile policy (tile_sort in sort.cuh):
//
// registers<Threads, Items> (the default, as in CUB's BlockMergeSort): each thread sorts its Items
// consecutive keys in registers with an odd-even transposition network, then log2(Threads) rounds
// merge runs of 1, 2, 4 ... threads' keys in pairs through shared memory, each thread finding its
// diagonal of the merge path (Odeh et al., 2012) and merging Items outputs.
//
// bank_columns<Select, Columns, Rows> (seed 003): the tile sits in shared memory as Rows rows of
// Columns keys, so that column c is bank c's own; thread c sorts column c alone with the seed's binary
// LSD radix sort (one pass a bit of key_order's rank, stable), and the block then merges the columns
// by Select (merge_heads_kernel.cuh), one head a step.
//
// Values ride along: V = no_values sorts keys only.
#pragma once
#include <type_traits>

#include <tally/detail/merge_heads_kernel.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::detail {

struct no_values {};

// Shared-memory position of element k of a tile: one word of padding every 32, so that a thread's
// Items consecutive elements and a warp's strided ones both spread over the banks.
TALLY_DEVICE int padded(int k) { return k + (k >> 5); }

// An array of N T in shared memory, or nothing for no_values.
template <class T, int N>
struct smem_array {
  T data[N];
  TALLY_DEVICE T& operator[](int i) { return data[i]; }
  TALLY_DEVICE const T& operator[](int i) const { return data[i]; }
};
template <int N>
struct smem_array<no_values, N> {
  TALLY_DEVICE no_values operator[](int) const { return {}; }
};

// How many of the first d outputs of merging a = [a0, a0 + la) and b = [b0, b0 + lb) (32-bit
// positions in shared memory, key(position) reads one) come from a; a's key first on a tie.
template <class K, class Get>
TALLY_DEVICE int smem_merge_path(int d, Get key, int a0, int la, int b0, int lb) {
  int lo = d > lb ? d - lb : 0, hi = d < la ? d : la;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (key_order<K>::less(key(b0 + d - 1 - mid), key(a0 + mid))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Merges Items outputs starting at a[i], b[j] (positions as above), passing each to
// emit(u, key, tile position it came from); outputs past la + lb are unspecified. Without branches:
// each step takes one head and loads its successor (one shared load, one rank); a head past its run
// is never taken, and its load may read up to Items + 1 elements past the merged range (shared
// arrays are sized for it: smem_elements below).
template <int Items, class K, class Get, class Emit>
TALLY_DEVICE void serial_merge(Get key, int a0, int la, int i, int b0, int lb, int j, Emit emit) {
  using rank_t = typename key_order<K>::rank_t;
  K ka = key(a0 + i), kb = key(b0 + j);
  rank_t ra = key_order<K>::rank(ka), rb = key_order<K>::rank(kb);
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const bool take_b = j < lb && (i >= la || rb < ra);
    emit(u, take_b ? kb : ka, take_b ? b0 + j : a0 + i);
    i += take_b ? 0 : 1;
    j += take_b ? 1 : 0;
    const K x = key(take_b ? b0 + j : a0 + i);
    const rank_t rx = key_order<K>::rank(x);
    ka = take_b ? ka : x;
    ra = take_b ? ra : rx;
    kb = take_b ? x : kb;
    rb = take_b ? rx : rb;
  }
}

// Elements a shared array of a tile of Tile elements (and values) holds: the padded tile and the
// reads serial_merge makes past its end.
template <int Tile, int Items>
inline constexpr int smem_elements = Tile + Items + 1 + (Tile + Items + 1) / 32 + 1;

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

// Seed 003's tile sort: Columns threads, a tile of Columns x Rows keys in shared memory, column c at
// c, c + Columns, ... (bank c's for 4-byte keys); thread c radix-sorts its column, then the block
// merges the columns by Select, writing each output as it is chosen. The seed fills the columns
// row by row (element e in column e % Columns); here column c holds the tile's c-th run of Rows
// elements, since with the seed's filling the lowest column winning a tie is not the stable choice.
template <class Select, int Columns, int Rows, class K, class V>
__global__ void __launch_bounds__(Columns)
    sort_columns_kernel(const K* __restrict__ in_k, const V* __restrict__ in_v, K* __restrict__ out_k, V* __restrict__ out_v,
                        index_t n) {
  constexpr int tile = Columns * Rows;
  constexpr bool pairs = !std::is_same_v<V, no_values>;
  using rank_t = typename key_order<K>::rank_t;
  __shared__ K keys[tile], ones_k[tile];
  __shared__ smem_array<V, tile> values, ones_v;
  __shared__ typename Select::template storage<rank_t, Columns> pick;
  const index_t t0 = index_t{blockIdx.x} * tile;
  const int count = n - t0 < tile ? static_cast<int>(n - t0) : tile;
  const int c = static_cast<int>(threadIdx.x);
  // Coalesced loads into the scratch arrays, then column c takes the tile's elements
  // [c * Rows, (c + 1) * Rows): consecutive elements in one column, so that the lowest column wins a
  // tie in the merge is the stable choice.
  for (int e = c; e < count; e += Columns) {
    ones_k[e] = in_k[t0 + e];
    if constexpr (pairs) ones_v[e] = in_v[t0 + e];
  }
  __syncthreads();
  const int len = count - c * Rows < 0 ? 0 : (count - c * Rows < Rows ? count - c * Rows : Rows);
  for (int r = 0; r < len; ++r) {
    keys[c + r * Columns] = ones_k[c * Rows + r];
    if constexpr (pairs) values[c + r * Columns] = ones_v[c * Rows + r];
  }
  __syncthreads();  // ones_k is this thread's own column from here on
  const int end = c + len * Columns;
  // The seed's radix_sort2: for each bit of the rank, the zeros stay (compacted), the ones go to a
  // second array and are appended after them; stable, so the column ends sorted.
  for (int bit = 0; bit < static_cast<int>(8 * sizeof(rank_t)); ++bit) {
    int zeros = c, ones = c;
    for (int e = c; e < end; e += Columns) {
      const K x = keys[e];
      if ((key_order<K>::rank(x) >> bit) & 1) {
        ones_k[ones] = x;
        if constexpr (pairs) ones_v[ones] = values[e];
        ones += Columns;
      } else {
        keys[zeros] = x;
        if constexpr (pairs) values[zeros] = values[e];
        zeros += Columns;
      }
    }
    for (int e = c; e < ones; e += Columns, zeros += Columns) {
      keys[zeros] = ones_k[e];
      if constexpr (pairs) values[zeros] = ones_v[e];
    }
  }
  // The merge: thread c's head is its column's next key; every step the block picks the smallest
  // (the lowest column on a tie, which is the earlier element of the tile: stable).
  int at = c;
  for (int i = 0; i < count; ++i) {
    const bool has = at < end;
    const int w = Select::template pick<Columns>(has ? key_order<K>::rank(keys[at]) : rank_t{0}, has, pick);
    if (c == w) {
      out_k[t0 + i] = keys[at];
      if constexpr (pairs) out_v[t0 + i] = values[at];
      at += Columns;
    }
  }
}

}  // namespace tally::detail
