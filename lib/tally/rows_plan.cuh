// How a row reduction is launched: plan_rows is a pure host function of the shape, the element
// type, the alignment and three device facts, so the choice can be tested without a GPU.
//
// Items. When A (and x, for matvec) are 16-byte aligned and ld * sizeof(T) is a multiple of 16,
// every row starts on a 16-byte boundary and is read in 16-byte items of V = 16 / sizeof(T)
// elements ("vectorized"); otherwise each item is one element. The N % V elements after the last
// whole item of a row are read one at a time. row_items = items including a partial one.
//
// The default (rows::by_shape), with W = resident warps on the device (SMs x warps per SM) and
// C = SMs x resident blocks of the span kernel:
//   row_items <= 4           thread_per_row: one lane reads a row's items in turn, 4 rows in flight
//                            (no shuffles, fewer registers than a sub-warp: more warps resident)
//   row_items <= 32          group of pow2ceil(row_items) lanes per row (2..16: sub-warp; 32: warp),
//                            4 rows in flight per group: one 16-byte load per lane and row (two past
//                            16 items), and a warp reads whole consecutive rows.
//                            Not vectorized (the fallback), only 8 lanes (N <= 8) or 32: fewer
//                            kernels to compile for a path that is not the fast one anyway
//   row_items <= 128         warp_per_row, 4 rows in flight
//   longer rows, M >= W      warp_per_row, 1 row per warp, 4 items in flight per lane
//   longer rows, M < W       blocks_per_row with S = min(C / M, row_items / 1024) splits if S >= 2
//                            (one wave of equal spans, each at least 1024 items = 16 KB), else
//                            block_per_row
// Forced strategies: group_per_row<L> uses L lanes (4 rows in flight, except warps on rows longer
// than 128 items: 1 row, 4 items in flight); block_per_row one block per row; blocks_per_row
// S = clamp(C / M, 2, row_items) splits, without the 16 KB minimum (so it also splits short rows).
#pragma once
#include <cstddef>
#include <string>

#include <tally/policies/grid.cuh>
#include <tally/policies/load.cuh>
#include <tally/policies/rows.cuh>

namespace tally {

// Device facts a plan needs (reduce_rows reads them once per device).
struct rows_device {
  int sm_count = 1;
  int warps_per_sm = 64;        // max resident threads per SM / 32
  int span_blocks_per_sm = 1;   // resident blocks per SM of the block / blocks per row kernel
};

enum class rows_launch { none, group, span };

struct rows_plan {
  index_t m = 0, n = 0, ld = 0;
  bool vectorized = false;  // 16-byte items
  int item_elems = 1;       // elements per item (V, or 1)
  index_t items = 0;        // whole items per row
  index_t tail_begin = 0;   // first column after the last whole item
  rows_launch launch = rows_launch::none;
  int threads = 0;          // per block
  int lanes = 0;            // group: lanes per row
  int rows_in_flight = 0;   // group: rows a group reads at once (4, or 1 with 4 items per lane)
  index_t splits = 1;       // span: blocks per row
  index_t items_per_split = 0;
  index_t blocks = 0;       // grid size (kernels are grid-stride beyond it)

