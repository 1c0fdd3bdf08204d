// tally_bench_rows: tally::reduce_rows (row sums) and tally::matvec against
// cub::DeviceSegmentedReduce and cuBLAS gemv (x = ones), in one process, on the same buffers.
//
// Rows are named rows/<type>/<job>/<lib>/<M>x<N> (ld = N):
//   type  float | double;  job  sum (row sums) | matvec (y = A x, x = ones)
//   lib   cub_segmented | cublas_gemv | tally_default | tally_no_pdl (the default with a plain launch)
//         | tally_<forced strategy> (float only; each
//         where it finishes in reasonable time), so the run shows why the default picks its strategy
// Counters: GBps (bytes moved / time: the matrix read and one result a row written, (M*N + M) *
// sizeof(T), + N*sizeof(T) for x in gemv and matvec rows, as DESIGN.md defines bandwidth),
// pct_ceiling (100 * GBps / the streaming-read ceiling measured at start-up, ceiling.hpp) and, on
// tally rows, vs_best = min(CUB time, cuBLAS time) / this row's time for the same type and shape
// (> 1: faster than the better of the two). The tally rows' label is the plan the call ran.
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

#include <benchmark/benchmark.h>

#include "ceiling.hpp"
#include "device.hpp"
#include "device_buffer.hpp"
#include "inputs.hpp"
#include "reporters.hpp"
#include "results.hpp"
#include "rows_runners.cuh"
#include "timing.hpp"

namespace bench {
namespace {

constexpr double batch_seconds = 1e-3;
constexpr int repetitions = 5;

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

struct context {
  device_info device;
  owned_stream stream;
  bandwidth_ceiling ceiling;
  std::map<element, std::unique_ptr<input_slices>> inputs;
  const input_slices& in(element e) const { return *inputs.at(e); }
};

template <class Runner, class T>
rows_algorithm make(const context& ctx, const char* job, const char* lib, bool baseline, bool reads_x,
                    std::function<bool(rows_shape)> wants = [](rows_shape) { return true; }) {
  constexpr element e = element_of<T>;
  const bool dot = std::string(job) == "matvec";
  rows_algorithm a{type_name(e), job, lib, sizeof(T), reads_x, baseline, std::move(wants), {}, {}, {}};
  const context* c = &ctx;
  a.prepare = [c, dot](rows_shape s) -> launcher {
    const input_slices* in = &c->in(e);
    in->slices(s.m * s.n);
    auto runner = std::make_shared<Runner>(s, dot, c->stream.get());
    return [runner, in, s](std::int64_t call) { (*runner)(in->template slice<T>(s.m * s.n, call)); };
  };
  a.result = [c, dot](rows_shape s) {
    Runner runner(s, dot, c->stream.get());
    runner(c->in(e).template slice<T>(s.m * s.n, 0));
    const std::vector<T> r = runner.result();
    return std::vector<double>(r.begin(), r.end());
  };
  a.plan = [c, dot](rows_shape s) {
    Runner runner(s, dot, c->stream.get());
    return runner.plan(c->in(e).template slice<T>(s.m * s.n, 0));
  };
  return a;
}

// Baselines first: a tally row divides by their times, recorded when they ran.
template <class T>
void add_algorithms(std::vector<rows_algorithm>& v, const context& ctx, bool forced) {
  using tally::rows_policy;
  namespace rows = tally::rows;
  v.push_back(make<cub_segmented<T>, T>(ctx, "sum", "cub_segmented", true, false));
  v.push_back(make<cublas_gemv<T>, T>(ctx, "sum", "cublas_gemv", true, true));
  v.push_back(make<tally_rows<tally::default_rows_policy<T>, T>, T>(ctx, "sum", "tally_default", false, false));
  // The default with a plain launch instead of PDL, same run: what PDL brings.
  using accum = typename tally::default_rows_policy<T>::accum;
  v.push_back(make<tally_rows<rows_policy<rows::by_shape, accum, rows::stream_ordered>, T>, T>(ctx, "sum", "tally_no_pdl",
                                                                                              false, false));
  if (forced) {
    // Each forced strategy where a call stays within a few milliseconds.
    v.push_back(make<tally_rows<rows::thread_per_row, T>, T>(ctx, "sum", "tally_thread_per_row", false, false,
                                                             [](rows_shape s) { return s.n <= 1024; }));
    v.push_back(make<tally_rows<rows::warp_per_row, T>, T>(ctx, "sum", "tally_warp_per_row", false, false,
                                                           [](rows_shape s) { return s.m >= 64; }));
    v.push_back(make<tally_rows<rows::block_per_row<>, T>, T>(ctx, "sum", "tally_block_per_row", false, false,
                                                              [](rows_shape s) { return s.m >= 64; }));
    v.push_back(make<tally_rows<rows::blocks_per_row<>, T>, T>(ctx, "sum", "tally_blocks_per_row", false, false));
    v.push_back(make<tally_rows<tally::default_rows_policy<T>, T>, T>(ctx, "matvec", "tally_default", false, true));
  }
}

struct planned_row {
  const rows_algorithm* alg;
  rows_shape shape;
  int calls = 1;
  std::int64_t iterations = 3;
};

// Calls per batch and batches per repetition from one probe batch.
planned_row plan_row(const rows_algorithm& a, rows_shape s, const context& ctx, double target_seconds) {
  timed_call probe(a.prepare(s), 1, ctx.stream.get());
  const double call = std::max(probe.measure(), 1e-6);
  planned_row r{&a, s};
  r.calls = std::clamp(static_cast<int>(std::lround(batch_seconds / call)), 1, 20);
  r.iterations = std::clamp<std::int64_t>(std::llround(target_seconds / (call * r.calls)), 3, 100);
  return r;
}

double run_timed(const planned_row& r, const context& ctx, benchmark::State* state) {
  timed_call t(r.alg->prepare(r.shape), r.calls, ctx.stream.get());
  double total = 0;
  std::int64_t n = 0;
  if (state != nullptr) {
    for (auto _ : *state) {
      const double s = t.measure();
      state->SetIterationTime(s);
      total += s;
      ++n;
    }
  } else {
    for (; n < r.iterations; ++n) total += t.measure();
  }
  return total / static_cast<double>(n);
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

int run(int argc, char** argv) {
  double target_ms = 10;
  bool with_double = true;
  std::vector<std::string> args{argv[0], "--benchmark_repetitions=" + std::to_string(repetitions),
                                "--benchmark_report_aggregates_only=true"};
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--target_ms=", 0) == 0) target_ms = std::stod(a.substr(12));
    else if (a == "--no_double") with_double = false;
    else args.push_back(a);
  }
  std::vector<char*> ptrs;
  for (std::string& a : args) ptrs.push_back(a.data());
  int bench_argc = static_cast<int>(ptrs.size());
  benchmark::Initialize(&bench_argc, ptrs.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, ptrs.data())) return 1;

