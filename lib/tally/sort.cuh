// tally::sort and tally::sort_by_key: a stable sort in key_order's total order
// (policies/tally/policies/key_order.cuh: NaN last and all NaNs equal, -0 before +0), into a separate
// output; the input is never written.
//
//   tally::sorter<float> s;                  // owns its workspace: no allocation per call
//   s.reserve(n);                            // before capturing a graph
//   s(keys, keys_out, n, stream);
//   tally::sorter<float, int> p;             // keys with 4- or 8-byte values
//   p(keys, values, keys_out, values_out, n, stream);
//   tally::sort(keys, keys_out, n, stream);  // one-off: workspace from the stream-ordered pool
//   tally::sort_by_key(keys, values, keys_out, values_out, n, stream);
//
// A merge sort: every block sorts a tile in shared memory (the policy's tile sort,
// detail/sort_tile_kernel.cuh and its neighbours), then ceil(log2(tiles)) merge passes double the sorted runs
// (detail/sort_merge_kernel.cuh), alternating between the output and the workspace so that the last
// lands in the output. Deterministic: the output is a function of the input alone.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <tally/detail/launch.cuh>
#include <tally/detail/sort_columns_kernel.cuh>
#include <tally/detail/sort_merge_kernel.cuh>
#include <tally/detail/sort_tile_kernel.cuh>
#include <tally/detail/sort_tile_radix_kernel.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/error.hpp>
#include <tally/merge.cuh>

