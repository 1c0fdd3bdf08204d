// What the three benchmark programs' main() do the same way: split the command line between their
// own flags and Google Benchmark's, find the GPU, and turn any failure into one line on stderr.
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "device.hpp"

namespace bench {

class command_line {
 public:
  // Arguments matching one of `own_flags` stay with the program, in their order (a flag ending in
  // '=' matches every argument it begins, the others match whole); the rest go to Google Benchmark.
  // --help (or -h) prints `usage` and is passed on: Google Benchmark then lists its flags and exits.
  command_line(int argc, char** argv, const std::vector<std::string>& own_flags, const char* usage);

  const std::vector<std::string>& own() const { return own_; }

  // benchmark::Initialize with this run's defaults ahead of the user's flags, so that the user's
  // win: --benchmark_repetitions=<repetitions> --benchmark_report_aggregates_only=true. False when
  // Google Benchmark rejects a flag (it has said which).
  bool start_benchmark(int repetitions);

  // The argv Google Benchmark was given (for reporters.hpp), and the last --<name>=value in it.
  const std::vector<std::string>& benchmark_args() const { return benchmark_args_; }
  std::optional<std::string> benchmark_flag(const std::string& name) const;

 private:
  std::string program_;
  std::vector<std::string> own_, rest_, benchmark_args_;
};

// The last --<name>=value (or -<name>=value) in args.
std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& name);

// X of "--flag=X", which must be a positive number of `unit`; throws std::invalid_argument otherwise.
double positive_flag(const std::string& arg, const char* unit);

// The current device; throws "no CUDA device (why)" when there is none.
device_info require_device();

// main() of every program: run(argc, argv), with an exception reported as "<program>: <what>" and
// exit status 1.
int guarded_main(const char* program, int (*run)(int, char**), int argc, char** argv);

}  // namespace bench
