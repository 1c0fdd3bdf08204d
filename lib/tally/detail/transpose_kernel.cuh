// The kernel every transpose_policy composes into.
//
// in is rows x cols, out is cols x rows, both row-major. The input is cut into Tile x Tile tiles;
// block k of a launch moves the tile the policy's tile order (policies/tile_order.cuh: row-major,
// column-major, diagonal or banded) assigns to first_tile + k. One tile a block and no loop: a
// loop over tiles would let the compiler hoist every shared-memory address out of it and hold them
// in registers. (More tiles than gridDim.x allows take several launches.)
//
// A staged tile goes global -> registers -> shared tile -> registers -> global:
//   load   thread t, pass p reads input tile row map::row(t, p), columns map::col(t) + [0, V): one
//          V-element access; consecutive threads take consecutive vectors of a row (coalesced).
//          Every pass is loaded before any is stored, so a thread has all its loads in flight.
//   store  the same thread writes output tile row map::row(t, p) (an input tile column), columns
//          map::col(t) + [0, V) (input tile rows), gathering them from one column of the tile.
// A tile wholly inside the matrix is loaded without bounds checks; otherwise accesses outside the
// matrix (partial edge tiles) are skipped vector by vector: V > 1 only runs when both dimensions
// are multiples of V, so a vector is all in or all out.
//
// The two phases are host-device functions of the thread index (transpose_tile), so that the host
// tests run them, thread by thread, on every composition and shape; only the kernel reads
// threadIdx and holds the barrier.
#pragma once
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <tally/detail/launch.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/smem.cuh>
#include <tally/policies/tile_order.cuh>

namespace tally::detail {

// V elements moved by one access.
template <class T, int V>
struct alignas(sizeof(T) * V) vec {
  T v[V];
};

// The built-in type of the same size: loaded with __ldg and stored with st_global, a vector is one
// 2- to 16-byte instruction.
template <std::size_t Bytes>
using native_word = std::conditional_t<
    Bytes == 16, uint4,
    std::conditional_t<Bytes == 8, uint2, std::conditional_t<Bytes == 4, unsigned, unsigned short>>>;

// On the host (the tests' emulation) an access must be as aligned as the device needs it to be.
inline void check_host_alignment(const void* p, std::size_t bytes) {
  if (reinterpret_cast<std::uintptr_t>(p) % bytes != 0)
    throw std::logic_error("tally::transpose: misaligned " + std::to_string(bytes) + "-byte access");
}

// Global memory: read-only loads (the input is never written) and plain stores.
template <class V>
TALLY_HD V load_global(const void* p) {
  using W = native_word<sizeof(V)>;
#ifdef __CUDA_ARCH__
  const W w = __ldg(static_cast<const W*>(p));
#else
  check_host_alignment(p, sizeof(W));
  const W w = *static_cast<const W*>(p);
#endif
  V v;
  std::memcpy(&v, &w, sizeof(V));
  return v;
}

// One st.global of the whole word (plain C++ stores of a word assembled from elements may be
// split into element stores).
TALLY_DEVICE void st_global(uint4* p, uint4 w) {
  asm volatile("st.global.v4.b32 [%0], {%1, %2, %3, %4};" ::"l"(p), "r"(w.x), "r"(w.y), "r"(w.z), "r"(w.w));
}
TALLY_DEVICE void st_global(uint2* p, uint2 w) { asm volatile("st.global.v2.b32 [%0], {%1, %2};" ::"l"(p), "r"(w.x), "r"(w.y)); }
TALLY_DEVICE void st_global(unsigned* p, unsigned w) { asm volatile("st.global.b32 [%0], %1;" ::"l"(p), "r"(w)); }
TALLY_DEVICE void st_global(unsigned short* p, unsigned short w) { asm volatile("st.global.b16 [%0], %1;" ::"l"(p), "h"(w)); }

template <class V>
TALLY_HD void store_global(void* p, const V& v) {
  using W = native_word<sizeof(V)>;
  W w;
  std::memcpy(&w, &v, sizeof(V));
#ifdef __CUDA_ARCH__
  st_global(static_cast<W*>(p), w);
#else
  check_host_alignment(p, sizeof(W));
  *static_cast<W*>(p) = w;
#endif
}

// Shared memory: a vector store (the tile is 16-byte aligned and the layout keeps the run aligned).
template <class V>
TALLY_HD void store_shared(void* p, const V& v) {
  using W = native_word<sizeof(V)>;
  W w;
  std::memcpy(&w, &v, sizeof(V));
#ifndef __CUDA_ARCH__
  check_host_alignment(p, sizeof(W));
#endif
  *static_cast<W*>(p) = w;
}

// Which elements of a tile thread t moves in pass p, for Threads threads and V-element vectors.
template <int Tile, int Threads, int V>
struct transpose_map {
  static_assert(Tile % V == 0, "tally::transpose: the vector must divide the tile");
  static constexpr int lanes_per_row = Tile / V;  // threads that cover one tile row
  static_assert(lanes_per_row <= Threads, "tally::transpose: fewer threads than vectors in a tile row");
  static constexpr int rows_per_pass = Threads / lanes_per_row;
  static_assert(rows_per_pass <= Tile, "tally::transpose: more threads than vectors in a tile");
  static constexpr int passes = Tile / rows_per_pass;

