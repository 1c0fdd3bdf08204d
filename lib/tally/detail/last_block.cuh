// The "last block combines" pattern (reduce's resident grid, rows' blocks_per_row): each block
// stores its partial, then takes a ticket; the block that takes the last one folds every partial,
// in a fixed order, and finishes the reduction in the same launch.
#pragma once
#include <cuda/atomic>

#include <tally/policies/config.cuh>
#include <tally/detail/state_words.cuh>

namespace tally::detail {

// True for the caller that takes the last of `count` tickets. Called by one thread of the block,
// right after its partial's store. acq_rel: the release publishes the caller's partial with its
// ticket; the acquire, in the block that takes the last ticket, makes every partial visible to it
// (and to all its threads, through a __syncthreads() after this). One atomic instead of a fence
// before it and another in the last block (docs/performance.md).
TALLY_DEVICE bool take_last_ticket(unsigned* ticket, unsigned count) {
  cuda::atomic_ref<unsigned, cuda::thread_scope_device> tickets(*ticket);
  return tickets.fetch_add(1u, cuda::memory_order_acq_rel) == count - 1;
}

// Partials a thread loads before it folds any of them: one L2 round trip for a round. 5 of up to
// 8 bytes: 5 x 256 threads cover a resident grid of 8 blocks an SM up to 160 SMs in one round; 3
// of 16 bytes (arg<float>, arg<double>). More would cost registers past the 32 that 8 resident
// blocks of 256 threads allow.
template <class S>
inline constexpr int partials_in_flight = sizeof(S) <= 8 ? 5 : sizeof(S) <= 16 ? 3 : 1;

// v folded with partials[t], partials[t + Threads], ... in that order, for thread t of the last
// block (the order a second launch over the partials would use, so results match it bit for bit).
// Every load of a round is issued before the first fold: a plain loop compiled to several round
// trips. count is 32-bit (a grid's blocks, a row's splits): a 64-bit loop costs registers.
template <int Threads, class S, class Op>
TALLY_DEVICE S fold_partials(const S* partials, unsigned count, S v, Op op) {
  constexpr int K = partials_in_flight<S>;
  for (unsigned first = threadIdx.x; first < count; first += K * Threads) {
    S x[K];
TALLY_UNROLL
    for (int k = 0; k < K; ++k)
      if (first + k * Threads < count) x[k] = load_from_l2(partials + first + k * Threads);
TALLY_UNROLL
    for (int k = 0; k < K; ++k)
      if (first + k * Threads < count) v = op(v, x[k]);
  }
  return v;
}

}  // namespace tally::detail
