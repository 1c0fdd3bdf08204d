// tally_bench: tally's device-wide reduction against cub::DeviceReduce and thrust::reduce, in one
// process, on the same inputs. See config.hpp for what a run measures, rows.hpp for what a row
// reports, inputs.hpp for how L2 is kept out of the figures and ceiling.hpp for the ceiling.
//
// Order of work: device check -> ceiling -> inputs -> sanity check against CUB -> benchmarks
// (CUB rows first within each type, op, n and mode) -> ladder report -> summary table.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "algorithm.hpp"
#include "config.hpp"
#include "env.hpp"
#include "report.hpp"
#include "reporters.hpp"
#include "results.hpp"
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

void add_context(const run_config& cfg, const bench_env& env) {
  const device_info& d = env.device();
  const bandwidth_ceiling& c = env.ceiling();
  const auto add = [](const char* key, const std::string& value) { benchmark::AddCustomContext(key, value); };
  add("gpu_name", d.name_id);
  add("gpu_name_raw", d.name);
  add("compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor));
  add("sm_count", std::to_string(d.sm_count));
  add("l2_bytes", std::to_string(d.l2_bytes));
  add("cuda_runtime_version", std::to_string(d.runtime_version));
  add("cuda_driver_version", std::to_string(d.driver_version));
  add("run_mode", cfg.name());
  add("default_repetitions", std::to_string(cfg.repetitions));
  add("target_ms_per_repetition", std::to_string(cfg.target_seconds * 1e3));
  add("ceiling_read_GBps", std::to_string(c.read_GBps));
  add("ceiling_read_kernel", c.read_config);
  add("ceiling_copy_rw_GBps", std::to_string(c.copy_GBps));
  add("ceiling_buffer_bytes", std::to_string(c.buffer_bytes));
  add("ceiling_definition",
      "pct_ceiling is relative to ceiling_read_GBps: the best read bandwidth (bytes read / time) of a streaming "
      "kernel summing 16-byte vectors over a resident grid, on a buffer of max(1 GiB, 4 x L2), measured at start-up "
      "in this process. ceiling_copy_rw_GBps is a device-to-device cudaMemcpyAsync of that buffer, (read + write) "
      "bytes / time, for reference.");
  add("l2_policy",
      "rotate: call i of a row reads input slice i mod k, k slices spanning >= 4 x L2 (" +
          std::to_string(4 * d.l2_bytes) +
          " bytes), so no row is served from a warm L2; slices start on 256-byte boundaries. Input: "
          "hash-generated on the device, never zero (int32 +-[1,1000], float/double +-[0.5,1)).");
  add("timing",
      "CUDA events on one stream, manual time. single: one call between two events. back_to_back: "
      "calls_per_batch calls between two events, time per call. Warm-up before timing in every repetition. "
      "real_time and counters per repetition are means over its measurements; aggregates over "
      "benchmark repetitions (use the median).");
  add("GBps_definition", "n * sizeof(T) / time per call, 1e9 bytes per GB (bytes the reduction must read)");
  add("vs_cub_definition",
      "CUB median time / this row's time, same type, op, n and mode, same process and input (> 1: faster than CUB)");
  add("thrust_note",
      "thrust::cuda::par.on(stream); every call returns its result to the host (device->host copy and stream wait; "
      "min_element returns an iterator) and allocates its temporary storage, so back_to_back cannot overlap calls");
}

int run(int argc, char** argv) {
  const run_config cfg = parse_args(argc, argv);
  std::vector<std::string> args = benchmark_args(cfg, argc, argv);
  std::vector<char*> ptrs;
  for (std::string& a : args) ptrs.push_back(a.data());
  int bench_argc = static_cast<int>(ptrs.size());
  benchmark::Initialize(&bench_argc, ptrs.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, ptrs.data())) return 1;

  std::string why;
  const auto device = probe_device(why);
  if (!device) {
    std::fprintf(stderr, "tally_bench: no CUDA device (%s)\n", why.c_str());
    return 1;
  }
  bench_env env(*device);
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));

  const catalog algorithms = build_catalog(cfg, env);
  const std::vector<row> rows = select_rows(cfg, algorithms, env);
  make_inputs(rows, env);
  const int compared = check_against_cub(rows);
  std::printf("tally_bench: %s run, %zu rows; sanity check: %d results equal CUB's\n", cfg.name(), rows.size(),
              compared);

  add_context(cfg, env);
  results store;
  std::size_t name_width = 0;
  for (const row& r : rows) {
    register_row(r, env, store);
    name_width = std::max(name_width, r.name().size());
  }
  const reporters out = make_reporters(args, name_width);
  benchmark::RunSpecifiedBenchmarks(out.display.get(), out.file.get());
  benchmark::Shutdown();

  print_ladder_report(store, env.device().name);
  print_summary(store, env.device().name, env.ceiling());
  print_kahan_cost(store, env.device().name);
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  try {
    return bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tally_bench: %s\n", e.what());
    return 1;
  }
}
