// The <tally/tally.hpp> reductions on 64-bit integers: sum, min, max, arg_min, arg_max.
#include <cstdint>

#include "default_reductions.cuh"

namespace tally {
TALLY_DEFINE_ALL_REDUCTIONS(std::int64_t)
TALLY_DEFINE_ALL_REDUCTIONS(std::uint64_t)
}  // namespace tally