namespace tally {

// How a block sorts its tile (detail/sort_tile_kernel.cuh, sort_tile_radix_kernel.cuh and
// sort_columns_kernel.cuh say how each works; detail/sort_steps.cuh holds their shared steps).
namespace tile_sort {

// Items keys a thread sorted in registers, then merge-path rounds in shared memory (CUB's
// BlockMergeSort's scheme).
template <int Threads = 256, int Items = 16>
struct registers {
  static_assert(Threads >= 32 && Threads <= 1024 && (Threads & (Threads - 1)) == 0,
                "tally::tile_sort::registers: Threads must be a power of two in [32, 1024]");
  static_assert(Items >= 1 && Items <= 32 && (Items & (Items - 1)) == 0,
                "tally::tile_sort::registers: Items must be a power of two in [1, 32]");
  static constexpr const char* name = "registers";
  static constexpr int threads = Threads;
  static constexpr index_t tile = index_t{Threads} * Items;
  template <class K, class V>
  static constexpr auto kernel = detail::sort_tile_kernel<Threads, Items, K, V>;
};

// CUB's BlockRadixSort on key_order's ranks, Bits bits a pass (detail/sort_tile_radix_kernel.cuh).
template <int Threads = 512, int Items = 16, int Bits = 4>
struct radix {
  static_assert(Threads >= 32 && Threads <= 1024 && (Threads & (Threads - 1)) == 0,
                "tally::tile_sort::radix: Threads must be a power of two in [32, 1024]");
  static_assert(Items >= 1 && (Items & (Items - 1)) == 0 && Threads * Items <= 65536,
                "tally::tile_sort::radix: Items must be a power of two, and a tile at most 65536 keys");
  static constexpr const char* name = "radix";
  static constexpr int threads = Threads;
  static constexpr index_t tile = index_t{Threads} * Items;
  template <class K, class V>
  static constexpr auto kernel = detail::sort_tile_radix_kernel<Threads, Items, Bits, K, V>;
};

// Seed 003: a column of the tile a thread, in its own bank, radix-sorted, then the columns merged one
// head a step by Select (merge_select::single_thread, atomic_min, tree<Block>, hybrid<G>).
template <class Select, int Columns = 32, int Rows = 32>
struct bank_columns {
  static_assert(Columns >= 32 && Columns <= 1024 && (Columns & (Columns - 1)) == 0,
                "tally::tile_sort::bank_columns: Columns must be a power of two in [32, 1024]");
  static_assert(Rows >= 1 && (Rows & (Rows - 1)) == 0, "tally::tile_sort::bank_columns: Rows must be a power of two");
  static constexpr const char* name = "bank_columns";
  static constexpr int threads = Columns;
  static constexpr index_t tile = index_t{Columns} * Rows;
  template <class K, class V>
  static constexpr auto kernel = detail::sort_columns_kernel<Select, Columns, Rows, K, V>;
};

}  // namespace tile_sort

// A sort: the tile sort, then merge passes of MergeThreads x MergeItems outputs a block. From
// SplitFrom merge tiles a pass on, a split kernel places every tile boundary first (a thread each);
// below, each block finds its own two ends with a warp each, which saves a launch but leaves the block
// idle while it searches (docs/sort.md: 4096 is the crossover measured on an H100).
template <class Tile = tile_sort::registers<>, int MergeThreads = 256, int MergeItems = 16, index_t SplitFrom = 4096>
struct merge_sort {
  static_assert(MergeThreads >= 32 && MergeThreads <= 1024 && (MergeThreads & (MergeThreads - 1)) == 0,
                "tally::merge_sort: MergeThreads must be a power of two in [32, 1024]");
  static_assert(MergeItems >= 1 && MergeItems <= 32 && (MergeItems & (MergeItems - 1)) == 0,
                "tally::merge_sort: MergeItems must be a power of two in [1, 32]");
  static_assert(index_t{MergeThreads} * MergeItems <= 2 * Tile::tile,
                "tally::merge_sort: a merge tile may not exceed two sorted tiles (it would cross pairs of runs)");
  static constexpr const char* name = "merge_sort";
  using tile_sort = Tile;
  static constexpr int merge_threads = MergeThreads;
  static constexpr int merge_items = MergeItems;
  static constexpr index_t merge_tile = index_t{MergeThreads} * MergeItems;
  static constexpr index_t split_from = SplitFrom;
};

namespace detail {
template <class V> constexpr std::size_t value_bytes = sizeof(V);
template <> inline constexpr std::size_t value_bytes<void> = 0;
}  // namespace detail

// Measured on an H100 (docs/sort.md): keys alone, tiles of 8192 (4-byte keys) or 4096 (8-byte)
// sorted in registers and shared memory; 4-byte keys with 4-byte values, tiles radix-sorted (the
// merge-path tile sort holds four arrays of 16 a thread there, 80 registers); other pairs, 2048
// keys a tile. Merge tiles of 4096 (2048 where an element pair passes 8 bytes, so that the merge
// kernel's two shared arrays stay within 48 KB).
template <class K, class V = void>
using default_sort_policy = std::conditional_t<
    detail::value_bytes<V> == 0,
    std::conditional_t<sizeof(K) <= 4, merge_sort<tile_sort::registers<512, 16>, 256, 16>, merge_sort<tile_sort::registers<512, 8>, 256, 8>>,
    std::conditional_t<sizeof(K) <= 4 && detail::value_bytes<V> <= 4, merge_sort<tile_sort::radix<512, 16, 4>, 256, 16>,
                       merge_sort<tile_sort::registers<256, 8>, 256, 8>>>;

// Seed 003's sort: 32 bank columns of 32 keys a block, merged by each of its four choices, then the
// default's merge passes (tiles of 2048: at most twice the seed's 1024-key tiles).
namespace sort_policies {
using seed_single_thread = merge_sort<tile_sort::bank_columns<merge_select::single_thread>, 256, 8>;
using seed_atomic_min = merge_sort<tile_sort::bank_columns<merge_select::atomic_min>, 256, 8>;
using seed_tree = merge_sort<tile_sort::bank_columns<merge_select::tree<block::warp_shuffle>>, 256, 8>;
using seed_hybrid = merge_sort<tile_sort::bank_columns<merge_select::hybrid<8>>, 256, 8>;
}  // namespace sort_policies

template <class K, class V = void, class P = default_sort_policy<K, V>>
class sorter {
  static_assert(std::is_integral_v<K> || std::is_same_v<K, float> || std::is_same_v<K, double>,
                "tally::sorter<K, V>: keys are integers, float or double");
  static_assert(detail::value_bytes<V> == 0 || ((detail::value_bytes<V> == 4 || detail::value_bytes<V> == 8) &&
                                                 std::is_trivially_copyable_v<V>),
                "tally::sorter<K, V>: values are trivially copyable 4- or 8-byte types (or void: keys only)");
  static constexpr bool pairs = !std::is_void_v<V>;

