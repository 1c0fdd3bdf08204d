// The <tally/tally.hpp> sorts on 4-byte keys (int32, uint32, float): keys alone, and with 4- and
// 8-byte values.
#include <cstdint>

#include "default_sorts.cuh"

namespace tally {
TALLY_DEFINE_SORTS(std::int32_t)
TALLY_DEFINE_SORTS(std::uint32_t)
TALLY_DEFINE_SORTS(float)
}  // namespace tally
