// tally::merge: K sorted lists into one sorted list, stable (equal keys keep their lists' order, and
// their order within a list), in key_order's total order (policies/tally/policies/key_order.cuh:
// NaN last, -0 before +0).
//
//   tally::merger<K> m;                          // owns its workspace: no allocation per call
//   m.reserve(n);                                // before capturing a graph
//   m(keys, offsets, num_lists, n, out, stream);
//   tally::merge(keys, offsets, num_lists, n, out, stream);  // one-off: workspace from the
//                                                            // stream-ordered pool
//
// List i is keys[offsets[i], offsets[i + 1]); the num_lists + 1 offsets (32- or 64-bit) stay on the
// device, ascending from offsets[0] = 0 to offsets[num_lists] = n (a precondition: they are not read
// on the host). out[0, n) receives the merge; keys is never written, and out may not overlap it.
//
// How the next key is chosen is the policy's. merge_path<Threads, Items> (the default) merges the
// lists in ceil(log2 K) passes, pairs of runs at a time, each pass by merge path
// (detail/merge_kernel.cuh): a split kernel places every tile boundary, then each block merges its
// tile through shared memory. merge_heads<Select> is seed 003's way (detail/merge_heads_kernel.cuh):
// one block, a thread a list (at most 1024 lists), n steps of a block-wide choice of the smallest
// head; merge_policies names the seed's four choices. Every composition gives the same bits.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <tally/detail/launch.cuh>
#include <tally/detail/merge_heads_kernel.cuh>
#include <tally/detail/merge_kernel.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/error.hpp>

namespace tally {

template <int Threads = 256, int Items = 8>
struct merge_path {
  static_assert(Threads >= 32 && Threads <= 1024 && (Threads & (Threads - 1)) == 0,
                "tally::merge_path: Threads must be a power of two in [32, 1024]");
  static_assert(Items >= 1 && Items <= 32, "tally::merge_path: Items must be in [1, 32]");
  static constexpr const char* name = "merge_path";
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr index_t tile = index_t{Threads} * Items;
};

using default_merge_policy = merge_path<>;

// Seed 003's merges (detail/merge_heads_kernel.cuh): one block of Threads threads, thread l holding
// list l (so at most Threads lists), the smallest head picked by Select at every one of the n steps.
template <class Select, int Threads = 1024>
struct merge_heads {
  static_assert(Threads >= 32 && Threads <= 1024 && (Threads & (Threads - 1)) == 0,
                "tally::merge_heads: Threads must be a power of two in [32, 1024]");
  static constexpr const char* name = "merge_heads";
  using select = Select;
  static constexpr int threads = Threads;
};

// The seed's four ways as compositions: merge_array1, merge_array6, merge_array5 (its tree, here
// block::warp_shuffle's) and the hybrid of groups of 8.
namespace merge_policies {
using seed_single_thread = merge_heads<merge_select::single_thread>;
using seed_atomic_min = merge_heads<merge_select::atomic_min>;
using seed_tree = merge_heads<merge_select::tree<block::warp_shuffle>>;
using seed_hybrid = merge_heads<merge_select::hybrid<8>>;
}  // namespace merge_policies

namespace detail {
template <class P> struct is_merge_heads : std::false_type {};
template <class S, int T> struct is_merge_heads<merge_heads<S, T>> : std::true_type {};
}  // namespace detail

template <class K, class P = default_merge_policy>
class merger {
 public:
  merger() : workspace_("tally::merger") {}

  // Bytes of device workspace a merge of n keys needs.
  static std::size_t workspace_bytes(index_t n) { return layout(n).total; }
  // Allocates workspace for merges of up to n keys. Call it before capturing a graph.
  void reserve(index_t n) { workspace_.reserve(workspace_bytes(n)); }

  template <class Offset>
  void operator()(const K* keys, const Offset* offsets, index_t num_lists, index_t n, K* out, cudaStream_t stream = 0) {
    validate(keys, offsets, num_lists, n, out, "tally::merger");
    workspace_.check_device();
    run(keys, offsets, num_lists, n, out, workspace_.prepare({0, workspace_bytes(n)}, stream), stream);
  }

  // With caller-provided workspace of at least workspace_bytes(n) bytes.
  template <class Offset>
  static void run(const K* keys, const Offset* offsets, index_t num_lists, index_t n, K* out, void* workspace,
                  cudaStream_t stream) {
    if (n == 0) return;
    static_assert(std::is_integral_v<Offset>, "tally::merge: offsets are 32- or 64-bit integers");
    if constexpr (detail::is_merge_heads<P>::value) {
      detail::queue_kernel(detail::merge_heads_kernel<typename P::select, P::threads, K, Offset>, 1, P::threads, 0, stream,
                           false, "tally::merge", keys, out, offsets, num_lists);
    } else {
      run_passes(keys, offsets, num_lists, n, out, workspace, stream);
    }
  }

