// cub, thrust and tally_default for double: sum, min, arg_min (one translation unit per type).
#include "catalog.cuh"

namespace bench {

void add_double_algorithms(catalog& c, const bench_env& env) { add_all_libraries<double>(c, env); }

}  // namespace bench
