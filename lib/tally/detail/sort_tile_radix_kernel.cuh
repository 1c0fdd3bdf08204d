// tile_sort::radix<Threads, Items, Bits>: a block sorts its tile with CUB's BlockRadixSort (LSD, Bits
// bits a pass, stable) on key_order's ranks. Integer keys sort their ranks alone and are restored
// from them (the rank is a bijection there); float and double keys, and pairs, sort each rank with
// the element's position in the tile, and the block then gathers keys (and values) by position, so
// NaN payloads come back as they went in. The sort is stable because the ranks go in in tile order
// (blocked) and BlockRadixSort keeps equal ranks in that order; all NaNs share one rank.
#pragma once
#include <cstdint>
#include <type_traits>

#include <cub/block/block_load.cuh>
#include <cub/block/block_radix_sort.cuh>

#include <tally/detail/sort_steps.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::detail {

template <int Threads, int Items, int Bits, class K, class V>
__global__ void __launch_bounds__(Threads)
    sort_tile_radix_kernel(const K* __restrict__ in_k, const V* __restrict__ in_v, K* __restrict__ out_k, V* __restrict__ out_v,
                           index_t n) {
  static_assert(index_t{Threads} * Items <= 65536, "tally::tile_sort::radix: positions in a tile are 16-bit");
  using rank_t = typename key_order<K>::rank_t;
  constexpr bool pairs = !std::is_same_v<V, no_values>;
  constexpr bool by_position = pairs || !key_order<K>::invertible;
  using position_t = std::conditional_t<by_position, std::uint16_t, cub::NullType>;
  using load_t = cub::BlockLoad<K, Threads, Items, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
  using sort_t = cub::BlockRadixSort<rank_t, Threads, Items, position_t, Bits>;
  __shared__ union {
    typename load_t::TempStorage load;
    typename sort_t::TempStorage sort;
  } storage;
  constexpr int tile = Threads * Items;
  const index_t t0 = index_t{blockIdx.x} * tile;
  const int count = n - t0 < tile ? static_cast<int>(n - t0) : tile;
  const int tid = static_cast<int>(threadIdx.x);
  K k[Items];
  load_t(storage.load).Load(in_k + t0, k, count, K{});
  __syncthreads();  // the load's storage is the sort's
  // Blocked: this thread's keys are tile positions tid * Items + u. Past the tile's end, the rank
  // of every NaN: the stable sort keeps them after the tile's real keys.
  rank_t r[Items];
  position_t at[Items];
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid * Items + u;
    r[u] = e < count ? key_order<K>::rank(k[u]) : ~rank_t{0};
    if constexpr (by_position) at[u] = static_cast<std::uint16_t>(e);
  }
  if constexpr (by_position) sort_t(storage.sort).SortBlockedToStriped(r, at);
  else sort_t(storage.sort).SortBlockedToStriped(r);
  // Striped: this thread's item u is output tile position tid + u * Threads (coalesced stores).
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const int e = tid + u * Threads;
    if (e < count) {
      if constexpr (by_position) {
        out_k[t0 + e] = in_k[t0 + at[u]];  // the tile was just read: these hit L1
        if constexpr (pairs) out_v[t0 + e] = in_v[t0 + at[u]];
      } else {
        out_k[t0 + e] = key_order<K>::from_rank(r[u]);
      }
    }
  }
}

}  // namespace tally::detail
