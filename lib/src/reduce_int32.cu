// The <tally/tally.hpp> reductions on 32-bit integers: sum, min, max, arg_min, arg_max.
#include <cstdint>

#include "default_reductions.cuh"

namespace tally {
TALLY_DEFINE_ALL_REDUCTIONS(std::int32_t)
TALLY_DEFINE_ALL_REDUCTIONS(std::uint32_t)
}  // namespace tally
