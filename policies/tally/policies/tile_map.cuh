// Two-dimensional shared-memory tiles (the transpose's staging buffer): a Tile x Tile tile of
// elements, and where element (r, c) lives in the flat shared array.
//
//   row_major_tile<Tile>          r * Tile + c. A warp reading a column (32 rows, one column)
//                                 hits one bank 32 times for 4-byte elements: the classical conflict.
//   padded_tile<Tile>             r * (Tile + 1) + c, the classical [Tile][Tile + 1]: a column
//                                 walks the banks diagonally. Rows lose their 16-byte alignment,
//                                 so a padded row is written one element at a time.
//   swizzled_tile<Tile, Group>    r * Tile + (c ^ mask(r)), mask(r) = Group * ((r / Group) % (Tile / Group)):
//                                 no extra bytes. Columns of the same Group-aligned chunk of rows
//                                 land in different chunks of banks, and every Group-aligned run
//                                 of Group elements of a row stays contiguous and aligned, so rows
//                                 can still be written as 16-byte vectors (Group = elements per
//                                 vector; Group = 1 for scalar accesses, which makes it c ^ (r % Tile)).
//
// Every map is a bijection of the tile onto [0, slots) (test/host checks it) and is constexpr on
// the host too, so that the bank model in test/host uses exactly the kernels' addresses.
#pragma once
#include "config.cuh"

namespace tally::detail {
inline constexpr bool is_power_of_two(int x) { return x > 0 && (x & (x - 1)) == 0; }
}  // namespace tally::detail

namespace tally::smem {

template <int Tile>
struct row_major_tile {
  static constexpr int slots = Tile * Tile;
  static constexpr bool rows_keep_vectors = true;  // every Group-aligned run of a row is contiguous
  TALLY_HD static constexpr int index(int r, int c) { return r * Tile + c; }
};

template <int Tile>
struct padded_tile {
  static constexpr int slots = Tile * (Tile + 1);  // the last row's pad is never addressed
  static constexpr bool rows_keep_vectors = false;
  TALLY_HD static constexpr int index(int r, int c) { return r * (Tile + 1) + c; }
};

template <int Tile, int Group>
struct swizzled_tile {
  static_assert(tally::detail::is_power_of_two(Tile) && tally::detail::is_power_of_two(Group) && Group <= Tile,
                "tally::smem::swizzled_tile: Tile and Group must be powers of two, Group <= Tile");
  static constexpr int slots = Tile * Tile;
  static constexpr bool rows_keep_vectors = true;
  // XOR with a multiple of Group below Tile: permutes the Group-aligned chunks of a row.
  TALLY_HD static constexpr int mask(int r) { return Group * ((r / Group) % (Tile / Group)); }
  TALLY_HD static constexpr int index(int r, int c) { return r * Tile + (c ^ mask(r)); }
};

// A shared-memory tile seen through its map; tile(r, c) is element (r, c).
template <class T, class Map>
struct tile_view {
  using map = Map;
  T* data;
  TALLY_HD T& operator()(int r, int c) const { return data[Map::index(r, c)]; }
};

}  // namespace tally::smem
