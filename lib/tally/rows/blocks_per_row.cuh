// A block reduces a span of a row (detail/rows_span_kernel.cuh), combining its threads' states with a
// block policy (block.cuh) in a shared-memory layout (smem.cuh).
//   block_per_row<Threads, Block, Smem>   one block a row (one span: the whole row)
//   blocks_per_row<Threads, Block, Smem>  several blocks a row, for few long rows: S = clamp(resident
//                                         blocks / M, 2, items) spans; each block writes a partial, and
//                                         the last block of a row to finish combines the row's
//                                         partials in a fixed order (deterministic)
#pragma once
#include <atomic>

#include <tally/detail/device_cache.hpp>
#include <tally/detail/rows_span_kernel.cuh>
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

  template <class K, int V>
  static constexpr auto kernel() {
    return &tally::detail::span_rows_kernel<K, Block, Smem, Threads, tally::detail::rows_unroll, V>;
  }
  template <class K>
  static constexpr std::size_t dynamic_smem = Smem::template dynamic_bytes<typename K::state, Block::template slots<Threads>>;

  template <class Call>
  static void launch(const rows_plan& p, const Call& call) {
    using K = typename Call::types;
    call.with_item_elems(p, [&](auto v) {
      call.queue(kernel<K, decltype(v)::value>(), p, dynamic_smem<K>, p.splits, p.items_per_split, call.partials(p),
                 call.tickets(p));
    });
  }

};

}  // namespace detail

template <int Threads = 256, class Block = block::warp_shuffle, class Smem = smem::static_array>
struct block_per_row : detail::span_launch<Threads, Block, Smem> {
  static constexpr const char* name = "block_per_row";
  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device&) {
    p.strategy_name = name;
    tally::detail::plan_spans(p, Threads, 1);
  }
};

template <int Threads = 256, class Block = block::warp_shuffle, class Smem = smem::static_array>
struct blocks_per_row : detail::span_launch<Threads, Block, Smem> {
  static constexpr const char* name = "blocks_per_row";
  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device& d) {
    index_t s = tally::detail::span_capacity(d) / p.m;
    if (s < 2) s = 2;
    if (s > p.row_items()) s = p.row_items();
    plan_splits(p, s);
  }

  // Resident blocks per SM of the span kernel, which plan divides among the rows (the vectorized
  // plain-sum instantiation of K stands for all: they differ by a few registers); the occupancy
  // API answers for the current device. block_per_row has none: its plan needs no occupancy.
  template <class K>
  static int blocks_per_sm(int device) {
    using spans = detail::span_launch<Threads, Block, Smem>;
    static std::atomic<int> cache[tally::detail::max_devices] = {};
    return tally::detail::cached_per_device(cache, device, [](int) {
      int blocks = 0;
      tally::detail::check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, spans::template kernel<K, K::vector_elems>(),
                                                                              Threads, spans::template dynamic_smem<K>),
                                "tally::reduce_rows", "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      return blocks > 0 ? blocks : 1;
    });
  }

  // The plan for s spans a row (by_shape decides s itself).
  static constexpr void plan_splits(rows_plan& p, index_t s) {
    tally::detail::plan_spans(p, Threads, s);
    p.strategy_name = p.splits > 1 ? name : block_per_row<Threads, Block, Smem>::name;
    p.strategy_param = p.splits > 1 ? p.splits : 0;
  }
};

}  // namespace tally::rows
