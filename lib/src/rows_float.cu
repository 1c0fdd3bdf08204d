// The <tally/tally.hpp> row reductions on float and double: row_sum, row_min, row_max,
// row_arg_min, row_arg_max.
#include "default_rows.cuh"

namespace tally {
TALLY_DEFINE_ALL_ROWS(float)
TALLY_DEFINE_ALL_ROWS(double)
}  // namespace tally
