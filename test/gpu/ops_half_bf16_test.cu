#include "support/ops.cuh"

TEST_CASE("every operator on __half: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<__half>();
}

TEST_CASE("every operator on __nv_bfloat16: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<__nv_bfloat16>();
}
