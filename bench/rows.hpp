// A row is one algorithm at one n in one timing mode: one Google Benchmark benchmark, named by
// row_name() (results.hpp), timed with CUDA events (manual time), reporting per call:
//
//   real_time    time per call (mean over the repetition's measurements; benchmark's aggregates
//                give the median over repetitions)
//   GBps         n * sizeof(T) / time: the bytes the reduction must read, per second (1e9 bytes)
//   pct_ceiling  100 * GBps / the measured read ceiling (ceiling.hpp)
//   vs_cub       on every row but CUB's: CUB's time / this row's time for the same type, op, n and
//                mode (> 1: faster than CUB). CUB's time is the median of its row's repetitions,
//                which run first in the same process on the same input slices.
//   calls_per_batch  back_to_back rows: calls between the two events
#pragma once
#include <cstdint>

#include "algorithm.hpp"
#include "ceiling.hpp"
#include "env.hpp"
#include "results.hpp"
#include "timing.hpp"

namespace bench {

struct row {
  const algorithm* alg = nullptr;
  const algorithm* cub = nullptr;  // CUB for the same type and op; null on CUB rows
  std::int64_t n = 0;
  mode m = mode::single;
  int calls = 1;                // per measurement: 1 (single), or the batch (back_to_back)
  std::int64_t iterations = 1;  // measurements per repetition

  std::string name() const { return row_name(alg->type, alg->op, alg->lib, m, n); }
};

// Sizes the row from the time a call should take (n * sizeof(T) at the ceiling, plus 5 us of
// launches, plus 30 us where the call returns its result to the host) and 15 us of event overhead
// per measurement: a back_to_back batch lasts about 2 ms (10 to 100 calls), and a repetition about
// target_seconds (10 to 1000 measurements single, 5 to 100 back_to_back). Rows slower than the
// estimate (the early ladder rungs) take proportionally longer.
row plan_row(const algorithm& alg, const algorithm* cub, std::int64_t n, mode m, const bandwidth_ceiling& ceiling,
             double target_seconds);

// Registers the row with Google Benchmark; its times go to `store` as it runs.
void register_row(const row& r, const bench_env& env, results& store);

}  // namespace bench
