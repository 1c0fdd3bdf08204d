// The <tally/tally.hpp> reductions on 16-bit floating types (sum, min, max with float results).
#include "default_reductions.cuh"

namespace tally {
TALLY_DEFINE_FLOAT16_REDUCTIONS(__half)
TALLY_DEFINE_FLOAT16_REDUCTIONS(__nv_bfloat16)
}  // namespace tally