 public:
  using value_t = std::conditional_t<pairs, V, detail::no_values>;  // detail::no_values: keys only

  sorter() : workspace_("tally::sorter") {}

  // Bytes of device workspace a sort of n keys (and values) needs.
  static std::size_t workspace_bytes(index_t n) { return layout(n).total; }
  // Allocates workspace for sorts of up to n keys. Call it before capturing a graph.
  void reserve(index_t n) { workspace_.reserve(workspace_bytes(n)); }

  // Keys only.
  template <class W = V, std::enable_if_t<std::is_void_v<W>, int> = 0>
  void operator()(const K* keys, K* keys_out, index_t n, cudaStream_t stream = 0) {
    validate(keys, nullptr, keys_out, nullptr, n, "tally::sorter");
    workspace_.check_device();
    run(keys, nullptr, keys_out, nullptr, n, workspace_.prepare({0, workspace_bytes(n)}, stream), stream);
  }
  // Keys and values: values_out[i] is the value that came with keys_out[i].
  template <class W = V, std::enable_if_t<!std::is_void_v<W>, int> = 0>
  void operator()(const K* keys, const W* values, K* keys_out, W* values_out, index_t n, cudaStream_t stream = 0) {
    validate(keys, values, keys_out, values_out, n, "tally::sorter");
    workspace_.check_device();
    run(keys, values, keys_out, values_out, n, workspace_.prepare({0, workspace_bytes(n)}, stream), stream);
  }

  // With caller-provided workspace of at least workspace_bytes(n) bytes (values: null for keys only).
  static void run(const K* keys, const value_t* values, K* keys_out, value_t* values_out, index_t n, void* workspace,
                  cudaStream_t stream) {
    if (n == 0) return;
    using T = typename P::tile_sort;
    const parts w = layout(n);
    auto* base = static_cast<unsigned char*>(workspace);
    K* other_k = reinterpret_cast<K*>(base + w.keys_at);
    auto* other_v = reinterpret_cast<value_t*>(base + w.values_at);
    const value_t* in_v = values;
    value_t* out_v = values_out;
    const int passes = merge_passes(n);
    // The tile sort lands where the passes, alternating, end in the output.
    K* dst_k = passes % 2 == 0 ? keys_out : other_k;
    value_t* dst_v = passes % 2 == 0 ? out_v : other_v;
    detail::queue_kernel(T::template kernel<K, value_t>, (n + T::tile - 1) / T::tile, T::threads, 0, stream, false,
                         "tally::sort", keys, in_v, dst_k, dst_v, n);
    const index_t tiles = (n + P::merge_tile - 1) / P::merge_tile;
    index_t run = T::tile;
    for (int pass = 0; pass < passes; ++pass, run *= 2) {
      const K* src_k = dst_k;
      const value_t* src_v = dst_v;
      dst_k = dst_k == keys_out ? other_k : keys_out;
      dst_v = dst_v == out_v ? other_v : out_v;
      index_t* split = nullptr;
      if (separate_split(tiles)) {
        split = reinterpret_cast<index_t*>(base + w.splits_at);
        detail::queue_kernel(detail::sort_split_kernel<P::merge_tile, K>, (tiles + 256) / 256, 256, 0, stream, false,
                             "tally::sort", src_k, n, run, tiles + 1, split);
      }
      detail::queue_kernel(detail::sort_merge_kernel<P::merge_threads, P::merge_items, K, value_t>, tiles, P::merge_threads, 0,
                           stream, false, "tally::sort", src_k, src_v, dst_k, dst_v, n, run, static_cast<const index_t*>(split));
    }
  }

