// cub, thrust and tally_default for double: sum, min, arg_min; tally_kahan for sum (one translation unit
// per type).
#include "catalog.cuh"

namespace bench {

void add_double_algorithms(catalog& c, const bench_env& env) {
  add_all_libraries<double>(c, env);
  add_kahan_sum<double>(c, env);
}

}  // namespace bench
