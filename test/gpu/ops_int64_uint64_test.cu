#include "support/ops.cuh"

TEST_CASE("every operator on std::int64_t: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<std::int64_t>();
}

TEST_CASE("every operator on std::uint64_t: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<std::uint64_t>();
}
