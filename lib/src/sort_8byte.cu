// The <tally/tally.hpp> sorts on 8-byte keys (int64, uint64, double): keys alone, and with 4- and
// 8-byte values.
#include <cstdint>

#include "default_sorts.cuh"

namespace tally {
TALLY_DEFINE_SORTS(std::int64_t)
TALLY_DEFINE_SORTS(std::uint64_t)
TALLY_DEFINE_SORTS(double)
}  // namespace tally
