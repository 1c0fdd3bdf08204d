// Every named transpose composition on 2-byte elements (8-element vectors where 16 bytes fit a
// thread's share of the tile).
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include "support/transpose_check.cuh"

using namespace tally;
using namespace tally::test;

TEST_CASE("transpose, __half: every composition x every shape, aligned and misaligned") {
  check_all_compositions<__half>();
}

TEST_CASE("transpose, __half and __nv_bfloat16: 8192 x 8192 with the default policy") {
  if (index_t{8192} * 8192 > max_test_size()) return;
  check_transpose<default_transpose_policy<__half>, __half>(8192, 8192);
  check_transpose<default_transpose_policy<__nv_bfloat16>, __nv_bfloat16>(8192, 8200);
}
