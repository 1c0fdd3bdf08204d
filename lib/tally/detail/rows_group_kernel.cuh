// thread_per_row, sub_warp_per_row and warp_per_row: Lanes consecutive lanes reduce one row.
//
// A block walks tiles of Rows * (Threads / Lanes) rows, grid-stride. In a tile, group g of the block
// takes rows tile_base + g + k * groups for k < Rows, so that at every load instruction the groups of
// a warp read consecutive rows: with contiguous rows (ld == N) a warp's 32 lanes read 512
// consecutive bytes. Within a row, lane l reads items l, l + Lanes, ...; each iteration issues
// Rows * Unroll independent loads before folding any of them (4 in flight per lane: Rows = 4 for
// short rows, Unroll = 4 for long ones); the items left after the last whole round (fewer than
// Unroll a lane) are read in one guarded round, so they too are in flight together. The Lanes
// states of a row then meet in a shuffle tree (warp_reduce<Lanes>, which only reads lanes of the
// same aligned group for the group's first lane), and the first lane writes the row's result.
// Every lane of a warp reaches the shuffles: the tile loop depends on blockIdx alone, and lanes
// without a valid row carry the identity (or, in sub-warp groups, a state that is never written).
// With a programmatic launch policy (launch.cuh) every block first waits for the kernel ahead in the
// stream.
#pragma once
#include <tally/detail/launch.cuh>
#include <tally/detail/rows_call.cuh>
#include <tally/detail/rows_items.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

// K: the call's types (rows_call.cuh).
template <class K, int Lanes, int Threads, int Rows, int Unroll, int V>
__global__ void __launch_bounds__(Threads) group_rows_kernel(const typename K::args p, const typename K::op op) {
  if constexpr (K::launch::programmatic) wait_for_previous_grid();  // before any global access
  using T = typename K::input;
  using Acc = typename K::acc;
  using S = typename K::state;
  using item_t = row_item<T, V>;
  using scalar_t = row_item<T, 1>;
  using weights_t = decltype(item_weights<item_t>(p.xform, index_t{}));
  // Fewer lanes a row than a warp, or several rows a warp: x's items are loaded once a round with
  // the rows' (the Rows rows of a group share them), so that the fold does not wait for them. A warp
  // on one row loads them in the fold, which measured faster there (docs/performance.md).
  constexpr bool preload_weights = Lanes < warp_size || Rows > 1;
  const auto fold = [&](const S& acc, const item_t& a, const weights_t& w, index_t item) {
    if constexpr (preload_weights) return fold_item<Acc>(acc, a, w, item, p.xform, op);
    else return fold_item<Acc>(acc, a, item, p.xform, op);
  };
  constexpr int groups = Threads / Lanes;
  constexpr index_t tile_rows = index_t{Rows} * groups;
  const int lane = static_cast<int>(threadIdx.x) % Lanes;
  const int group = static_cast<int>(threadIdx.x) / Lanes;
  const index_t tiles = p.m / tile_rows + (p.m % tile_rows != 0);
  // Groups of 2 - 16 lanes read a row past the end (in a last tile) as the group's first row, or the
  // matrix's, and drop only its result: their rounds then load and fold with no guard a row, and
  // their row pointers step by a stride. Measured for these groups only: thread and warp groups lost
  // up to 10 % on some shapes with it (docs/performance.md, "Rows without guards").
  constexpr bool unguarded = Lanes > 1 && Lanes < warp_size;

  for (index_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const index_t first = tile * tile_rows + group;
    S acc[Rows];
    bool valid[Rows];
    const T* row[Rows];
    if constexpr (unguarded) {
      const index_t left = p.m - first;  // rows from the group's first on; <= 0 past the end
      const T* const base = p.a + (left > 0 ? first : 0) * p.ld;
      const index_t row_stride = index_t{groups} * p.ld;  // between a group's rows of a tile
#pragma unroll
      for (int k = 0; k < Rows; ++k) {
        valid[k] = index_t{k} * groups < left;
        row[k] = valid[k] ? base + index_t{k} * row_stride : base;
      }
    } else {
#pragma unroll
      for (int k = 0; k < Rows; ++k) {
        const index_t r = first + index_t{k} * groups;
        valid[k] = r < p.m;
        row[k] = p.a + (valid[k] ? r : 0) * p.ld;
      }
    }
#pragma unroll
    for (int k = 0; k < Rows; ++k) acc[k] = op.template identity<Acc>();
    const auto reads = [&](int k) { return unguarded || valid[k]; };  // whether row k is loaded and folded

    // One round: Rows * Unroll loads in flight, then their folds.
    const auto round = [&](index_t c) {
      item_t v[Rows][Unroll];
      weights_t w[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if constexpr (preload_weights) w[u] = item_weights<item_t>(p.xform, c + u * Lanes);
#pragma unroll
      for (int k = 0; k < Rows; ++k)
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
          if (reads(k)) v[k][u] = reinterpret_cast<const item_t*>(row[k])[c + u * Lanes];
#pragma unroll
      for (int k = 0; k < Rows; ++k)
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
          if (reads(k)) acc[k] = fold(acc[k], v[k][u], w[u], c + u * Lanes);
    };
    index_t c = lane;
    if constexpr (Lanes == 1) {
      // A thread's row has at most a few items: left to the compiler, which peels the rounds and
      // keeps all of a tile's loads in flight.
      for (; c + index_t{Unroll - 1} * Lanes < p.items; c += index_t{Unroll} * Lanes) round(c);
    } else {
      // One round an iteration. Unrolled by the compiler, the matvec kernels' second copy issued each
      // row's load after the previous row's products (docs/performance.md).
#pragma unroll 1
      for (; c + index_t{Unroll - 1} * Lanes < p.items; c += index_t{Unroll} * Lanes) round(c);
    }
    if constexpr (Unroll > 1) {  // fewer than Unroll items left per lane: one guarded round, all in flight
      item_t v[Rows][Unroll];
      weights_t w[Unroll];
#pragma unroll
      for (int u = 0; u < Unroll; ++u)
        if constexpr (preload_weights)
          if (c + u * Lanes < p.items) w[u] = item_weights<item_t>(p.xform, c + u * Lanes);
#pragma unroll
      for (int k = 0; k < Rows; ++k)
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
          if (reads(k) && c + u * Lanes < p.items) v[k][u] = reinterpret_cast<const item_t*>(row[k])[c + u * Lanes];
#pragma unroll
      for (int k = 0; k < Rows; ++k)
#pragma unroll
        for (int u = 0; u < Unroll; ++u)
          if (reads(k) && c + u * Lanes < p.items) acc[k] = fold(acc[k], v[k][u], w[u], c + u * Lanes);
    }
    for (index_t col = p.tail_begin + lane; col < p.n; col += Lanes) {
#pragma unroll
      for (int k = 0; k < Rows; ++k)
        if (reads(k)) acc[k] = fold_item<Acc>(acc[k], reinterpret_cast<const scalar_t*>(row[k])[col], col, p.xform, op);
    }

#pragma unroll
    for (int k = 0; k < Rows; ++k) {
      acc[k] = warp_reduce<Lanes>(acc[k], op);
      if (lane == 0 && valid[k]) store_words(p.out + first + index_t{k} * groups, op.template finalize<typename K::out>(acc[k]));
    }
  }
}

}  // namespace tally::detail
