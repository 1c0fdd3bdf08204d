#include "program.hpp"

#include <cstdio>
#include <exception>
#include <stdexcept>

#include <benchmark/benchmark.h>

namespace bench {

namespace {

bool matches(const std::string& arg, const std::string& flag) {
  return flag.back() == '=' ? arg.rfind(flag, 0) == 0 : arg == flag;
}

}  // namespace

command_line::command_line(int argc, char** argv, const std::vector<std::string>& own_flags, const char* usage)
    : program_(argv[0]) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    bool own = false;
    for (const std::string& f : own_flags) own = own || matches(a, f);
    if (own) {
      own_.push_back(a);
      continue;
    }
    if (a == "--help" || a == "-h") std::fputs(usage, stdout);
    rest_.push_back(a);
  }
}

bool command_line::start_benchmark(int repetitions) {
  benchmark_args_ = {program_, "--benchmark_repetitions=" + std::to_string(repetitions),
                     "--benchmark_report_aggregates_only=true"};
  benchmark_args_.insert(benchmark_args_.end(), rest_.begin(), rest_.end());
  // Initialize takes char**; it reorders the pointers, not the strings, so a copy of them is enough.
  std::vector<char*> ptrs;
  for (std::string& a : benchmark_args_) ptrs.push_back(a.data());
  int argc = static_cast<int>(ptrs.size());
  benchmark::Initialize(&argc, ptrs.data());
  return !benchmark::ReportUnrecognizedArguments(argc, ptrs.data());
}

std::optional<std::string> command_line::benchmark_flag(const std::string& name) const {
  return flag_value(benchmark_args_, name);
}

std::optional<std::string> flag_value(const std::vector<std::string>& args, const std::string& name) {
  std::optional<std::string> value;
  for (const std::string& a : args)
    for (const std::string& prefix : {"--" + name + "=", "-" + name + "="})
      if (a.rfind(prefix, 0) == 0) value = a.substr(prefix.size());
  return value;
}

double positive_flag(const std::string& arg, const char* unit) {
  double value = -1;
  try {
    value = std::stod(arg.substr(arg.find('=') + 1));
  } catch (const std::exception&) {
  }
  if (!(value > 0)) throw std::invalid_argument("bad " + arg + " (a positive number of " + unit + ")");
  return value;
}

device_info require_device() {
  std::string why;
  const auto device = probe_device(why);
  if (!device) throw std::runtime_error("no CUDA device (" + why + ")");
  return *device;
}

int guarded_main(const char* program, int (*run)(int, char**), int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", program, e.what());
    return 1;
  }
}

}  // namespace bench
