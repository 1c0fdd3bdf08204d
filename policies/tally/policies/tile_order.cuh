// Tile orders: which tile of a transpose block b moves, for a tile grid of tile_rows x tile_cols.
// The blocks resident at one moment are consecutive, so the order decides which rows of the
// input and output they touch together.
//
// Contract (check_tile_order; docs/policies.md):
//   suffix()                         static std::string: added to a policy's name ("" for the default)
//   of(b, tile_rows, tile_cols)      static constexpr tile_coord, host and device: a permutation of the
//                                    tiles over b in [0, tile_rows * tile_cols) (test/host checks it)
//
//   row_major  tile (b / tile_cols, b % tile_cols). Consecutive blocks read consecutive tiles of
//              one tile row (one long contiguous read) and write, in the output, tile columns
//              that all start at the same column: with a power-of-two row length, every row they
//              write starts at the same address modulo the row stride, and the writes of a wave
//              crowd onto a few memory channels ("partition camping").
//   diagonal   tile (r, (q + r) % tile_cols) with r = b % tile_rows, q = b / tile_rows: consecutive
//              blocks walk a wrapped diagonal, so a wave reads and writes at as many different
//              column offsets as it has blocks (Ruetsch and Micikevicius, "Optimizing matrix
//              transpose in CUDA", 2009). Neighbours share no input or output row, though.
//   column_major  tile (b % tile_rows, b / tile_rows): consecutive blocks go down a tile column, so
//              a wave of W resident blocks writes whole output rows end to end and reads runs of
//              W / tile_rows tiles from every input row; the write side is the one that must stream
//              (docs/performance.md).
//   banded<K>  tile rows in bands of K (the last band may be shorter); within a band consecutive
//              blocks go down a tile column, then on to the next column. A wave of W resident
//              blocks reads K tile rows in runs of W / K tiles and writes W / K tile columns in runs
//              of K tiles, so both sides move long contiguous runs that start at many columns.
#pragma once
#include <string>

#include "config.cuh"
#include "contract.cuh"

namespace tally::tile_order {

struct tile_coord {
  index_t row, col;  // in tiles
};

struct row_major {
  static std::string suffix() { return ""; }  // the default order adds nothing to a policy's name
  TALLY_HD static constexpr tile_coord of(index_t b, index_t /*tile_rows*/, index_t tile_cols) {
    return {b / tile_cols, b % tile_cols};
  }
};

struct diagonal {
  static std::string suffix() { return "_diag"; }
  TALLY_HD static constexpr tile_coord of(index_t b, index_t tile_rows, index_t tile_cols) {
    const index_t r = b % tile_rows, q = b / tile_rows;
    return {r, (q + r) % tile_cols};
  }
};

struct column_major {
  static std::string suffix() { return "_col"; }
  TALLY_HD static constexpr tile_coord of(index_t b, index_t tile_rows, index_t /*tile_cols*/) {
    return {b % tile_rows, b / tile_rows};
  }
};

template <int K>
struct banded {
  static_assert(K >= 1, "tally::tile_order::banded: K must be at least 1");
  static std::string suffix() { return "_band" + std::to_string(K); }
  TALLY_HD static constexpr tile_coord of(index_t b, index_t tile_rows, index_t tile_cols) {
    const index_t band = b / (index_t{K} * tile_cols);
    const index_t first_row = band * K;
    const index_t rows = tile_rows - first_row < K ? tile_rows - first_row : index_t{K};  // in this band
    const index_t i = b - first_row * tile_cols;                                           // within it
    return {first_row + i % rows, i / rows};
  }
};

namespace detail {
template <class O> using suffix_member = std::enable_if_t<std::is_convertible_v<decltype(O::suffix()), std::string>>;
template <class O> using of_member = std::enable_if_t<std::is_same_v<decltype(O::of(index_t{}, index_t{}, index_t{})), tile_coord>>;
}  // namespace detail

template <class O>
constexpr bool check_tile_order() {
  static_assert(tally::detail::is_detected<detail::suffix_member, O>,
                "tally tile order: missing 'static std::string suffix()' (added to the policy's name)");
  static_assert(tally::detail::is_detected<detail::of_member, O>,
                "tally tile order: missing 'static constexpr tile_coord of(index_t b, index_t tile_rows, index_t tile_cols)'");
  return true;
}

}  // namespace tally::tile_order
