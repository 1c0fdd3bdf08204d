// How a row reduction is launched: a rows_plan, made by plan_rows, a pure host function of the
// shape, the element type, the alignment and a few device facts, so that every strategy's choice can
// be tested without a GPU.
//
// plan_rows fills what every strategy shares, the way rows are read: when A (and x, for matvec) are
// 16-byte aligned and ld * sizeof(T) is a multiple of 16, every row starts on a 16-byte boundary and
// is read in 16-byte items of V = 16 / sizeof(T) elements ("vectorized"); otherwise each item is one
// element. The N % V elements after the last whole item of a row are read one at a time. Then the
// row strategy (rows/*.cuh) fills its launch: threads, blocks, and who reduces a row (lanes of a
// group, or splits of a row over blocks), and the tickets and partial states it needs.
#pragma once
#include <cstddef>
#include <string>

#include <tally/policies/grid.cuh>
#include <tally/policies/load.cuh>

namespace tally {

// Device facts a plan needs (a rows_reducer reads them once per device).
struct rows_device {
  int sm_count = 1;
  int warps_per_sm = 64;   // max resident threads per SM / 32
  int blocks_per_sm = 1;   // resident blocks per SM of the strategy's own kernel (its blocks_per_sm; for a matvec
                           // plan, of its matvec kernel), or 1
  index_t l2_bytes = 0;    // the L2 cache (0: unknown)
};

struct rows_plan {
  // The call, and how its rows are read (plan_rows).
  index_t m = 0, n = 0, ld = 0;
  bool vectorized = false;  // 16-byte items
  int item_elems = 1;       // elements per item (V, or 1)
  index_t items = 0;        // whole items per row
  index_t tail_begin = 0;   // first column after the last whole item
  bool dot = false;         // matvec: each element times x[j] (x read with A: more registers a thread)

  // The launch (the strategy's plan). blocks == 0: nothing to launch (M == 0).
  const char* strategy_name = "none";
  index_t strategy_param = 0;  // shown as name<param> when > 0 ("sub_warp_per_row<8>")
  int threads = 0;             // per block
  index_t blocks = 0;          // grid size (kernels are grid-stride beyond it)
  int lanes = 0;               // a group of lanes per row: its size; 0 when blocks reduce rows
  int rows_in_flight = 0;      // rows a group of lanes, or a block of a span plan, reads at once
  index_t splits = 1;          // blocks per row
  index_t items_per_split = 0;
  index_t tickets = 0;         // unsigned ticket counters, one per group of split rows
  index_t partials = 0;        // partial states
  bool stream_a = false;       // a span matvec reads A with the evict-first hint (x stays in L2)

