// tally_bench_transpose: every named tally::transpose composition against cublas{S,D}geam and a
// device-to-device copy of the same bytes, float and double, at 8192^2 and 16384^2, in one process
// on the same buffers. Rows are named
//
//   transpose/<type>/<method>/<rows>x<cols>     e.g. transpose/float/swizzled_64x64_256t_v16/16384x16384
//
// method: copy (cudaMemcpyAsync D2D of rows * cols elements), cublas_geam, or a transpose_policy's
// name. Each row reports, per call (median over repetitions in the aggregates):
//
//   GBps      2 * rows * cols * sizeof(T) / time (bytes read + bytes written), 1e9 bytes per GB
//   pct_copy  100 * GBps / the copy row's GBps for the same type and size, same run
//   vs_geam   on tally rows: geam's median time / this row's time (> 1: faster than cuBLAS)
//
// Timing: CUDA events around one call on one stream (manual time), 3 warm-up calls per row,
// --iterations measurements per repetition, 7 repetitions. Buffers are >= 4 x L2 (256 MiB and up),
// so every call streams from device memory. Before timing, every tally method's output is compared
// bit for bit with geam's on the same input (finite, non-zero values).
//
// Own flags (the rest go to Google Benchmark):
//   --sizes=8192,16384      square sizes (rows = cols = s)
//   --iterations=N          measurements per repetition (default 30)
//   --ncu_launches          no benchmark: one launch of each tally float layout at 8192^2, for
//                           bench/transpose_bank_conflicts.sh (Nsight Compute); prints the order
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "cuda_check.hpp"
#include "device.hpp"
#include "device_buffer.hpp"
#include "reporters.hpp"
#include "results.hpp"
#include "timing.hpp"
#include "transpose_bench.hpp"

namespace bench::transpose {
namespace {

struct config {
  std::vector<std::int64_t> sizes{8192, 16384};
  std::int64_t iterations = 30;
  int repetitions = 7;
  bool ncu_launches = false;
};

struct row {
  const method* m = nullptr;
  std::int64_t rows = 0, cols = 0;
  std::string name() const {
    return "transpose/" + m->type + "/" + m->name + "/" + std::to_string(rows) + "x" + std::to_string(cols);
  }
  double bytes() const { return 2.0 * static_cast<double>(rows) * static_cast<double>(cols) * static_cast<double>(m->element_bytes); }
};

std::vector<std::int64_t> parse_sizes(const std::string& list) {
  std::vector<std::int64_t> sizes;
  std::size_t start = 0;
  while (start <= list.size()) {
    const std::size_t end = std::min(list.find(',', start), list.size());
    const std::string item = list.substr(start, end - start);
    if (!item.empty()) sizes.push_back(std::stoll(item));
    start = end + 1;
  }
  return sizes;
}

// Splits argv into this program's flags and Google Benchmark's.
config parse_args(int argc, char** argv, std::vector<std::string>& bench_args) {
  config cfg;
  std::vector<std::string> rest;
  bool repetitions_given = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("--sizes=", 0) == 0) cfg.sizes = parse_sizes(a.substr(8));
    else if (a.rfind("--iterations=", 0) == 0) cfg.iterations = std::max<std::int64_t>(1, std::stoll(a.substr(13)));
    else if (a == "--ncu_launches") cfg.ncu_launches = true;
    else if (a == "--help" || a == "-h") {
      std::printf("tally_bench_transpose [--sizes=8192,16384] [--iterations=30] [--ncu_launches] [benchmark flags]\n");
      std::exit(0);
    } else {
      repetitions_given |= a.rfind("--benchmark_repetitions=", 0) == 0;
      rest.push_back(a);
    }
  }
  bench_args = {argv[0], "--benchmark_report_aggregates_only=true"};
  if (!repetitions_given) bench_args.push_back("--benchmark_repetitions=" + std::to_string(cfg.repetitions));
  bench_args.insert(bench_args.end(), rest.begin(), rest.end());
  return cfg;
}