  TALLY_HD static constexpr int row(unsigned thread, int pass) {
    return static_cast<int>(thread / lanes_per_row) + pass * rows_per_pass;
  }
  TALLY_HD static constexpr int col(unsigned thread) { return static_cast<int>(thread % lanes_per_row) * V; }
};

// First row and column (in elements) of the tile a block moves.
struct tile_origin {
  index_t row, col;
};

// The tile block b moves, in the policy's tile order, of an input of tile_rows x tile_cols tiles.
template <class P>
TALLY_HD tile_origin origin_of_block(index_t b, index_t tile_rows, index_t tile_cols) {
  const tile_order::tile_coord t = P::order::of(b, tile_rows, tile_cols);
  return {t.row * P::tile, t.col * P::tile};
}

// What one thread does for one tile, in two phases separated by a barrier of the block. Offsets
// are 64-bit; each thread steps from its first row by rows_per_pass rows a pass and checks bounds
// as differences, so that the loads in flight need few registers besides their data.
template <class P, class T, int V>
struct transpose_tile {
  using map = transpose_map<P::tile, P::threads, V>;
  using vec_t = vec<T, V>;

  // Writes V elements into tile row r from column c on: one vector store where the layout keeps
  // Group-aligned runs contiguous (the tile was acquired with Group = V), else element by element.
  template <class Map>
  TALLY_HD static void store_tile_row(smem::tile_view<T, Map> tile, int r, int c, const vec_t& x) {
    if constexpr (V > 1 && Map::rows_keep_vectors) {
      store_shared(&tile(r, c), x);
    } else {
TALLY_UNROLL
      for (int k = 0; k < V; ++k) tile(r, c + k) = x.v[k];
    }
  }

  // Whether the whole tile lies inside the matrix: then its loads need no bounds check. With one
  // predicate per load, a thread's eight or more loads outnumber the SM's seven predicate
  // registers, and the compiler waited for the first load before issuing the rest. The store
  // phase keeps its checks (without them, no layout was faster: docs/performance.md).
  TALLY_HD static bool is_full(index_t rows, index_t cols, tile_origin o) {
    return o.row + P::tile <= rows && o.col + P::tile <= cols;
  }

  // Phase 1: input rows o.row + r + p * rows_per_pass, columns o.col + c + [0, V), all loaded
  // before any is written to the tile (tile row r + p * rows_per_pass, column c).
  template <class Tile>
  TALLY_HD static void load(const T* __restrict__ in, index_t rows, index_t cols, tile_origin o, unsigned t,
                            Tile tile) {
    if (is_full(rows, cols, o))
      load_tile<true>(in, rows, cols, o, t, tile);
    else
      load_tile<false>(in, rows, cols, o, t, tile);
  }

