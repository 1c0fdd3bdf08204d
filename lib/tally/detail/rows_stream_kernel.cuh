// stream_rows_kernel: a double matvec's whole rows, one row a block, A read with the evict-first hint
// (rows_plan.cuh's streams_whole_rows: rows of 1 to 2^30 - 1 items, a block each).
//
// Block b reduces row b: thread t folds the row's items t, t + Threads, ..., Unroll at a time, each
// times x's item, then the elements after the last whole item, and the block policy combines the
// Threads states; thread 0 writes the row's result. Each round's loads of A go out at the end of the
// round before, guarded item by item (the last round may be partial), and its four loads of A then
// precede x's and the products in the SASS, at 40 registers. Items of doubles load as double2
// (load_evict_first.cuh): loaded as words, each guarded item was moved to its register
// pair at once, waiting for the load. What ptxas made of the other forms: docs/performance.md,
// "Double matvec: whole rows streamed".
//
// Barriers: one block reduction, no loop. Launch: as in rows_group_kernel.cuh.
#pragma once
#include <tally/detail/launch.cuh>
#include <tally/detail/rows_call.cuh>
#include <tally/detail/rows_items.cuh>
#include <tally/detail/state_words.cuh>

namespace tally::detail {

// K: the call's types (rows_call.cuh). 6 blocks of 256 an SM (40 registers), as the driver kernel that
// read at the row sum's speed.
template <class K, class Block, class Smem, int Threads, int Unroll, int V>
__global__ void __launch_bounds__(Threads, 1536 / Threads)
    stream_rows_kernel(const typename K::args p, const typename K::op op) {
  if constexpr (K::launch::programmatic) wait_for_previous_grid();  // before any global access
  using T = typename K::input;
  using Acc = typename K::acc;
  using S = typename K::state;
  using item_t = row_item<T, V>;
  using scalar_t = row_item<T, 1>;
  auto smem = Smem::template acquire<S, Block::template slots<Threads>>();
  const int tid = static_cast<int>(threadIdx.x);

  const index_t r = blockIdx.x;
  const T* row = p.a + r * p.ld;
  const item_t* items = reinterpret_cast<const item_t*>(row);
  const int count = static_cast<int>(p.items);
  S acc = op.template identity<Acc>();
  item_t v[Unroll];
  int i = tid;
#pragma unroll
  for (int q = 0; q < Unroll; ++q)
    if (i + q * Threads < count) v[q] = load_evict_first(items + i + q * Threads);
  while (true) {
#pragma unroll
    for (int q = 0; q < Unroll; ++q)
      if (i + q * Threads < count) acc = fold_item<Acc>(acc, v[q], i + q * Threads, p.xform, op);
    i += Unroll * Threads;
    if (i >= count) break;
#pragma unroll
    for (int q = 0; q < Unroll; ++q)
      if (i + q * Threads < count) v[q] = load_evict_first(items + i + q * Threads);
  }
  for (index_t col = p.tail_begin + tid; col < p.n; col += Threads)
    acc = fold_item<Acc>(acc, reinterpret_cast<const scalar_t*>(row)[col], col, p.xform, op);
  acc = Block::template reduce<Threads>(acc, smem, op);
  if (tid == 0) store_words(p.out + r, op.template finalize<typename K::out>(acc));
}

}  // namespace tally::detail
