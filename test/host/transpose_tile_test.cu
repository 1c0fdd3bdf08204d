// The transpose's shared-memory tiles on the host: every map is a bijection onto its slots, keeps
// vector runs where it says so, every thread mapping covers each tile element exactly once, and a
// bank model of each named composition's shared-memory accesses (the figures Nsight Compute's
// l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st} should confirm on a GPU).
#include <doctest/doctest.h>

#include <set>
#include <vector>

#include <cuda_fp16.h>

#include <tally/transpose.cuh>

#include "bank_model.hpp"

using namespace tally;
using tally::test::bank_cost;
using tally::test::bank_cost_of;

namespace {

template <class Map, int Tile>
void check_tile_map() {
  std::set<int> seen;
  for (int r = 0; r < Tile; ++r)
    for (int c = 0; c < Tile; ++c) {
      const int i = Map::index(r, c);
      CHECK(i >= 0);
      CHECK(i < Map::slots);
      seen.insert(i);
    }
  CHECK(seen.size() == static_cast<std::size_t>(Tile) * Tile);  // no two elements share a slot
}

// Group-aligned runs of Group elements of a row are contiguous and Group-aligned in the tile.
template <class Map, int Tile, int Group>
void check_runs_contiguous() {
  for (int r = 0; r < Tile; ++r)
    for (int c = 0; c < Tile; c += Group) {
      CHECK(Map::index(r, c) % Group == 0);
      for (int k = 1; k < Group; ++k) CHECK(Map::index(r, c + k) == Map::index(r, c) + k);
    }
}

// Thread t, pass p, element k of a vector covers each tile element once (load and store use the
// same map, with rows and columns swapped).
template <class P, int V>
void check_thread_map() {
  using map = detail::transpose_map<P::tile, P::threads, V>;
  CAPTURE(P::name());
  CAPTURE(V);
  std::vector<int> hits(P::tile * P::tile, 0);
  for (unsigned t = 0; t < P::threads; ++t)
    for (int p = 0; p < map::passes; ++p)
      for (int k = 0; k < V; ++k) ++hits[map::row(t, p) * P::tile + map::col(t) + k];
  for (int h : hits) CHECK(h == 1);
}

struct tile_cost {
  bank_cost store;  // the load phase's writes into the tile
  bank_cost load;   // the store phase's column reads
  int store_instructions = 0, load_instructions = 0;  // warp-wide shared-memory instructions
};

void add(bank_cost& total, const bank_cost& c) {
  total.ways = std::max(total.ways, c.ways);
  total.wavefronts += c.wavefronts;
  total.ideal += c.ideal;
}

// Every shared-memory access of one full tile, warp by warp, exactly as the kernel makes them.
template <class P, class T, int V>
tile_cost model_tile() {
  using map = detail::transpose_map<P::tile, P::threads, V>;
  using M = typename P::smem::template tile_map<P::tile, V>;
  constexpr bool vector_rows = V > 1 && M::rows_keep_vectors;
  constexpr long bytes = sizeof(T);
  tile_cost cost;
  for (unsigned warp = 0; warp < P::threads / 32; ++warp)
    for (int p = 0; p < map::passes; ++p) {
      std::vector<long> offset(32);
      if (vector_rows) {
        for (unsigned lane = 0; lane < 32; ++lane) offset[lane] = M::index(map::row(warp * 32 + lane, p), map::col(warp * 32 + lane)) * bytes;
        add(cost.store, bank_cost_of(offset, V * sizeof(T)));
        ++cost.store_instructions;
      } else {
        for (int k = 0; k < V; ++k) {
          for (unsigned lane = 0; lane < 32; ++lane) offset[lane] = M::index(map::row(warp * 32 + lane, p), map::col(warp * 32 + lane) + k) * bytes;
          add(cost.store, bank_cost_of(offset, sizeof(T)));
          ++cost.store_instructions;
        }
      }
      for (int k = 0; k < V; ++k) {
        for (unsigned lane = 0; lane < 32; ++lane) offset[lane] = M::index(map::col(warp * 32 + lane) + k, map::row(warp * 32 + lane, p)) * bytes;
        add(cost.load, bank_cost_of(offset, sizeof(T)));
        ++cost.load_instructions;
      }
    }
  return cost;
}

// Worst conflict (ways) of the tile's writes and reads on the path that runs for T: vectors when
// the policy has them, and the element-wise fallback.
template <class P, class T>
void check_ways(int store_ways, int load_ways, int fallback_store_ways, int fallback_load_ways) {
  CAPTURE(P::name());
  CAPTURE(sizeof(T));
  constexpr int v = P::template vector_elems<T>;
  const tile_cost c = model_tile<P, T, v>();
  CHECK(c.store.ways == store_ways);
  CHECK(c.load.ways == load_ways);
  const tile_cost f = model_tile<P, T, 1>();
  CHECK(f.store.ways == fallback_store_ways);
  CHECK(f.load.ways == fallback_load_ways);
}

}  // namespace

