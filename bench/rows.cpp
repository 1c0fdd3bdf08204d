#include "rows.hpp"

#include <algorithm>
#include <cmath>

#include <benchmark/benchmark.h>

namespace bench {

namespace {

constexpr double launch_floor_seconds = 5e-6;  // a call's launches, however small n is
constexpr double event_wait_seconds = 15e-6;   // two event records and a host wait per measurement
constexpr double host_return_seconds = 30e-6;  // a call that returns its result to the host
constexpr double batch_seconds = 2e-3;
constexpr int lazy_baseline_repetitions = 3;

// Mean seconds per call over `iterations` measurements.
double mean_per_call(timed_call& t, std::int64_t iterations) {
  double total = 0;
  for (std::int64_t i = 0; i < iterations; ++i) total += t.measure();
  return total / static_cast<double>(iterations);
}

// CUB's median time for the row's type, op, n and mode. Normally its row ran just before; if a
// filter (or --benchmark_enable_random_interleaving) kept it from running first, it is measured
// here, the same way, so vs_cub never compares against another process or another input.
double cub_seconds(const row& r, const bench_env& env, results& store) {
  const std::string name = row_name(r.cub->type, r.cub->op, r.cub->lib, r.m, r.n);
  if (const auto t = store.median(name)) return *t;
  timed_call t(*r.cub, r.n, r.calls, env.stream());
  for (int rep = 0; rep < lazy_baseline_repetitions; ++rep) store.add(name, mean_per_call(t, r.iterations));
  return *store.median(name);
}

void run_row(benchmark::State& state, const row& r, const bench_env& env, results& store) {
  timed_call t(*r.alg, r.n, r.calls, env.stream());
  double total = 0;
  for (auto _ : state) {
    const double seconds = t.measure();
    state.SetIterationTime(seconds);
    total += seconds;
  }
  const double per_call = total / static_cast<double>(state.iterations());
  store.add(r.name(), per_call);

  const double gbps = static_cast<double>(r.n) * static_cast<double>(r.alg->element_bytes) / per_call * 1e-9;
  state.counters["GBps"] = gbps;
  state.counters["pct_ceiling"] = 100.0 * gbps / env.ceiling().read_GBps;
  if (r.m == mode::back_to_back) state.counters["calls_per_batch"] = r.calls;
  if (r.cub != nullptr) state.counters["vs_cub"] = cub_seconds(r, env, store) / per_call;
}

}  // namespace

row plan_row(const algorithm& alg, const algorithm* cub, std::int64_t n, mode m, const bandwidth_ceiling& ceiling,
             double target_seconds) {
  const double bytes = static_cast<double>(n) * static_cast<double>(alg.element_bytes);
  const double call = bytes / (ceiling.read_GBps * 1e9) + launch_floor_seconds +
                      (alg.waits_each_call ? host_return_seconds : 0.0);
  row r{&alg, alg.is_cub() ? nullptr : cub, n, m, 1, 1};
  if (m == mode::back_to_back) r.calls = std::clamp(static_cast<int>(std::ceil(batch_seconds / call)), 10, 100);
  const auto wanted = static_cast<std::int64_t>(std::llround(target_seconds / (r.calls * call + event_wait_seconds)));
  r.iterations = m == mode::single ? std::clamp<std::int64_t>(wanted, 10, 1000) : std::clamp<std::int64_t>(wanted, 5, 100);
  return r;
}

void register_row(const row& r, const bench_env& env, results& store) {
  benchmark::RegisterBenchmark(r.name().c_str(), [r, &env, &store](benchmark::State& state) { run_row(state, r, env, store); })
      ->UseManualTime()
      ->Iterations(r.iterations)
      ->Unit(benchmark::kMicrosecond);
}

}  // namespace bench
