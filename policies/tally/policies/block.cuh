// Block policies: how the Threads partial states of one block combine into one.
//
// Each policy has
//   slots<Threads>                      shared-memory slots it needs
//   reduce<Threads>(v, smem, op)        called by every thread of the block (no barrier sits in a
//                                       branch some threads skip); the total is valid in thread 0
//
// They are the rungs of the classical optimisation ladder (Harris, "Optimizing parallel reduction"):
//   interleaved          s = 1, 2, 4...; thread tid works when tid % 2s == 0: divergent warps
//   interleaved_strided  same pairs, computed by thread tid at index 2*s*tid: no divergence, but
//                        2-, 4-, ... way bank conflicts (padded smem removes them)
//   sequential           s = B/2 ... 1, thread tid < s adds slot tid + s: no conflicts
//   sequential_unrolled  sequential with compile-time B fully unrolled; the last warp runs without
//                        block barriers, ordered by __syncwarp() (the seeds' `volatile` version is a
//                        data race on Volta and later)
//   warp_shuffle         __shfl_down_sync within each warp, warp totals through shared memory
#pragma once
#include "config.cuh"
#include "warp.cuh"

namespace tally::block {

namespace detail {
template <int Threads>
inline constexpr bool valid_threads = Threads >= 32 && Threads <= 1024 && (Threads & (Threads - 1)) == 0;
}  // namespace detail

struct interleaved {
  static constexpr const char* name = "interleaved";
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
  template <int Threads> static constexpr int slots = Threads / tally::detail::warp_size;
  template <int Threads, class S, class View, class Op>
  TALLY_DEVICE static S reduce(S v, View smem, Op op) {
    constexpr int warps = Threads / tally::detail::warp_size;
    const int lane = threadIdx.x % tally::detail::warp_size;
    const int warp = threadIdx.x / tally::detail::warp_size;
    v = tally::detail::warp_reduce<tally::detail::warp_size>(v, op);
    if constexpr (warps > 1) {
      if (lane == 0) smem[warp] = v;
      __syncthreads();
      if (warp == 0) {
        if (lane < warps) v = smem[lane];
        v = tally::detail::warp_reduce<warps>(v, op);
      }
    }
    return v;
  }
};

}  // namespace tally::block
