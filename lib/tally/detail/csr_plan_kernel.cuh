// The planned CSR product's kernels (csr_plan.cuh): the plan, made once, and the product, a warp a
// unit of the plan.
//
// The merged sequence is segments_kernel.cuh's: row r's end sits at item r + e_r (e_r = offsets[r +
// 1] - offsets[0]) and non-zero j at item j + (the rows ending at or before it). The plan cuts it
// into units of U = 32 * Items items and stores, for each unit edge d = u * U, the rows whose end
// lies before d (edges[u]); the non-zeros before d are d - edges[u]. A unit is a few loads for any
// mix of long and empty rows, and its edges do not depend on the device: neither do the bits of y.
//
// A warp's unit u, from (i0, j0) to (i1, j1):
//   1. lane l loads non-zeros j0 + l + 32q (column, value: coalesced, all in flight, then the x
//      gathers) and the unit's k = i1 - i0 row ends; the products and the ends' positions go to the
//      warp's shared memory;
//   2. each lane walks Items consecutive items of the unit (merge path within the unit: a binary
//      search for where its items start), folding products and closing rows; a row closed after
//      the lane's first close is whole and written at once;
//   3. warp_carry joins the lanes: each lane's first close gets the states of the lanes before it,
//      and the state open at the unit's end (the row still open, its non-zeros in this unit so
//      far) is the unit's tail;
//   4. the tail (the state of the row open at the unit's end) is published for the unit that
//      closes that row: tails[u], each word of the state beside a flag in one 64-bit word, so that
//      neither side needs a fence. The closing unit folds, in unit order, the tails of the units
//      from the row's first, a warp reading 4 x 32 at once; a group of 32 units inside one row is
//      folded beforehand by its last unit into sums[g], which the closing unit reads instead, so a
//      row over a million units costs it a few thousand reads, not a million.
// A unit waits only for units before it, of its own or an earlier block, which are resident or done
// (blocks are dispatched in order, as CUB's single-pass scans assume). A reader clears what it read,
// so every slot is clear when a launch ends and the next launch needs no clearing: a graph replays
// it as it is.
#pragma once
#include <cstring>

#include <cuda/atomic>

#include <tally/detail/launch.cuh>
#include <tally/detail/segments_carry.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

// A state published by one warp for another of the same launch: each 32-bit word of the state with a
// flag beside it in one 64-bit word, written and read whole (relaxed, device scope), so that a
// reader that sees every flag set has the state: no fence on either side. The reader clears the
// words, so every slot is clear again when a launch ends.
template <class S>
struct published {
  static_assert(sizeof(S) % 4 == 0, "tally::csr_plan: states are published as 32-bit words");
  unsigned long long words[sizeof(S) / 4];
};

template <class S>
TALLY_DEVICE void publish(published<S>* slot, const S& s) {
  unsigned w[sizeof(S) / 4];
  memcpy(w, &s, sizeof(S));
#pragma unroll
  for (unsigned k = 0; k < sizeof(S) / 4; ++k)
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(slot->words[k])
        .store(1ull << 32 | w[k], cuda::memory_order_relaxed);
}

// One product's pointers and the plan's arrays.
template <class T, class Col, class Off, class Out, class S>
struct csr_plan_args {
  const T* values;
  const Col* cols;
  const T* x;
  Out* y;
  const Off* offsets;   // rows + 1
  index_t rows;
  index_t base;         // offsets[0]
  index_t n;            // offsets[rows] - offsets[0]: the non-zeros
  const index_t* edges;  // units + 1
  index_t units;
  published<S>* tails;  // units: a unit's open row, for the unit that closes it
  published<S>* sums;   // units / 32: the tails of a group of 32 units inside one row, folded
};

TALLY_DEVICE index_t clamp_index(index_t v, index_t lo, index_t hi) { return v < lo ? lo : v > hi ? hi : v; }

// edges[u] for u in [0, units]: the rows r whose end item r + e_r lies before d = min(u * unit,
// rows + n), by binary search over r (the ends' items grow with r).
template <class Off>
__global__ void csr_plan_edges(const Off* offsets, index_t rows, index_t base, index_t n, index_t unit, index_t units,
                               index_t* edges) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t u = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; u <= units; u += stride) {
    const index_t d = clamp_index(u * unit, 0, rows + n);
    index_t lo = d - n > 0 ? d - n : 0, hi = d < rows ? d : rows;
    while (lo < hi) {
      const index_t mid = lo + (hi - lo) / 2;
      if (mid + (static_cast<index_t>(offsets[mid + 1]) - base) < d) lo = mid + 1;
      else hi = mid;
    }
    edges[u] = lo;
  }
}

