// tally_bench_rows: tally::reduce_rows (row sums) and tally::matvec against
// cub::DeviceSegmentedReduce and cuBLAS gemv (x = ones), in one process, on the same buffers.
//
// Rows are named rows/<type>/<job>/<lib>/<M>x<N> (ld = N):
//   type  float | double;  job  sum (row sums) | matvec (y = A x, x = ones)
//   lib   cub_segmented | cublas_gemv | tally_default | tally_no_pdl (the default with a plain launch)
//         | tally_<forced strategy> (float only; each
//         where it finishes in reasonable time), so the run shows why the default picks its strategy
// Counters (harness.hpp): GBps (bytes moved / time: the matrix read and one result a row written,
// (M*N + M) * sizeof(T), + N*sizeof(T) for x in gemv and matvec rows, as tally defines
// bandwidth), pct_ceiling (100 * GBps / the streaming-read ceiling measured at start-up,
// ceiling.hpp) and, on tally rows, vs_best = min(CUB time, cuBLAS time) / this row's time for the
// same type and shape (> 1: faster than the better of the two). The tally rows' label is the plan
// the call ran.
//
// L2: every matrix here is 134 to 537 MB, beyond the L2 of any current GPU; inputs still rotate
// over slices spanning >= 4 x L2 (inputs.hpp), so no call reads a matrix a previous call left in L2.
// Timing: CUDA events around a batch of back-to-back calls (1 to 20, about 1 ms of GPU time), a
// fixed number of batches per repetition (about 10 ms), 5 repetitions, median reported.
//
//   tally_bench_rows [--target_ms=X] [--no_double] [Google Benchmark flags, e.g. --benchmark_filter=rows/float]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "ceiling.hpp"
#include "env.hpp"
#include "harness.hpp"
#include "inputs.hpp"
#include "program.hpp"
#include "rows_runners.cuh"
#include "summary.hpp"
#include "timing.hpp"

