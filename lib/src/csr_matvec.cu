// The <tally/tally.hpp> CSR matrix-vector products: float and double, 32-bit column indices, 32- and
// 64-bit row offsets; free functions and device_reducer members.
#include <cstdint>

#include "default_segments.cuh"

namespace tally {
TALLY_DEFINE_CSR_MATVECS(float)
TALLY_DEFINE_CSR_MATVECS(double)
}  // namespace tally
