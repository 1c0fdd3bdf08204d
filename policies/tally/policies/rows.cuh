// Row strategies: who reduces one row of a row-major M x N matrix (reduce_rows, matvec).
//
//   group_per_row<Lanes, Threads>  a group of Lanes lanes (1, 2, ..., 32) per row; the group's lanes
//                                  read the row's 16-byte chunks round-robin, so the lanes of a warp
//                                  read consecutive bytes whenever rows are contiguous, and the
//                                  group's states combine with a segmented shuffle tree. Several
//                                  rows are in flight per group (four loads per lane) for short rows.
//     thread_per_row                 group_per_row<1>: each thread owns whole rows (by_shape: up to 64 bytes)
//     sub_warp_per_row<Lanes>        2..16 lanes per row (rows of 32 to 256 bytes)
//     warp_per_row                   group_per_row<32>: the seeds' design, with shuffles
//   block_per_row<Threads, Block, Smem>   one block per row, combined by a block policy (block.cuh)
//   blocks_per_row<Threads, Block, Smem>  several blocks per row for few long rows: each writes a
//                                  partial to a workspace, and the last block of a row to finish
//                                  combines the row's partials in a fixed order (deterministic)
//   by_shape                       picks one of the above per call from M, N, ld, the element type,
//                                  the alignment and the device (rows_plan.cuh states the rule)
//
// How a call's kernel starts behind the kernel ahead of it in the stream (rows_policy's Launch):
//   stream_ordered  a plain launch: dispatched once the kernel ahead has completed
//   pdl             programmatic dependent launch on sm_90 and later: dispatched while the kernel
//                   ahead drains; every block waits for it to complete (griddepcontrol.wait)
//                   before its first global access, so results are the same
// (Releasing the next call's launch right after the wait, griddepcontrol.launch_dependents, measured
// on an H200: at most 0.3 % faster on 5 of the 14 benchmark shapes, up to 1.5 % slower on the
// other 9 (64 x 2^20 double); not offered.)
// Captured launches are plain (detail/launch.cuh says why).
//
// A strategy is only a bag of compile-time traits; rows_plan.cuh turns it into a launch plan and
// detail/rows_*_kernel.cuh run it.
#pragma once
#include "block.cuh"
#include "config.cuh"
#include "smem.cuh"

namespace tally::rows {

enum class kind { group, block, blocks, by_shape };

template <int Lanes, int Threads = 256>
struct group_per_row {
  static_assert(Lanes >= 1 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0,
                "tally::rows::group_per_row: Lanes must be a power of two in [1, 32]");
  static_assert(Threads >= 32 && Threads <= 1024 && Threads % 32 == 0,
                "tally::rows::group_per_row: Threads must be a multiple of 32 in [32, 1024]");
  static constexpr kind strategy = kind::group;
  static constexpr int lanes = Lanes;
  static constexpr int threads = Threads;
  static constexpr const char* name = Lanes == 1 ? "thread_per_row" : Lanes == 32 ? "warp_per_row" : "sub_warp_per_row";
};

using thread_per_row = group_per_row<1>;
template <int Lanes, int Threads = 256>
using sub_warp_per_row = group_per_row<Lanes, Threads>;
using warp_per_row = group_per_row<32>;

template <int Threads = 256, class Block = block::warp_shuffle, class Smem = smem::static_array>
struct block_per_row {
  static_assert(block::detail::valid_threads<Threads>,
                "tally::rows::block_per_row: Threads must be a power of two in [32, 1024]");
  static constexpr kind strategy = kind::block;
  static constexpr int threads = Threads;
  using block = Block;
  using smem = Smem;
  static constexpr const char* name = "block_per_row";
};

template <int Threads = 256, class Block = block::warp_shuffle, class Smem = smem::static_array>
struct blocks_per_row {
  static_assert(block::detail::valid_threads<Threads>,
                "tally::rows::blocks_per_row: Threads must be a power of two in [32, 1024]");
  static constexpr kind strategy = kind::blocks;
  static constexpr int threads = Threads;
  using block = Block;
  using smem = Smem;
  static constexpr const char* name = "blocks_per_row";
};

struct stream_ordered {
  static constexpr bool programmatic = false;
  static constexpr const char* name = "stream_ordered";
};
struct pdl {
  static constexpr bool programmatic = true;
  static constexpr const char* name = "pdl";
};

// The default. Its group kernels run 256 threads; block and blocks per row run
// blocks_per_row<256>'s kernel (warp shuffles, a static shared array).
struct by_shape {
  static constexpr kind strategy = kind::by_shape;
  static constexpr int threads = 256;
  using block = block::warp_shuffle;
  using smem = smem::static_array;
  static constexpr const char* name = "by_shape";
};

}  // namespace tally::rows
