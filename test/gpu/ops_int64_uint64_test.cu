#include "support/ops.cuh"

TEST_CASE("every operator on std: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<std>();
}

TEST_CASE("every operator on :int64_t:std::uint64_t: default policy and two others match the host and CUB") {
  tally::test::check_ops_on_type<:int64_t:std::uint64_t>();
}
