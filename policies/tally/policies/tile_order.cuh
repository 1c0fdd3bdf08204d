// Tile orders: which tile of a transpose block b moves, for a tile grid of tile_rows x tile_cols.
// The blocks resident at one moment are consecutive, so the order decides which rows of the
// input and output they touch together.
//
//   row_major  tile (b / tile_cols, b % tile_cols). Consecutive blocks read consecutive tiles of
//              one tile row (one long contiguous read) and write, in the output, tile columns
//              that all start at the same column: with a power-of-two row length, every row they
//              write starts at the same address modulo the row stride, and the writes of a wave
//              crowd onto a few memory channels ("partition camping").
//   diagonal   tile (r, (q + r) % tile_cols) with r = b % tile_rows, q = b / tile_rows: consecutive
//              blocks walk a wrapped diagonal, so a wave reads and writes at as many different
//              column offsets as it has blocks (Ruetsch and Micikevicius, "Optimizing matrix
//              transpose in CUDA", 2009). A permutation of the tiles: b -> (q, r) is one, and for
//              each r, q -> (q + r) % tile_cols is one. Neighbours share no input or output row,
//              though: every block reads and writes rows no other resident block touches.
//   column_major  tile (b % tile_rows, b / tile_rows): consecutive blocks go down a tile column, so
//              a wave of W resident blocks writes whole output rows end to end (the W / tile_rows
//              output row blocks it covers) and reads runs of W / tile_rows tiles from every input
//              row. Measured on an H200 (README): the write side is the one that must stream; reads
//              in runs of 1-2 KB cost little. The fastest order for 2-, 4- and 8-byte elements at
//              every shape measured but double 16384^2 (there within 3 % of banded<32>, either way).
//   banded<K>  tile rows in bands of K (the last band may be shorter); within a band consecutive
//              blocks go down a tile column, then on to the next column. A wave of W resident
//              blocks covers about K x W / K tiles: it reads K tile rows in runs of W / K tiles and
//              writes W / K tile columns in runs of K tiles, so both sides move long contiguous
//              runs that start at many different columns.
#pragma once
#include <string>

#include "config.cuh"

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

}  // namespace tally::tile_order
