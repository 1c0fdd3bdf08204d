// tally_bench_transpose: every named tally::transpose composition against cublas{S,D}geam and a
// device-to-device copy of the same bytes, float and double, at 8192^2 and 16384^2, in one process
// on the same buffers. Rows are named
//
//   transpose/<type>/<method>/<rows>x<cols>     e.g. transpose/float/swizzled_64x64_256t_v16/16384x16384
//
// method: copy (cudaMemcpyAsync D2D of rows * cols elements), cublas_geam, or a transpose_policy's
// name. Each row reports, per call (median over repetitions in the aggregates; harness.hpp):
//
//   GBps      2 * rows * cols * sizeof(T) / time (bytes read + bytes written), 1e9 bytes per GB
//   pct_copy  100 * GBps / the copy row's GBps for the same type and size, same run
//   vs_geam   on tally rows: geam's median time / this row's time (> 1: faster than cuBLAS)
//
// Timing: CUDA events around one call on one stream (manual time), or around --back_to_back=N calls
// enqueued one after the other (time per call: what a launch overlapping the kernel ahead saves
// shows there), 3 warm-up calls per row, --iterations measurements per repetition, 7 repetitions. Buffers are >= 4 x L2 (256 MiB and up),
// so every call streams from device memory. Before timing, every tally method's output is compared
// bit for bit with geam's on the same input (finite, non-zero values).
//
// Own flags (the rest go to Google Benchmark):
//   --sizes=8192,16384      square sizes (rows = cols = s)
//   --iterations=N          measurements per repetition (default 30)
//   --back_to_back=N        N calls between the two events of a measurement (default 1)
//   --ncu_launches          no benchmark: one launch of each tally float layout at 8192^2, for
//                           bench/transpose_bank_conflicts.sh (Nsight Compute); prints the order
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "env.hpp"
#include "harness.hpp"
#include "program.hpp"
#include "transpose_bench.hpp"

namespace bench::transpose {
namespace {

const char* const usage =
    "tally_bench_transpose [--sizes=8192,16384] [--iterations=30] [--back_to_back=1] [--ncu_launches] [benchmark flags]\n";

struct config {
  std::vector<std::int64_t> sizes{8192, 16384};
  std::int64_t iterations = 30;
  int back_to_back = 1;  // calls per measurement
  int repetitions = 7;
  bool ncu_launches = false;
};

std::string row_name(const std::string& type, const std::string& method, std::int64_t rows, std::int64_t cols) {
  return "transpose/" + type + "/" + method + "/" + std::to_string(rows) + "x" + std::to_string(cols);
}

struct row {
  const method* m = nullptr;
  std::int64_t rows = 0, cols = 0;
  std::string name() const { return row_name(m->type, m->name, rows, cols); }
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

config parse_args(const std::vector<std::string>& own) {
  config cfg;
  for (const std::string& a : own) {
    if (a.rfind("--sizes=", 0) == 0) cfg.sizes = parse_sizes(a.substr(8));
    else if (a.rfind("--iterations=", 0) == 0) cfg.iterations = std::max<std::int64_t>(1, std::stoll(a.substr(13)));
    else if (a.rfind("--back_to_back=", 0) == 0) cfg.back_to_back = std::max(1, std::stoi(a.substr(15)));
    else cfg.ncu_launches = true;  // --ncu_launches
  }
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

// The row as the harness runs it: back_to_back calls between two events; every row is compared
// with the copy, tally rows with geam too.
timed_row timed(const row& r, const buffers& b, const config& cfg, cudaStream_t stream) {
  const method* m = r.m;
  const std::int64_t rows = r.rows, cols = r.cols;
  const void* in = b.in.get();
  void* out = b.out.get();
  timed_row t{r.name(), [=] { return launcher([=](std::int64_t) { m->run(in, out, rows, cols, stream); }); },
              cfg.back_to_back, cfg.iterations, r.bytes(), {}, {}};
  t.compare.push_back({"pct_copy", {row_name(m->type, "copy", rows, cols)}, 100});
  if (m->is_tally) t.compare.push_back({"vs_geam", {row_name(m->type, "cublas_geam", rows, cols)}});
  return t;
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
  command_line cl(argc, argv, {"--sizes=", "--iterations=", "--back_to_back=", "--ncu_launches"}, usage);
  const config cfg = parse_args(cl.own());
  if (!cl.start_benchmark(cfg.repetitions)) return 1;
  bench_env env(require_device());
  const cudaStream_t stream = env.stream();
  method_list methods;
  methods.push_back(copy_method("float", sizeof(float)));
  methods.push_back(copy_method("double", sizeof(double)));
  add_cublas_geam(methods, stream);
  add_tally_float(methods);
  add_tally_double(methods);
  if (cfg.ncu_launches) return ncu_launches(methods, stream);

  // Rows: per type and size, the copy, then geam, then every tally layout.
  std::vector<row> rows;
  std::size_t max_bytes = 0;
  for (const char* type : {"float", "double"})
    for (const std::int64_t s : cfg.sizes)
      for (const char* first : {"copy", "cublas_geam", ""})
        for (const method& m : methods)
          if (m.type == type && (first[0] != '\0' ? m.name == first : m.is_tally)) {
            rows.push_back({&m, s, s});
            max_bytes = std::max(max_bytes, static_cast<std::size_t>(s * s) * m.element_bytes);
          }
  const buffers b{device_buffer(max_bytes), device_buffer(max_bytes), device_buffer(max_bytes)};

  const std::vector<std::string> failed = check_against_geam(rows, methods, b, stream);
  for (const std::string& f : failed) std::fprintf(stderr, "tally_bench_transpose: %s differs from cuBLAS geam\n", f.c_str());
  if (!failed.empty()) return 1;
  std::printf("tally_bench_transpose: %zu rows; sanity check: every tally output equals cuBLAS geam's bit for bit\n",
              rows.size());
  fill_finite(b.in.get(), static_cast<std::int64_t>(max_bytes / sizeof(float)), sizeof(float), stream);

  add_context("iterations_per_repetition", std::to_string(cfg.iterations));
  for (const method& m : methods)
    if (m.is_default) add_context("default_" + m.type, m.name);
  add_context("GBps_definition", "2 * rows * cols * sizeof(T) / time per call (bytes read + bytes written), 1e9 bytes per GB");
  add_context("pct_copy_definition", "100 * copy median time / this row's time; copy = cudaMemcpyAsync D2D of rows * cols elements, same type, size and run");
  add_context("vs_geam_definition", "cublas{S,D}geam median time / this row's time, same type, size, buffers and run (> 1: faster)");
  add_context("timing", cfg.back_to_back == 1
                            ? "CUDA events around one call on one stream, manual time; 3 warm-up calls per row; median over repetitions"
                            : "CUDA events around " + std::to_string(cfg.back_to_back) +
                                  " calls enqueued back to back on one stream, time per call; 3 warm-up calls per row; "
                                  "median over repetitions");

  std::vector<timed_row> timed_rows;
  for (const row& r : rows) timed_rows.push_back(timed(r, b, cfg, stream));
  const results store = run_rows(timed_rows, env, cl.benchmark_args());
  print_summary(rows, store, env.device().name);
  return 0;
}

}  // namespace
}  // namespace bench::transpose

int main(int argc, char** argv) { return bench::guarded_main("tally_bench_transpose", bench::transpose::run, argc, argv); }
