// A row of tally_bench is one algorithm at one n in one timing mode, named
//
//   reduce/<type>/<op>/<lib>/<mode>/<n>     e.g. reduce/float/sum/tally_default/back_to_back/1048576
//
// type: float | int32 | double; op: sum | min | arg_min; lib: cub | thrust | tally_default | tally_no_pdl |
// tally_kahan | read_floor | ladder_<rung>; mode: single | back_to_back; n: elements.
// It is timed by the harness (harness.hpp), whose counters it reports with
//
//   GBps         n * sizeof(T) / time: the bytes the reduction must read, per second (1e9 bytes)
//   vs_cub       on every row but CUB's: CUB's time / this row's time for the same type, op, n and
//                mode (> 1: faster than CUB). CUB's time is the median of its row's repetitions,
//                which run first in the same process on the same input slices.
//   calls_per_batch  back_to_back rows: calls between the two events
#pragma once
#include <cstdint>
#include <string>

#include "algorithm.hpp"
#include "ceiling.hpp"
#include "harness.hpp"
#include "timing.hpp"

namespace bench {

std::string row_name(const std::string& type, const std::string& op, const std::string& lib, mode m, std::int64_t n);

struct row {
  const algorithm* alg = nullptr;
  const algorithm* cub = nullptr;  // CUB for the same type and op; null on CUB rows
  std::int64_t n = 0;
  mode m = mode::single;
  int calls = 1;                // per measurement: 1 (single), or the batch (back_to_back)
  std::int64_t iterations = 1;  // measurements per repetition

  std::string name() const { return row_name(alg->type, alg->op, alg->lib, m, n); }
  timed_row timed() const;  // the row as the harness runs it
};

// Sizes the row from the time a call should take (n * sizeof(T) at the ceiling, plus 5 us of
// launches, plus 30 us where the call returns its result to the host) and 15 us of event overhead
// per measurement: a back_to_back batch lasts about 2 ms (10 to 100 calls), and a repetition about
// target_seconds (10 to 1000 measurements single, 5 to 100 back_to_back). Rows slower than the
// estimate (the early ladder rungs) take proportionally longer.
row plan_row(const algorithm& alg, const algorithm* cub, std::int64_t n, mode m, const bandwidth_ceiling& ceiling,
             double target_seconds);

}  // namespace bench
