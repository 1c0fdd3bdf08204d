// Every named transpose composition on 8-byte elements.
#include "support/transpose_check.cuh"

using namespace tally;
using namespace tally::test;

TEST_CASE("transpose, double: every composition x every shape, aligned and misaligned") {
  check_all_compositions<double>();
}

TEST_CASE("transpose, double and int64: 8192 x 8192 with the default policy and padded_32") {
  if (index_t{8192} * 8192 > max_test_size()) return;
  check_transpose<default_transpose_policy<double>, double>(8192, 8192);
  check_transpose<transpose_policies::padded_32, double>(8192, 8192);
  check_transpose<default_transpose_policy<std::int64_t>, std::int64_t>(8191, 8193);
}
