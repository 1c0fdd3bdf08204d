// The <tally/tally.hpp> merges: six key types, 32- and 64-bit offsets.
#include <cstdint>

#include "default_sorts.cuh"

namespace tally {
TALLY_DEFINE_MERGES(std::int32_t)
TALLY_DEFINE_MERGES(std::int64_t)
TALLY_DEFINE_MERGES(std::uint32_t)
TALLY_DEFINE_MERGES(std::uint64_t)
TALLY_DEFINE_MERGES(float)
TALLY_DEFINE_MERGES(double)
}  // namespace tally
