#include "harness.hpp"

#include <algorithm>
#include <stdexcept>

#include <benchmark/benchmark.h>

#include "reporters.hpp"
#include "timing.hpp"

namespace bench {

namespace {

constexpr int lazy_baseline_repetitions = 3;

// One repetition of a row outside Google Benchmark, as Google Benchmark runs one: a freshly
// prepared and warmed-up call, then the row's measurements. Mean seconds per call.
double repetition(const timed_row& r, cudaStream_t stream) {
  timed_call t(r.prepare(), r.calls, stream);
  double total = 0;
  for (std::int64_t i = 0; i < r.iterations; ++i) total += t.measure();
  return total / static_cast<double>(r.iterations);
}

class session {
 public:
  session(const std::vector<timed_row>& rows, const bench_env& env) : rows_(rows), env_(env) {}

  void run(benchmark::State& state, const timed_row& r) {
    timed_call t(r.prepare(), r.calls, env_.stream());
    double total = 0;
    for (auto _ : state) {
      const double seconds = t.measure();
      state.SetIterationTime(seconds);
      total += seconds;
    }
    const double per_call = total / static_cast<double>(state.iterations());
    store_.add(r.name, per_call);  // first: a row may be its own baseline (pct_copy of the copy row)

    const double gbps = r.bytes / per_call * 1e-9;
    state.counters["GBps"] = gbps;
    const double ceiling = env_.ceiling().read_GBps;
    if (ceiling > 0) state.counters["pct_ceiling"] = 100.0 * gbps / ceiling;
    if (r.calls > 1) state.counters["calls_per_batch"] = r.calls;
    if (r.label) state.SetLabel(r.label());
    for (const comparison& c : r.compare) {
      double best = 0;
      for (const std::string& name : c.baselines) {
        const double seconds = baseline_seconds(name);
        best = best == 0 ? seconds : std::min(best, seconds);
      }
      state.counters[c.counter] = c.scale * best / per_call;
    }
  }

  results& store() { return store_; }

 private:
  double baseline_seconds(const std::string& name) {
    if (const auto t = store_.median(name)) return *t;
    const auto it = std::find_if(rows_.begin(), rows_.end(), [&](const timed_row& r) { return r.name == name; });
    if (it == rows_.end()) throw std::logic_error("no row " + name + " to compare with");
    for (int rep = 0; rep < lazy_baseline_repetitions; ++rep) store_.add(name, repetition(*it, env_.stream()));
    return *store_.median(name);
  }

  const std::vector<timed_row>& rows_;
  const bench_env& env_;
  results store_;
};

void add_device_context(const device_info& d) {
  add_context("gpu_name", d.name_id);
  add_context("gpu_name_raw", d.name);
  add_context("compute_capability", std::to_string(d.cc_major) + "." + std::to_string(d.cc_minor));
  add_context("sm_count", std::to_string(d.sm_count));
  add_context("l2_bytes", std::to_string(d.l2_bytes));
  add_context("cuda_runtime_version", std::to_string(d.runtime_version));
  add_context("cuda_driver_version", std::to_string(d.driver_version));
}

void add_ceiling_context(const bandwidth_ceiling& c) {
  add_context("ceiling_read_GBps", std::to_string(c.read_GBps));
  add_context("ceiling_read_kernel", c.read_config);
  add_context("ceiling_copy_rw_GBps", std::to_string(c.copy_GBps));
  add_context("ceiling_buffer_bytes", std::to_string(c.buffer_bytes));
  add_context("ceiling_definition",
              "pct_ceiling is relative to ceiling_read_GBps: the best read bandwidth (bytes read / time) of a streaming "
              "kernel summing 16-byte vectors over a resident grid, on a buffer of max(1 GiB, 4 x L2), measured at "
              "start-up in this process. ceiling_copy_rw_GBps is a device-to-device cudaMemcpyAsync of that buffer, "
              "(read + write) bytes / time, for reference.");
}

}  // namespace

void add_context(const std::string& key, const std::string& value) { benchmark::AddCustomContext(key, value); }

results run_rows(const std::vector<timed_row>& rows, const bench_env& env, const std::vector<std::string>& benchmark_args) {
  add_device_context(env.device());
  if (env.ceiling().read_GBps > 0) add_ceiling_context(env.ceiling());

  session s(rows, env);
  std::size_t name_width = 0;
  for (const timed_row& r : rows) {
    benchmark::RegisterBenchmark(r.name.c_str(), [&s, &r](benchmark::State& state) { s.run(state, r); })
        ->UseManualTime()
        ->Iterations(r.iterations)
        ->Unit(benchmark::kMicrosecond);
    name_width = std::max(name_width, r.name.size());
  }
  const reporters out = make_reporters(benchmark_args, name_width);
  benchmark::RunSpecifiedBenchmarks(out.display.get(), out.file.get());
  benchmark::Shutdown();
  return std::move(s.store());
}

}  // namespace bench
