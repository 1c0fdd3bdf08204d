// The kernel every transpose_policy composes into.
//
// in is rows x cols, out is cols x rows, both row-major. The input is cut into Tile x Tile tiles,
// numbered row-major (tile b covers rows (b / tile_cols) * Tile + [0, Tile) and columns
// (b % tile_cols) * Tile + [0, Tile)); block k of a launch moves tile first_tile + k. One tile a
// block and no loop: a loop over tiles would let the compiler hoist every shared-memory address
// out of it and hold them in registers. (More tiles than gridDim.x allows take several launches.)
//
// A staged tile goes global -> registers -> shared tile -> registers -> global:
//   load   thread t, pass p reads input tile row map::row(t, p), columns map::col(t) + [0, V): one
//          V-element access; consecutive threads take consecutive vectors of a row (coalesced).
//          Every pass is loaded before any is stored, so a thread has all its loads in flight.
//   store  the same thread writes output tile row map::row(t, p) (an input tile column), columns
//          map::col(t) + [0, V) (input tile rows), gathering them from one column of the tile.
// Accesses outside the matrix (partial edge tiles) are skipped element-vector by element-vector:
// V > 1 only runs when both dimensions are multiples of V, so a vector is all in or all out.
#pragma once
#include <cstring>
#include <type_traits>

#include <tally/policies/config.cuh>
#include <tally/policies/smem.cuh>

namespace tally::detail {

// V elements moved by one access.
template <class T, int V>
struct alignas(sizeof(T) * V) vec {
  T v[V];
};

// The built-in type of the same size: accessed through the __ldg / __stwb intrinsics, a vector is
// one 2- to 16-byte instruction (a plain struct store may be split into element stores).
template <std::size_t Bytes>
using native_word = std::conditional_t<
    Bytes == 16, uint4,
    std::conditional_t<Bytes == 8, uint2, std::conditional_t<Bytes == 4, unsigned, unsigned short>>>;

// Global memory: read-only loads (the input is never written) and default write-back stores.
template <class V>
TALLY_DEVICE V load_global(const void* p) {
  using W = native_word<sizeof(V)>;
  const W w = __ldg(static_cast<const W*>(p));
  V v;
  std::memcpy(&v, &w, sizeof(V));
  return v;
}

template <class V>
TALLY_DEVICE void store_global(void* p, const V& v) {
  using W = native_word<sizeof(V)>;
  W w;
  std::memcpy(&w, &v, sizeof(V));
  __stwb(static_cast<W*>(p), w);
}

// Shared memory: a vector store (the tile is 16-byte aligned and the layout keeps the run aligned).
template <class V>
TALLY_DEVICE void store_shared(void* p, const V& v) {
  using W = native_word<sizeof(V)>;
  W w;
  std::memcpy(&w, &v, sizeof(V));
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

// Writes V elements into tile row r from column c on: one vector store where the layout keeps
// Group-aligned runs contiguous (the tile was acquired with Group = V), else one element at a time.
template <class T, class Map, int V>
TALLY_DEVICE void store_tile_row(smem::tile_view<T, Map> tile, int r, int c, const vec<T, V>& x) {
  if constexpr (V > 1 && Map::rows_keep_vectors) {
    store_shared(&tile(r, c), x);
  } else {
#pragma unroll
    for (int k = 0; k < V; ++k) tile(r, c + k) = x.v[k];
  }
}

// One tile through shared memory (see the top of the file). Offsets are 64-bit; each thread
// steps from its first row by rows_per_pass rows a pass, and checks bounds as differences, so that
// the loads in flight need few registers besides their data.
template <class P, class T, int V, class Tile>
TALLY_DEVICE void transpose_tile_staged(const T* __restrict__ in, T* __restrict__ out, index_t rows, index_t cols,
                                        index_t r0, index_t c0, Tile tile) {
  using map = transpose_map<P::tile, P::threads, V>;
  using vec_t = vec<T, V>;
  const unsigned t = threadIdx.x;
  const int c = map::col(t);
  const int r = map::row(t, 0);
  // Load: input rows r0 + r + p * rows_per_pass, columns c0 + c + [0, V).
  const T* src = in + (r0 + r) * cols + c0 + c;
  const index_t src_step = index_t{map::rows_per_pass} * cols;
  const index_t src_rows_left = rows - r0 - r;  // this thread's pass p is in if p * rows_per_pass < it
  const bool src_col_in = c0 + c < cols;
  vec_t x[map::passes];
#pragma unroll
  for (int p = 0; p < map::passes; ++p)
    if (src_col_in && p * map::rows_per_pass < src_rows_left) x[p] = load_global<vec_t>(src + p * src_step);
#pragma unroll
  for (int p = 0; p < map::passes; ++p)
    if (src_col_in && p * map::rows_per_pass < src_rows_left) store_tile_row(tile, r + p * map::rows_per_pass, c, x[p]);
  __syncthreads();  // outside every branch: all threads of the block reach it
  // Store: output rows c0 + r + p * rows_per_pass (input columns), columns r0 + c + [0, V) (input rows).
  T* dst = out + (c0 + r) * rows + r0 + c;
  const index_t dst_step = index_t{map::rows_per_pass} * rows;
  const index_t dst_rows_left = cols - c0 - r;
  const bool dst_col_in = r0 + c < rows;
#pragma unroll
  for (int p = 0; p < map::passes; ++p) {
    if (dst_col_in && p * map::rows_per_pass < dst_rows_left) {
      vec_t y;
#pragma unroll
      for (int k = 0; k < V; ++k) y.v[k] = tile(c + k, r + p * map::rows_per_pass);
      store_global(dst + p * dst_step, y);
    }
  }
}

// The naive transpose: each thread writes what it read, to a column of the output (strided).
template <class P, class T, int V>
TALLY_DEVICE void transpose_tile_direct(const T* __restrict__ in, T* __restrict__ out, index_t rows, index_t cols,
                                        index_t r0, index_t c0) {
  using map = transpose_map<P::tile, P::threads, V>;
  using vec_t = vec<T, V>;
  const unsigned t = threadIdx.x;
  const int c = map::col(t);
#pragma unroll
  for (int p = 0; p < map::passes; ++p) {
    const int r = map::row(t, p);
    if (r0 + r < rows && c0 + c < cols) {
      const vec_t x = load_global<vec_t>(in + (r0 + r) * cols + c0 + c);
#pragma unroll
      for (int k = 0; k < V; ++k) store_global(out + (c0 + c + k) * rows + r0 + r, x.v[k]);
    }
  }
}

template <class P, class T, int V>
__global__ void __launch_bounds__(P::threads) transpose_kernel(const T* __restrict__ in, T* __restrict__ out,
                                                               index_t rows, index_t cols, index_t tile_cols,
                                                               index_t first_tile) {
  constexpr int tile_dim = P::tile;
  const index_t b = first_tile + blockIdx.x;
  const index_t r0 = b / tile_cols * tile_dim, c0 = b % tile_cols * tile_dim;
  if constexpr (P::smem::has_tile) {
    transpose_tile_staged<P, T, V>(in, out, rows, cols, r0, c0, P::smem::template acquire_tile<T, tile_dim, V>());
  } else {
    transpose_tile_direct<P, T, V>(in, out, rows, cols, r0, c0);
  }
}

}  // namespace tally::detail
