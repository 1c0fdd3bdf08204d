// Argument validation: every bad argument throws tally::error naming it before any CUDA call, so
// these run (and must pass) on machines without a GPU, and nothing is written to the output.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include <tally/reduce.cuh>

#include "../common/argument_error.hpp"

using namespace tally;
using P = default_reduce_policy<float>;

using tally::test::argument_error_of;
using tally::test::contains;

TEST_CASE("null input with n > 0 is an error naming the input, and the output is untouched") {
  float out = 12345.0f;
  const std::string m = argument_error_of([&] { reduce<P>(static_cast<const float*>(nullptr), 5, &out); });
  CHECK(m.find("input pointer is null") != std::string::npos);
  CHECK(m.find("n = 5") != std::string::npos);
  CHECK(out == 12345.0f);
}

TEST_CASE("negative n, null output and misaligned pointers are errors") {
  alignas(16) float data[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float out = -1.0f;
  CHECK(argument_error_of([&] { reduce<P>(data, -3, &out); }).find("n = -3 is negative") != std::string::npos);
  CHECK(argument_error_of([&] { reduce<P>(data, 4, static_cast<float*>(nullptr)); }).find("output pointer is null") !=
        std::string::npos);
  const auto* misaligned = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(data) + 1);
  CHECK(argument_error_of([&] { reduce<P>(misaligned, 4, &out); }).find("not aligned") != std::string::npos);
  CHECK(out == -1.0f);
}

TEST_CASE("arg_min on a null input names the input too") {
  arg<int> out{7, 7};
  const std::string m =
      argument_error_of([&] { reduce<default_reduce_policy<int, op::arg_min>>(static_cast<const int*>(nullptr), 1, &out, op::arg_min{}); });
  CHECK(m.find("input pointer is null") != std::string::npos);
  CHECK(out.value == 7);
  CHECK(out.index == 7);
}

TEST_CASE("n == 0 with a null input is valid (nothing to read)") {
  // Only validation runs here: it must not reject the call.
  float out = 0;
  CHECK_NOTHROW(detail::validate_reduce(static_cast<const float*>(nullptr), 0, &out, "test"));
}
