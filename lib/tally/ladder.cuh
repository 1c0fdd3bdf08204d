// The classical reduction ladder (Harris, "Optimizing Parallel Reduction in CUDA"; seed 002) as
// named compositions, so that the benchmark can replay it on today's GPUs. Each rung changes one
// policy; the first five launch one block per tile as the source does.
#pragma once
#include <tally/reduce_policy.cuh>

namespace tally::ladder {

using baseline = reduce_policy<load::single, block::interleaved, smem::static_array, 256, accum::native, grid::per_tile>;
// Strided index 2*s*tid instead of tid % 2s: no divergent warps, but bank conflicts.
using strided = reduce_policy<load::single, block::interleaved_strided, smem::static_array, 256, accum::native, grid::per_tile>;
// Sequential addressing: conflict-free.
using sequential = reduce_policy<load::single, block::sequential, smem::static_array, 256, accum::native, grid::per_tile>;
// First add during load: two elements per thread, half the blocks, no idle threads.
using first_add = reduce_policy<load::unroll<2>, block::sequential, smem::static_array, 256, accum::native, grid::per_tile>;
// Last warp without block barriers (warp-synchronous, __syncwarp-ordered). Threads is a template
// parameter here, so the block loop is unrolled too: this rung's block code is the source's
// "complete unroll" already.
using unroll_last_warp = reduce_policy<load::unroll<2>, block::sequential_unrolled, smem::static_array, 256, accum::native, grid::per_tile>;
// Complete unroll plus many elements per thread (Harris' reduce6): a resident grid, each thread
// looping over tiles.
using complete_unroll = reduce_policy<load::unroll<2>, block::sequential_unrolled, smem::static_array, 256, accum::native, grid::resident>;
// Seed 004: four elements per thread through shared memory.
using unroll4 = reduce_policy<load::unroll<4>, block::sequential_unrolled, smem::static_array, 256, accum::native, grid::per_tile>;
// Warp shuffles instead of shared memory within each warp (seed 001), 16-byte loads.
using shuffle = reduce_policy<load::vector<2>, block::warp_shuffle, smem::static_array, 256, accum::native, grid::resident>;

}  // namespace tally::ladder
