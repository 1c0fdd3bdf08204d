// group_per_row<Lanes, Threads>: a group of Lanes lanes (1, 2, ..., 32) reduces a row. The group's
// lanes read the row's items round-robin, so the lanes of a warp read consecutive bytes whenever
// rows are contiguous, and the group's states combine with a segmented shuffle tree
// (detail/rows_group_kernel.cuh). Four loads are in flight a lane: four rows at once a group, or, for
// a warp on a row of more than 128 items, one row and four items at once (two rows and two items
// for a 16-bit matvec).
//   thread_per_row          group_per_row<1>: each thread owns whole rows (by_shape: up to 64 bytes)
//   sub_warp_per_row<L>     2..16 lanes per row (rows of 32 to 256 bytes)
//   warp_per_row            group_per_row<32>: a warp a row, with shuffles
#pragma once
#include <type_traits>

#include <tally/detail/rows_group_kernel.cuh>
#include <tally/rows/strategy.cuh>

namespace tally::rows {

namespace detail {
constexpr const char* group_name(int lanes) {
  return lanes == 1 ? "thread_per_row" : lanes == 32 ? "warp_per_row" : "sub_warp_per_row";
}
inline constexpr index_t long_row_items = 128;  // a warp on longer rows reads one row, four items at once

// Rows a warp reads at once on rows of more than long_row_items items: one, but two for a matvec of
// 16-bit elements, which is bound by instructions (each x item widened to float for every row it
// serves): half and bf16 16384 x 4096 0.95 -> 1.01 of the best baseline, 4096 x 4096 from L2 1.0 ->
// 1.4; float and double lost 1 - 10 % (H100, docs/performance.md).
template <class T>
constexpr int long_rows_in_flight(const rows_plan& p) {
  return p.dot && sizeof(T) == 2 ? 2 : 1;
}

// The plan of groups of `lanes` lanes a row (lanes known at run time: by_shape picks them).
template <class T>
constexpr void plan_group_per_row(rows_plan& p, int lanes, int threads) {
  p.strategy_name = group_name(lanes);
  p.strategy_param = lanes > 1 && lanes < 32 ? lanes : 0;
  const bool long_rows = lanes == 32 && p.row_items() > long_row_items;
  tally::detail::plan_groups(p, lanes, threads, long_rows ? long_rows_in_flight<T>(p) : tally::detail::rows_unroll);
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
  static constexpr void plan(rows_plan& p, const rows_device&) { detail::plan_group_per_row<T>(p, Lanes, Threads); }

  template <class Call>
  static void launch(const rows_plan& p, const Call& call) {
    call.with_item_elems(p, [&](auto v) { launch_items<decltype(v)::value>(p, call); });
  }

  // The kernel for V elements an item (by_shape calls it for the group size it picked).
  template <int V, class Call>
  static void launch_items(const rows_plan& p, const Call& call) {
    using K = typename Call::types;
    constexpr int R = tally::detail::rows_unroll;
    if constexpr (Lanes == 32) {  // long rows: 1 row (or 2, 16-bit matvec) a warp, R / rows items a lane in flight
      if (p.rows_in_flight == 1) return call.queue(&tally::detail::group_rows_kernel<K, Lanes, Threads, 1, R, V>, p, 0);
      if constexpr (sizeof(typename K::input) == 2 && !std::is_same_v<typename K::xform, tally::detail::plain_rows>)
        if (p.rows_in_flight == 2) return call.queue(&tally::detail::group_rows_kernel<K, Lanes, Threads, 2, R / 2, V>, p, 0);
    }
    call.queue(&tally::detail::group_rows_kernel<K, Lanes, Threads, R, 1, V>, p, 0);
  }
};

using thread_per_row = group_per_row<1>;
template <int Lanes, int Threads = 256>
using sub_warp_per_row = group_per_row<Lanes, Threads>;
using warp_per_row = group_per_row<32>;

}  // namespace tally::rows
