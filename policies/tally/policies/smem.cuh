// Shared-memory layout policies: where a block's partial states live, and how a logical slot maps to
// a physical one; and, for the transpose, where element (r, c) of a Tile x Tile tile lives.
//
// Contract of a 1-D layout (check_smem_policy; docs/policies.md):
//   name                 static constexpr const char*
//   static_bytes<S, N>   static constexpr std::size_t: bytes of __shared__ memory for N slots of S
//   dynamic_bytes<S, N>  static constexpr std::size_t: bytes the launch must pass (0 if none)
//   acquire<S, N>()      device: a view whose operator[](int i) is slot i (an S&), i in [0, N)
// A kernel calls acquire once; every thread of the block gets the same memory.
// Contract of a tile layout (check_tile_layout): has_tile (false: the transpose uses no tile), and
// where true tile_map<Tile, Group> (tile_map.cuh: a bijection of the tile onto [0, slots)),
// tile_static_bytes<T, Tile>, tile_dynamic_bytes<T, Tile> and acquire_tile<T, Tile, Group>().
//
//   static_array  `__shared__` array sized at compile time ([Tile][Tile] as a tile)
//   dynamic       `extern __shared__`, its bytes passed at launch (dynamic_bytes)
//   padded        static array with one pad element after every 128 bytes, so that strided access
//                 patterns (interleaved_strided's 2*s*tid) spread over the 32 banks. Conflict-free
//                 for 4-byte states at any block size; for 8-byte states up to 256 threads and for
//                 16-byte states up to 64 (beyond, lanes still share banks at the largest strides;
//                 never more than unpadded). test/host's bank model checks these limits.
//                 As a tile: [Tile][Tile + 1]
//   swizzled      tile only: [Tile][Tile] with each row's chunks XOR-permuted
//   none          tile only: no tile at all; the naive transpose writes what it read
#pragma once
#include <cstddef>

#include "config.cuh"
#include "contract.cuh"
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
    return {reinterpret_cast<T*>(tally::detail::dynamic_smem)};
  }

  static constexpr bool has_tile = true;
  template <int Tile, int Group> using tile_map = row_major_tile<Tile>;
  template <class T, int Tile> static constexpr std::size_t tile_static_bytes = 0;
  template <class T, int Tile> static constexpr std::size_t tile_dynamic_bytes = row_major_tile<Tile>::slots * sizeof(T);
  template <class T, int Tile, int Group>
  TALLY_DEVICE static tile_view<T, tile_map<Tile, Group>> acquire_tile() {
    return {reinterpret_cast<T*>(tally::detail::dynamic_smem)};
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

namespace detail {
// Probed with a state of the checks' own (probe_state): see block.cuh's slots_member for why.
template <class P> using static_bytes_member = std::enable_if_t<std::is_convertible_v<decltype(P::template static_bytes<tally::detail::probe_state, 2048>), std::size_t>>;
template <class P> using dynamic_bytes_member = std::enable_if_t<std::is_convertible_v<decltype(P::template dynamic_bytes<tally::detail::probe_state, 2048>), std::size_t>>;
template <class P> using acquire_member = decltype(P::template acquire<tally::detail::probe_state, 2048>()[0] = tally::detail::probe_state{});
template <class P> using has_tile_member = std::enable_if_t<std::is_same_v<std::remove_cv_t<decltype(P::has_tile)>, bool>>;
template <class P> using tile_bytes_members = std::enable_if_t<std::is_convertible_v<decltype(P::template tile_static_bytes<tally::detail::probe_state, 32>), std::size_t> &&
                                                              std::is_convertible_v<decltype(P::template tile_dynamic_bytes<tally::detail::probe_state, 32>), std::size_t>>;
template <class P> using acquire_tile_member = decltype(P::template acquire_tile<tally::detail::probe_state, 32, 1>()(0, 0) = tally::detail::probe_state{});
}  // namespace detail

template <class P>
constexpr bool check_smem_policy() {
  using tally::detail::is_detected;
  static_assert(is_detected<tally::detail::name_member, P>, "tally smem policy: missing 'static constexpr const char* name'");
  static_assert(is_detected<detail::static_bytes_member, P> && is_detected<detail::dynamic_bytes_member, P>,
                "tally smem policy: missing 'template <class S, int N> static constexpr std::size_t static_bytes' or "
                "'dynamic_bytes' (is it a tile-only layout? Those serve the transpose alone)");
  static_assert(is_detected<detail::acquire_member, P>,
                "tally smem policy: missing 'template <class S, int N> static View acquire()' whose view[i] is an S&");
  return true;
}

template <class P>
constexpr bool check_tile_layout() {
  using tally::detail::is_detected;
  static_assert(is_detected<tally::detail::name_member, P>, "tally tile layout: missing 'static constexpr const char* name'");
  static_assert(is_detected<detail::has_tile_member, P>,
                "tally tile layout: missing 'static constexpr bool has_tile' (false: no tile, the naive transpose)");
  static_assert(is_detected<detail::tile_bytes_members, P>,
                "tally tile layout: missing 'template <class T, int Tile> static constexpr std::size_t tile_static_bytes' "
                "or 'tile_dynamic_bytes'");
  if constexpr (is_detected<detail::has_tile_member, P>) {
    if constexpr (P::has_tile)
      static_assert(is_detected<detail::acquire_tile_member, P>,
                    "tally tile layout: missing 'template <class T, int Tile, int Group> static tile_view<T, Map> "
                    "acquire_tile()' (has_tile is true)");
  }
  return true;
}

}  // namespace smem
}  // namespace tally
