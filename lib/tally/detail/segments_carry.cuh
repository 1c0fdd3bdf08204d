// block_carry: the segmented scan that joins a block's threads in the segment kernel
// (segments_kernel.cuh): each thread's items may close a segment, and every thread learns the state
// open before its items.
#pragma once
#include <tally/policies/config.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

template <class S>
struct carry_slot {
  S value;
  bool closes;
};

template <class S>
struct block_carry_result {
  S before;  // the open state before this thread's items: carry, then the tails since the last close
  S total;   // the open state after the last thread's items
};

// The warps' slots folded in warp order from carry: a slot that closes restarts the state. Returns
// the open state before warp `warp` (as before) and after the last warp (as total).
template <int Warps, class S, class Op>
TALLY_DEVICE block_carry_result<S> fold_warp_slots(const carry_slot<S>* slots, S carry, int warp, Op op) {
  S prefix = carry;
  S total = carry;
#pragma unroll
  for (int w = 0; w < Warps; ++w) {
    const carry_slot<S> s = slots[w];
    if (w == warp) prefix = total;
    total = s.closes ? s.value : op(total, s.value);
  }
  return {prefix, total};
}

// Segmented scan over the block: thread t's items close a segment (closes) or not, and tail is the
// state of its items after its last close (all of them when it closes none). A state meets the ones
// after it until a close: each thread gets the open state before its items, starting from carry.
// Called by every thread; slots holds Threads / 32 entries; a caller that reuses them puts a
// __syncthreads() first.
template <int Threads, class S, class Op>
TALLY_DEVICE block_carry_result<S> block_carry(bool closes, S tail, S carry, Op op, carry_slot<S>* slots) {
  constexpr int warps = Threads / warp_size;
  const int lane = static_cast<int>(threadIdx.x) % warp_size;
  const int warp = static_cast<int>(threadIdx.x) / warp_size;
  // The warp's closes as one ballot: the state a lane holds after the step of offset d covers lanes
  // (lane - 2d, lane], and it meets the one d lanes up while no lane in (lane - d, lane] closes, that
  // is while the last closing lane at or before this one (-1: none) is at or before lane - d.
  const unsigned closers = __ballot_sync(full_mask, closes);
  const int last_close = warp_size - 1 - __clz(closers & (full_mask >> (warp_size - 1 - lane)));
  S v = tail;
#pragma unroll
  for (int offset = 1; offset < warp_size; offset *= 2) {
    const S v_up = shfl_up(v, offset);
    if (lane >= offset && last_close <= lane - offset) v = op(v_up, v);
  }
  if (lane == warp_size - 1) slots[warp] = {v, closers != 0};
  const bool f_before = (closers & ((1u << lane) - 1u)) != 0;  // a lane before this one closes
  const S v_before = shfl_up(v, 1);
  __syncthreads();
  const block_carry_result<S> folded = fold_warp_slots<warps>(slots, carry, warp, op);  // before: this warp's
  const S before = lane == 0 ? folded.before : f_before ? v_before : op(folded.before, v_before);
  return {before, folded.total};
}

}  // namespace tally::detail