 private:
  // merge_path: ceil(log2 K) passes, each a split kernel and a merge kernel.
  template <class Offset>
  static void run_passes(const K* keys, const Offset* offsets, index_t num_lists, index_t n, K* out, void* workspace,
                         cudaStream_t stream) {
    const parts w = layout(n);
    auto* base = static_cast<unsigned char*>(workspace);
    K* other = reinterpret_cast<K*>(base + w.keys_at);
    auto* split = reinterpret_cast<detail::merge_split*>(base + w.splits_at);
    const index_t lists = num_lists < 1 ? 1 : num_lists;
    int passes = 0;
    for (index_t run = 1; run < lists; run *= 2) ++passes;
    if (passes == 0) passes = 1;  // one list: a pass with no B copies it to out
    const index_t tiles = (n + P::tile - 1) / P::tile;
    const K* src = keys;
    K* dst = passes % 2 == 1 ? out : other;  // the last pass lands in out
    index_t run = 1;
    for (int pass = 0; pass < passes; ++pass, run *= 2) {
      const index_t boundaries = tiles + 1;
      const index_t split_blocks = (boundaries + 255) / 256;
      detail::queue_kernel(detail::merge_split_kernel<P::tile, K, Offset>, split_blocks, 256, 0, stream, false,
                           "tally::merge", src, offsets, num_lists, run, boundaries, split);
      const index_t blocks = tiles < max_blocks ? tiles : max_blocks;
      detail::queue_kernel(detail::merge_pass_kernel<P::threads, P::items, K, Offset>, blocks, P::threads, 0, stream, false,
                           "tally::merge", src, dst, offsets, num_lists, run, tiles,
                           static_cast<const detail::merge_split*>(split));
      src = dst;
      dst = dst == out ? other : out;
    }
  }

 public:
  template <class Offset>
  static void validate(const K* keys, const Offset* offsets, index_t num_lists, index_t n, const K* out, const char* where) {
    if (n < 0) throw error(std::string(where) + ": n = " + std::to_string(n) + " is negative");
    if (num_lists < 0) throw error(std::string(where) + ": num_lists = " + std::to_string(num_lists) + " is negative");
    if (num_lists == 0 && n > 0)
      throw error(std::string(where) + ": n = " + std::to_string(n) + " keys but no lists (num_lists = 0)");
    if (offsets == nullptr && num_lists > 0) throw error(std::string(where) + ": offsets pointer is null");
    if (n > 0 && (keys == nullptr || out == nullptr))
      throw error(std::string(where) + ": " + (keys == nullptr ? "keys" : "output") + " pointer is null but n = " + std::to_string(n));
    if constexpr (detail::is_merge_heads<P>::value) {
      if (num_lists > P::threads)
        throw error(std::string(where) + ": " + std::to_string(num_lists) + " lists, but this merge_heads composition " +
                    "gives each list a thread of one block: at most " + std::to_string(P::threads));
    }
    if (n > 0 && keys + n > out && out + n > keys)
      throw error(std::string(where) + ": the output overlaps the keys (the keys are never written: give another buffer)");
  }

 private:
  static constexpr index_t max_blocks = index_t{1} << 20;  // the merge kernel is grid-stride past this
  struct parts {
    std::size_t keys_at = 0, splits_at = 0, total = 0;
  };
  static constexpr std::size_t align(std::size_t b) { return (b + 255) / 256 * 256; }
  static parts layout(index_t n) {
    if constexpr (detail::is_merge_heads<P>::value) {
      return {};  // merge_heads needs no workspace
    } else {
      if (n <= 0) return {};
      const auto tiles = static_cast<std::size_t>((n + P::tile - 1) / P::tile);
      parts p;
      p.keys_at = 0;
      p.splits_at = align(static_cast<std::size_t>(n) * sizeof(K));
      p.total = p.splits_at + align((tiles + 1) * sizeof(detail::merge_split));
      return p;
    }
  }

  detail::device_workspace workspace_;
};

// One-off merge: the workspace comes from the device's stream-ordered memory pool.
template <class P = default_merge_policy, class K, class Offset>
void merge(const K* keys, const Offset* offsets, index_t num_lists, index_t n, K* out, cudaStream_t stream = 0) {
  merger<K, P>::validate(keys, offsets, num_lists, n, out, "tally::merge");
  detail::with_pool_workspace(detail::workspace_need{0, merger<K, P>::workspace_bytes(n)}, stream, "tally::merge",
                              [&](void* workspace, std::size_t) { merger<K, P>::run(keys, offsets, num_lists, n, out, workspace, stream); });
}

}  // namespace tally
