// The harness the three programs time their rows with. A row is one prepared call (an algorithm at
// a size, in a timing mode: the program decides) registered with Google Benchmark under its name,
// timed with CUDA events (manual time, timing.hpp). Per call it reports:
//
//   real_time        the mean over the repetition's measurements (the aggregates give the median
//                    over repetitions, which the closing tables and plot.py read too)
//   GBps             bytes / time, 1e9 bytes per GB; each program says which bytes a row moves
//   pct_ceiling      100 * GBps / the read ceiling (ceiling.hpp), where the program measured one
//   calls_per_batch  on rows that time more than one call between two events
//   <comparison>     for each of the row's comparisons: scale * the fastest baseline's median time
//                    / this row's time (vs_cub, vs_best, vs_geam: > 1 is faster; pct_copy: scale 100)
//
// and its label, where it has one. A baseline is another row of the same run: its median is what its
// own row left, where rows listed before the ones that divide by them have run; where a filter
// kept it from running, it is measured on the spot the same way (three repetitions), so that a
// ratio never compares two processes or two inputs.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithm.hpp"
#include "env.hpp"
#include "results.hpp"

namespace bench {

struct comparison {
  std::string counter;                 // "vs_cub", "vs_best", "vs_geam", "pct_copy"
  std::vector<std::string> baselines;  // names of rows of the same run; the fastest one counts
  double scale = 1;                    // 100 for a percentage
};

struct timed_row {
  std::string name;
  std::function<launcher()> prepare;  // allocates what the call needs, outside any timing
  int calls = 1;                      // calls between two events (timing.hpp)
  std::int64_t iterations = 1;        // measurements per repetition
  double bytes = 0;                   // GBps = bytes / time per call
  std::vector<comparison> compare;
  std::function<std::string()> label;  // empty: no label
};

// One key of the JSON's context (benchmark::AddCustomContext). run_rows adds the device's keys
// (gpu_name, gpu_name_raw, compute_capability, sm_count, l2_bytes, cuda_runtime_version,
// cuda_driver_version) and, where env has a measured ceiling, the ceiling's (ceiling_*); each
// program adds the ones that define its counters.
void add_context(const std::string& key, const std::string& value);

// Registers the rows in their order, runs Google Benchmark with the reporters of reporters.hpp
// (benchmark_args: the argv it was initialized with) and returns every row's per-call times.
results run_rows(const std::vector<timed_row>& rows, const bench_env& env, const std::vector<std::string>& benchmark_args);

}  // namespace bench
