#include "support/ops.cuh"

TEST_CASE("every operator on float: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<float>();
}

TEST_CASE("every operator on double: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<double>();
}
