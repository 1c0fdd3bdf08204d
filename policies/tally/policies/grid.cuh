// Grid policies: how many blocks a device-wide reduction launches for `tiles` tiles of input, and
// how their partial states become the result.
//
// Contract (check_grid_policy; docs/policies.md):
//   name                               static constexpr const char*
//   fixed_order                        static constexpr bool
//   finishes_in_last_block             static constexpr bool: one launch, the last block to finish
//                                      combines the partials (the partials buffer has a fixed size);
//                                      false: a second launch combines them
//   blocks(tiles, sm_count, per_sm)    constexpr index_t: blocks of the first launch (>= 1 for tiles >= 1)
// How the launch starts (plain or programmatic) is the launch family's (launch.cuh), not the grid's.
//
//   resident  as many blocks as the device runs at once (SMs x resident blocks per SM, from the
//             occupancy API); each loops over many tiles; the last block combines: one launch at every n
//   per_tile  one block per tile, as in the classical write-ups: the grid and the partials grow with
//             n, and a second launch combines the partials
#pragma once
#include "config.cuh"
#include "contract.cuh"
#include "launch.cuh"

namespace tally::grid {

inline constexpr index_t max_blocks = 2147483647;  // gridDim.x limit

struct resident {
  static constexpr const char* name = "resident";
  static constexpr bool fixed_order = true;
  static constexpr bool finishes_in_last_block = true;
  static constexpr index_t blocks(index_t tiles, int sm_count, int blocks_per_sm) {
    const index_t cap = index_t{sm_count} * (blocks_per_sm > 0 ? blocks_per_sm : 1);
    return tiles < cap ? tiles : cap;
  }
};

struct per_tile {
  static constexpr const char* name = "per_tile";
  static constexpr bool fixed_order = true;
  static constexpr bool finishes_in_last_block = false;
  static constexpr index_t blocks(index_t tiles, int, int) { return tiles < max_blocks ? tiles : max_blocks; }
};

// Deprecated spelling of resident with launch::pdl: reduce_policy takes its launch from here when
// given this grid.
struct [[deprecated("tally::grid::resident_pdl: use grid::resident and launch::pdl (reduce_policy's Launch)")]] resident_pdl
    : resident {
  using launch = tally::launch::pdl;
};

namespace detail {
template <class G> using finishes_member = std::enable_if_t<std::is_same_v<std::remove_cv_t<decltype(G::finishes_in_last_block)>, bool>>;
template <class G> using blocks_member = std::enable_if_t<std::is_convertible_v<decltype(G::blocks(index_t{}, int{}, int{})), index_t>>;
}  // namespace detail

template <class G>
constexpr bool check_grid_policy() {
  using tally::detail::is_detected;
  static_assert(is_detected<tally::detail::name_member, G>, "tally grid policy: missing 'static constexpr const char* name'");
  static_assert(is_detected<tally::detail::fixed_order_member, G>,
                "tally grid policy: missing 'static constexpr bool fixed_order' (whether its order of combination is fixed)");
  static_assert(is_detected<detail::finishes_member, G>,
                "tally grid policy: missing 'static constexpr bool finishes_in_last_block'");
  static_assert(is_detected<detail::blocks_member, G>,
                "tally grid policy: missing 'static constexpr index_t blocks(index_t tiles, int sm_count, int blocks_per_sm)'");
  return true;
}

}  // namespace tally::grid