// A slot's words as first read: a warp issues several slots' reads before it waits on any.
template <class S>
struct slot_read {
  unsigned long long words[sizeof(S) / 4];
};

template <class S>
TALLY_DEVICE slot_read<S> peek(published<S>* slot) {
  slot_read<S> r;
#pragma unroll
  for (unsigned k = 0; k < sizeof(S) / 4; ++k)
    r.words[k] = cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(slot->words[k]).load(cuda::memory_order_relaxed);
  return r;
}

// The state in a slot, waited for (read again until every flag is set), then the slot cleared. A
// slot that stays unpublished for about a second (offsets changed after planning: a broken
// precondition) is given up on, so that no launch hangs.
template <class S>
TALLY_DEVICE S take(published<S>* slot, slot_read<S> r) {
  unsigned w[sizeof(S) / 4];
#pragma unroll
  for (unsigned k = 0; k < sizeof(S) / 4; ++k) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> word(slot->words[k]);
    for (unsigned polls = 0; (r.words[k] >> 32) == 0 && polls < (1u << 25); ++polls) {
      __nanosleep(32);
      r.words[k] = word.load(cuda::memory_order_relaxed);
    }
    w[k] = static_cast<unsigned>(r.words[k]);
    word.store(0ull, cuda::memory_order_relaxed);
  }
  S s;
  memcpy(&s, w, sizeof(S));
  return s;
}

// Chunks of 32 slots a warp has in flight while it folds published states.
inline constexpr int slot_chunks = 4;

// total folded with the states of slots[first .. last) in order, by the whole warp (every lane gets
// the result): chunks of 32, each a fixed tree.
template <class Acc, class S, class Op>
TALLY_DEVICE S fold_published(published<S>* slots, index_t first, index_t last, S total, Op op) {
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  for (index_t c = first; c < last; c += slot_chunks * warp_size) {
    slot_read<S> r[slot_chunks];
#pragma unroll
    for (int b = 0; b < slot_chunks; ++b)
      if (c + b * warp_size + lane < last) r[b] = peek(slots + c + b * warp_size + lane);
#pragma unroll
    for (int b = 0; b < slot_chunks; ++b) {
      const index_t v = c + b * warp_size + lane;
      const S t = v < last ? take(slots + v, r[b]) : op.template identity<Acc>();
      total = op(total, shfl_from(warp_reduce<warp_size>(t, op), 0));
    }
  }
  return total;
}

// Registers a thread the product kernel is held to: Registers, or what a block needs to fit at all.
template <int Threads, int Registers>
inline constexpr int csr_plan_min_blocks = 65536 / (Threads * Registers) > 0 ? 65536 / (Threads * Registers) : 1;

// y = A x over the plan: warp w of block b takes unit b * Warps + w.
template <int Warps, int Items, int Registers, bool Programmatic, class Acc, class Op, class T, class Col, class Off,
          class Out, class S>
