// The <tally/tally.hpp> CSR matrix-vector products: float and double, 32-bit column indices, 32- and
// 64-bit row offsets.
#include <cstdint>

#include "default_segments.cuh"

namespace tally {
TALLY_DEFINE_CSR_MATVEC(float, std::int32_t)
TALLY_DEFINE_CSR_MATVEC(float, std::int64_t)
TALLY_DEFINE_CSR_MATVEC(double, std::int32_t)
TALLY_DEFINE_CSR_MATVEC(double, std::int64_t)
}  // namespace tally