  std::string why;
  const auto device = probe_device(why);
  if (!device) {
    std::fprintf(stderr, "tally_bench_rows: no CUDA device (%s)\n", why.c_str());
    return 1;
  }
  context ctx{*device, {}, {}, {}};
  ctx.ceiling = measure_ceiling(ctx.device, ctx.stream.get());
  std::int64_t max_elems = 0;
  for (rows_shape s : shapes) max_elems = std::max(max_elems, s.m * s.n);
  ctx.inputs[element::float32] = std::make_unique<input_slices>(element::float32, max_elems, ctx.device.l2_bytes, ctx.stream.get());
  if (with_double)
    ctx.inputs[element::float64] = std::make_unique<input_slices>(element::float64, max_elems, ctx.device.l2_bytes, ctx.stream.get());

  std::vector<rows_algorithm> algs;
  add_algorithms<float>(algs, ctx, true);
  if (with_double) add_algorithms<double>(algs, ctx, false);

  // Rows grouped by type and shape, baselines first.
  std::vector<planned_row> rows;
  const std::string filter = [&] {
    for (const std::string& a : args)
      if (a.rfind("--benchmark_filter=", 0) == 0) return a.substr(19);
    return std::string();
  }();
  // Probe only the rows a positive --benchmark_filter keeps (and every baseline they divide by).
  const std::regex keep(filter.empty() || filter[0] == '-' ? std::string(".") : filter);
  for (const char* type : {"float", "double"})
    for (rows_shape s : shapes)
      for (const rows_algorithm& a : algs)
        if (a.type == type && a.wants(s) && (a.baseline || std::regex_search(a.name(s), keep)))
          rows.push_back(plan_row(a, s, ctx, target_ms * 1e-3));
  sanity_check(algs, rows);

