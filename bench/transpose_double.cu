#include "transpose_methods.cuh"

namespace bench::transpose {
void add_tally_double(method_list& out) { add_tally_methods<double>(out, "double"); }
}  // namespace bench::transpose
