// tally_bench_rows: tally::reduce_rows (row sums) and tally::matvec against
// cub::DeviceSegmentedReduce and cuBLAS gemv (x = ones), in one process, on the same buffers.
//
// Rows are named rows/<type>/<job>/<lib>/<M>x<N> (ld = N), and rows/<type>/<job>/<lib>/<M>x<N>/l2
// for the same-buffer rows below:
//   type  float | double | half | bf16 (__half, __nv_bfloat16);  job  sum (row sums) | matvec (y = A x,
//         x = ones)
//   lib   cub_segmented | cublas_gemv | cublas_gemv_batched (half and bf16 only) | tally_default |
//         tally_no_pdl (the default with a plain launch) | tally_<forced strategy> (float only; each
//         where it finishes in reasonable time), so the run shows why the default picks its strategy.
//         Every type has a matvec/tally_default row; the baselines are the sum rows' (gemv with x =
//         ones is a matvec already).
//   The baselines' calls (rows_runners.cuh): cub_segmented is DeviceSegmentedReduce::Sum for float
//   and double, and for half and bf16 DeviceSegmentedReduce::Reduce with cuda::std::plus<float> and
//   0.0f (float accumulation, 16-bit results: ::Sum would accumulate in the 16-bit type, which is
//   not a row sum on long rows); cublas_gemv is cublasSgemv / cublasDgemv, and for half and bf16
//   cublasGemmEx with one column, 16-bit A, x and y, CUBLAS_COMPUTE_32F (what torch.mv calls);
//   cublas_gemv_batched is cublasHSH / TSTgemvStridedBatched with one batch. Every row writes M
//   results of the input type (tally's 16-bit rows accumulate in float, its default, and write T).
// Counters (harness.hpp): GBps (bytes moved / time: the matrix read and one result a row written,
// (M*N + M) * sizeof(T), + N*sizeof(T) for x in gemv and matvec rows, as tally defines
// bandwidth), pct_ceiling (100 * GBps / the streaming-read ceiling measured at start-up,
// ceiling.hpp) and, on tally rows, vs_best = min(baseline times) / this row's time for the same
// type, shape and residency (> 1: faster than the best baseline: CUB and both cuBLAS calls where
// the type has them), and on tally matvec rows vs_gemv, the same against the cuBLAS calls alone
// (CUB's segmented sum reads no x). The tally rows' label is the plan the call ran.
//
// L2: the rows without a suffix rotate over input slices spanning >= 4 x L2 (inputs.hpp), so no
// call reads a matrix a previous call left in L2 (their matrices are 134 to 537 MB in float and
// double, 64 to 134 MB in half and bf16). The /l2 rows (l2_shapes: 4096 x 4096 and 65536 x 1000,
// every type) read the same buffer (slice 0) on every call, as a loop or a CUDA graph repeating one
// call on one tensor does: what fits of the matrix can stay in L2 from one call to the next
// (4096 x 4096 is 32 MB in half and bf16, within the 50 MB L2 of an H100 and the 60 MB of an H200;
// 64 MB in float, 128 MB in double; 65536 x 1000 is 131 MB in half and bf16, so only part of it).
// GB/s counts the same bytes as on the other rows, so pct_ceiling, against the DRAM read ceiling,
// can exceed 100 on /l2 rows. A rotating row and an /l2 row of the same shape read the same slice 0
// in the sanity check.
// Timing: CUDA events around a batch of back-to-back calls (1 to 20, about 1 ms of GPU time), a
// fixed number of batches per repetition (about 10 ms), 5 repetitions, median reported.
//
//   tally_bench_rows [--target_ms=X] [--no_double] [--no_16bit] [--no_l2]
//                    [Google Benchmark flags, e.g. --benchmark_filter=rows/bf16]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

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
    "  --no_double    no double rows\n"
    "  --no_16bit     no half and bf16 rows\n"
    "  --no_l2        no /l2 rows (the same buffer every call)\n"
    "Google Benchmark's flags follow (e.g. --benchmark_filter=rows/bf16, --benchmark_filter=/l2,\n"
    "--benchmark_out=FILE "
    "--benchmark_out_format=json, --benchmark_repetitions=N).\n\n";

const std::vector<rows_shape> shapes = {{1 << 14, 1 << 12}, {1 << 20, 64}, {64, 1 << 20}, {1 << 12, 1 << 14},
                                        {1 << 16, 1000},    {3, 1 << 24},  {1 << 22, 8}};

// Read from the same buffer every call (the /l2 rows).
const std::vector<rows_shape> l2_shapes = {{1 << 12, 1 << 12}, {1 << 16, 1000}};

std::string shape_name(rows_shape s) { return std::to_string(s.m) + "x" + std::to_string(s.n); }

