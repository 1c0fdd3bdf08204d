// reduce_policy: a composition of one member of each policy family. It is only a bag of types and
// constants; the kernel (detail/reduce_kernel.cuh) and the reducer (reduce.cuh) read them.
#pragma once
#include <cstddef>
#include <string>

#include <tally/policies/accum.cuh>
#include <tally/policies/block.cuh>
#include <tally/policies/grid.cuh>
#include <tally/policies/load.cuh>
#include <tally/policies/smem.cuh>

namespace tally {

template <class Load, class Block, class Smem, int Threads = 256, class Accum = accum::native,
          class Grid = grid::resident>
struct reduce_policy {
  static_assert(block::detail::valid_threads<Threads>,
                "tally::reduce_policy: Threads must be a power of two in [32, 1024]");
  using load = Load;
  using block = Block;
  using smem = Smem;
  using accum = Accum;
  using grid = Grid;
  static constexpr int threads = Threads;

  // Input elements of type T one block consumes per tile.
  template <class T> static constexpr index_t tile_items = index_t{Threads} * Load::template items<T>;
  // Shared-memory slots the block policy needs.
  static constexpr int smem_slots = Block::template slots<Threads>;
  // Bytes of shared memory a block uses for states of type S: static and at launch.
  template <class S> static constexpr std::size_t static_smem_bytes = Smem::template static_bytes<S, smem_slots>;
  template <class S> static constexpr std::size_t dynamic_smem_bytes = Smem::template dynamic_bytes<S, smem_slots>;

  // "vector2/warp_shuffle/static_array/256/native/resident": for test output and benchmark names.
  static std::string name() {
    return std::string(Load::name) + "/" + Block::name + "/" + Smem::name + "/" + std::to_string(Threads) + "/" +
           Accum::name + "/" + Grid::name;
  }
};

}  // namespace tally
