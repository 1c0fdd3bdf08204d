// Every named transpose composition on 4-byte elements: every odd shape, misaligned buffers, and an
// 8192 x 8192 matrix, compared bit for bit with a host transpose.
#include "support/transpose_check.cuh"

using namespace tally;
using namespace tally::test;

TEST_CASE("transpose, float: every composition x every shape, aligned and misaligned") {
  check_all_compositions<float>();
}

TEST_CASE("transpose, float: 8192 x 8192 through every composition") {
  if (index_t{8192} * 8192 > max_test_size()) return;
  for_each_policy(transpose_policies::all{}, [&](auto p) { check_transpose<typename decltype(p)::type, float>(8192, 8192); });
}

TEST_CASE("transpose, int32 and uint32 move the same bits as float") {
  for (const shape s : {shape{33, 65}, shape{100, 36}, shape{4097, 3}}) {
    check_transpose<default_transpose_policy<std::int32_t>, std::int32_t>(s.rows, s.cols);
    check_transpose<transpose_policies::padded_32, std::uint32_t>(s.rows, s.cols);
  }
}
