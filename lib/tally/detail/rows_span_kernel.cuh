// block_per_row and blocks_per_row: a whole block reduces a span of Rows rows at once.
//
// The work is ceil(M / Rows) * splits units, unit u = (row group u / splits, split u % splits), walked
// grid-stride. A unit's block folds items [s * items_per_split, (s + 1) * items_per_split) of the
// group's rows (thread t takes items begin + t, begin + t + Threads, ..., Rows * Unroll loads of A in
// flight; row sums read them with the evict-first hint, and matvec where its plan says so (StreamA,
// rows_plan.cuh's stream_a); matvec loads x's items with them, once for
// the Rows rows: loaded in the fold, ptxas issued half of a round's loads after the first products,
// docs/performance.md), the last split also the elements after the last whole item, and the block
// policy combines the Threads states of each row.
//
//   splits == 1  thread 0 writes the rows' results.
//   splits > 1   thread 0 writes the unit's partials to partials[r * splits + s] and takes a ticket of
//                the group; the block holding the group's last ticket folds each row's `splits`
//                partials in a fixed order (thread t: partials t, t + Threads, ...; then the block
//                policy), writes the results and resets the ticket to 0 for the next call. The order
//                of every combination depends on the plan alone, so results are bit-identical run to
//                run.
//
// Barriers: the unit loop, `splits` and `last` are uniform over the block, so every thread meets
// every __syncthreads(); a barrier before each block reduction but the first orders the previous
// one's reads of shared memory before its writes, and the one ending each unit orders this unit's
// shared-memory use (and `last`) before the next unit's. Launch: as in rows_group_kernel.cuh.
#pragma once
#include <type_traits>

#include <tally/detail/launch.cuh>
#include <tally/detail/rows_call.cuh>
#include <tally/detail/rows_items.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/detail/last_block.cuh>

