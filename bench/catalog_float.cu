// cub, thrust and tally_default for float: sum, min, arg_min; tally_kahan for sum (one translation unit
// per type).
#include "catalog.cuh"

namespace bench {

void add_float_algorithms(catalog& c, const bench_env& env) {
  add_all_libraries<float>(c, env);
  add_kahan_sum<float>(c, env);
}

}  // namespace bench
