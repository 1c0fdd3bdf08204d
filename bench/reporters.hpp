// Google Benchmark appends "/iterations:N/manual_time" to the name of every row (each has a fixed
// iteration count and manual timing). N follows from the measured ceiling, so the names would change
// from GPU to GPU and run to run; these reporters drop both parts, so that each row is reported
// exactly under its name (harness.hpp) on the console and in --benchmark_out's file.
// Only the console and JSON formats are wrapped; CSV output keeps benchmark's own names.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

namespace bench {

struct reporters {
  std::unique_ptr<benchmark::BenchmarkReporter> display;  // null: benchmark's default
  std::unique_ptr<benchmark::BenchmarkReporter> file;     // null: benchmark's default (or no file)
};

// From the benchmark flags in `args` (the argv given to benchmark::Initialize): --benchmark_format,
// --benchmark_out, --benchmark_out_format, --benchmark_color, --benchmark_counters_tabular.
// name_width: the longest row name, for the console's name column.
reporters make_reporters(const std::vector<std::string>& args, std::size_t name_width);

}  // namespace bench
