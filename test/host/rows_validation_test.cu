// reduce_rows / matvec argument validation: every bad argument throws tally::error naming it
// before any CUDA call (these run without a GPU), and nothing is written to the output.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <tally/matvec.cuh>
#include <tally/reduce_rows.cuh>

#include "../common/argument_error.hpp"

using namespace tally;
using tally::test::argument_error_of;
using tally::test::contains;

namespace {
alignas(16) float matrix[64] = {};
}  // namespace

TEST_CASE("reduce_rows: bad shapes name the argument, and the output is untouched") {
  float out[4] = {7, 7, 7, 7};
  CHECK(contains(argument_error_of([&] { reduce_rows(matrix, -1, 4, 4, out); }), "M = -1 is negative"));
  CHECK(contains(argument_error_of([&] { reduce_rows(matrix, 4, -2, 4, out); }), "N = -2 is negative"));
  CHECK(contains(argument_error_of([&] { reduce_rows(matrix, 4, 5, 4, out); }), "ld = 4 is smaller than N = 5"));
  CHECK(contains(argument_error_of([&] { reduce_rows(matrix, index_t{1} << 40, 4, index_t{1} << 30, out); }),
                 "beyond 64-bit indexing"));
  CHECK(contains(argument_error_of([&] { reduce_rows<rows::warp_per_row>(matrix, 2, 4, -1, out, op::max{}); }),
                 "ld = -1 is smaller than N = 4"));
  for (float v : out) CHECK(v == 7);
}

TEST_CASE("reduce_rows: null and misaligned pointers") {
  float out[4] = {7, 7, 7, 7};
  const std::string null_a = argument_error_of([&] { reduce_rows(static_cast<const float*>(nullptr), 2, 3, 3, out); });
  CHECK(contains(null_a, "matrix pointer is null"));
  CHECK(contains(null_a, "M = 2, N = 3, ld = 3"));
  CHECK(contains(argument_error_of([&] { reduce_rows(matrix, 2, 3, 3, static_cast<float*>(nullptr)); }),
                 "output pointer is null but M = 2"));
  const auto* misaligned = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(matrix) + 2);
  CHECK(contains(argument_error_of([&] { reduce_rows(misaligned, 2, 3, 3, out); }), "matrix pointer is not aligned"));
  auto* out_misaligned = reinterpret_cast<arg<float>*>(reinterpret_cast<unsigned char*>(out) + 4);
  CHECK(contains(argument_error_of([&] { reduce_rows(matrix, 1, 3, 3, out_misaligned, op::arg_max{}); }),
                 "output pointer is not aligned"));
  for (float v : out) CHECK(v == 7);
}

TEST_CASE("reduce_rows: M = 0 is a no-op and N = 0 needs no matrix") {
  // M == 0 returns after validation, before any CUDA call: this runs without a GPU.
  CHECK_NOTHROW(reduce_rows(static_cast<const float*>(nullptr), 0, 5, 5, static_cast<float*>(nullptr)));
  CHECK_NOTHROW(matvec(static_cast<const float*>(nullptr), 0, 5, 5, static_cast<const float*>(nullptr),
                       static_cast<float*>(nullptr)));
  float out[3] = {};
  CHECK_NOTHROW(detail::validate_rows(static_cast<const float*>(nullptr), 3, 0, 0, out, "test"));
  CHECK_NOTHROW(detail::validate_rows(matrix, 1, 5, 5, out, "test"));  // any ld >= N for a single row
}

TEST_CASE("matvec: x is checked too") {
  float y[4] = {7, 7, 7, 7};
  const std::string null_x =
      argument_error_of([&] { matvec(matrix, 2, 3, 3, static_cast<const float*>(nullptr), y); });
  CHECK(contains(null_x, "tally::matvec"));
  CHECK(contains(null_x, "vector x pointer is null but N = 3"));
  const auto* x_misaligned = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(matrix) + 1);
  CHECK(contains(argument_error_of([&] { matvec(matrix, 2, 3, 3, x_misaligned, y); }), "vector x pointer is not aligned"));
  CHECK(contains(argument_error_of([&] { matvec(matrix, 2, 3, 2, matrix, y); }), "ld = 2 is smaller than N = 3"));
  CHECK_NOTHROW(detail::validate_rows(matrix, 2, 0, 0, y, "test", static_cast<const float*>(nullptr), true));
  for (float v : y) CHECK(v == 7);
}
