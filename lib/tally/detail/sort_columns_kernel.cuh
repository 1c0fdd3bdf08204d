// tile_sort::bank_columns<Select, Columns, Rows> (seed 003): a block of Columns threads holds its tile
// in shared memory as Rows rows of Columns keys, so that column c is bank c's own; thread c sorts
// column c alone with the seed's binary LSD radix sort (one pass a bit of key_order's rank, stable),
// and the block then merges the columns by Select (merge_heads_kernel.cuh), one head a step. A
// teaching composition, slow by design.
#pragma once
#include <type_traits>

#include <tally/detail/merge_heads_kernel.cuh>
#include <tally/detail/sort_steps.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::detail {

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