// A shape and where its input comes from: rotating slices (l2 false) or slice 0 every call.
struct rows_case {
  rows_shape shape;
  bool l2 = false;
  std::string name() const { return shape_name(shape) + (l2 ? "/l2" : ""); }
};

// Bytes a row reduction of shape s must move: the matrix read, one result a row written.
double row_reduction_bytes(rows_shape s, std::size_t element_bytes) {
  return static_cast<double>(element_bytes) * (static_cast<double>(s.m) * static_cast<double>(s.n) + static_cast<double>(s.m));
}

struct rows_algorithm {
  std::string type, job, lib;
  std::size_t element_bytes = 0;
  bool reads_x = false;
  bool baseline = false;
  double out_eps = 0;  // half 2^-10, bf16 2^-7: the result's rounding (sanity_check); 0 for float, double
  std::function<bool(rows_shape)> wants;
  std::function<launcher(rows_case)> prepare;                   // runner on slice `call` (slice 0: l2)
  std::function<std::vector<double>(rows_shape)> result;        // slice 0, read back
  std::function<std::string(rows_shape)> plan;                  // tally: the plan's strategy
  std::string name(const rows_case& c) const { return "rows/" + type + "/" + job + "/" + lib + "/" + c.name(); }
  double bytes(rows_shape s) const {
    return row_reduction_bytes(s, element_bytes) + (reads_x ? static_cast<double>(element_bytes) * static_cast<double>(s.n) : 0);
  }
};

template <class Runner, class T>
rows_algorithm make(const bench_env& env, const char* job, const char* lib, bool baseline, bool reads_x,
                    std::function<bool(rows_shape)> wants = [](rows_shape) { return true; }) {
  constexpr element e = element_of<T>;
  const bool dot = std::string(job) == "matvec";
  constexpr double out_eps = std::is_same_v<T, __half> ? 0x1p-10 : std::is_same_v<T, __nv_bfloat16> ? 0x1p-7 : 0.0;
  rows_algorithm a{type_name(e), job, lib, sizeof(T), reads_x, baseline, out_eps, std::move(wants), {}, {}, {}};
  const bench_env* envp = &env;
  a.prepare = [envp, dot](rows_case c) -> launcher {
    const rows_shape s = c.shape;
    const input_slices* in = &envp->inputs(e);
    in->slices(s.m * s.n);
    auto runner = std::make_shared<Runner>(s, dot, envp->stream());
    if (c.l2) return [runner, a = in->template slice<T>(s.m * s.n, 0)](std::int64_t) { (*runner)(a); };
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
  if constexpr (is_16bit<T>) v.push_back(make<cublas_gemv_batched<T>, T>(env, "sum", "cublas_gemv_batched", true, true));
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
  }
  v.push_back(make<tally_rows<tally::default_rows_policy<T>, T>, T>(env, "matvec", "tally_default", false, true));
}

struct planned_row {
  const rows_algorithm* alg;
  rows_case c;
  int calls = 1;
  std::int64_t iterations = 3;
};

// Calls per batch and batches per repetition from one probe batch.
planned_row plan_row(const rows_algorithm& a, rows_case c, const bench_env& env, double target_seconds) {
  timed_call probe(a.prepare(c), 1, env.stream());
  const double call = std::max(probe.measure(), 1e-6);
  planned_row r{&a, c};
  r.calls = std::clamp(static_cast<int>(std::lround(batch_seconds / call)), 1, 20);
  r.iterations = std::clamp<std::int64_t>(std::llround(target_seconds / (call * r.calls)), 3, 100);
  return r;
}

// The row as the harness runs it: tally rows compare with the best of the baselines of their type
// (same shape and residency) and carry their plan as the label.
timed_row timed(const planned_row& r, const std::vector<rows_algorithm>& algs) {
  const rows_algorithm* a = r.alg;
  const rows_case c = r.c;
  const rows_shape s = c.shape;
  timed_row t{a->name(c), [a, c] { return a->prepare(c); }, r.calls, r.iterations, a->bytes(s), {}, {}};
  if (a->baseline) return t;
  comparison best{"vs_best", {}};
  for (const rows_algorithm& b : algs)
    if (b.baseline && b.type == a->type) best.baselines.push_back(b.name(c));
  t.compare.push_back(best);
  if (a->job == "matvec") {  // the matvec baselines alone: CUB's segmented sum reads no x
    comparison gemv{"vs_gemv", {}};
    for (const rows_algorithm& b : algs)
      if (b.baseline && b.type == a->type && b.lib.rfind("cublas_gemv", 0) == 0) gemv.baselines.push_back(b.name(c));
    t.compare.push_back(gemv);
  }
  t.label = [a, s] { return a->plan(s); };
  return t;
}

