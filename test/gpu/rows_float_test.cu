// Row reduction and matvec on float: every strategy, operator and shape of rows_suite.cuh.
#include "support/rows_suite.cuh"

TEST_CASE("reduce_rows / matvec, float: every strategy x sum, min, max, arg_max, arg_min, matvec x shape") {
  tally::test::check_rows_on_type<float>();
}
