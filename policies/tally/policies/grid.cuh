// Grid policies: how many blocks a launch uses for `tiles` tiles of input.
//
//   resident  as many blocks as the device runs at once (SMs x resident blocks per SM, measured
//             with the occupancy API); each loops over many tiles. The partials buffer has a fixed
//             size, and the last block to finish combines the partials: one launch at every n.
//   resident_pdl  resident, launched with programmatic dependent launch on sm_90 and later: the
//             launch of a call overlaps the tail of the kernel ahead of it in the stream. Each
//             block waits (griddepcontrol.wait) for that kernel to complete, memory included,
//             before its first global access, so results are the same; on older devices it is
//             resident. Blocks do not release the next launch early (griddepcontrol.launch_dependents);
//             it is released as they exit. Releasing it right after the wait measured 1-3 % slower
//             back to back at 2^20-2^24 on an H200 (all five targets' type/op pairs; an earlier
//             release after the last load cost arg_min 5-11 % at >= 2^24; a release by the last
//             block once it holds the last ticket, before it combines, changed nothing).
//   per_tile  one block per tile, as in the seed articles: the grid and the partials grow with n,
//             and a second launch combines the partials.
#pragma once
#include "config.cuh"

namespace tally::grid {

inline constexpr index_t max_blocks = 2147483647;  // gridDim.x limit

struct resident {
  static constexpr const char* name = "resident";
  static constexpr bool finishes_in_last_block = true;
  static constexpr bool programmatic_launch = false;
  static constexpr index_t blocks(index_t tiles, int sm_count, int blocks_per_sm) {
    const index_t cap = index_t{sm_count} * (blocks_per_sm > 0 ? blocks_per_sm : 1);
    return tiles < cap ? tiles : cap;
  }
};

struct resident_pdl : resident {
  static constexpr const char* name = "resident_pdl";
  static constexpr bool programmatic_launch = true;
};

struct per_tile {
  static constexpr const char* name = "per_tile";
  static constexpr bool finishes_in_last_block = false;
  static constexpr bool programmatic_launch = false;
  static constexpr index_t blocks(index_t tiles, int, int) { return tiles < max_blocks ? tiles : max_blocks; }
};

}  // namespace tally::grid