namespace bench {
namespace {

constexpr double batch_seconds = 1e-3;
constexpr int repetitions = 5;

const char* const usage =
    "tally_bench_rows: tally::reduce_rows and tally::matvec vs cub::DeviceSegmentedReduce and cuBLAS gemv\n"
    "  --target_ms=X  GPU time one repetition of a row aims at (10)\n"
    "  --no_double    float rows only\n"
    "Google Benchmark's flags follow (e.g. --benchmark_filter=rows/float, --benchmark_out=FILE\n"
    "--benchmark_out_format=json, --benchmark_repetitions=N).\n\n";

const std::vector<rows_shape> shapes = {{1 << 14, 1 << 12}, {1 << 20, 64}, {64, 1 << 20}, {1 << 12, 1 << 14},
                                        {1 << 16, 1000},    {3, 1 << 24},  {1 << 22, 8}};

std::string shape_name(rows_shape s) { return std::to_string(s.m) + "x" + std::to_string(s.n); }

// Bytes a row reduction of shape s must move: the matrix read, one result a row written.
double row_reduction_bytes(rows_shape s, std::size_t element_bytes) {
  return static_cast<double>(element_bytes) * (static_cast<double>(s.m) * static_cast<double>(s.n) + static_cast<double>(s.m));
}

struct rows_algorithm {
  std::string type, job, lib;
  std::size_t element_bytes = 0;
  bool reads_x = false;
  bool baseline = false;
  std::function<bool(rows_shape)> wants;
  std::function<launcher(rows_shape)> prepare;                 // runner on slice `call`
  std::function<std::vector<double>(rows_shape)> result;        // slice 0, read back
  std::function<std::string(rows_shape)> plan;                  // tally: the plan's strategy
  std::string name(rows_shape s) const { return "rows/" + type + "/" + job + "/" + lib + "/" + shape_name(s); }
  double bytes(rows_shape s) const {
    return row_reduction_bytes(s, element_bytes) + (reads_x ? static_cast<double>(element_bytes) * static_cast<double>(s.n) : 0);
  }
};

template <class Runner, class T>
rows_algorithm make(const bench_env& env, const char* job, const char* lib, bool baseline, bool reads_x,
                    std::function<bool(rows_shape)> wants = [](rows_shape) { return true; }) {
  constexpr element e = element_of<T>;
  const bool dot = std::string(job) == "matvec";
  rows_algorithm a{type_name(e), job, lib, sizeof(T), reads_x, baseline, std::move(wants), {}, {}, {}};
  const bench_env* envp = &env;
  a.prepare = [envp, dot](rows_shape s) -> launcher {
    const input_slices* in = &envp->inputs(e);
    in->slices(s.m * s.n);
    auto runner = std::make_shared<Runner>(s, dot, envp->stream());
    return [runner, in, s](std::int64_t call) { (*runner)(in->template slice<T>(s.m * s.n, call)); };
  };
  a.result = [envp, dot](rows_shape s) {
    Runner runner(s, dot, envp->stream());
    runner(envp->inputs(e).template slice<T>(s.m * s.n, 0));
    const std::vector<T> r = runner.result();
    return std::vector<double>(r.begin(), r.end());
  };
  a.plan = [envp, dot](rows_shape s) {
    Runner runner(s, dot, envp->stream());
    return runner.plan(envp->inputs(e).template slice<T>(s.m * s.n, 0));
  };
  return a;
}

// Baselines first: a tally row divides by their times, recorded when they ran.
template <class T>
void add_algorithms(std::vector<rows_algorithm>& v, const bench_env& env, bool forced) {
  using tally::rows_policy;
  namespace rows = tally::rows;
  v.push_back(make<cub_segmented<T>, T>(env, "sum", "cub_segmented", true, false));
  v.push_back(make<cublas_gemv<T>, T>(env, "sum", "cublas_gemv", true, true));
  v.push_back(make<tally_rows<tally::default_rows_policy<T>, T>, T>(env, "sum", "tally_default", false, false));
  // The default with a plain launch instead of PDL, same run: what PDL brings.
  using accum = typename tally::default_rows_policy<T>::accum;
  v.push_back(make<tally_rows<rows_policy<rows::by_shape, accum, tally::launch::stream_ordered>, T>, T>(env, "sum", "tally_no_pdl",
                                                                                              false, false));
  if (forced) {
    // Each forced strategy where a call stays within a few milliseconds.
    v.push_back(make<tally_rows<rows::thread_per_row, T>, T>(env, "sum", "tally_thread_per_row", false, false,
                                                             [](rows_shape s) { return s.n <= 1024; }));
    v.push_back(make<tally_rows<rows::warp_per_row, T>, T>(env, "sum", "tally_warp_per_row", false, false,
                                                           [](rows_shape s) { return s.m >= 64; }));
    v.push_back(make<tally_rows<rows::block_per_row<>, T>, T>(env, "sum", "tally_block_per_row", false, false,
                                                              [](rows_shape s) { return s.m >= 64; }));
    v.push_back(make<tally_rows<rows::blocks_per_row<>, T>, T>(env, "sum", "tally_blocks_per_row", false, false));
    v.push_back(make<tally_rows<tally::default_rows_policy<T>, T>, T>(env, "matvec", "tally_default", false, true));
  }
}

struct planned_row {
  const rows_algorithm* alg;
  rows_shape shape;
  int calls = 1;
  std::int64_t iterations = 3;
};

// Calls per batch and batches per repetition from one probe batch.
planned_row plan_row(const rows_algorithm& a, rows_shape s, const bench_env& env, double target_seconds) {
  timed_call probe(a.prepare(s), 1, env.stream());
  const double call = std::max(probe.measure(), 1e-6);
  planned_row r{&a, s};
  r.calls = std::clamp(static_cast<int>(std::lround(batch_seconds / call)), 1, 20);
  r.iterations = std::clamp<std::int64_t>(std::llround(target_seconds / (call * r.calls)), 3, 100);
  return r;
}

// The row as the harness runs it: tally rows compare with the better of the two baselines of
// their type and carry their plan as the label.
timed_row timed(const planned_row& r, const std::vector<rows_algorithm>& algs) {
  const rows_algorithm* a = r.alg;
  const rows_shape s = r.shape;
  timed_row t{a->name(s), [a, s] { return a->prepare(s); }, r.calls, r.iterations, a->bytes(s), {}, {}};
  if (a->baseline) return t;
  comparison best{"vs_best", {}};
  for (const rows_algorithm& b : algs)
    if (b.baseline && b.type == a->type) best.baselines.push_back(b.name(s));
  t.compare.push_back(best);
  t.label = [a, s] { return a->plan(s); };
  return t;
}

// Before timing: every algorithm's row sums agree with cuBLAS's on slice 0 (inputs are +-[0.5, 1),
// so a row's sum rounds by far less than 1e-4 * N in float or double).
void sanity_check(const std::vector<rows_algorithm>& algs, const std::vector<planned_row>& rows) {
  std::map<std::string, std::vector<double>> reference;
  int compared = 0;
  for (const planned_row& r : rows) {
    const rows_algorithm& a = *r.alg;
    const std::string key = a.type + "/" + shape_name(r.shape);
    if (!reference.count(key))
      for (const rows_algorithm& b : algs)
        if (b.type == a.type && b.lib == "cublas_gemv") reference[key] = b.result(r.shape);
    const std::vector<double> got = a.result(r.shape);
    const std::vector<double>& want = reference[key];
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!(std::fabs(got[i] - want[i]) <= 1e-4 * static_cast<double>(r.shape.n)))
        throw std::runtime_error("sanity check: " + a.name(r.shape) + " row " + std::to_string(i) + " gives " +
                                 std::to_string(got[i]) + ", cuBLAS " + std::to_string(want[i]));
    ++compared;
  }
  std::printf("tally_bench_rows: sanity check: %d rows agree with cuBLAS gemv (x = ones)\n", compared);
}

void print_table(const std::vector<rows_algorithm>& algs, const results& store, const bench_env& env) {
  // The per-shape table: tally default against the baselines (GB/s, medians).
  std::printf("\nRow sums on %s (GB/s; read ceiling %.0f GB/s)\n", env.device().name.c_str(), env.ceiling().read_GBps);
  std::printf("| type | M x N | tally plan | tally | CUB segmented | cuBLAS gemv | vs_best | %% ceiling |\n|---|---|---|---|---|---|---|---|\n");
  for (const char* type : {"float", "double"})
    for (rows_shape s : shapes) {
      const auto seconds = [&](const char* lib) -> std::optional<double> {
        for (const rows_algorithm& a : algs)
          if (a.type == type && a.job == "sum" && a.lib == lib) return store.median(a.name(s));
        return std::nullopt;
      };
      const double bytes = row_reduction_bytes(s, std::string(type) == "float" ? 4 : 8);
      const auto ts = seconds("tally_default"), cs = seconds("cub_segmented"), gs = seconds("cublas_gemv");
      const auto t = gbps(ts, bytes), c = gbps(cs, bytes), g = gbps(gs, bytes);
      if (!t) continue;
      std::string plan = "?";
      for (const rows_algorithm& a : algs)
        if (a.type == type && a.lib == "tally_default" && a.job == "sum") plan = a.plan(s);
      const auto f = [](const std::optional<double>& v) { return v ? std::to_string(std::lround(*v)) : std::string("-"); };
      const std::string best = cs && gs ? std::to_string(std::min(*cs, *gs) / *ts) : "-";
      std::printf("| %s | %s | %s | %s | %s | %s | %.5s | %.1f |\n", type, shape_name(s).c_str(), plan.c_str(), f(t).c_str(),
                  f(c).c_str(), f(g).c_str(), best.c_str(), 100.0 * *t / env.ceiling().read_GBps);
    }
}

int run(int argc, char** argv) {
  command_line cl(argc, argv, {"--target_ms=", "--no_double"}, usage);
  double target_ms = 10;
  bool with_double = true;
  for (const std::string& a : cl.own()) {
    if (a == "--no_double") with_double = false;
    else target_ms = positive_flag(a, "milliseconds");  // --target_ms=
  }
  if (!cl.start_benchmark(repetitions)) return 1;

  bench_env env(require_device());
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));
  std::int64_t max_elems = 0;
  for (rows_shape s : shapes) max_elems = std::max(max_elems, s.m * s.n);
  env.make_inputs(element::float32, max_elems);
  if (with_double) env.make_inputs(element::float64, max_elems);

  std::vector<rows_algorithm> algs;
  add_algorithms<float>(algs, env, true);
  if (with_double) add_algorithms<double>(algs, env, false);

  // Rows grouped by type and shape, baselines first.
  std::vector<planned_row> rows;
  // Probe only the rows a positive --benchmark_filter keeps (and every baseline they divide by).
  const std::string filter = cl.benchmark_flag("benchmark_filter").value_or("");
  const std::regex keep(filter.empty() || filter[0] == '-' ? std::string(".") : filter);
  for (const char* type : {"float", "double"})
    for (rows_shape s : shapes)
      for (const rows_algorithm& a : algs)
        if (a.type == type && a.wants(s) && (a.baseline || std::regex_search(a.name(s), keep)))
          rows.push_back(plan_row(a, s, env, target_ms * 1e-3));
  sanity_check(algs, rows);

  add_context("GBps_definition",
              "(M*N + M)*sizeof(T): the matrix read and one result a row written (+ N*sizeof(T) for x in cublas_gemv and "
              "matvec rows) / time per call, 1e9 bytes per GB");
  add_context("vs_best_definition",
              "on tally rows: min(cub_segmented time, cublas_gemv time) / this row's time, same type and shape, same "
              "process and input slices (> 1: faster than the better baseline); matvec rows compare with the same "
              "baselines");
  add_context("l2_policy", "matrices of 134-537 MB; call i reads slice i mod k, k slices spanning >= 4 x L2; ld = N");
  add_context("timing", "CUDA events around a batch of back-to-back calls (about 1 ms), median of 5 repetitions");

  std::vector<timed_row> timed_rows;
  for (const planned_row& r : rows) timed_rows.push_back(timed(r, algs));
  const results store = run_rows(timed_rows, env, cl.benchmark_args());
  print_table(algs, store, env);
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::guarded_main("tally_bench_rows", bench::run, argc, argv); }