  static void validate(const K* keys, const value_t* values, const K* keys_out, const value_t* values_out, index_t n,
                       const char* where) {
    const std::string w(where);
    if (n < 0) throw error(w + ": n = " + std::to_string(n) + " is negative");
    if (n == 0) return;
    if ((n - 1) / P::tile_sort::tile >= max_blocks || (n - 1) / P::merge_tile >= max_blocks)
      throw error(w + ": n = " + std::to_string(n) + " needs more than 2^31 - 1 tiles of this policy");
    if (keys == nullptr) throw error(w + ": keys pointer is null but n = " + std::to_string(n));
    if (keys_out == nullptr) throw error(w + ": keys output pointer is null but n = " + std::to_string(n));
    if constexpr (pairs) {
      if (values == nullptr) throw error(w + ": values pointer is null but n = " + std::to_string(n));
      if (values_out == nullptr) throw error(w + ": values output pointer is null but n = " + std::to_string(n));
    }
    const auto overlap = [n](const void* a, std::size_t sa, const void* b, std::size_t sb) {
      const auto* x = static_cast<const unsigned char*>(a);
      const auto* y = static_cast<const unsigned char*>(b);
      return x != nullptr && y != nullptr && x < y + static_cast<std::size_t>(n) * sb && y < x + static_cast<std::size_t>(n) * sa;
    };
    if (overlap(keys_out, sizeof(K), keys, sizeof(K)))
      throw error(w + ": the keys output overlaps the keys (the input is never written: give another buffer)");
    if constexpr (pairs) {
      if (overlap(values_out, sizeof(V), values, sizeof(V)) || overlap(values_out, sizeof(V), keys, sizeof(K)))
        throw error(w + ": the values output overlaps an input (the input is never written: give another buffer)");
      if (overlap(keys_out, sizeof(K), values, sizeof(V)))
        throw error(w + ": the keys output overlaps the values (the input is never written: give another buffer)");
      if (overlap(keys_out, sizeof(K), values_out, sizeof(V))) throw error(w + ": the keys output and the values output overlap");
    }
  }

 private:
  static constexpr index_t max_blocks = (index_t{1} << 31) - 1;  // a grid of one block a tile
  static_assert(P::merge_tile >= 1 && P::tile_sort::tile >= 1, "tally::sorter: empty tiles");
  static int merge_passes(index_t n) {
    int passes = 0;
    for (index_t run = P::tile_sort::tile; run < n; run *= 2) ++passes;
    return passes;
  }
  static bool separate_split(index_t tiles) { return tiles >= P::split_from; }
  struct parts {
    std::size_t keys_at = 0, values_at = 0, splits_at = 0, total = 0;
  };
  static constexpr std::size_t align(std::size_t b) { return (b + 255) / 256 * 256; }
  static parts layout(index_t n) {
    if (n <= 0 || merge_passes(n) == 0) return {};  // one tile: sorted straight into the output
    const auto count = static_cast<std::size_t>(n);
    parts p;
    p.values_at = align(count * sizeof(K));
    p.splits_at = p.values_at + (pairs ? align(count * sizeof(value_t)) : 0);
    const auto tiles = (count + static_cast<std::size_t>(P::merge_tile) - 1) / static_cast<std::size_t>(P::merge_tile);
    p.total = p.splits_at + (separate_split(static_cast<index_t>(tiles)) ? align((tiles + 1) * sizeof(index_t)) : 0);
    return p;
  }

  detail::device_workspace workspace_;
};

// One-off sorts: the workspace comes from the device's stream-ordered memory pool.
template <class P = void, class K>
void sort(const K* keys, K* keys_out, index_t n, cudaStream_t stream = 0) {
  using S = sorter<K, void, std::conditional_t<std::is_void_v<P>, default_sort_policy<K>, P>>;
  S::validate(keys, nullptr, keys_out, nullptr, n, "tally::sort");
  detail::with_pool_workspace(detail::workspace_need{0, S::workspace_bytes(n)}, stream, "tally::sort",
                              [&](void* workspace, std::size_t) { S::run(keys, nullptr, keys_out, nullptr, n, workspace, stream); });
}

template <class P = void, class K, class V>
void sort_by_key(const K* keys, const V* values, K* keys_out, V* values_out, index_t n, cudaStream_t stream = 0) {
  using S = sorter<K, V, std::conditional_t<std::is_void_v<P>, default_sort_policy<K, V>, P>>;
  S::validate(keys, values, keys_out, values_out, n, "tally::sort_by_key");
  detail::with_pool_workspace(detail::workspace_need{0, S::workspace_bytes(n)}, stream, "tally::sort_by_key",
                              [&](void* workspace, std::size_t) { S::run(keys, values, keys_out, values_out, n, workspace, stream); });
}

}  // namespace tally
