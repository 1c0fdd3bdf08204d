// The <tally/tally.hpp> matrix-vector products: float, double, and __half / __nv_bfloat16 with
// products and sums in float.
#include "default_rows.cuh"

namespace tally {
TALLY_DEFINE_MATVEC(float, float)
TALLY_DEFINE_MATVEC(double, double)
TALLY_DEFINE_MATVEC(__half, float)
TALLY_DEFINE_MATVEC(__nv_bfloat16, float)
}  // namespace tally