namespace tally::detail {

// Blocks an SM the kernel asks registers for. A one-row matvec's round (four items of A, four of x)
// goes out whole only where registers hold both: under a bound of 4 blocks of 256 (64 registers)
// ptxas issues all eight loads (float's and 16-bit 16-byte items) or seven (double) before the first
// product, against two or three of A without one. Double's one-row kernel reads faster at 6 blocks
// of 40 registers (two loads of A ahead); float and 16-bit items at 4. Elsewhere 0, no bound
// (docs/performance.md, "One-row matvec kernels bounded to 4 blocks").
template <class K, int Threads, int Rows, int V>
constexpr int span_min_blocks() {
  if constexpr (Rows != 1 || std::is_same_v<typename K::xform, plain_rows>) return 0;
  else if constexpr (sizeof(typename K::input) == 8) return 1536 / Threads;
  else if constexpr (sizeof(typename K::input) * V == 16) return 1024 / Threads;  // 16-byte items
  else return 0;
}

// K: the call's types (rows_call.cuh).
template <class K, class Block, class Smem, int Threads, int Rows, int Unroll, int V, bool StreamA = false>
__global__ void __launch_bounds__(Threads, (span_min_blocks<K, Threads, Rows, V>()))
    span_rows_kernel(const typename K::args p, const typename K::op op, const index_t splits, const index_t items_per_split,
                     typename K::state* partials, unsigned* tickets) {
  if constexpr (K::launch::programmatic) wait_for_previous_grid();  // before any global access
  using T = typename K::input;
  using Acc = typename K::acc;
  using Out = typename K::out;
  using S = typename K::state;
  using item_t = row_item<T, V>;
  using scalar_t = row_item<T, 1>;
  using weights_t = decltype(item_weights<item_t>(p.xform, index_t{}));
  constexpr bool plain = std::is_same_v<typename K::xform, plain_rows>;
  // The order a round's loads are written in, which ptxas largely follows where registers are short:
  // A's first puts a second load of A ahead of the first product in double's one-row round and helps
  // split rows read with the evict-first hint; two rows a block read plainly keep x's first, which
  // suits them (docs/performance.md, "the order of a round's loads").
  constexpr bool x_first = Rows > 1 && !StreamA;
  auto smem = Smem::template acquire<S, Block::template slots<Threads>>();
  __shared__ bool last;
  const int tid = static_cast<int>(threadIdx.x);
  const index_t groups = p.m / Rows + (p.m % Rows != 0);
  const index_t units = groups * splits;

  for (index_t u = blockIdx.x; u < units; u += gridDim.x) {
    const index_t g = u / splits;
    const index_t s = u - g * splits;
    const index_t r0 = g * Rows;
    bool valid[Rows];
    const item_t* items[Rows];
    const T* row[Rows];
    S acc[Rows];
#pragma unroll
    for (int k = 0; k < Rows; ++k) {
      valid[k] = k == 0 || r0 + k < p.m;
      row[k] = p.a + (valid[k] ? r0 + k : r0) * p.ld;
      items[k] = reinterpret_cast<const item_t*>(row[k]);
      acc[k] = op.template identity<Acc>();
    }
    const index_t begin = s * items_per_split;
    const index_t end = begin + items_per_split < p.items ? begin + items_per_split : p.items;

    index_t c = begin + tid;
    for (; c + index_t{Unroll - 1} * Threads < end; c += index_t{Unroll} * Threads) {
      item_t v[Rows][Unroll];
      weights_t w[Unroll];
      const auto load_x = [&] {
#pragma unroll
        for (int q = 0; q < Unroll; ++q) w[q] = item_weights<item_t>(p.xform, c + q * Threads);
      };
      if constexpr (x_first) load_x();
#pragma unroll
      for (int k = 0; k < Rows; ++k)
#pragma unroll
        for (int q = 0; q < Unroll; ++q) {
          if constexpr (plain) v[k][q] = load_evict_first(items[k] + c + q * Threads);
          else if (valid[k]) v[k][q] = StreamA ? load_evict_first(items[k] + c + q * Threads) : items[k][c + q * Threads];
        }
      if constexpr (!x_first) load_x();
#pragma unroll
      for (int k = 0; k < Rows; ++k)
#pragma unroll
        for (int q = 0; q < Unroll; ++q)
          if (valid[k]) acc[k] = fold_item<Acc>(acc[k], v[k][q], w[q], c + q * Threads, p.xform, op);
    }
    for (; c < end; c += Threads) {
      const weights_t w = item_weights<item_t>(p.xform, c);
#pragma unroll
      for (int k = 0; k < Rows; ++k)
        if (valid[k]) acc[k] = fold_item<Acc>(acc[k], items[k][c], w, c, p.xform, op);
    }
    if (s == splits - 1)
      for (index_t col = p.tail_begin + tid; col < p.n; col += Threads) {
#pragma unroll
        for (int k = 0; k < Rows; ++k)
          if (valid[k]) acc[k] = fold_item<Acc>(acc[k], reinterpret_cast<const scalar_t*>(row[k])[col], col, p.xform, op);
      }

#pragma unroll
    for (int k = 0; k < Rows; ++k) {
      if (k > 0) __syncthreads();  // the previous reduction's reads of smem before this one's writes
      acc[k] = Block::template reduce<Threads>(acc[k], smem, op);
    }
    if (splits == 1) {
      if (tid == 0) {
#pragma unroll
        for (int k = 0; k < Rows; ++k)
          if (valid[k]) store_words(p.out + r0 + k, op.template finalize<Out>(acc[k]));
      }
    } else {
      if (tid == 0) {
#pragma unroll
        for (int k = 0; k < Rows; ++k)
          if (valid[k]) store_words(partials + (r0 + k) * splits + s, acc[k]);
        last = take_last_ticket(tickets + g, static_cast<unsigned>(splits));
      }
      __syncthreads();
      if (last) {
#pragma unroll 1
        for (int k = 0; k < Rows; ++k) {
          if (!valid[k]) break;  // uniform
          if (k > 0) __syncthreads();
          S v = fold_partials<Threads>(partials + (r0 + k) * splits, static_cast<unsigned>(splits), op.template identity<Acc>(), op);
          v = Block::template reduce<Threads>(v, smem, op);
          if (tid == 0) store_words(p.out + r0 + k, op.template finalize<Out>(v));
        }
        if (tid == 0) tickets[g] = 0;
      }
    }
    __syncthreads();
  }
}

}  // namespace tally::detail
