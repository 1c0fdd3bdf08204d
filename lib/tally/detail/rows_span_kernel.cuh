// block_per_row and blocks_per_row: a whole block reduces a span of one row.
//
// The work is M * splits units, unit u = (row u / splits, split u % splits), walked grid-stride. A
// unit's block folds items [s * items_per_split, (s + 1) * items_per_split) of its row (thread t
// takes items begin + t, begin + t + Threads, ..., four loads in flight; row sums read them with the
// evict-first hint), the last split also the elements after the last whole item, and the block
// policy combines the Threads states.
//
//   splits == 1  thread 0 writes the row's result.
//   splits > 1   thread 0 writes the unit's partial to partials[u] and takes a ticket of the row;
//                the block holding the row's last ticket folds the row's `splits` partials in a
//                fixed order (thread t: partials t, t + Threads, ...; then the block policy), writes
//                the result and resets the ticket to 0 for the next call. The order of every
//                combination depends on the plan alone, so results are bit-identical run to run.
//
// Barriers: the unit loop, `splits` and `last` are uniform over the block, so every thread meets
// every __syncthreads(); the barrier after the ticket also orders the first block reduction's reads
// of shared memory before the second one's writes, and the one ending each unit orders this unit's
// shared-memory use (and `last`) before the next unit's. Launch: as in rows_group_kernel.cuh.
#pragma once
#include <type_traits>

#include <tally/detail/launch.cuh>
#include <tally/detail/rows_call.cuh>
#include <tally/detail/rows_items.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/detail/last_block.cuh>

namespace tally::detail {

// K: the call's types (rows_call.cuh).
template <class K, class Block, class Smem, int Threads, int Unroll, int V>
__global__ void __launch_bounds__(Threads)
    span_rows_kernel(const typename K::args p, const typename K::op op, const index_t splits, const index_t items_per_split,
                     typename K::state* partials, unsigned* tickets) {
  if constexpr (K::launch::programmatic) wait_for_previous_grid();  // before any global access
  using T = typename K::input;
  using Acc = typename K::acc;
  using Out = typename K::out;
  using S = typename K::state;
  using item_t = row_item<T, V>;
  using scalar_t = row_item<T, 1>;
  auto smem = Smem::template acquire<S, Block::template slots<Threads>>();
  __shared__ bool last;
  const int tid = static_cast<int>(threadIdx.x);
  const index_t units = p.m * splits;

  for (index_t u = blockIdx.x; u < units; u += gridDim.x) {
    const index_t r = u / splits;
    const index_t s = u - r * splits;
    const T* row = p.a + r * p.ld;
    const auto* items = reinterpret_cast<const item_t*>(row);
    const index_t begin = s * items_per_split;
    const index_t end = begin + items_per_split < p.items ? begin + items_per_split : p.items;

    S acc = op.template identity<Acc>();
    index_t c = begin + tid;
    for (; c + index_t{Unroll - 1} * Threads < end; c += index_t{Unroll} * Threads) {
      item_t v[Unroll];
#pragma unroll
      for (int k = 0; k < Unroll; ++k) {
        if constexpr (std::is_same_v<typename K::xform, plain_rows>) v[k] = load_evict_first(items + c + k * Threads);
        else v[k] = items[c + k * Threads];
      }
#pragma unroll
      for (int k = 0; k < Unroll; ++k) acc = fold_item<Acc>(acc, v[k], c + k * Threads, p.xform, op);
    }
    for (; c < end; c += Threads) acc = fold_item<Acc>(acc, items[c], c, p.xform, op);
    if (s == splits - 1)
      for (index_t col = p.tail_begin + tid; col < p.n; col += Threads)
        acc = fold_item<Acc>(acc, reinterpret_cast<const scalar_t*>(row)[col], col, p.xform, op);

    acc = Block::template reduce<Threads>(acc, smem, op);
    if (splits == 1) {
      if (tid == 0) store_words(p.out + r, op.template finalize<Out>(acc));
    } else {
      if (tid == 0) {
        store_words(partials + u, acc);
        last = take_last_ticket(tickets + r, static_cast<unsigned>(splits));
      }
      __syncthreads();
      if (last) {
        S v = fold_partials<Threads>(partials + r * splits, static_cast<unsigned>(splits), op.template identity<Acc>(), op);
        v = Block::template reduce<Threads>(v, smem, op);
        if (tid == 0) {
          store_words(p.out + r, op.template finalize<Out>(v));
          tickets[r] = 0;
        }
      }
    }
    __syncthreads();
  }
}

}  // namespace tally::detail
