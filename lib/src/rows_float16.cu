// The <tally/tally.hpp> row reductions on 16-bit floating types (row_sum, row_min, row_max with
// float results).
#include "default_rows.cuh"

namespace tally {
TALLY_DEFINE_FLOAT16_ROWS(__half)
TALLY_DEFINE_FLOAT16_ROWS(__nv_bfloat16)
}  // namespace tally
