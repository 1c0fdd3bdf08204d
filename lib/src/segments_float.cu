// The <tally/tally.hpp> segmented reductions on float and double: segment_sum, segment_min,
// segment_max, segment_arg_min, segment_arg_max, unchecked and checked, 32- and 64-bit offsets;
// free functions and device_reducer members.
#include "default_segments.cuh"

namespace tally {
TALLY_DEFINE_ALL_SEGMENTS(float)
TALLY_DEFINE_ALL_SEGMENTS(double)
}  // namespace tally
