// The <tally/tally.hpp> reductions on float and double: sum, min, max, arg_min, arg_max, reproducible_sum.
#include "default_reductions.cuh"

namespace tally {
TALLY_DEFINE_ALL_REDUCTIONS(float)
TALLY_DEFINE_ALL_REDUCTIONS(double)
TALLY_DEFINE_REPRODUCIBLE_SUM(float)
TALLY_DEFINE_REPRODUCIBLE_SUM(double)
}  // namespace tally
