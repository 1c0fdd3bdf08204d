// The <tally/tally.hpp> row reductions on 32- and 64-bit integers: row_sum, row_min, row_max,
// row_arg_min, row_arg_max.
#include <cstdint>

#include "default_rows.cuh"

namespace tally {
TALLY_DEFINE_ALL_ROWS(std::int32_t)
TALLY_DEFINE_ALL_ROWS(std::int64_t)
}  // namespace tally