// Before timing: every algorithm's row sums agree with cuBLAS's (cublas_gemv) on slice 0. Inputs
// are +-[0.5, 1), so a row's sum accumulated in float or double rounds by far less than 1e-4 * N;
// half and bf16 rows accumulate in float too (tally, CUB's Reduce with plus<float>, cuBLAS's
// COMPUTE_32F) but both results are rounded to the 16-bit type, each by at most half its spacing:
// those rows may also differ by 2 * eps * |cuBLAS| (eps = 2^-10 for half, 2^-7 for bf16, the spacing
// at 1). An /l2 row reads the same slice 0 as its rotating row: checked once.
void sanity_check(const std::vector<rows_algorithm>& algs, const std::vector<planned_row>& rows) {
  std::map<std::string, std::vector<double>> reference;
  std::set<std::string> checked;
  int compared = 0, compared_16bit = 0;
  for (const planned_row& r : rows) {
    const rows_algorithm& a = *r.alg;
    const rows_shape s = r.c.shape;
    if (!checked.insert(a.name(rows_case{s, false})).second) continue;
    const std::string key = a.type + "/" + shape_name(s);
    if (!reference.count(key))
      for (const rows_algorithm& b : algs)
        if (b.type == a.type && b.lib == "cublas_gemv") reference[key] = b.result(s);
    const std::vector<double> got = a.result(s);
    const std::vector<double>& want = reference[key];
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!(std::fabs(got[i] - want[i]) <= 1e-4 * static_cast<double>(s.n) + 2 * a.out_eps * std::fabs(want[i])))
        throw std::runtime_error("sanity check: " + a.name(rows_case{s, false}) + " row " + std::to_string(i) + " gives " +
                                 std::to_string(got[i]) + ", cuBLAS " + std::to_string(want[i]));
    ++compared;
    if (a.out_eps > 0) ++compared_16bit;
  }
  std::printf("tally_bench_rows: sanity check: %d algorithm-shape pairs agree with cuBLAS gemv (x = ones), %d of them half "
              "or bf16 (within 1e-4 * N + 2 * eps * |cuBLAS|: both results rounded to 16 bits)\n",
              compared, compared_16bit);
}

void print_table(const std::vector<rows_algorithm>& algs, const std::vector<std::string>& types,
                 const std::vector<rows_case>& cases, const results& store, const bench_env& env) {
  // The per-case table: tally default against the baselines (GB/s, medians); matvec's vs_best too.
  std::printf("\nRow sums on %s (GB/s; read ceiling %.0f GB/s; /l2: the same buffer every call, %% ceiling may pass 100)\n",
              env.device().name.c_str(), env.ceiling().read_GBps);
  std::printf("| type | M x N | tally plan | tally | CUB segmented | cuBLAS gemv | cuBLAS gemv batched | vs_best | matvec "
              "vs_best | matvec vs_gemv | %% ceiling |\n|---|---|---|---|---|---|---|---|---|---|---|\n");
  const auto f = [](const std::optional<double>& v) { return v ? std::to_string(std::lround(*v)) : std::string("-"); };
  const auto r = [](const std::optional<double>& v) { return v ? std::to_string(*v).substr(0, 5) : std::string("-"); };
  for (const std::string& type : types)
    for (const rows_case& c : cases) {
      const rows_algorithm* tally = nullptr;
      const auto seconds = [&](const char* job, const char* lib) -> std::optional<double> {
        for (const rows_algorithm& a : algs)
          if (a.type == type && a.job == job && a.lib == lib) return store.median(a.name(c));
        return std::nullopt;
      };
      for (const rows_algorithm& a : algs)
        if (a.type == type && a.job == "sum" && a.lib == "tally_default") tally = &a;
      if (!tally) continue;
      const double bytes = row_reduction_bytes(c.shape, tally->element_bytes);
      const auto ts = seconds("sum", "tally_default"), ms = seconds("matvec", "tally_default");
      const auto cs = seconds("sum", "cub_segmented"), gs = seconds("sum", "cublas_gemv"),
                 bs = seconds("sum", "cublas_gemv_batched");
      if (!ts) continue;
      // The fastest baseline of the type; "-" unless every one of them ran (the JSON's vs_best also
      // measures the ones a filter left out).
      std::optional<double> best;
      bool all_ran = true;
      for (const rows_algorithm& b : algs)
        if (b.baseline && b.type == type) {
          const std::optional<double> bt = store.median(b.name(c));
          all_ran = all_ran && bt.has_value();
          if (bt) best = best ? std::min(*best, *bt) : *bt;
        }
      if (!all_ran) best.reset();
      // cuBLAS alone, for matvec (CUB's row sum reads no x): the faster of the gemv calls that ran.
      const std::optional<double> gemv = gs && bs ? std::min(*gs, *bs) : gs ? gs : bs;
      const auto t = gbps(ts, bytes);
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %.1f |\n", type.c_str(), c.name().c_str(),
                  tally->plan(c.shape).c_str(), f(t).c_str(), f(gbps(cs, bytes)).c_str(), f(gbps(gs, bytes)).c_str(),
                  f(gbps(bs, bytes)).c_str(), r(ratio(best, ts)).c_str(), r(ratio(best, ms)).c_str(),
                  r(ratio(gemv, ms)).c_str(), 100.0 * *t / env.ceiling().read_GBps);
    }
}