const method* find(const method_list& methods, const std::string& type, const std::string& name) {
  for (const method& m : methods)
    if (m.type == type && m.name == name) return &m;
  return nullptr;
}

struct buffers {
  device_buffer in, out, reference;
};

// One row's calls, timed: 3 warm-up calls, then one call between two events per measurement.
timed_call prepare(const row& r, const buffers& b, cudaStream_t stream) {
  const method* m = r.m;
  const std::int64_t rows = r.rows, cols = r.cols;
  const void* in = b.in.get();
  void* out = b.out.get();
  return timed_call([=](std::int64_t) { m->run(in, out, rows, cols, stream); }, 1, stream);
}

// The median time of (type, name) at r's size: from this run's store, or measured now the same
// way when a filter kept its row from running first.
double baseline_seconds(const method_list& methods, const row& r, const std::string& name, const buffers& b,
                        const config& cfg, cudaStream_t stream, results& store) {
  const row base{find(methods, r.m->type, name), r.rows, r.cols};
  if (const auto t = store.median(base.name())) return *t;
  timed_call t = prepare(base, b, stream);
  for (int rep = 0; rep < 3; ++rep) {
    double total = 0;
    for (std::int64_t i = 0; i < cfg.iterations; ++i) total += t.measure();
    store.add(base.name(), total / static_cast<double>(cfg.iterations));
  }
  return *store.median(base.name());
}

