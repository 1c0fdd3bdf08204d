// Block policies of seed 003: threads fold their states into shared slots with shared-memory atomics
// (its merge_array6 and hybrid merge pick a minimum this way). Both keep the block family's contract
// (block.cuh):
//   atomic            thread 0 seeds one slot, every other thread folds into it with one atomic
//   atomic_hybrid<G>  the first thread of each group of G seeds the group's slot, the others fold
//                     into it; then the threads 1 .. Threads/G - 1 fold their group's slot into slot 0
// The seed's reason for the hybrid: G threads contend for a slot instead of the whole block.
//
// Only states with a native shared-memory atomic under the operator qualify: 32- and 64-bit integer
// sum, min and max (smem_atomic below). Any other state or operator stops the build with a sentence
// saying so. The order of the atomics follows the schedule, so neither policy keeps a fixed order
// (fixed_order = false); integer sums, min and max are exact (is_exact, determinism.cuh), so their
// results are the same bits run to run all the same.
#pragma once
#include <cstdint>
#include <type_traits>

#include "block.cuh"
#include "config.cuh"
#include "op.cuh"

namespace tally::block {

namespace detail {

// The shared-memory atomic that folds v into *slot under Op, for the states that have one.
template <class Op, class S, class = void>
struct smem_atomic : std::false_type {};

template <class S>
inline constexpr bool atomic_integer = std::is_integral_v<S> && !std::is_same_v<S, bool> && (sizeof(S) == 4 || sizeof(S) == 8);

// The CUDA overload's type for S: int, unsigned, long long or unsigned long long.
template <class S>
using atomic_word = std::conditional_t<sizeof(S) == 4, std::conditional_t<std::is_signed_v<S>, int, unsigned>,
                                       std::conditional_t<std::is_signed_v<S>, long long, unsigned long long>>;

template <class S>
struct smem_atomic<op::sum, S, std::enable_if_t<atomic_integer<S>>> : std::true_type {
  // Sums wrap: added as unsigned words, the two's complement result of any signed sum.
  TALLY_DEVICE static void fold(S* slot, S v) {
    using U = std::conditional_t<sizeof(S) == 4, unsigned, unsigned long long>;
    atomicAdd(reinterpret_cast<U*>(slot), static_cast<U>(v));
  }
};
template <class S>
struct smem_atomic<op::min, S, std::enable_if_t<atomic_integer<S>>> : std::true_type {
  TALLY_DEVICE static void fold(S* slot, S v) {
    atomicMin(reinterpret_cast<atomic_word<S>*>(slot), static_cast<atomic_word<S>>(v));
  }
};
template <class S>
struct smem_atomic<op::max, S, std::enable_if_t<atomic_integer<S>>> : std::true_type {
  TALLY_DEVICE static void fold(S* slot, S v) {
    atomicMax(reinterpret_cast<atomic_word<S>*>(slot), static_cast<atomic_word<S>>(v));
  }
};

template <class Op, class S>
TALLY_DEVICE void fold_atomically(S& slot, S v) {
  static_assert(smem_atomic<Op, S>::value,
                "tally::block::atomic / atomic_hybrid: these block policies fold with a shared-memory atomic, which "
                "exists for 32- and 64-bit integer states under op::sum, op::min and op::max only; use another block "
                "policy (warp_shuffle, say) for this operator and accumulator");
  smem_atomic<Op, S>::fold(&slot, v);
}

}  // namespace detail

struct atomic {
  static constexpr const char* name = "atomic";
  static constexpr bool fixed_order = false;
  template <int Threads> static constexpr int slots = 1;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op) {
    if (threadIdx.x == 0) smem[0] = v;
    __syncthreads();
    if (threadIdx.x != 0) detail::fold_atomically<Op>(smem[0], v);
    __syncthreads();
    return smem[0];
  }
};

template <int G>
struct atomic_hybrid {
  static_assert(G >= 2 && G <= 1024 && (G & (G - 1)) == 0, "tally::block::atomic_hybrid<G>: G is a power of two in [2, 1024]");
  static constexpr const char* name = G == 8 ? "atomic_hybrid8" : G == 32 ? "atomic_hybrid32" : "atomic_hybrid";
  static constexpr bool fixed_order = false;
  template <int Threads> static constexpr int slots = Threads / G > 0 ? Threads / G : 1;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op) {
    static_assert(G <= Threads, "tally::block::atomic_hybrid<G>: G is at most the block's threads");
    constexpr int groups = Threads / G;
    const int tid = threadIdx.x;
    if (tid % G == 0) smem[tid / G] = v;
    __syncthreads();
    if (tid % G != 0) detail::fold_atomically<Op>(smem[tid / G], v);
    __syncthreads();
    if constexpr (groups > 1) {
      // Slots 1 .. groups - 1 are read only, slot 0 only folded into: no ordering needed between them.
      if (tid > 0 && tid < groups) detail::fold_atomically<Op>(smem[0], static_cast<S>(smem[tid]));
      __syncthreads();
    }
    return smem[0];
  }
};

}  // namespace tally::block
