// Turns a runner (tally_runner, cub_runner, thrust_runner: constructed for n on a stream, called
// on an input pointer, result() read back) into a type-erased bench::algorithm. Included only by
// the catalog_*.cu translation units.
#pragma once
#include <memory>
#include <type_traits>

#include <tally/policies/op.cuh>

#include "algorithm.hpp"
#include "cub_runner.cuh"
#include "env.hpp"
#include "read_floor.hpp"
#include "tally_runner.cuh"
#include "thrust_runner.cuh"

namespace bench {

template <class Runner, class T, class Op>
algorithm make_algorithm(const char* lib, const bench_env& env) {
  constexpr element e = element_of<T>;
  algorithm a{type_name(e), Op::name, lib, sizeof(T), false, {}, {}};
  const bench_env* envp = &env;
  a.prepare = [envp](std::int64_t n) -> launcher {
    const input_slices* in = &envp->inputs(e);
    in->slices(n);  // throws now, not at the first call, if n does not fit
    auto runner = std::make_shared<Runner>(n, envp->stream());
    return [runner, in, n](std::int64_t call) { (*runner)(in->template slice<T>(n, call)); };
  };
  a.result = [envp](std::int64_t n) {
    Runner runner(n, envp->stream());
    runner(envp->inputs(e).template slice<T>(n, 0));
    return runner.result();
  };
  return a;
}

// cub first: rows are registered in catalog order, and a CUB row must run before the rows that
// divide by its time (the harness measures it on the spot if a filter removed it).
template <class T, class Op>
void add_libraries(catalog& c, const bench_env& env) {
  c.push_back(make_algorithm<cub_runner<T, Op>, T, Op>("cub", env));
  c.push_back(make_algorithm<thrust_runner<T, Op>, T, Op>("thrust", env));
  c.back().waits_each_call = true;
  using P = tally::default_reduce_policy<T, Op>;
  c.push_back(make_algorithm<tally_runner<P, T, Op>, T, Op>("tally_default", env));
  if constexpr (std::is_same_v<Op, tally::op::sum>) {
    // The default launched plainly, everything else the same: what programmatic dependent launch brings.
    using no_pdl = typename P::template with_launch<tally::launch::stream_ordered>;
    c.push_back(make_algorithm<tally_runner<no_pdl, T, Op>, T, Op>("tally_no_pdl", env));
    c.push_back(make_algorithm<read_floor_runner<T>, T, Op>("read_floor", env));
    c.back().result = nullptr;  // reads, reduces nothing: no result to check
  }
}

// tally_default with the compensated accumulator (accum::kahan) and nothing else changed: its
// sum rows next to tally_default's show what compensation costs.
template <class T>
using kahan_policy = typename tally::default_reduce_policy<T>::template with_accum<tally::accum::kahan>;

template <class T>
void add_kahan_sum(catalog& c, const bench_env& env) {
  c.push_back(make_algorithm<tally_runner<kahan_policy<T>, T, tally::op::sum>, T, tally::op::sum>("tally_kahan", env));
}

template <class T>
void add_all_libraries(catalog& c, const bench_env& env) {
  add_libraries<T, tally::op::sum>(c, env);
  add_libraries<T, tally::op::min>(c, env);
  add_libraries<T, tally::op::arg_min>(c, env);
}

}  // namespace bench