TEST_CASE("tile maps are bijections onto their slots") {
  check_tile_map<smem::row_major_tile<32>, 32>();
  check_tile_map<smem::row_major_tile<64>, 64>();
  check_tile_map<smem::padded_tile<32>, 32>();
  check_tile_map<smem::padded_tile<64>, 64>();
  check_tile_map<smem::swizzled_tile<32, 1>, 32>();
  check_tile_map<smem::swizzled_tile<32, 2>, 32>();
  check_tile_map<smem::swizzled_tile<32, 4>, 32>();
  check_tile_map<smem::swizzled_tile<32, 8>, 32>();
  check_tile_map<smem::swizzled_tile<64, 1>, 64>();
  check_tile_map<smem::swizzled_tile<64, 4>, 64>();
  check_tile_map<smem::swizzled_tile<64, 8>, 64>();
  CHECK(smem::padded_tile<32>::index(1, 0) == 33);
  CHECK(smem::padded_tile<32>::index(31, 31) == 31 * 33 + 31);
  CHECK(smem::swizzled_tile<32, 1>::index(3, 5) == 3 * 32 + (5 ^ 3));
  CHECK(smem::swizzled_tile<32, 4>::index(5, 9) == 5 * 32 + (9 ^ 4));  // rows 4..7 swap chunks 0 <-> 1, 2 <-> 3 ...
}

TEST_CASE("row-major and swizzled tiles keep vector runs contiguous; bytes per layout") {
  check_runs_contiguous<smem::row_major_tile<32>, 32, 4>();
  check_runs_contiguous<smem::swizzled_tile<32, 4>, 32, 4>();
  check_runs_contiguous<smem::swizzled_tile<32, 2>, 32, 2>();
  check_runs_contiguous<smem::swizzled_tile<64, 4>, 64, 4>();
  check_runs_contiguous<smem::swizzled_tile<64, 8>, 64, 8>();
  CHECK_FALSE(smem::padded_tile<32>::rows_keep_vectors);
  CHECK(transpose_policies::static_32::static_smem_bytes<float> == 32 * 32 * 4);
  CHECK(transpose_policies::dynamic_32::static_smem_bytes<float> == 0);
  CHECK(transpose_policies::dynamic_32::dynamic_smem_bytes<float> == 32 * 32 * 4);
  CHECK(transpose_policies::padded_32::static_smem_bytes<double> == 32 * 33 * 8);
  CHECK(transpose_policies::swizzled_64_v16::static_smem_bytes<float> == 64 * 64 * 4);
  CHECK(transpose_policies::naive::static_smem_bytes<float> == 0);
  CHECK(transpose_policies::naive::dynamic_smem_bytes<float> == 0);
}