int run(int argc, char** argv) {
  command_line cl(argc, argv, {"--target_ms=", "--no_double", "--no_16bit", "--no_l2"}, usage);
  double target_ms = 10;
  bool with_double = true, with_16bit = true, with_l2 = true;
  for (const std::string& a : cl.own()) {
    if (a == "--no_double") with_double = false;
    else if (a == "--no_16bit") with_16bit = false;
    else if (a == "--no_l2") with_l2 = false;
    else target_ms = positive_flag(a, "milliseconds");  // --target_ms=
  }
  if (!cl.start_benchmark(repetitions)) return 1;

  std::vector<rows_case> cases;
  for (rows_shape s : shapes) cases.push_back({s, false});
  if (with_l2)
    for (rows_shape s : l2_shapes) cases.push_back({s, true});

  bench_env env(require_device());
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));
  std::int64_t max_elems = 0;
  for (const rows_case& c : cases) max_elems = std::max(max_elems, c.shape.m * c.shape.n);
  std::vector<std::string> types = {"float"};
  env.make_inputs(element::float32, max_elems);
  if (with_double) {
    env.make_inputs(element::float64, max_elems);
    types.push_back("double");
  }
  if (with_16bit) {
    env.make_inputs(element::float16, max_elems);
    env.make_inputs(element::bfloat16, max_elems);
    types.push_back("half");
    types.push_back("bf16");
  }

  std::vector<rows_algorithm> algs;
  add_algorithms<float>(algs, env, true);
  if (with_double) add_algorithms<double>(algs, env, false);
  if (with_16bit) {
    add_algorithms<__half>(algs, env, false);
    add_algorithms<__nv_bfloat16>(algs, env, false);
  }

  // Rows grouped by type and case (the rotating shapes, then the /l2 ones), baselines first.
  std::vector<planned_row> rows;
  // Probe only the rows a positive --benchmark_filter keeps (and every baseline they divide by).
  const std::string filter = cl.benchmark_flag("benchmark_filter").value_or("");
  const std::regex keep(filter.empty() || filter[0] == '-' ? std::string(".") : filter);
  for (const std::string& type : types)
    for (const rows_case& c : cases)
      for (const rows_algorithm& a : algs)
        if (a.type == type && a.wants(c.shape) && (a.baseline || std::regex_search(a.name(c), keep)))
          rows.push_back(plan_row(a, c, env, target_ms * 1e-3));
  sanity_check(algs, rows);

  add_context("GBps_definition",
              "(M*N + M)*sizeof(T): the matrix read and one result a row written (+ N*sizeof(T) for x in cublas_gemv, "
              "cublas_gemv_batched and matvec rows) / time per call, 1e9 bytes per GB");
  add_context("vs_best_definition",
              "on tally rows: min(cub_segmented, cublas_gemv and, for half and bf16, cublas_gemv_batched times) / this "
              "row's time, same type, shape and residency, same process and input slices (> 1: faster than the best "
              "baseline); matvec rows compare with the same baselines");
  add_context("vs_gemv_definition",
              "on tally matvec rows: min(cublas_gemv and, for half and bf16, cublas_gemv_batched times) / this row's "
              "time: the matvec baselines alone (cub_segmented sums the rows and reads no x)");
  add_context("l2_policy",
              "rows without a suffix: call i reads slice i mod k, k slices spanning >= 4 x L2; rows ending in /l2: every "
              "call reads slice 0 (what fits stays in L2; pct_ceiling may exceed 100); ld = N");
  add_context("baselines_16bit",
              "half, bf16: cub_segmented = DeviceSegmentedReduce::Reduce(plus<float>, 0.0f) (float accumulation); "
              "cublas_gemv = cublasGemmEx, one column, 16-bit A/x/y, CUBLAS_COMPUTE_32F; cublas_gemv_batched = "
              "cublasHSH/TSTgemvStridedBatched, one batch; every row writes 16-bit results, tally accumulates in float");
  add_context("timing", "CUDA events around a batch of back-to-back calls (about 1 ms), median of 5 repetitions");

  std::vector<timed_row> timed_rows;
  for (const planned_row& r : rows) timed_rows.push_back(timed(r, algs));
  const results store = run_rows(timed_rows, env, cl.benchmark_args());
  print_table(algs, types, cases, store, env);
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::guarded_main("tally_bench_rows", bench::run, argc, argv); }