  index_t row_items() const { return items + (tail_begin < n ? 1 : 0); }
  // Bytes of workspace for states of size state_bytes: a ticket per row (padded to 16 bytes) and
  // a partial per (row, split), only when rows are split.
  std::size_t workspace_bytes(std::size_t state_bytes) const {
    if (launch != rows_launch::span || splits < 2) return 0;
    const std::size_t tickets = (static_cast<std::size_t>(m) * sizeof(unsigned) + 15) / 16 * 16;
    return tickets + static_cast<std::size_t>(m) * static_cast<std::size_t>(splits) * state_bytes;
  }
  std::size_t partials_offset() const { return (static_cast<std::size_t>(m) * sizeof(unsigned) + 15) / 16 * 16; }
  // "sub_warp_per_row<8>", "blocks_per_row<352>", ...: for tests and benchmark output.
  std::string strategy() const {
    if (launch == rows_launch::group)
      return lanes == 1 ? std::string("thread_per_row")
             : lanes == 32 ? std::string("warp_per_row")
                           : "sub_warp_per_row<" + std::to_string(lanes) + ">";
    if (launch == rows_launch::span)
      return splits == 1 ? std::string("block_per_row") : "blocks_per_row<" + std::to_string(splits) + ">";
    return "none";
  }
};

namespace detail {

inline constexpr int rows_unroll = 4;              // loads in flight per lane
inline constexpr index_t thread_row_items = 4;     // up to here one lane a row (rows of <= 64 bytes): on an
                                                   // H200, 2^22 x 8 double read 91.7 % of the ceiling with
                                                   // one lane, 84.7 % with 4 (79 registers, 3 blocks an SM);
                                                   // float 94.4 % with one, 92.1 % with 2
inline constexpr index_t short_row_items = 32;     // up to here: at most 16 lanes, one or two items each
inline constexpr int short_row_lanes = 16;         // 17-32 items: 2 a lane (2^20 x 64 doubles: 10 % faster
                                                   // than a warp a row on an H200: half the shuffle levels)
inline constexpr index_t long_row_items = 128;     // beyond: one row per warp, items unrolled
inline constexpr index_t min_split_items = 1024;   // by_shape: 16 KB (vectorized) per split at least

constexpr int pow2_at_least(index_t x) {
  int p = 1;
  while (p < x && p < 32) p *= 2;
  return p;
}

constexpr index_t grid_of(index_t work) { return work < grid::max_blocks ? work : grid::max_blocks; }

constexpr void plan_group(rows_plan& p, int lanes, int threads) {
  p.launch = rows_launch::group;
  p.threads = threads;
  p.lanes = lanes;
  p.rows_in_flight = lanes == 32 && p.row_items() > long_row_items ? 1 : rows_unroll;
  const index_t tile_rows = index_t{p.rows_in_flight} * (threads / lanes);
  p.blocks = grid_of(p.m / tile_rows + (p.m % tile_rows != 0));
}

constexpr void plan_span(rows_plan& p, int threads, index_t splits) {
  p.launch = rows_launch::span;
  p.threads = threads;
  p.splits = splits < 1 ? 1 : splits;
  p.items_per_split = p.items / p.splits + (p.items % p.splits != 0);
  // Rounding the span up may leave the last splits empty: drop them (the last split also reads
  // the row's tail elements, so at least one split remains).
  if (p.items_per_split > 0) p.splits = p.items / p.items_per_split + (p.items % p.items_per_split != 0);
  p.blocks = grid_of(p.m * p.splits);
}

constexpr index_t span_capacity(const rows_device& d) {
  return index_t{d.sm_count > 0 ? d.sm_count : 1} * (d.span_blocks_per_sm > 0 ? d.span_blocks_per_sm : 1);
}

}  // namespace detail

// aligned16: A (and x) 16-byte aligned and ld * sizeof(T) a multiple of 16.
template <class Strategy, class T>
constexpr rows_plan plan_rows(index_t m, index_t n, index_t ld, bool aligned16, const rows_device& d) {
  rows_plan p;
  p.m = m;
  p.n = n;
  p.ld = ld;
  p.vectorized = load::detail::vectorizable<T> && aligned16;
  p.item_elems = p.vectorized ? static_cast<int>(16 / sizeof(T)) : 1;
  p.items = n / p.item_elems;
  p.tail_begin = p.items * p.item_elems;
  if (m <= 0) return p;  // nothing to launch

  const index_t row_items = p.row_items();
  const index_t per_row_capacity = detail::span_capacity(d) / m;
  if constexpr (Strategy::strategy == rows::kind::group) {
    detail::plan_group(p, Strategy::lanes, Strategy::threads);
  } else if constexpr (Strategy::strategy == rows::kind::block) {
    detail::plan_span(p, Strategy::threads, 1);
  } else if constexpr (Strategy::strategy == rows::kind::blocks) {
    index_t s = per_row_capacity < 2 ? 2 : per_row_capacity;
    if (s > row_items) s = row_items;
    detail::plan_span(p, Strategy::threads, s);
  } else {
    const index_t resident_warps = index_t{d.sm_count} * d.warps_per_sm;
    if (row_items <= detail::short_row_items) {
      const int lanes = detail::pow2_at_least(row_items);
      const int vector_lanes = row_items <= detail::thread_row_items ? 1
                               : lanes < detail::short_row_lanes   ? lanes
                                                                   : detail::short_row_lanes;
      detail::plan_group(p, p.vectorized ? vector_lanes : lanes <= 8 ? 8 : 32, Strategy::threads);
    } else if (row_items <= detail::long_row_items || m >= resident_warps) {
      detail::plan_group(p, 32, Strategy::threads);
    } else {
      index_t s = per_row_capacity;
      if (s > row_items / detail::min_split_items) s = row_items / detail::min_split_items;
      detail::plan_span(p, Strategy::threads, s >= 2 ? s : 1);
    }
  }
  return p;
}

}  // namespace tally