TEST_CASE("every thread mapping covers each tile element once") {
  check_thread_map<transpose_policies::naive, 1>();
  check_thread_map<transpose_policies::padded_32, 1>();
  check_thread_map<transpose_policies::padded_64, 1>();
  check_thread_map<transpose_policies::swizzled_32_v16_64t, 4>();
  check_thread_map<transpose_policies::swizzled_32_v16_64t, 2>();
  check_thread_map<transpose_policies::swizzled_32_v16_64t, 1>();
  check_thread_map<transpose_policies::swizzled_32_v16, 4>();
  check_thread_map<transpose_policies::swizzled_32_v16, 8>();
  check_thread_map<transpose_policies::swizzled_64_v16, 4>();
  check_thread_map<transpose_policies::swizzled_64_v16, 8>();
  check_thread_map<transpose_policies::swizzled_64_v16, 1>();
  check_thread_map<transpose_policies::swizzled_64_v16_512t_col, 4>();
  check_thread_map<transpose_policies::swizzled_64_v16_512t_col, 2>();
  check_thread_map<transpose_policies::swizzled_64_v16_512t_col, 1>();
  check_thread_map<transpose_policy<smem::padded, 32, 1024>, 1>();  // the seeds' 32 x 32 threads
  check_thread_map<transpose_policy<smem::padded, 64, 1024>, 1>();
}

TEST_CASE("elements per vector: VectorBytes / sizeof(T), capped by the elements a thread moves") {
  CHECK(transpose_policies::padded_32::vector_elems<float> == 1);
  CHECK(transpose_policies::swizzled_64_v16::vector_elems<float> == 4);
  CHECK(transpose_policies::swizzled_64_v16::vector_elems<double> == 2);
  CHECK(transpose_policies::swizzled_64_v16::vector_elems<__half> == 8);
  CHECK(transpose_policy<smem::swizzled, 32, 256, 16>::vector_elems<__half> == 4);  // 4 elements a thread
  CHECK(transpose_policy<smem::swizzled, 32, 1024, 16>::vector_elems<float> == 1);  // 1 element a thread
  CHECK(transpose_policy<smem::swizzled, 32, 256, 8>::vector_elems<float> == 2);
  CHECK(transpose_policies::swizzled_64_v16::name() == "swizzled_64x64_256t_v16");
  CHECK(transpose_policies::naive::name() == "naive_32x32_256t");
}

// The bank model: (vector path: tile writes, column reads; element-wise fallback: writes, reads).
TEST_CASE("bank model, 4-byte elements: the unpadded tile's column reads are 32-way, padded and swizzled are free") {
  check_ways<transpose_policies::static_32, float>(1, 32, 1, 32);
  check_ways<transpose_policies::dynamic_32, float>(1, 32, 1, 32);
  check_ways<transpose_policies::padded_32, float>(1, 1, 1, 1);
  check_ways<transpose_policies::swizzled_32, float>(1, 1, 1, 1);
  check_ways<transpose_policies::padded_64, float>(1, 1, 1, 1);
  check_ways<transpose_policies::swizzled_32_v16_64t, float>(1, 1, 1, 1);
  check_ways<transpose_policies::swizzled_32_v16, float>(1, 1, 1, 1);
  // 16 lanes per 64-element row, two rows a warp: the column reads reach only 16 banks.
  check_ways<transpose_policies::swizzled_64_v16, float>(1, 2, 1, 1);
  check_ways<transpose_policies::swizzled_64_v16_512t_col, float>(1, 2, 1, 1);  // the same warp shapes at 512 threads
}

TEST_CASE("bank model, 8-byte elements") {
  check_ways<transpose_policies::static_32, double>(1, 16, 1, 16);
  check_ways<transpose_policies::padded_32, double>(1, 1, 1, 1);
  check_ways<transpose_policies::swizzled_32, double>(1, 1, 1, 1);
  check_ways<transpose_policies::padded_64, double>(1, 1, 1, 1);
  // 8-byte column reads of 2-element vectors: a half-warp reaches 8 bank pairs, 2-way conflicts.
  check_ways<transpose_policies::swizzled_32_v16, double>(1, 2, 1, 1);
  check_ways<transpose_policies::swizzled_64_v16, double>(1, 2, 1, 1);
  check_ways<transpose_policies::swizzled_64_v16_512t_col, double>(1, 2, 1, 1);
}
