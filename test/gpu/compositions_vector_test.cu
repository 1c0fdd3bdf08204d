#include "support/compositions.cuh"

TEST_CASE("load::vector<2> x every block x every smem layout: float and int32 sums match the host and CUB") {
  tally::test::check_compositions_with_load<tally::load::vector<2>>();
}
