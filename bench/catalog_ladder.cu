// The classical ladder (tally/reduce_policies.cuh) as rows, for int32 and float sum: Harris' and seed 002's
// rungs in order, then seed 004's unroll-4 and seed 001's shuffle; seed 003's atomic block strategies
// for int32 only.
#include "catalog.cuh"

namespace bench {

namespace {

template <class P, class T>
void add_rung(catalog& c, const bench_env& env, const char* lib) {
  c.push_back(make_algorithm<tally_runner<P, T, tally::op::sum>, T, tally::op::sum>(lib, env));
}

template <class T>
void add_ladder(catalog& c, const bench_env& env) {
  add_rung<tally::reduce_policies::baseline, T>(c, env, "ladder_baseline");
  add_rung<tally::reduce_policies::strided, T>(c, env, "ladder_strided");
  add_rung<tally::reduce_policies::sequential, T>(c, env, "ladder_sequential");
  add_rung<tally::reduce_policies::first_add, T>(c, env, "ladder_first_add");
  add_rung<tally::reduce_policies::unroll_last_warp, T>(c, env, "ladder_unroll_last_warp");
  add_rung<tally::reduce_policies::complete_unroll, T>(c, env, "ladder_complete_unroll");
  add_rung<tally::reduce_policies::unroll4, T>(c, env, "ladder_unroll4");
  add_rung<tally::reduce_policies::shuffle, T>(c, env, "ladder_shuffle");
}

}  // namespace

void add_ladder_algorithms(catalog& c, const bench_env& env) {
  add_ladder<int>(c, env);
  // Seed 003's atomic block strategies: integer states only.
  add_rung<tally::reduce_policies::atomic, int>(c, env, "ladder_atomic");
  add_rung<tally::reduce_policies::atomic_hybrid, int>(c, env, "ladder_atomic_hybrid");
  add_ladder<float>(c, env);
}

}  // namespace bench