void run_row(benchmark::State& state, const row& r, const method_list& methods, const buffers& b, const config& cfg,
             cudaStream_t stream, results& store) {
  timed_call t = prepare(r, b, stream);
  double total = 0;
  for (auto _ : state) {
    const double seconds = t.measure();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  const double per_call = total / static_cast<double>(state.iterations());
  store.add(r.name(), per_call);
  const double gbps = r.bytes() / per_call * 1e-9;
  state.counters["GBps"] = gbps;
  const double copy = baseline_seconds(methods, r, "copy", b, cfg, stream, store);
  state.counters["pct_copy"] = 100.0 * copy / per_call;
  if (r.m->is_tally) state.counters["vs_geam"] = baseline_seconds(methods, r, "cublas_geam", b, cfg, stream, store) / per_call;
}

method copy_method(const char* type, std::size_t bytes) {
  method m;
  m.type = type;
  m.name = "copy";
  m.element_bytes = bytes;
  m.run = [bytes](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
    BENCH_CHECK(cudaMemcpyAsync(out, in, static_cast<std::size_t>(rows * cols) * bytes, cudaMemcpyDeviceToDevice, stream));
  };
  return m;
}

// Every tally output equals geam's on the same input, bit for bit. Returns the methods that differ.
std::vector<std::string> check_against_geam(const std::vector<row>& rows, const method_list& methods, const buffers& b,
                                            cudaStream_t stream) {
  std::vector<std::string> failed;
  std::map<std::string, bool> reference_ready;  // "type/size": geam's output is in b.reference
  for (const row& r : rows) {
    if (!r.m->is_tally) continue;
    const std::int64_t n = r.rows * r.cols;
    const std::string key = r.m->type + "/" + std::to_string(r.rows) + "x" + std::to_string(r.cols);
    if (!reference_ready[key]) {
      reference_ready.clear();
      fill_finite(b.in.get(), n, r.m->element_bytes, stream);
      // Zeros, in case geam's 0 * C reads C (NaN * 0 would not be 0).
      BENCH_CHECK(cudaMemsetAsync(b.reference.get(), 0, static_cast<std::size_t>(n) * r.m->element_bytes, stream));
      find(methods, r.m->type, "cublas_geam")->run(b.in.get(), b.reference.get(), r.rows, r.cols, stream);
      reference_ready[key] = true;
    }
    BENCH_CHECK(cudaMemsetAsync(b.out.get(), 0xFF, static_cast<std::size_t>(n) * r.m->element_bytes, stream));
    r.m->run(b.in.get(), b.out.get(), r.rows, r.cols, stream);
    if (count_differences(b.out.get(), b.reference.get(), n, r.m->element_bytes, stream) != 0) failed.push_back(r.name());
  }
  BENCH_CHECK(cudaStreamSynchronize(stream));
  return failed;
}

// One launch of each tally float layout at 8192^2 (Nsight Compute profiles exactly these).
int ncu_launches(const method_list& methods, cudaStream_t stream) {
  constexpr std::int64_t s = 8192;
  device_buffer in(s * s * sizeof(float)), out(s * s * sizeof(float));
  fill_finite(in.get(), s * s, sizeof(float), stream);
  BENCH_CHECK(cudaStreamSynchronize(stream));
  int k = 0;
  for (const method& m : methods) {
    if (!m.is_tally || m.type != "float") continue;
    m.run(in.get(), out.get(), s, s, stream);
    BENCH_CHECK(cudaStreamSynchronize(stream));
    std::printf("ncu_launch %d %s\n", k++, m.name.c_str());
  }
  return 0;
}

void print_summary(const std::vector<row>& rows, const results& store, const std::string& gpu) {
  std::printf("\ntransposes on %s (median GB/s = (read + write) / time; pct_copy vs the D2D copy of the same bytes)\n",
              gpu.c_str());
  std::printf("%-7s %-13s %9s %9s  %-26s %9s %8s %7s  %-26s %8s %7s\n", "type", "size", "copy", "geam", "best tally",
              "GBps", "pct_copy", "vs_geam", "default", "pct_copy", "vs_geam");
  std::map<std::string, std::vector<const row*>> groups;
  std::vector<std::string> order;
  for (const row& r : rows) {
    const std::string key = r.m->type + " " + std::to_string(r.rows) + "x" + std::to_string(r.cols);
    if (groups.find(key) == groups.end()) order.push_back(key);
    groups[key].push_back(&r);
  }
  bool all_met = true, any = false;
  for (const std::string& key : order) {
    std::optional<double> copy, geam;
    const row *best = nullptr, *dflt = nullptr;
    std::optional<double> best_t, dflt_t;
    for (const row* r : groups[key]) {
      const auto t = store.median(r->name());
      if (!t) continue;
      if (r->m->name == "copy") copy = t;
      if (r->m->name == "cublas_geam") geam = t;
      if (r->m->is_tally && (!best_t || *t < *best_t)) best = r, best_t = t;
      if (r->m->is_default) dflt = r, dflt_t = t;
    }
    if (!copy || !geam || best == nullptr) continue;
    const double bytes = best->bytes();
    const double best_pct = 100.0 * *copy / *best_t, best_vs = *geam / *best_t;
    std::printf("%-7s %-13s %9.0f %9.0f  %-26s %9.0f %8.1f %7.2f", best->m->type.c_str(), key.substr(key.find(' ') + 1).c_str(),
                bytes / *copy * 1e-9, bytes / *geam * 1e-9, best->m->name.c_str(), bytes / *best_t * 1e-9, best_pct, best_vs);
    if (dflt != nullptr)
      std::printf("  %-26s %8.1f %7.2f", dflt->m->name.c_str(), 100.0 * *copy / *dflt_t, *geam / *dflt_t);
    std::printf("\n");
    any = true;
    all_met &= best_pct >= 90.0 && best_vs >= 1.0;
  }
  if (any)
    std::printf("target (best tally layout: vs_geam >= 1.0 and pct_copy >= 90 at every size): %s\n", all_met ? "met" : "NOT met");
}

int run(int argc, char** argv) {
  std::vector<std::string> args;
  const config cfg = parse_args(argc, argv, args);
  std::string why;
  const auto device = probe_device(why);
  if (!device) {
    std::fprintf(stderr, "tally_bench_transpose: no CUDA device (%s)\n", why.c_str());
    return 1;
  }
  owned_stream stream;
  method_list methods;
  methods.push_back(copy_method("float", sizeof(float)));
  methods.push_back(copy_method("double", sizeof(double)));
  add_cublas_geam(methods, stream.get());
  add_tally_float(methods);
  add_tally_double(methods);
  if (cfg.ncu_launches) return ncu_launches(methods, stream.get());

  std::vector<char*> ptrs;
  for (std::string& a : args) ptrs.push_back(a.data());
  int bench_argc = static_cast<int>(ptrs.size());
  benchmark::Initialize(&bench_argc, ptrs.data());
  if (benchmark::ReportUnrecognizedArguments(bench_argc, ptrs.data())) return 1;

  // Rows: per type and size, the copy, then geam, then every tally layout.
  std::vector<row> rows;
  std::size_t max_bytes = 0, name_width = 0;
  for (const char* type : {"float", "double"})
    for (const std::int64_t s : cfg.sizes)
      for (const char* first : {"copy", "cublas_geam", ""})
        for (const method& m : methods)
          if (m.type == type && (first[0] != '\0' ? m.name == first : m.is_tally)) {
            rows.push_back({&m, s, s});
            max_bytes = std::max(max_bytes, static_cast<std::size_t>(s * s) * m.element_bytes);
            name_width = std::max(name_width, rows.back().name().size());
          }
  const buffers b{device_buffer(max_bytes), device_buffer(max_bytes), device_buffer(max_bytes)};

  const std::vector<std::string> failed = check_against_geam(rows, methods, b, stream.get());
  for (const std::string& f : failed) std::fprintf(stderr, "tally_bench_transpose: %s differs from cuBLAS geam\n", f.c_str());
  if (!failed.empty()) return 1;
  std::printf("tally_bench_transpose: %zu rows; sanity check: every tally output equals cuBLAS geam's bit for bit\n",
              rows.size());
  fill_finite(b.in.get(), static_cast<std::int64_t>(max_bytes / sizeof(float)), sizeof(float), stream.get());

  const auto add = [](const char* key, const std::string& value) { benchmark::AddCustomContext(key, value); };
  add("gpu_name", device->name_id);
  add("gpu_name_raw", device->name);
  add("compute_capability", std::to_string(device->cc_major) + "." + std::to_string(device->cc_minor));
  add("sm_count", std::to_string(device->sm_count));
  add("l2_bytes", std::to_string(device->l2_bytes));
  add("cuda_runtime_version", std::to_string(device->runtime_version));
  add("cuda_driver_version", std::to_string(device->driver_version));
  add("iterations_per_repetition", std::to_string(cfg.iterations));
  for (const method& m : methods)
    if (m.is_default) add(("default_" + m.type).c_str(), m.name);
  add("GBps_definition", "2 * rows * cols * sizeof(T) / time per call (bytes read + bytes written), 1e9 bytes per GB");
  add("pct_copy_definition", "100 * copy median time / this row's time; copy = cudaMemcpyAsync D2D of rows * cols elements, same type, size and run");
  add("vs_geam_definition", "cublas{S,D}geam median time / this row's time, same type, size, buffers and run (> 1: faster)");
  add("timing", "CUDA events around one call on one stream, manual time; 3 warm-up calls per row; median over repetitions");

  results store;
  for (const row& r : rows) {
    const row rr = r;
    benchmark::RegisterBenchmark(r.name().c_str(), [rr, &methods, &b, &cfg, &stream, &store](benchmark::State& state) {
      run_row(state, rr, methods, b, cfg, stream.get(), store);
    })
        ->UseManualTime()
        ->Iterations(cfg.iterations)
        ->Unit(benchmark::kMicrosecond);
  }
  const reporters out = make_reporters(args, name_width);
  benchmark::RunSpecifiedBenchmarks(out.display.get(), out.file.get());
  benchmark::Shutdown();
  print_summary(rows, store, device->name);
  return 0;
}

}  // namespace
}  // namespace bench::transpose

int main(int argc, char** argv) {
  try {
    return bench::transpose::run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tally_bench_transpose: %s\n", e.what());
    return 1;
  }
}
