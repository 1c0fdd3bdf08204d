#include "transpose_methods.cuh"

namespace bench::transpose {
void add_tally_float(method_list& out) { add_tally_methods<float>(out, "float"); }
}  // namespace bench::transpose
