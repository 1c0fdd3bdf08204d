#include "support/ops.cuh"

TEST_CASE("every operator on std::int32_t: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<std::int32_t>();
}

TEST_CASE("every operator on std::uint32_t: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<std::uint32_t>();
}
