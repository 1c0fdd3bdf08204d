// Block policies: how the Threads partial states of one block combine into one.
//
// Contract (check_block_policy; docs/policies.md gathers every family's):
//   name                          static constexpr const char*
//   fixed_order                   static constexpr bool: the order of combination depends on Threads alone
//   slots<Threads>                static constexpr int: shared-memory slots of the state type it needs
//   reduce<Threads>(v, smem, op)  returns the block's total, valid in thread 0 (other threads: anything)
// reduce is called by every thread of the block, each with a valid state (the identity where a
// thread had no element), so it may put a barrier anywhere outside branches some threads skip. It
// reads and writes smem[0, slots) only (smem[i] is a state&), and may leave the caller's next use of
// smem unordered: a caller that reuses smem puts a __syncthreads() first. op combines two states;
// operators are associative and commutative (the per-thread strided fold needs both).
//
// The members are the rungs of the classical optimisation ladder (Harris, "Optimizing parallel
// reduction in CUDA"), each a fix of the one before:
//   interleaved          s = 1, 2, 4...; thread tid works when tid % 2s == 0: divergent warps
//   interleaved_strided  same pairs, computed by thread tid at index 2*s*tid: no divergence, but
//                        2-, 4-, ... way bank conflicts (padded smem removes them)
//   sequential           s = B/2 ... 1, thread tid < s adds slot tid + s: no conflicts
//   sequential_unrolled  sequential with compile-time B fully unrolled; the last warp runs without
//                        block barriers, ordered by __syncwarp() (a `volatile` last warp without
//                        __syncwarp, as older write-ups have it, is a data race on Volta and later)
//   warp_shuffle         __shfl_down_sync within each warp, warp totals through shared memory
// Seed 003's shared-memory atomic strategies (block::atomic, block::atomic_hybrid<G>) are in
// block_atomic.cuh: integer sum, min and max only.
#pragma once
#include "config.cuh"
#include "contract.cuh"
#include "warp.cuh"

namespace tally::block {

namespace detail {
template <int Threads>
inline constexpr bool valid_threads = Threads >= 32 && Threads <= 1024 && (Threads & (Threads - 1)) == 0;
}  // namespace detail

struct interleaved {
  static constexpr const char* name = "interleaved";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op op) {
    const int tid = threadIdx.x;
    smem[tid] = v;
    __syncthreads();
    for (int s = 1; s < Threads; s *= 2) {
      if (tid % (2 * s) == 0) smem[tid] = op(smem[tid], smem[tid + s]);
      __syncthreads();
    }
    return smem[0];
  }
};

struct interleaved_strided {
  static constexpr const char* name = "interleaved_strided";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op op) {
    const int tid = threadIdx.x;
    smem[tid] = v;
    __syncthreads();
    for (int s = 1; s < Threads; s *= 2) {
      const int i = 2 * s * tid;
      if (i < Threads) smem[i] = op(smem[i], smem[i + s]);
      __syncthreads();
    }
    return smem[0];
  }
};

struct sequential {
  static constexpr const char* name = "sequential";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op op) {
    const int tid = threadIdx.x;
    smem[tid] = v;
    __syncthreads();
    for (int s = Threads / 2; s > 0; s /= 2) {
      if (tid < s) smem[tid] = op(smem[tid], smem[tid + s]);
      __syncthreads();
    }
    return smem[0];
  }
};

struct sequential_unrolled {
  static constexpr const char* name = "sequential_unrolled";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op op) {
    const int tid = threadIdx.x;
    smem[tid] = v;
    __syncthreads();
#pragma unroll
    for (int s = Threads / 2; s >= tally::detail::warp_size; s /= 2) {
      if (tid < s) smem[tid] = op(smem[tid], smem[tid + s]);
      __syncthreads();
    }
    // Last warp: every read of a step happens before any write of it (__syncwarp between them),
    // and the writes are visible to the next step's reads (__syncwarp after). Only lanes < s read,
    // so no slot at or beyond 2s (possibly beyond Threads = 32) is touched.
    if (tid < tally::detail::warp_size) {
      v = smem[tid];
#pragma unroll
      for (int s = tally::detail::warp_size / 2; s > 0; s /= 2) {
        if (tid < s) v = op(v, smem[tid + s]);
        __syncwarp();
        if (tid < s) smem[tid] = v;
        __syncwarp();
      }
    }
    return v;
  }
};

struct warp_shuffle {
  static constexpr const char* name = "warp_shuffle";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads / tally::detail::warp_size;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op op) {
    constexpr int warps = Threads / tally::detail::warp_size;
    const int lane = threadIdx.x % tally::detail::warp_size;
    const int warp = threadIdx.x / tally::detail::warp_size;
    v = tally::detail::warp_total<tally::detail::warp_size>(v, op);
    if constexpr (warps > 1) {
      if (lane == 0) smem[warp] = v;
      __syncthreads();
      if (warp == 0) {
        if (lane < warps) v = smem[lane];
        v = tally::detail::warp_total<warps>(v, op);
      }
    }
    return v;
  }
};

namespace detail {
// Asked at Threads = 2048, a value no composition uses: nvcc 13's host pass rejects a later use of
// the very specialization a detection context has named (slots<256> after detecting slots<256>).
template <class B> using slots_member = std::integral_constant<int, B::template slots<2048>>;
template <class B>
using reduce_member = std::enable_if_t<std::is_convertible_v<
    decltype(B::template reduce<256>(int{}, tally::detail::probe_view{}, tally::detail::probe_op{})), int>>;
}  // namespace detail

template <class B>
constexpr bool check_block_policy() {
  using tally::detail::is_detected;
  static_assert(is_detected<tally::detail::name_member, B>, "tally block policy: missing 'static constexpr const char* name'");
  static_assert(is_detected<tally::detail::fixed_order_member, B>,
                "tally block policy: missing 'static constexpr bool fixed_order' (whether its order of combination is fixed)");
  static_assert(is_detected<detail::slots_member, B>,
                "tally block policy: missing 'template <int Threads> static constexpr int slots' (shared-memory slots it needs)");
  static_assert(is_detected<detail::reduce_member, B>,
                "tally block policy: missing 'template <int Threads, class S, class View, class Op> static S reduce(S v, View "
                "smem, Op op)' (callable with an int state)");
  return true;
}

}  // namespace tally::block