__global__ void __launch_bounds__(Warps* warp_size, (csr_plan_min_blocks<Warps * warp_size, Registers>))
    csr_plan_matvec(const csr_plan_args<T, Col, Off, Out, S> p, const Op op) {
  if constexpr (Programmatic) wait_for_previous_grid();  // before any global access
  constexpr int U = warp_size * Items;
  __shared__ __align__(16) unsigned char product_bytes[Warps][U * sizeof(S)];
  __shared__ int end_positions[Warps][U];
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  const int w = static_cast<int>(threadIdx.x) / warp_size;
  S* const products = reinterpret_cast<S*>(product_bytes[w]);
  int* const ends = end_positions[w];
  const index_t u = static_cast<index_t>(blockIdx.x) * Warps + w;
  if (u >= p.units) return;  // warp-uniform; the kernel has no block barrier

  const index_t d0 = u * U;
  const index_t d1 = d0 + U < p.rows + p.n ? d0 + U : p.rows + p.n;
  const index_t i0 = p.edges[u], i1 = p.edges[u + 1];
  const index_t j0 = d0 - i0;
  // Clamped so that a plan of broken offsets reads and writes nothing out of bounds.
  const int k = static_cast<int>(clamp_index(i1 - i0, 0, U));
  const int m = static_cast<int>(clamp_index(d1 - i1 - j0, 0, U - k));

  // 1. Columns and values, the first 32 ends and the head row's start, all in flight; then x.
  const index_t at = p.base + j0 + lane;
  Col col[Items];
  T value[Items];
#pragma unroll
  for (int q = 0; q < Items; ++q) {
    const bool in = lane + q * warp_size < m;
    col[q] = in ? __ldcs(p.cols + at + q * warp_size) : Col{};
    value[q] = in ? __ldcs(p.values + at + q * warp_size) : T{};
  }
  const Off first_end = lane < k ? p.offsets[i0 + 1 + lane] : Off{};
  const index_t head_start = static_cast<index_t>(p.offsets[i0]) - p.base;
  const bool leader = u % warp_size == warp_size - 1;  // the last unit of a group of 32
  const index_t group_edge = leader ? p.edges[u - (warp_size - 1)] : -1;
  const auto position = [&](Off e) { return static_cast<int>(clamp_index(static_cast<index_t>(e) - p.base - j0, 0, m)); };
#pragma unroll
  for (int q = 0; q < Items; ++q)
    if (lane + q * warp_size < m)
      products[lane + q * warp_size] =
          op.template lift<Acc>(static_cast<Acc>(value[q]) * static_cast<Acc>(p.x[static_cast<index_t>(col[q])]), 0);
  if (lane < k) ends[lane] = position(first_end);
  for (int a = lane + warp_size; a < k; a += warp_size) ends[a] = position(p.offsets[i0 + 1 + a]);
  __syncwarp();

  // 2. This lane's items [diag, diag + Items): a ends and b non-zeros of the unit come before them.
  const int items = k + m;
  const int diag = lane * Items < items ? lane * Items : items;
  int a = diag - m > 0 ? diag - m : 0;
  for (int hi = diag < k ? diag : k; a < hi;) {
    const int mid = (a + hi) / 2;
    if (mid + ends[mid] < diag) a = mid + 1;
    else hi = mid;
  }
  int b = diag - a;
  S acc = op.template identity<Acc>();
  S head = acc;    // the state before this lane's first close
  int first = -1;  // the unit's row (from i0) of this lane's first close
#pragma unroll
  for (int q = 0; q < Items; ++q) {
    if (a + b < items) {
      if (a < k && ends[a] <= b) {  // row i0 + a ends here
        if (first < 0) {
          head = acc;
          first = a;
        } else {
          store_words(p.y + (i0 + a), op.template finalize<Out>(acc));
        }
        acc = op.template identity<Acc>();
        ++a;
      } else {
        acc = op(acc, products[b]);
        ++b;
      }
    }
  }

  // 3. The lanes joined: a lane's first close gets the open state of the lanes before it.
  const unsigned closers = __ballot_sync(full_mask, first >= 0);
  const S open = warp_carry(closers, acc, op);
  const S before = shfl_up(open, 1);
  const S closed = op(lane == 0 ? op.template identity<Acc>() : before, head);
  if (first > 0) store_words(p.y + (i0 + first), op.template finalize<Out>(closed));

  // 4. The tail, where a later unit closes its row: the row open at the unit's end has non-zeros
  // here. The last unit of a group of 32 with no row end among them folds the group's tails (its own
  // from its registers) into the group's sum instead, which the closing unit reads in their place.
  if (leader && k == 0 && group_edge == i0) {
    published<S>* const group = p.tails + (u - (warp_size - 1));
    const S t = lane < warp_size - 1 ? take(group + lane, peek(group + lane)) : open;
    const S sum = warp_reduce<warp_size>(t, op);
    if (lane == 0) publish(p.sums + u / warp_size, sum);
  } else if (lane == warp_size - 1 && (k == 0 ? m > 0 : ends[k - 1] < m)) {
    publish(p.tails + u, open);
  }
  // Row i0, closed by the lowest closing lane, with what the units before it hold of it where it
  // began in one of them (its first non-zero is item f): the tails of units [us, u), each group of
  // 32 units that lies inside the row by its sum.
  if (closers != 0) {
    const int closer = __ffs(closers) - 1;
    const index_t f = i0 + clamp_index(head_start, 0, p.n);
    const index_t us = clamp_index(f / U, 0, u);
    S row = shfl_from(closed, closer);
    if (us < u) {
      const index_t g_lo = ((f + U - 1) / U + warp_size - 1) / warp_size, g_hi = u / warp_size;  // groups inside
      S before = op.template identity<Acc>();
      if (g_lo < g_hi) {
        before = fold_published<Acc>(p.tails, us, g_lo * warp_size, before, op);
        before = fold_published<Acc>(p.sums, g_lo, g_hi, before, op);
        before = fold_published<Acc>(p.tails, g_hi * warp_size, u, before, op);
      } else {
        before = fold_published<Acc>(p.tails, us, u, before, op);
      }
      row = op(before, row);
    }
    if (lane == closer) store_words(p.y + i0, op.template finalize<Out>(row));
  }
}

}  // namespace tally::detail
