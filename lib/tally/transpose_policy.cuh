// transpose_policy: how an out-of-place transpose moves a Tile x Tile tile through shared memory.
// A bag of types and constants; detail/transpose_kernel.cuh and transpose.cuh read them.
//
//   Smem         the tile's layout: smem::static_array, smem::dynamic ([Tile][Tile]), smem::padded
//                ([Tile][Tile + 1]), smem::swizzled (XOR-permuted chunks), or smem::none (no tile:
//                the naive transpose, coalesced reads and strided writes)
//   Tile         32 or 64: a block moves Tile x Tile elements per tile
//   Threads      threads per block (a power of two, 32..1024); each moves Tile * Tile / Threads
//                elements per tile, all loaded before any is stored, so that many are in flight
//   VectorBytes  0: one element per access. 8 or 16: global loads and stores move that many bytes
//                per access where the shape and pointers allow it (both dimensions multiples of the
//                vector, both pointers aligned to it); otherwise the same tile runs element-wise.
//   Order        which tile each block moves: tile_order::row_major, column_major, diagonal or
//                banded<K> (policies/tile_order.cuh: what each does to the rows a wave of blocks touches)
//   Launch       launch::stream_ordered (the default) or launch::pdl (launch.cuh)
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>

#include <tally/policies/launch.cuh>
#include <tally/policies/smem.cuh>
#include <tally/policies/tile_order.cuh>

namespace tally {

template <class Smem, int Tile = 32, int Threads = 256, int VectorBytes = 0, class Order = tile_order::row_major,
          class Launch = launch::stream_ordered>
struct transpose_policy {
  static_assert(smem::check_tile_layout<Smem>());
  static_assert(tile_order::check_tile_order<Order>());
  static_assert(launch::check_launch_policy<Launch>());
  static_assert(Tile == 32 || Tile == 64, "tally::transpose_policy: Tile must be 32 or 64");
  static_assert(detail::is_power_of_two(Threads) && Threads >= 32 && Threads <= 1024,
                "tally::transpose_policy: Threads must be a power of two in [32, 1024]");
  static_assert(VectorBytes == 0 || VectorBytes == 8 || VectorBytes == 16,
                "tally::transpose_policy: VectorBytes must be 0 (element-wise), 8 or 16");
  using smem = Smem;
  using order = Order;
  using launch = Launch;
  static constexpr int tile = Tile;
  static constexpr int threads = Threads;
  static constexpr int vector_bytes = VectorBytes;

  // Elements each thread moves per tile.
  static constexpr int items_per_thread = Tile * Tile / Threads;
  // Elements per vector access for type T: VectorBytes / sizeof(T), at least 1, and at most the
  // elements a thread moves (a 2-byte type with 16-byte vectors in a 32 x 32 tile of 256 threads
  // gets 8-byte vectors).
  template <class T>
  static constexpr int vector_elems = [] {
    int v = VectorBytes >= static_cast<int>(sizeof(T)) ? VectorBytes / static_cast<int>(sizeof(T)) : 1;
    while (v > items_per_thread) v /= 2;
    return v;
  }();

  // Shared memory of one block: static, and passed at launch.
  template <class T> static constexpr std::size_t static_smem_bytes = Smem::template tile_static_bytes<T, Tile>;
  template <class T> static constexpr std::size_t dynamic_smem_bytes = Smem::template tile_dynamic_bytes<T, Tile>;

  template <class L> using with_launch = transpose_policy<Smem, Tile, Threads, VectorBytes, Order, L>;

  // "swizzled_64x64_256t_v16", "padded_32x32_256t_diag": for test output and benchmark names.
  static std::string name() {
    std::string n = std::string(Smem::name) + "_" + std::to_string(Tile) + "x" + std::to_string(Tile) + "_" +
                    std::to_string(Threads) + "t";
    if (VectorBytes > 0) n += "_v" + std::to_string(VectorBytes);
    return n + Order::suffix() + (Launch::programmatic ? std::string("_") + Launch::name : std::string());
  }
};

// Named compositions: the classical kernels (naive, the 32 x 32 tile unpadded and padded) with four
// elements a thread (the classical 32 x 8 block), and the candidates with more bytes in flight.
// transpose_policies::all lists every one, in the order the tests and the benchmark go through them.
namespace transpose_policies {
using naive = transpose_policy<smem::none, 32, 256>;              // coalesced read, strided write
using static_32 = transpose_policy<smem::static_array, 32, 256>;  // [32][32]: 32-way column conflicts
using dynamic_32 = transpose_policy<smem::dynamic, 32, 256>;      // the same tile, bytes at launch
using padded_32 = transpose_policy<smem::padded, 32, 256>;        // [32][33]
using swizzled_32 = transpose_policy<smem::swizzled, 32, 256>;    // [32][32], c ^ r
using padded_64 = transpose_policy<smem::padded, 64, 256>;        // [64][65], 16 elements a thread
// 16-byte global accesses, rows written to the tile as 16-byte vectors:
using swizzled_32_v16_64t = transpose_policy<smem::swizzled, 32, 64, 16>;  // 16 elements a thread (float)
using swizzled_32_v16 = transpose_policy<smem::swizzled, 32, 128, 16>;     // 64 bytes a thread
using swizzled_64_v16 = transpose_policy<smem::swizzled, 64, 256, 16>;     // 64 bytes a thread (float)
// Other tile orders (tile_order.cuh):
using padded_32_diag = transpose_policy<smem::padded, 32, 256, 0, tile_order::diagonal>;
using swizzled_64_v16_band32 = transpose_policy<smem::swizzled, 64, 256, 16, tile_order::banded<32>>;
using swizzled_64_v16_col = transpose_policy<smem::swizzled, 64, 256, 16, tile_order::column_major>;
using swizzled_64_v16_512t_col = transpose_policy<smem::swizzled, 64, 512, 16, tile_order::column_major>;  // 8 elements a thread

using all = policy_list<naive, static_32, dynamic_32, padded_32, swizzled_32, padded_64, swizzled_32_v16_64t, swizzled_32_v16,
                        swizzled_64_v16, padded_32_diag, swizzled_64_v16_band32, swizzled_64_v16_col, swizzled_64_v16_512t_col>;
}  // namespace transpose_policies

// Deprecated spelling of transpose_policies.
namespace transposes {
using namespace transpose_policies;
template <class... Ps> using list = policy_list<Ps...>;
}  // namespace transposes

// The composition tally::transpose uses unless told otherwise: a swizzled 64 x 64 tile, 16-byte
// accesses, tiles in column-major order (the blocks resident at one moment write whole output rows
// end to end), 512 threads (8 elements a thread) for 4- and 8-byte elements and 256 for 2-byte ones
// (one 16-byte vector a thread was slower), launched with programmatic dependent launch: a call
// overlaps its launch with the drain of the kernel ahead, 1.3-1.7 us a call back to back. The
// fastest measured on every shape but one, and above cuBLAS's geam on all (docs/performance.md).
template <class T>
using default_transpose_policy =
    typename std::conditional_t<sizeof(T) == 2, transpose_policies::swizzled_64_v16_col,
                                transpose_policies::swizzled_64_v16_512t_col>::template with_launch<launch::pdl>;

}  // namespace tally
