// group_per_row<Lanes, Threads>: a group of Lanes lanes (1, 2, ..., 32) reduces a row. The group's
// lanes read the row's items round-robin, so the lanes of a warp read consecutive bytes whenever
// rows are contiguous, and the group's states combine with a segmented shuffle tree
// (detail/rows_group_kernel.cuh). Four loads are in flight a lane: four rows at once a group, or, for
// a warp on a row of more than 128 items, one row and four items at once.
//   thread_per_row          group_per_row<1>: each thread owns whole rows (by_shape: up to 64 bytes)
//   sub_warp_per_row<L>     2..16 lanes per row (rows of 32 to 256 bytes)
//   warp_per_row            group_per_row<32>: a warp a row, with shuffles
#pragma once
#include <tally/detail/rows_group_kernel.cuh>
#include <tally/rows/strategy.cuh>

namespace tally::rows {

namespace detail {
constexpr const char* group_name(int lanes) {
  return lanes == 1 ? "thread_per_row" : lanes == 32 ? "warp_per_row" : "sub_warp_per_row";
}
inline constexpr index_t long_row_items = 128;  // a warp on longer rows reads one row, four items at once

// The plan of groups of `lanes` lanes a row (lanes known at run time: by_shape picks them).
constexpr void plan_group_per_row(rows_plan& p, int lanes, int threads) {
  p.strategy_name = group_name(lanes);
  p.strategy_param = lanes > 1 && lanes < 32 ? lanes : 0;
  const bool one_row = lanes == 32 && p.row_items() > long_row_items;
  tally::detail::plan_groups(p, lanes, threads, one_row ? 1 : tally::detail::rows_unroll);
}
}  // namespace detail

template <int Lanes, int Threads = 256>
struct group_per_row {
  static_assert(Lanes >= 1 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0,
                "tally::rows::group_per_row: Lanes must be a power of two in [1, 32]");
  static_assert(Threads >= 32 && Threads <= 1024 && Threads % 32 == 0,
                "tally::rows::group_per_row: Threads must be a multiple of 32 in [32, 1024]");
  static constexpr const char* name = detail::group_name(Lanes);
  static constexpr bool fixed_order = true;
  static constexpr int lanes = Lanes;
  static constexpr int threads = Threads;

  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device&) { detail::plan_group_per_row(p, Lanes, Threads); }

  template <class Call>
  static void launch(const rows_plan& p, const Call& call) {
    call.with_item_elems(p, [&](auto v) { launch_items<decltype(v)::value>(p, call); });
  }

  // The kernel for V elements an item (by_shape calls it for the group size it picked).
  template <int V, class Call>
  static void launch_items(const rows_plan& p, const Call& call) {
    using K = typename Call::types;
    constexpr int R = tally::detail::rows_unroll;
    if (Lanes == 32 && p.rows_in_flight == 1) {
      if constexpr (Lanes == 32) call.queue(&tally::detail::group_rows_kernel<K, Lanes, Threads, 1, R, V>, p, 0);
    } else {
      call.queue(&tally::detail::group_rows_kernel<K, Lanes, Threads, R, 1, V>, p, 0);
    }
  }
};

using thread_per_row = group_per_row<1>;
template <int Lanes, int Threads = 256>
using sub_warp_per_row = group_per_row<Lanes, Threads>;
using warp_per_row = group_per_row<32>;

}  // namespace tally::rows
