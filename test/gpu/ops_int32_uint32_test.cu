#include "support/ops.cuh"

TEST_CASE("every operator on std: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<std>();
}

TEST_CASE("every operator on :int32_t:std::uint32_t: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<:int32_t:std::uint32_t>();
}
