// A block reduces a span of a row (detail/rows_span_kernel.cuh), combining its threads' states with a
// block policy (block.cuh) in a shared-memory layout (smem.cuh).
//   block_per_row<Threads, Block, Smem>   one block a row (one span: the whole row)
//   blocks_per_row<Threads, Block, Smem>  several blocks a row, for few long rows: S = clamp(resident
//                                         blocks / M, 2, items) spans; each block writes a partial, and
//                                         the last block of a row to finish combines the row's
//                                         partials in a fixed order (deterministic)
// A matvec's block reads two rows at once where x is longer than 64 KB (rows_at_once); a double
// matvec's whole rows take their own kernel, one a block (detail/rows_stream_kernel.cuh).
#pragma once
#include <atomic>
#include <type_traits>

#include <tally/detail/device_cache.hpp>
#include <tally/detail/rows_span_kernel.cuh>
#include <tally/detail/rows_stream_kernel.cuh>
#include <tally/policies/block.cuh>
#include <tally/policies/smem.cuh>
#include <tally/rows/strategy.cuh>

namespace tally::rows {

namespace detail {

// What block_per_row and blocks_per_row share: the span kernel and its launch.
template <int Threads, class Block, class Smem>
struct span_launch {
  static_assert(block::detail::valid_threads<Threads>, "tally::rows::block(s)_per_row: Threads must be a power of two in [32, 1024]");
  static_assert(block::check_block_policy<Block>());
  static_assert(smem::check_smem_policy<Smem>());
  static constexpr bool fixed_order = Block::fixed_order;
  static constexpr int threads = Threads;
  using block = Block;
  using smem = Smem;

  // The kernel of Rows rows a span (four loads of A in flight a thread between them); StreamA: A read
  // with the evict-first hint.
  template <class K, int V, int Rows = 1, bool StreamA = false>
  static constexpr auto kernel() {
    return &tally::detail::span_rows_kernel<K, Block, Smem, Threads, Rows, tally::detail::rows_unroll / Rows, V, StreamA>;
  }
  template <class K>
  static constexpr std::size_t dynamic_smem = Smem::template dynamic_bytes<typename K::state, Block::template slots<Threads>>;
  template <class K>
  static constexpr bool is_dot = !std::is_same_v<typename K::xform, tally::detail::plain_rows>;

  template <class Call>
  static void launch(const rows_plan& p, const Call& call) {
    using K = typename Call::types;
    call.with_item_elems(p, [&](auto v) {
      constexpr int V = decltype(v)::value;
      const auto queue = [&](auto kernel) {
        call.queue(kernel, p, dynamic_smem<K>, p.splits, p.items_per_split, call.partials(p), call.tickets(p));
      };
      if constexpr (is_dot<K>) {
        if (p.rows_in_flight == 2) return p.stream_a ? queue(kernel<K, V, 2, true>()) : queue(kernel<K, V, 2>());
        if constexpr (sizeof(typename K::input) == 8) {
          if (tally::detail::streams_whole_rows<typename K::input>(p))
            return call.queue(&tally::detail::stream_rows_kernel<K, Block, Smem, Threads, tally::detail::rows_unroll, V>, p,
                              dynamic_smem<K>);
        }
      }
      queue(kernel<K, V>());
    });
  }

  // Rows a block reads at once: two for a matvec whose x is longer than L1 keeps for an SM's blocks
  // (64 KB: each x item then serves both rows, where every row would read it again from L2), else
  // one. H100: float 64 x 2^20 0.99 -> 1.02 of the best baseline, double 4096 x 16384 0.95 -> 0.97;
  // x of 64 KB and less lost 3 - 5 % (docs/performance.md). plan_spans_of settles double's whole rows.
  template <class T>
  static constexpr int rows_at_once(const rows_plan& p) {
    return p.dot && p.m >= 2 && p.n * static_cast<index_t>(sizeof(T)) > 64 * 1024 ? 2 : 1;
  }

  // The span plan for s splits of `rows` rows a block, but one row a block where a double matvec
  // reads whole rows with the evict-first hint (rows_plan.cuh's streams_whole_rows), and the hint.
  template <class T>
  static constexpr void plan_spans_of(rows_plan& p, const rows_device& d, index_t s, int rows) {
    tally::detail::plan_spans(p, Threads, s, rows);
    if (rows > 1 && tally::detail::streams_whole_rows<T>(p)) tally::detail::plan_spans(p, Threads, 1, 1);
    p.stream_a = tally::detail::stream_a<T>(p, d);
  }
};

}  // namespace detail

template <int Threads = 256, class Block = block::warp_shuffle, class Smem = smem::static_array>
struct block_per_row : detail::span_launch<Threads, Block, Smem> {
  static constexpr const char* name = "block_per_row";
  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device& d) {
    p.strategy_name = name;
    block_per_row::template plan_spans_of<T>(p, d, 1, block_per_row::template rows_at_once<T>(p));
  }
};

template <int Threads = 256, class Block = block::warp_shuffle, class Smem = smem::static_array>
struct blocks_per_row : detail::span_launch<Threads, Block, Smem> {
  static constexpr const char* name = "blocks_per_row";
  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device& d) {
    const int rows = spans::template rows_at_once<T>(p);
    index_t s = tally::detail::span_capacity(d) / tally::detail::row_groups(p.m, rows);
    if (s < 2) s = 2;
    if (s > p.row_items()) s = p.row_items();
    plan_splits<T>(p, d, s, rows);
  }

  // Resident blocks per SM of the span kernel, which plan divides among the rows (the vectorized
  // instantiation of K stands for all: they differ by a few registers; for a matvec, the kernel of
  // two rows, which holds the most: 4 blocks of 256 an SM where row sums have 8, float on sm_90);
  // the occupancy API answers for the current device. block_per_row has none: its plan needs no
  // occupancy.
  template <class K>
  static int blocks_per_sm(int device) {
    static std::atomic<int> cache[tally::detail::max_devices] = {};
    return tally::detail::cached_per_device(cache, device, [](int) {
      constexpr int rows = spans::template is_dot<K> ? 2 : 1;
      int blocks = 0;
      tally::detail::check_cuda(
          cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, spans::template kernel<K, K::vector_elems, rows>(), Threads,
                                                        spans::template dynamic_smem<K>),
          "tally::reduce_rows", "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      return blocks > 0 ? blocks : 1;
    });
  }

  // The plan for s spans a row of `rows` rows a block (by_shape decides both itself), and whether
  // its matvec reads A with the evict-first hint (rows_plan.cuh's stream_a).
  template <class T>
  static constexpr void plan_splits(rows_plan& p, const rows_device& d, index_t s, int rows = 1) {
    spans::template plan_spans_of<T>(p, d, s, rows);
    p.strategy_name = p.splits > 1 ? name : block_per_row<Threads, Block, Smem>::name;
    p.strategy_param = p.splits > 1 ? p.splits : 0;
  }

 private:
  using spans = detail::span_launch<Threads, Block, Smem>;
};

}  // namespace tally::rows
