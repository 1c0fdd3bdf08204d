// by_shape: the default row strategy. Its plan picks one of the others for each call from the
// shape, the element type, the alignment and the device; its launch runs the one it picked. With
// W = resident warps on the device (SMs x warps per SM) and C = SMs x resident blocks of the span
// kernel (256 threads, warp shuffles):
//   row_items <= 4           thread_per_row: one lane reads a row's items in turn, 4 rows in flight
//                            (no shuffles, and fewer registers than a sub-warp: more warps resident)
//   row_items <= 32          a group of pow2ceil(row_items) lanes a row, at most 16 (two items a lane
//                            past 16: half the shuffle levels of a warp), 4 rows in flight: one or two
//                            16-byte loads per lane and row, and a warp reads whole consecutive rows.
//                            Not vectorized (the fallback), only 8 lanes (N <= 8) or 32: fewer kernels
//                            to compile for a path that is not the fast one anyway
//   row_items <= 128         warp_per_row, 4 rows in flight
//   rows of < 1024 items,    warp_per_row, 1 row per warp, 4 items in flight per lane (a 16-bit matvec:
//   M >= W                   2 rows, 2 items each; group_per_row.cuh)
//   rows of < 1024 items,    warp_per_row too: a block a row would give its threads fewer items than
//   M >= W / 4               they keep in flight (256 x 4), and a quarter of the resident warps, each
//                            with 4 x 16 bytes a lane in flight, keep memory busy (4096 x 4096 halves
//                            read from L2: 11.6 us a block a row, 5.9 us a warp a row, H100)
//   rows of >= 1024 items,   block_per_row: many small blocks, so that the last wave ends evenly (H100,
//   M >= W                   16384 x 4096: float and double sums 0.995 / 0.989 -> 1.02 of the best
//                            baseline a warp a row -> a block a row, matvec 0.99 / 0.98 -> 1.02 / 1.01)
//   longer rows, M < W       blocks_per_row with S = min(C / M', row_items / 1024) splits if S >= 2 (one
//                            wave of equal spans, each at least 1024 items = 16 KB), else block_per_row;
//                            a matvec with x beyond 64 KB reads two rows a block (M' = M / 2 rounded
//                            up; else M' = M), and C counts its kernel's blocks
//                            (blocks_per_row.cuh: rows_at_once); but a double matvec of whole rows
//                            reads one a block, streamed (rows_plan.cuh: streams_whole_rows)
// docs/performance.md has the measurements behind each threshold.
#pragma once
#include <tally/rows/blocks_per_row.cuh>
#include <tally/rows/group_per_row.cuh>

namespace tally::rows {

struct by_shape {
  static constexpr const char* name = "by_shape";
  static constexpr bool fixed_order = true;
  static constexpr int threads = 256;
  using spans = blocks_per_row<threads>;  // its block and blocks per row

  static constexpr index_t thread_row_items = 4;    // up to here one lane a row (rows of <= 64 bytes)
  static constexpr index_t short_row_items = 32;    // up to here at most 16 lanes, one or two items each
  static constexpr int short_row_lanes = 16;
  static constexpr index_t long_row_items = detail::long_row_items;  // beyond: one row per warp, items unrolled
  static constexpr index_t min_split_items = 1024;  // 16 KB (vectorized) per split at least

  static constexpr int pow2_at_least(index_t x) {
    int p = 1;
    while (p < x && p < 32) p *= 2;
    return p;
  }

  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device& d) {
    const index_t row_items = p.row_items();
    const index_t resident_warps = index_t{d.sm_count} * d.warps_per_sm;
    const bool block_rows = row_items >= min_split_items;  // a warp would keep 32 items a lane or more
    if (row_items <= short_row_items) {
      const int lanes = pow2_at_least(row_items);
      const int vector_lanes = row_items <= thread_row_items ? 1 : lanes < short_row_lanes ? lanes : short_row_lanes;
      detail::plan_group_per_row<T>(p, p.vectorized ? vector_lanes : lanes <= 8 ? 8 : 32, threads);
    } else if (row_items <= long_row_items || (p.m >= resident_warps && !block_rows) ||
               (row_items < index_t{threads} * tally::detail::rows_unroll && 4 * p.m >= resident_warps)) {
      detail::plan_group_per_row<T>(p, 32, threads);
    } else {
      const int rows = spans::template rows_at_once<T>(p);
      index_t s = p.m >= resident_warps ? 1 : tally::detail::span_capacity(d) / tally::detail::row_groups(p.m, rows);
      if (s > row_items / min_split_items) s = row_items / min_split_items;
      spans::template plan_splits<T>(p, d, s >= 2 ? s : 1, rows);
    }
  }

  template <class Call>
  static void launch(const rows_plan& p, const Call& call) {
    if (p.lanes == 0) return spans::launch(p, call);
    call.with_item_elems(p, [&](auto v) {
      constexpr int V = decltype(v)::value;
      if constexpr (V == 1) {  // the fallback: 8 or 32 lanes
        if (p.lanes == 8) group_per_row<8, threads>::template launch_items<V>(p, call);
        else group_per_row<32, threads>::template launch_items<V>(p, call);
      } else {
        switch (p.lanes) {
          case 1: group_per_row<1, threads>::template launch_items<V>(p, call); break;
          case 2: group_per_row<2, threads>::template launch_items<V>(p, call); break;
          case 4: group_per_row<4, threads>::template launch_items<V>(p, call); break;
          case 8: group_per_row<8, threads>::template launch_items<V>(p, call); break;
          case 16: group_per_row<16, threads>::template launch_items<V>(p, call); break;
          default: group_per_row<32, threads>::template launch_items<V>(p, call); break;
        }
      }
    });
  }

  template <class K>
  static int blocks_per_sm(int device) { return spans::template blocks_per_sm<K>(device); }

  // The most workspace a plan asks for on device d, at any shape: rows are split only while M is
  // below the resident warps, and into at most C / M' spans (tickets for M' <= M groups of rows,
  // M x S <= 2 C partials, a matvec's M' being M / 2 rounded up). d is the row sums' facts, or
  // matvec's (dot_device_facts) for matvec's bound. tally.hpp's device_reducer sizes its workspace
  // with it, once.
  static constexpr std::size_t workspace_bound(const rows_device& d, std::size_t state_bytes) {
    const std::size_t warps = static_cast<std::size_t>(d.sm_count) * static_cast<std::size_t>(d.warps_per_sm);
    return (warps * sizeof(unsigned) + 15) / 16 * 16 + 2 * static_cast<std::size_t>(tally::detail::span_capacity(d)) * state_bytes;
  }

};

}  // namespace tally::rows