  index_t row_items() const { return items + (tail_begin < n ? 1 : 0); }
  bool launches() const { return blocks > 0; }
  // Workspace: the tickets (padded to 16 bytes), then the partial states of state_bytes each.
  std::size_t partials_offset() const { return (static_cast<std::size_t>(tickets) * sizeof(unsigned) + 15) / 16 * 16; }
  std::size_t workspace_bytes(std::size_t state_bytes) const {
    if (tickets == 0 && partials == 0) return 0;
    return partials_offset() + static_cast<std::size_t>(partials) * state_bytes;
  }
  // "sub_warp_per_row<8>", "blocks_per_row<352>", ...: for tests and benchmark output.
  std::string strategy() const {
    return strategy_param > 0 ? std::string(strategy_name) + "<" + std::to_string(strategy_param) + ">"
                              : std::string(strategy_name);
  }
};

namespace detail {

inline constexpr int rows_unroll = 4;  // loads in flight per lane

constexpr index_t grid_of(index_t work) { return work < grid::max_blocks ? work : grid::max_blocks; }

// Groups of `rows` rows that M rows make (the last one may be partial).
constexpr index_t row_groups(index_t m, int rows) { return m / rows + (m % rows != 0); }

// Blocks that each reduce one span of `rows` rows at once (1, or 2 for split matvec rows):
// `splits` spans a row (clamped to [1, items]); split rows take a ticket per group of rows and a
// partial per row and span.
constexpr void plan_spans(rows_plan& p, int threads, index_t splits, int rows = 1) {
  p.threads = threads;
  p.lanes = 0;
  p.rows_in_flight = rows;
  p.splits = splits < 1 ? 1 : splits;
  p.items_per_split = p.items / p.splits + (p.items % p.splits != 0);
  // Rounding the span up may leave the last splits empty: drop them (the last split also reads
  // the row's tail elements, so at least one split remains).
  if (p.items_per_split > 0) p.splits = p.items / p.items_per_split + (p.items % p.items_per_split != 0);
  const index_t groups = row_groups(p.m, rows);
  p.blocks = grid_of(groups * p.splits);
  p.tickets = p.splits > 1 ? groups : 0;
  p.partials = p.splits > 1 ? p.m * p.splits : 0;
}

// Groups of `lanes` lanes, each reducing `rows_in_flight` rows at once.
constexpr void plan_groups(rows_plan& p, int lanes, int threads, int rows_in_flight) {
  p.threads = threads;
  p.lanes = lanes;
  p.rows_in_flight = rows_in_flight;
  const index_t tile_rows = index_t{rows_in_flight} * (threads / lanes);
  p.blocks = grid_of(p.m / tile_rows + (p.m % tile_rows != 0));
}

// A double (8-byte) matvec of whole rows reads one row a block in its own kernel
// (detail/rows_stream_kernel.cuh), A with the evict-first hint, all four loads of A of a round in
// flight before its products: H200, at its row sum's speed (docs/performance.md, "Double matvec:
// whole rows streamed"). The kernel counts a row's items in 32 bits and gives each row a block.
template <class T>
constexpr bool streams_whole_rows(const rows_plan& p) {
  return p.dot && p.splits == 1 && sizeof(T) == 8 && p.items > 0 && p.items < (index_t{1} << 30) &&
         p.m <= grid::max_blocks;
}

// Split matvec rows read x's spans from L2, each by every row's block. Where x fits a quarter of L2,
// A read with the evict-first hint leaves x there: H100, 64 x 2^20 +2 - 3 % in every type. With x
// larger than L2 (3 x 2^24) float and double lost 8 - 9 % (docs/performance.md). Two rows a block
// only: the kernel measured. And double's whole rows (above).
template <class T>
constexpr bool stream_a(const rows_plan& p, const rows_device& d) {
  if (streams_whole_rows<T>(p)) return true;
  return p.dot && p.splits > 1 && p.rows_in_flight == 2 && d.l2_bytes > 0 &&
         p.n * static_cast<index_t>(sizeof(T)) <= d.l2_bytes / 4;
}

constexpr index_t span_capacity(const rows_device& d) {
  return index_t{d.sm_count > 0 ? d.sm_count : 1} * (d.blocks_per_sm > 0 ? d.blocks_per_sm : 1);
}

}  // namespace detail

// The plan of strategy S for a call on T. aligned16: A (and x) 16-byte aligned and ld * sizeof(T)
// a multiple of 16. dot: a matvec (d then describes the strategy's matvec kernels).
template <class S, class T>
constexpr rows_plan plan_rows(index_t m, index_t n, index_t ld, bool aligned16, const rows_device& d, bool dot = false) {
  rows_plan p;
  p.m = m;
  p.n = n;
  p.ld = ld;
  p.dot = dot;
  p.vectorized = load::detail::vectorizable<T> && aligned16;
  p.item_elems = p.vectorized ? static_cast<int>(16 / sizeof(T)) : 1;
  p.items = n / p.item_elems;
  p.tail_begin = p.items * p.item_elems;
  if (m <= 0) return p;  // nothing to launch
  S::template plan<T>(p, d);
  return p;
}

}  // namespace tally
