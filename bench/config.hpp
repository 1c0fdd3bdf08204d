// What a run measures. tally_bench's own flags (the rest go to Google Benchmark):
//
//   (none)          full run: n = 2^10, 2^12, ..., 2^28 and 1000003, 2^24 + 3, 3 * 2^26 + 1; float,
//                   int32, double x sum, min, arg_min x cub, thrust, tally_default; the ladder for
//                   int32 and float sum at every n; 7 repetitions of about 20 ms of GPU time each
//   --quick         n = 2^10, 2^16, 2^20, 2^24, 2^28, the ladder for int32 sum at 2^22 and 2^24
//                   (with cub and tally_default there); 5 repetitions of about 5 ms
//   --ladder        only the ladder report: int32 sum at 2^22 and 2^24, every rung plus cub and
//                   tally_default; 9 repetitions of about 20 ms
//   --target_ms=X   GPU time one repetition of a row aims at
//
// The repetitions are Google Benchmark's: --benchmark_repetitions=N overrides them, and
// --benchmark_report_aggregates_only=false keeps every repetition in the output.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "algorithm.hpp"

namespace bench {

enum class run_kind { full, quick, ladder };

struct run_config {
  run_kind kind = run_kind::full;
  std::vector<std::int64_t> sizes;         // rows of cub, thrust, tally_default
  std::vector<std::int64_t> ladder_sizes;  // ladder rows, and int32-sum cub and tally_default rows
  std::vector<std::string> ladder_types;
  int repetitions = 7;
  double target_seconds = 20e-3;

  const char* name() const;
  bool wants(const algorithm& a, std::int64_t n) const;
  std::vector<std::int64_t> all_sizes() const;  // sizes and ladder_sizes, ascending
};

// tally_bench's own flags, for command_line (program.hpp), and its --help text.
extern const std::vector<std::string> own_flags;
extern const char* const usage;

// The run the own flags ask for (the last of --full, --quick, --ladder wins). Throws
// std::invalid_argument on a bad --target_ms.
run_config parse_args(const std::vector<std::string>& own);

}  // namespace bench
