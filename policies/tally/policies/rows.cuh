// The row strategies (reduce_rows, matvec), each defined in its own header under <tally/rows/>:
//   group_per_row<Lanes, Threads>, thread_per_row, sub_warp_per_row<L>, warp_per_row   rows/group_per_row.cuh
//   block_per_row<Threads, Block, Smem>, blocks_per_row<Threads, Block, Smem>          rows/blocks_per_row.cuh
//   by_shape (the default: one of the above per call)                                  rows/by_shape.cuh
// What a strategy must provide: rows/strategy.cuh.
#pragma once
#include <tally/policies/launch.cuh>
#include <tally/rows/blocks_per_row.cuh>
#include <tally/rows/by_shape.cuh>
#include <tally/rows/group_per_row.cuh>

namespace tally::rows {
// Deprecated spellings of the launch policies (launch.cuh).
using stream_ordered [[deprecated("tally::rows::stream_ordered: use tally::launch::stream_ordered")]] = launch::stream_ordered;
using pdl [[deprecated("tally::rows::pdl: use tally::launch::pdl")]] = launch::pdl;
}  // namespace tally::rows
