// Shared-memory layout policies: where a block's N partial states live, and how a logical slot i
// maps to a physical one.
//
//   static_array  `__shared__` array sized at compile time
//   dynamic       `extern __shared__`, its bytes passed at launch (dynamic_bytes)
//   padded        static array with one pad element after every 128 bytes, so that strided access
//                 patterns (interleaved_strided's 2*s*tid) spread over the 32 banks. Conflict-free
//                 for 4-byte states at any block size; for 8-byte states up to 256 threads and for
//                 16-byte states up to 64 (beyond, lanes still share banks at the largest strides;
//                 never more than unpadded). test/host's bank model checks these limits.
//
// acquire<T, N>() returns a view; view[i] is slot i. A kernel calls acquire once.
//
// The same layouts also give the transpose its Tile x Tile staging tile (tile_map.cuh):
// acquire_tile<T, Tile, Group>() returns a tile_view, tile_map<Tile, Group> is its index map.
//
//   static_array, dynamic  [Tile][Tile] row-major (static, or bytes at launch: tile_dynamic_bytes)
//   padded                 [Tile][Tile + 1]
//   swizzled               [Tile][Tile] with each row's chunks XOR-permuted (tile only, no 1-D form)
//   none                   no tile at all: the naive transpose, which writes what it read (tile only)
#pragma once
#include <cstddef>

#include "config.cuh"
#include "tile_map.cuh"

namespace tally {
namespace detail {
// One `extern __shared__` symbol for every kernel that takes its shared memory at launch.
extern __shared__ __align__(16) unsigned char dynamic_smem[];
}  // namespace detail

namespace smem {

// A pointer to N slots with a slot -> element index mapping.
template <class T, class Map>
struct view {
  T* data;
  TALLY_DEVICE T& operator[](int i) const { return data[Map::index(i)]; }
};

struct contiguous_map {
  TALLY_HD static constexpr int index(int i) { return i; }
};

// Elements per 128-byte row (32 banks of 4 bytes); one pad element is inserted after each row.
// Types smaller than a bank keep 32 elements per row ("one pad word per 32 elements").
template <class T>
inline constexpr int padded_row = sizeof(T) >= 4 ? static_cast<int>(128 / sizeof(T)) : 32;

template <class T>
struct padded_map {
  TALLY_HD static constexpr int index(int i) { return i + i / padded_row<T>; }
};

struct static_array {
  static constexpr const char* name = "static_array";
  template <class T, int N> static constexpr std::size_t static_bytes = N * sizeof(T);
  template <class T, int N> static constexpr std::size_t dynamic_bytes = 0;
  template <class T, int N>
  TALLY_DEVICE static view<T, contiguous_map> acquire() {
    __shared__ __align__(16) unsigned char raw[static_bytes<T, N>];
    return {reinterpret_cast<T*>(raw)};
  }

  static constexpr bool has_tile = true;
  template <int Tile, int Group> using tile_map = row_major_tile<Tile>;
  template <class T, int Tile> static constexpr std::size_t tile_static_bytes = row_major_tile<Tile>::slots * sizeof(T);
  template <class T, int Tile> static constexpr std::size_t tile_dynamic_bytes = 0;
  template <class T, int Tile, int Group>
  TALLY_DEVICE static tile_view<T, tile_map<Tile, Group>> acquire_tile() {
    __shared__ __align__(16) unsigned char raw[tile_static_bytes<T, Tile>];
    return {reinterpret_cast<T*>(raw)};
  }
};

struct dynamic {
  static constexpr const char* name = "dynamic";
  template <class T, int N> static constexpr std::size_t static_bytes = 0;
  template <class T, int N> static constexpr std::size_t dynamic_bytes = N * sizeof(T);
  template <class T, int N>
  TALLY_DEVICE static view<T, contiguous_map> acquire() {
    return {reinterpret_cast<T*>(detail::dynamic_smem)};
  }

  static constexpr bool has_tile = true;
  template <int Tile, int Group> using tile_map = row_major_tile<Tile>;
  template <class T, int Tile> static constexpr std::size_t tile_static_bytes = 0;
  template <class T, int Tile> static constexpr std::size_t tile_dynamic_bytes = row_major_tile<Tile>::slots * sizeof(T);
  template <class T, int Tile, int Group>
  TALLY_DEVICE static tile_view<T, tile_map<Tile, Group>> acquire_tile() {
    return {reinterpret_cast<T*>(detail::dynamic_smem)};
  }
};

struct padded {
  static constexpr const char* name = "padded";
  // Slots needed for N logical elements (the last row's pad is never addressed, but kept for
  // a uniform formula).
  template <class T, int N> static constexpr int slots = N + N / padded_row<T>;
  template <class T, int N> static constexpr std::size_t static_bytes = slots<T, N> * sizeof(T);
  template <class T, int N> static constexpr std::size_t dynamic_bytes = 0;
  template <class T, int N>
  TALLY_DEVICE static view<T, padded_map<T>> acquire() {
    __shared__ __align__(16) unsigned char raw[static_bytes<T, N>];
    return {reinterpret_cast<T*>(raw)};
  }

  static constexpr bool has_tile = true;
  template <int Tile, int Group> using tile_map = padded_tile<Tile>;
  template <class T, int Tile> static constexpr std::size_t tile_static_bytes = padded_tile<Tile>::slots * sizeof(T);
  template <class T, int Tile> static constexpr std::size_t tile_dynamic_bytes = 0;
  template <class T, int Tile, int Group>
  TALLY_DEVICE static tile_view<T, tile_map<Tile, Group>> acquire_tile() {
    __shared__ __align__(16) unsigned char raw[tile_static_bytes<T, Tile>];
    return {reinterpret_cast<T*>(raw)};
  }
};

// Tile only: an XOR-swizzled [Tile][Tile] (swizzled_tile), conflict-free columns without padding.
struct swizzled {
  static constexpr const char* name = "swizzled";
  static constexpr bool has_tile = true;
  template <int Tile, int Group> using tile_map = swizzled_tile<Tile, Group>;
  template <class T, int Tile> static constexpr std::size_t tile_static_bytes = Tile * Tile * sizeof(T);
  template <class T, int Tile> static constexpr std::size_t tile_dynamic_bytes = 0;
  template <class T, int Tile, int Group>
  TALLY_DEVICE static tile_view<T, tile_map<Tile, Group>> acquire_tile() {
    __shared__ __align__(16) unsigned char raw[tile_static_bytes<T, Tile>];
    return {reinterpret_cast<T*>(raw)};
  }
};

// Tile only: no shared memory. The naive transpose (coalesced read, strided write) is this layout.
struct none {
  static constexpr const char* name = "naive";
  static constexpr bool has_tile = false;
  template <class T, int Tile> static constexpr std::size_t tile_static_bytes = 0;
  template <class T, int Tile> static constexpr std::size_t tile_dynamic_bytes = 0;
};

}  // namespace smem
}  // namespace tally
