// cub, thrust and tally_default for int32: sum, min, arg_min (one translation unit per type).
#include "catalog.cuh"

namespace bench {

void add_int32_algorithms(catalog& c, const bench_env& env) { add_all_libraries<int>(c, env); }

}  // namespace bench
