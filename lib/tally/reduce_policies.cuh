// Named reduce compositions: the classical reduction ladder (Harris, "Optimizing parallel reduction
// in CUDA") as compositions, so that it can be replayed and measured on today's GPUs. Each rung
// changes one policy of the one before; the first five launch one block per tile, as the original.
// reduce_policies::all lists every one, in ladder order, for the tests and the benchmark.
#pragma once
#include <tally/reduce_policy.cuh>

namespace tally::reduce_policies {

using baseline = reduce_policy<load::single, block::interleaved, smem::static_array, 256, accum::native, grid::per_tile>;
// Strided index 2*s*tid instead of tid % 2s: no divergent warps, but bank conflicts.
using strided = reduce_policy<load::single, block::interleaved_strided, smem::static_array, 256, accum::native, grid::per_tile>;
// Sequential addressing: conflict-free.
using sequential = reduce_policy<load::single, block::sequential, smem::static_array, 256, accum::native, grid::per_tile>;
// First add during load: two elements per thread, half the blocks, no idle threads.
using first_add = reduce_policy<load::unroll<2>, block::sequential, smem::static_array, 256, accum::native, grid::per_tile>;
// Last warp without block barriers (warp-synchronous, __syncwarp-ordered). Threads is a template
// parameter, so the block loop is unrolled too: this rung is the original's "complete unroll" already.
using unroll_last_warp = reduce_policy<load::unroll<2>, block::sequential_unrolled, smem::static_array, 256, accum::native, grid::per_tile>;
// Complete unroll plus many elements per thread (Harris' reduce6): a resident grid, each thread
// looping over tiles.
using complete_unroll = reduce_policy<load::unroll<2>, block::sequential_unrolled, smem::static_array, 256, accum::native, grid::resident>;
// Four elements per thread through shared memory.
using unroll4 = reduce_policy<load::unroll<4>, block::sequential_unrolled, smem::static_array, 256, accum::native, grid::per_tile>;
// Warp shuffles instead of shared memory within each warp, 16-byte loads.
using shuffle = reduce_policy<load::vector<2>, block::warp_shuffle, smem::static_array, 256, accum::native, grid::resident>;

using all = policy_list<baseline, strided, sequential, first_add, unroll_last_warp, complete_unroll, unroll4, shuffle>;

// Seed 003's block strategies on complete_unroll's load and grid: every thread folds into one shared
// slot with an atomic, or groups of 8 fold into their own slot first (block_atomic.cuh). For 32- and
// 64-bit integer sum, min and max only, so they are off the ladder (integer_rungs).
using atomic = reduce_policy<load::unroll<2>, block::atomic, smem::static_array, 256, accum::native, grid::resident>;
using atomic_hybrid = reduce_policy<load::unroll<2>, block::atomic_hybrid<8>, smem::static_array, 256, accum::native, grid::resident>;

using integer_rungs = policy_list<atomic, atomic_hybrid>;

}  // namespace tally::reduce_policies
