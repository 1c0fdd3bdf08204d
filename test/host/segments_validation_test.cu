// reduce_segments / csr_matvec argument validation: every bad argument throws tally::error naming
// it before any CUDA call (these run without a GPU), and nothing is written to the output.
#include <doctest/doctest.h>

#include <cstdint>
#include <string>

#include <tally/csr_matvec.cuh>
#include <tally/reduce_segments.cuh>

#include "../common/argument_error.hpp"

using namespace tally;
using tally::test::argument_error_of;
using tally::test::contains;

namespace {
alignas(16) float values[64] = {};
alignas(16) int offsets[8] = {0, 1, 2, 3, 4, 5, 6, 7};
}  // namespace

TEST_CASE("reduce_segments: bad arguments name themselves, and the output is untouched") {
  float out[4] = {7, 7, 7, 7};
  CHECK(contains(argument_error_of([&] { reduce_segments(values, offsets, -1, out); }),
                 "tally::reduce_segments: num_segments = -1 is negative"));
  CHECK(contains(argument_error_of([&] { reduce_segments(values, static_cast<const int*>(nullptr), 3, out); }),
                 "offsets pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { reduce_segments(values, offsets, 3, static_cast<float*>(nullptr)); }),
                 "output pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { reduce_segments(static_cast<const float*>(nullptr), offsets, 3, out); }),
                 "input pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { reduce_segments(values, -4, offsets, 3, out); }), "n = -4 is negative"));
  const auto* odd = reinterpret_cast<const float*>(reinterpret_cast<const char*>(values) + 2);
  CHECK(contains(argument_error_of([&] { reduce_segments(odd, offsets, 3, out); }), "input pointer is not aligned"));
  // Nothing to do: no segment, null pointers allowed, no CUDA call.
  CHECK(argument_error_of([&] { reduce_segments(static_cast<const float*>(nullptr), static_cast<const int*>(nullptr), 0,
                                                static_cast<float*>(nullptr)); })
            .empty());
  for (float v : out) CHECK(v == 7);
}

TEST_CASE("csr_matvec: bad arguments name themselves") {
  float y[4] = {7, 7, 7, 7};
  const int cols[4] = {0, 1, 2, 3};
  CHECK(contains(argument_error_of([&] { csr_matvec(values, static_cast<const int*>(nullptr), offsets, 3, values, y); }),
                 "tally::csr_matvec: column index pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { csr_matvec(values, cols, offsets, 3, static_cast<const float*>(nullptr), y); }),
                 "vector x pointer is null"));
  CHECK(contains(argument_error_of([&] { csr_matvec(values, cols, offsets, -2, values, y); }), "num_segments = -2 is negative"));
  CHECK(argument_error_of([&] { csr_matvec(values, cols, offsets, 0, values, y); }).empty());
  for (float v : y) CHECK(v == 7);
}

TEST_CASE("caller-provided workspace: too small, null or misaligned names the problem") {
  alignas(16) static unsigned char bytes[64];
  const detail::workspace_need need{16, 48};
  const auto check = [&](const void* at, std::size_t size) {
    return argument_error_of([&] { detail::check_workspace(at, size, need, "tally::reduce_segments", "a call"); });
  };
  CHECK(check(bytes, 64).empty());
  CHECK(contains(check(bytes, 32), "tally::reduce_segments: workspace of 32 bytes is smaller than the 48 bytes a call needs"));
  CHECK(contains(check(nullptr, 64), "smaller than the 48 bytes"));
  CHECK(contains(check(bytes + 8, 56), "tally::reduce_segments: workspace is not 16-byte aligned"));
  // A call that needs none takes any pointer.
  CHECK(argument_error_of([&] { detail::check_workspace(bytes + 8, 0, {}, "tally::reduce", "a call"); }).empty());
}
