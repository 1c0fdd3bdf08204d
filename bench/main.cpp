// tally_bench: tally's device-wide reduction against cub::DeviceReduce and thrust::reduce, in one
// process, on the same inputs. See config.hpp for what a run measures, rows.hpp for what a row
// reports (harness.hpp times it), inputs.hpp for how L2 is kept out of the figures and ceiling.hpp
// for the ceiling.
//
// Order of work: device check -> ceiling -> inputs -> sanity check against CUB -> benchmarks
// (CUB rows first within each type, op, n and mode) -> ladder report -> summary table.
#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "algorithm.hpp"
#include "config.hpp"
#include "env.hpp"
#include "harness.hpp"
#include "program.hpp"
#include "report.hpp"
#include "rows.hpp"
#include "sanity.hpp"

namespace bench {
namespace {

catalog build_catalog(const run_config& cfg, const bench_env& env) {
  catalog c;
  if (cfg.kind != run_kind::ladder) {
    add_float_algorithms(c, env);
    add_double_algorithms(c, env);
  }
  add_int32_algorithms(c, env);
  add_ladder_algorithms(c, env);
  return c;
}

const algorithm* find_cub(const catalog& c, const algorithm& a) {
  for (const algorithm& x : c)
    if (x.is_cub() && x.type == a.type && x.op == a.op) return &x;
  return nullptr;
}

// Rows grouped by type, op, n and mode, in catalog order within a group (CUB first).
std::vector<row> select_rows(const run_config& cfg, const catalog& c, const bench_env& env) {
  std::vector<row> rows;
  for (const char* type : {"float", "int32", "double"})
    for (const char* op : {"sum", "min", "arg_min"})
      for (const std::int64_t n : cfg.all_sizes())
        for (const mode m : {mode::single, mode::back_to_back})
          for (const algorithm& a : c)
            if (a.type == type && a.op == op && cfg.wants(a, n))
              rows.push_back(plan_row(a, find_cub(c, a), n, m, env.ceiling(), cfg.target_seconds));
  return rows;
}

void make_inputs(const std::vector<row>& rows, bench_env& env) {
  for (const element e : {element::float32, element::int32, element::float64}) {
    std::int64_t max_n = 0;
    for (const row& r : rows)
      if (r.alg->type == type_name(e)) max_n = std::max(max_n, r.n);
    if (max_n > 0) env.make_inputs(e, max_n);
  }
}

// tally_bench's own context keys; the harness adds the device's and the ceiling's.
void add_run_context(const run_config& cfg, const bench_env& env) {
  add_context("run_mode", cfg.name());
  add_context("default_repetitions", std::to_string(cfg.repetitions));
  add_context("target_ms_per_repetition", std::to_string(cfg.target_seconds * 1e3));
  add_context("l2_policy",
              "rotate: call i of a row reads input slice i mod k, k slices spanning >= 4 x L2 (" +
                  std::to_string(4 * env.device().l2_bytes) +
                  " bytes), so no row is served from a warm L2; slices start on 256-byte boundaries. Input: "
                  "hash-generated on the device, never zero (int32 +-[1,1000], float/double +-[0.5,1)).");
  add_context("timing",
              "CUDA events on one stream, manual time. single: one call between two events. back_to_back: "
              "calls_per_batch calls between two events, time per call. Warm-up before timing in every repetition. "
              "real_time and counters per repetition are means over its measurements; aggregates over "
              "benchmark repetitions (use the median).");
  add_context("GBps_definition", "n * sizeof(T) / time per call, 1e9 bytes per GB (bytes the reduction must read)");
  add_context("vs_cub_definition",
              "CUB median time / this row's time, same type, op, n and mode, same process and input (> 1: faster than CUB)");
  add_context("thrust_note",
              "thrust::cuda::par.on(stream); every call returns its result to the host (device->host copy and stream wait; "
              "min_element returns an iterator) and allocates its temporary storage, so back_to_back cannot overlap calls");
}

int run(int argc, char** argv) {
  command_line cl(argc, argv, own_flags, usage);
  const run_config cfg = parse_args(cl.own());
  if (!cl.start_benchmark(cfg.repetitions)) return 1;

  bench_env env(require_device());
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));

  const catalog algorithms = build_catalog(cfg, env);
  const std::vector<row> rows = select_rows(cfg, algorithms, env);
  make_inputs(rows, env);
  const int compared = check_against_cub(rows);
  std::printf("tally_bench: %s run, %zu rows; sanity check: %d results equal CUB's\n", cfg.name(), rows.size(),
              compared);

  add_run_context(cfg, env);
  std::vector<timed_row> timed_rows;
  for (const row& r : rows) timed_rows.push_back(r.timed());
  const results store = run_rows(timed_rows, env, cl.benchmark_args());

  print_ladder_report(store, env.device().name);
  print_summary(store, env.device().name, env.ceiling());
  print_kahan_cost(store, env.device().name);
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::guarded_main("tally_bench", bench::run, argc, argv); }
