// The transpose's launch plan (a pure host function) and its argument checks, which throw
// tally::error before any CUDA call: both run on machines without a GPU.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include <cuda_fp16.h>

#include <tally/transpose.cuh>

#include "../common/argument_error.hpp"

using namespace tally;
using tally::test::argument_error_of;
using tally::test::contains;

namespace {
constexpr std::uintptr_t aligned = 0x10000;  // 16-byte aligned addresses for the plan
constexpr std::uintptr_t other = 0x40000000;
}  // namespace

TEST_CASE("plan: tiles across and down, partial edge tiles, one launch") {
  using P = transpose_policies::padded_32;
  const transpose_plan p = plan_transpose<P, float>(33, 65, aligned, other);
  CHECK(p.tile_rows == 2);
  CHECK(p.tile_cols == 3);
  CHECK(p.tiles == 6);
  CHECK(p.launches == 1);
  CHECK_FALSE(p.vectorized);  // padded_32 has no vectors
  CHECK(plan_transpose<P, float>(4097, 3, aligned, other).tiles == 129);
  CHECK(plan_transpose<P, float>(3, 4097, aligned, other).tiles == 129);
  CHECK(plan_transpose<P, float>(1, 1, aligned, other).tiles == 1);
  CHECK(plan_transpose<P, float>(32, 32, aligned, other).tiles == 1);
  CHECK(plan_transpose<P, float>(0, 100, aligned, other).tiles == 0);
  CHECK(plan_transpose<P, float>(100, 0, aligned, other).tiles == 0);
}

TEST_CASE("plan: tall and huge matrices use gridDim.x only, and several launches past its limit") {
  using P = default_transpose_policy<float>;  // 64 x 64 tiles
  const transpose_plan tall = plan_transpose<P, float>(index_t{1} << 20, 3, aligned, other);
  CHECK(tall.tile_rows == (index_t{1} << 20) / 64);
  CHECK(tall.tile_cols == 1);
  CHECK(tall.launches == 1);
  // 2^40 elements in one row: 2^34 tiles, 9 launches of at most 2^31 - 1 blocks.
  const transpose_plan wide = plan_transpose<P, float>(1, index_t{1} << 40, aligned, other);
  CHECK(wide.tiles == index_t{1} << 34);
  CHECK(wide.launches == 9);
  CHECK(plan_transpose<P, float>(64, 64 * max_transpose_blocks, aligned, other).launches == 1);
  CHECK(plan_transpose<P, float>(64, 64 * max_transpose_blocks + 1, aligned, other).launches == 2);
}

TEST_CASE("plan: vectors only where both dimensions and both pointers allow them") {
  using P = default_transpose_policy<float>;  // 16-byte vectors: 4 floats
  CHECK(plan_transpose<P, float>(8192, 8192, aligned, other).vectorized);
  CHECK(plan_transpose<P, float>(100, 36, aligned, other).vectorized);
  CHECK_FALSE(plan_transpose<P, float>(8190, 8192, aligned, other).vectorized);  // rows % 4 != 0
  CHECK_FALSE(plan_transpose<P, float>(8192, 8191, aligned, other).vectorized);  // cols % 4 != 0
  CHECK_FALSE(plan_transpose<P, float>(8192, 8192, aligned + 4, other).vectorized);
  CHECK_FALSE(plan_transpose<P, float>(8192, 8192, aligned, other + 8).vectorized);
  CHECK(plan_transpose<P, double>(6, 10, aligned, other).vectorized);  // 2 doubles a vector
  CHECK_FALSE(plan_transpose<P, double>(6, 10, aligned + 8, other).vectorized);
  CHECK(plan_transpose<P, __half>(8, 16, aligned, other).vectorized);  // 8 halves a vector
  CHECK_FALSE(plan_transpose<P, __half>(4, 16, aligned, other).vectorized);
}

TEST_CASE("transpose: rows == 0 or cols == 0 is a no-op, null pointers included") {
  CHECK(argument_error_of([] { transpose(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 0, 5); }) == "");
  CHECK(argument_error_of([] { transpose(static_cast<const float*>(nullptr), static_cast<float*>(nullptr), 7, 0); }) == "");
  CHECK(argument_error_of([] { transpose<transpose_policies::naive>(static_cast<const double*>(nullptr), static_cast<double*>(nullptr), 0, 0); }) == "");
}