  // Phase 1 for a full tile (Full: no bounds checks) or an edge tile.
  template <bool Full, class Tile>
  TALLY_HD static void load_tile(const T* __restrict__ in, index_t rows, index_t cols, tile_origin o, unsigned t,
                                 Tile tile) {
    const int c = map::col(t), r = map::row(t, 0);
    const T* src = in + (o.row + r) * cols + o.col + c;
    const index_t step = index_t{map::rows_per_pass} * cols;
    const index_t rows_left = rows - o.row - r;  // pass p is inside the matrix if p * rows_per_pass < rows_left
    const bool col_in = o.col + c < cols;
    vec_t x[map::passes];
#ifndef __CUDA_ARCH__
    std::memset(static_cast<void*>(x), 0, sizeof(x));  // host emulation: quiets -Wmaybe-uninitialized
#endif
TALLY_UNROLL
    for (int p = 0; p < map::passes; ++p)
      if (Full || (col_in && p * map::rows_per_pass < rows_left)) x[p] = load_global<vec_t>(src + p * step);
TALLY_UNROLL
    for (int p = 0; p < map::passes; ++p)
      if (Full || (col_in && p * map::rows_per_pass < rows_left)) store_tile_row(tile, r + p * map::rows_per_pass, c, x[p]);
  }

  // Phase 2: output rows o.col + r + p * rows_per_pass (input columns), columns o.row + c + [0, V)
  // (input rows), gathered from tile column r + p * rows_per_pass, rows c + [0, V).
  template <class Tile>
  TALLY_HD static void store(T* __restrict__ out, index_t rows, index_t cols, tile_origin o, unsigned t, Tile tile) {
    const int c = map::col(t), r = map::row(t, 0);
    T* dst = out + (o.col + r) * rows + o.row + c;
    const index_t step = index_t{map::rows_per_pass} * rows;
    const index_t rows_left = cols - o.col - r;
    const bool col_in = o.row + c < rows;
TALLY_UNROLL
    for (int p = 0; p < map::passes; ++p) {
      if (col_in && p * map::rows_per_pass < rows_left) {
        vec_t y;
TALLY_UNROLL
        for (int k = 0; k < V; ++k) y.v[k] = tile(c + k, r + p * map::rows_per_pass);
        store_global(dst + p * step, y);
      }
    }
  }

  // The naive transpose, one phase: each thread writes what it read, down a column of the output.
  TALLY_HD static void copy_direct(const T* __restrict__ in, T* __restrict__ out, index_t rows, index_t cols,
                                   tile_origin o, unsigned t) {
    const int c = map::col(t);
TALLY_UNROLL
    for (int p = 0; p < map::passes; ++p) {
      const int r = map::row(t, p);
      if (o.row + r < rows && o.col + c < cols) {
        const vec_t x = load_global<vec_t>(in + (o.row + r) * cols + o.col + c);
TALLY_UNROLL
        for (int k = 0; k < V; ++k) store_global(out + (o.col + c + k) * rows + o.row + r, x.v[k]);
      }
    }
  }
};

template <class P, class T, int V>
__global__ void __launch_bounds__(P::threads) transpose_kernel(const T* __restrict__ in, T* __restrict__ out,
                                                               index_t rows, index_t cols, index_t tile_rows,
                                                               index_t tile_cols, index_t first_tile) {
  using agent = transpose_tile<P, T, V>;
  if constexpr (P::launch::programmatic) wait_for_previous_grid();  // before any global access
  const tile_origin o = origin_of_block<P>(first_tile + blockIdx.x, tile_rows, tile_cols);
  if constexpr (P::smem::has_tile) {
    const auto tile = P::smem::template acquire_tile<T, P::tile, V>();
    agent::load(in, rows, cols, o, threadIdx.x, tile);
    __syncthreads();  // outside every branch: all threads of the block reach it
    agent::store(out, rows, cols, o, threadIdx.x, tile);
  } else {
    agent::copy_direct(in, out, rows, cols, o, threadIdx.x);
  }
}

}  // namespace tally::detail
