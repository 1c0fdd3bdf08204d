// reduce_policy: a composition of one member of each policy family, the type a device-wide reduction
// (reduce.cuh) and its kernel (detail/reduce_kernel.cuh) read. It checks each member against its
// family's contract, so a policy missing a member fails here with a sentence naming it.
#pragma once
#include <cstddef>
#include <string>
#include <type_traits>

#include <tally/policies/accum.cuh>
#include <tally/policies/block.cuh>
#include <tally/policies/block_atomic.cuh>
#include <tally/policies/grid.cuh>
#include <tally/policies/launch.cuh>
#include <tally/policies/load.cuh>
#include <tally/policies/smem.cuh>

namespace tally {

namespace detail {
// The launch of a composition: Launch, unless the grid brings its own (the deprecated
// grid::resident_pdl does).
template <class Grid, class Launch, class = void>
struct grid_launch {
  using type = Launch;
};
template <class Grid, class Launch>
struct grid_launch<Grid, Launch, std::void_t<typename Grid::launch>> {
  using type = typename Grid::launch;
};
}  // namespace detail

template <class Load, class Block, class Smem, int Threads = 256, class Accum = accum::native,
          class Grid = grid::resident, class Launch = launch::stream_ordered>
struct reduce_policy {
  static_assert(load::check_load_policy<Load>());
  static_assert(block::check_block_policy<Block>());
  static_assert(smem::check_smem_policy<Smem>());
  static_assert(accum::check_accum_policy<Accum>());
  static_assert(grid::check_grid_policy<Grid>());
  static_assert(launch::check_launch_policy<Launch>());
  static_assert(block::detail::valid_threads<Threads>,
                "tally::reduce_policy: Threads must be a power of two in [32, 1024]");
  using load = Load;
  using block = Block;
  using smem = Smem;
  using accum = Accum;
  using grid = Grid;
  using launch = typename detail::grid_launch<Grid, Launch>::type;
  static constexpr int threads = Threads;
  // The order of every combination is fixed by n and the device (determinism.cuh).
  static constexpr bool fixed_order = Load::fixed_order && Block::fixed_order && Grid::fixed_order;

  // This composition with one member replaced.
  template <class A> using with_accum = reduce_policy<Load, Block, Smem, Threads, A, Grid, Launch>;
  template <class G> using with_grid = reduce_policy<Load, Block, Smem, Threads, Accum, G, launch>;
  template <class L> using with_launch = reduce_policy<Load, Block, Smem, Threads, Accum, Grid, L>;

  // Input elements of type T one block consumes per tile.
  template <class T> static constexpr index_t tile_items = index_t{Threads} * Load::template items<T>;
  // Shared-memory slots the block policy needs.
  static constexpr int smem_slots = Block::template slots<Threads>;
  // Bytes of shared memory a block uses for states of type S: static and at launch.
  template <class S> static constexpr std::size_t static_smem_bytes = Smem::template static_bytes<S, smem_slots>;
  template <class S> static constexpr std::size_t dynamic_smem_bytes = Smem::template dynamic_bytes<S, smem_slots>;

  // "vector4/warp_shuffle/static_array/256/native/resident/pdl": for test output and benchmark names.
  static std::string name() {
    return std::string(Load::name) + "/" + Block::name + "/" + Smem::name + "/" + std::to_string(Threads) + "/" +
           Accum::name + "/" + Grid::name + "/" + launch::name;
  }
};

}  // namespace tally
