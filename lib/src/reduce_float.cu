// The <tally/tally.hpp> reductions on float and double: sum, min, max, arg_min, arg_max.
#include "default_reductions.cuh"

namespace tally {
TALLY_DEFINE_ALL_REDUCTIONS(float)
TALLY_DEFINE_ALL_REDUCTIONS(double)
}  // namespace tally