  const auto add = [](const char* key, const std::string& value) { benchmark::AddCustomContext(key, value); };
  add("gpu_name", ctx.device.name_id);
  add("gpu_name_raw", ctx.device.name);
  add("sm_count", std::to_string(ctx.device.sm_count));
  add("l2_bytes", std::to_string(ctx.device.l2_bytes));
  add("cuda_runtime_version", std::to_string(ctx.device.runtime_version));
  add("ceiling_read_GBps", std::to_string(ctx.ceiling.read_GBps));
  add("ceiling_read_kernel", ctx.ceiling.read_config);
  add("ceiling_copy_rw_GBps", std::to_string(ctx.ceiling.copy_GBps));
  add("GBps_definition",
      "(M*N + M)*sizeof(T): the matrix read and one result a row written (+ N*sizeof(T) for x in cublas_gemv and matvec "
      "rows) / time per call, 1e9 bytes per GB");
  add("vs_best_definition",
      "on tally rows: min(cub_segmented time, cublas_gemv time) / this row's time, same type and shape, same process "
      "and input slices (> 1: faster than the better baseline); matvec rows compare with the same baselines");
  add("l2_policy", "matrices of 134-537 MB; call i reads slice i mod k, k slices spanning >= 4 x L2; ld = N");
  add("timing", "CUDA events around a batch of back-to-back calls (about 1 ms), median of 5 repetitions");

  results store;
  std::size_t width = 0;
  for (const planned_row& r : rows) {
    const std::string name = r.alg->name(r.shape);
    width = std::max(width, name.size());
    benchmark::RegisterBenchmark(name.c_str(), [r, &ctx, &store, &algs, name](benchmark::State& state) {
      const double per_call = run_timed(r, ctx, &state);
      store.add(name, per_call);
      const double gbps = r.alg->bytes(r.shape) / per_call * 1e-9;
      state.counters["GBps"] = gbps;
      state.counters["pct_ceiling"] = 100.0 * gbps / ctx.ceiling.read_GBps;
      if (r.calls > 1) state.counters["calls_per_batch"] = r.calls;
      if (r.alg->baseline) return;
      state.SetLabel(r.alg->plan(r.shape));
      double best = 0;
      for (const rows_algorithm& b : algs) {
        if (!b.baseline || b.type != r.alg->type) continue;
        const std::string bn = b.name(r.shape);
        if (!store.median(bn)) {  // filtered out: measure it here, the same way
          const planned_row br{&b, r.shape, r.calls, r.iterations};
          for (int rep = 0; rep < 3; ++rep) store.add(bn, run_timed(br, ctx, nullptr));
        }
        const double t = *store.median(bn);
        best = best == 0 ? t : std::min(best, t);
      }
      state.counters["vs_best"] = best / per_call;
    })
        ->UseManualTime()
        ->Iterations(r.iterations)
        ->Unit(benchmark::kMicrosecond);
  }
  const reporters out = make_reporters(args, width);
  benchmark::RunSpecifiedBenchmarks(out.display.get(), out.file.get());
  benchmark::Shutdown();

  // The per-shape table: tally default against the baselines (GB/s, medians).
  std::printf("\nRow sums on %s (GB/s; read ceiling %.0f GB/s)\n", ctx.device.name.c_str(), ctx.ceiling.read_GBps);
  std::printf("| type | M x N | tally plan | tally | CUB segmented | cuBLAS gemv | vs_best | %% ceiling |\n|---|---|---|---|---|---|---|---|\n");
  for (const char* type : {"float", "double"})
    for (rows_shape s : shapes) {
      const auto seconds = [&](const char* lib) -> std::optional<double> {
        for (const rows_algorithm& a : algs)
          if (a.type == type && a.job == "sum" && a.lib == lib) return store.median(a.name(s));
        return std::nullopt;
      };
      const double bytes = row_reduction_bytes(s, std::string(type) == "float" ? 4 : 8);
      const auto gbps = [&](const std::optional<double>& sec) -> std::optional<double> {
        if (sec) return bytes / *sec * 1e-9;
        return std::nullopt;
      };
      const auto ts = seconds("tally_default"), cs = seconds("cub_segmented"), gs = seconds("cublas_gemv");
      const auto t = gbps(ts), c = gbps(cs), g = gbps(gs);
      if (!t) continue;
      std::string plan = "?";
      for (const rows_algorithm& a : algs)
        if (a.type == type && a.lib == "tally_default" && a.job == "sum") plan = a.plan(s);
      const auto f = [](const std::optional<double>& v) { return v ? std::to_string(std::lround(*v)) : std::string("-"); };
      const std::string best = cs && gs ? std::to_string(std::min(*cs, *gs) / *ts) : "-";
      std::printf("| %s | %s | %s | %s | %s | %s | %.5s | %.1f |\n", type, shape_name(s).c_str(), plan.c_str(), f(t).c_str(),
                  f(c).c_str(), f(g).c_str(), best.c_str(), 100.0 * *t / ctx.ceiling.read_GBps);
    }
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) {
  try {
    return bench::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tally_bench_rows: %s\n", e.what());
    return 1;
  }
}
