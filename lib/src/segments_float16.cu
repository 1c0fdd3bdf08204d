// The <tally/tally.hpp> segmented reductions on 16-bit floating types: segment_sum (accumulated in
// float), segment_min and segment_max with float results, unchecked and checked, 32- and 64-bit
// offsets; free functions and device_reducer members.
#include "default_segments.cuh"

namespace tally {
TALLY_DEFINE_FLOAT16_SEGMENTS(__half)
TALLY_DEFINE_FLOAT16_SEGMENTS(__nv_bfloat16)
}  // namespace tally