TEST_CASE("transpose: bad arguments throw tally::error naming them, before any CUDA call") {
  alignas(16) float in[64] = {};
  alignas(16) float out[64] = {};
  const auto error_of = [](auto f) { return argument_error_of(f); };
  CHECK(contains(error_of([&] { transpose(in, out, -1, 4); }), "rows = -1, cols = 4: a dimension is negative"));
  CHECK(contains(error_of([&] { transpose(in, out, 0, -4); }), "a dimension is negative"));
  CHECK(contains(error_of([&] { transpose(in, out, index_t{1} << 32, index_t{1} << 32); }), "exceed the address space"));
  CHECK(contains(error_of([&] { transpose(static_cast<const float*>(nullptr), out, 2, 3); }), "input pointer is null but rows = 2, cols = 3"));
  CHECK(contains(error_of([&] { transpose(in, static_cast<float*>(nullptr), 2, 3); }), "output pointer is null"));
  const auto* bad_in = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(in) + 2);
  auto* bad_out = reinterpret_cast<float*>(reinterpret_cast<unsigned char*>(out) + 1);
  CHECK(contains(error_of([&] { transpose(bad_in, out, 2, 3); }), "input pointer is not aligned"));
  CHECK(contains(error_of([&] { transpose(in, bad_out, 2, 3); }), "output pointer is not aligned"));
  CHECK(contains(error_of([&] { transpose(in, in, 4, 4); }), "in-place transpose is not supported"));
  CHECK(contains(error_of([&] { transpose(in, in + 8, 4, 4); }), "input and output overlap"));   // in + [0, 16) vs [8, 24)
  CHECK(contains(error_of([&] { transpose(in + 8, in, 4, 4); }), "input and output overlap"));
  CHECK(contains(error_of([&] { transpose<transpose_policies::padded_32>(in, out, -2, 2); }), "tally::transpose"));
  for (float x : out) CHECK(x == 0.0f);  // nothing written
}

TEST_CASE("transpose: adjacent buffers do not overlap") {
  // Only validation: the buffers are host memory, so no launch is attempted.
  alignas(16) float buf[32] = {};
  CHECK_NOTHROW(detail::validate_transpose(buf, buf + 16, 4, 4, "test"));
  CHECK_NOTHROW(detail::validate_transpose(buf + 16, buf, 4, 4, "test"));
}

TEST_CASE("tile orders: each visits every tile exactly once; diagonal neighbours differ in row and column") {
  for (const index_t tile_rows : {1, 2, 3, 7, 64, 257})
    for (const index_t tile_cols : {1, 2, 5, 64, 100}) {
      CAPTURE(tile_rows);
      CAPTURE(tile_cols);
      const std::size_t tiles = static_cast<std::size_t>(tile_rows * tile_cols);
      std::vector<int> row_major(tiles), column_major(tiles), diagonal(tiles), band3(tiles), band32(tiles);
      const auto visit = [&](std::vector<int>& seen, tile_order::tile_coord t) {
        REQUIRE((t.row >= 0 && t.row < tile_rows && t.col >= 0 && t.col < tile_cols));
        ++seen[static_cast<std::size_t>(t.row * tile_cols + t.col)];
      };
      for (index_t b = 0; b < tile_rows * tile_cols; ++b) {
        visit(row_major, tile_order::row_major::of(b, tile_rows, tile_cols));
        visit(column_major, tile_order::column_major::of(b, tile_rows, tile_cols));
        const auto d = tile_order::diagonal::of(b, tile_rows, tile_cols);
        visit(diagonal, d);
        visit(band3, tile_order::banded<3>::of(b, tile_rows, tile_cols));
        visit(band32, tile_order::banded<32>::of(b, tile_rows, tile_cols));
        if (b + 1 < tile_rows && tile_cols > 1) {  // the next block: the next tile row, the next column
          const auto next = tile_order::diagonal::of(b + 1, tile_rows, tile_cols);
          CHECK(next.row == d.row + 1);
          CHECK(next.col == (d.col + 1) % tile_cols);
        }
      }
      for (const auto* seen : {&row_major, &column_major, &diagonal, &band3, &band32})
        CHECK(std::count(seen->begin(), seen->end(), 1) == tile_rows * tile_cols);
    }
  // banded<3> on 7 x 5 tiles: down 3 tile rows, then the next column; the last band has 1 row.
  CHECK(tile_order::banded<3>::of(0, 7, 5).row == 0);
  CHECK(tile_order::banded<3>::of(2, 7, 5).row == 2);
  CHECK(tile_order::banded<3>::of(3, 7, 5).col == 1);
  CHECK(tile_order::banded<3>::of(3, 7, 5).row == 0);
  CHECK(tile_order::banded<3>::of(30, 7, 5).row == 6);
  CHECK(tile_order::banded<3>::of(31, 7, 5).col == 1);
  // column_major on 7 x 5 tiles: down the first tile column, then the next.
  CHECK(tile_order::column_major::of(6, 7, 5).row == 6);
  CHECK(tile_order::column_major::of(6, 7, 5).col == 0);
  CHECK(tile_order::column_major::of(7, 7, 5).row == 0);
  CHECK(tile_order::column_major::of(7, 7, 5).col == 1);
  CHECK(tile_order::column_major::of(34, 7, 5).row == 6);
  CHECK(tile_order::column_major::of(34, 7, 5).col == 4);
  CHECK(transpose_policies::swizzled_64_v16_band32::name() == "swizzled_64x64_256t_v16_band32");
  CHECK(transpose_policies::swizzled_64_v16_512t_col::name() == "swizzled_64x64_512t_v16_col");
  CHECK(transpose_policies::padded_32_diag::name() == "padded_32x32_256t_diag");
}
