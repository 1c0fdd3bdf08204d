#include "reporters.hpp"

#include <cstdio>

#include <unistd.h>

#include "program.hpp"

namespace bench {

namespace {

template <class Base>
class row_name_reporter : public Base {
 public:
  template <class... Args>
  explicit row_name_reporter(std::size_t name_width, Args... args) : Base(args...), name_width_(name_width) {}

  bool ReportContext(const benchmark::BenchmarkReporter::Context& context) override {
    benchmark::BenchmarkReporter::Context c = context;
    c.name_field_width = name_width_ + 8;  // + "_median", "_stddev"
    return Base::ReportContext(c);
  }

  void ReportRuns(const std::vector<benchmark::BenchmarkReporter::Run>& runs) override {
    std::vector<benchmark::BenchmarkReporter::Run> renamed = runs;
    for (auto& run : renamed) {
      run.run_name.iterations.clear();
      run.run_name.time_type.clear();
    }
    Base::ReportRuns(renamed);
  }

 private:
  std::size_t name_width_;
};

bool is_true(const std::string& v) { return v == "true" || v == "1" || v == "yes"; }

std::unique_ptr<benchmark::BenchmarkReporter> make(const std::string& format, benchmark::ConsoleReporter::OutputOptions opts,
                                                   std::size_t name_width) {
  if (format == "console")
    return std::make_unique<row_name_reporter<benchmark::ConsoleReporter>>(name_width, opts);
  if (format == "json") return std::make_unique<row_name_reporter<benchmark::JSONReporter>>(name_width);
  return nullptr;
}

}  // namespace

reporters make_reporters(const std::vector<std::string>& args, std::size_t name_width) {
  using CR = benchmark::ConsoleReporter;
  const std::string color = flag_value(args, "benchmark_color").value_or("auto");
  const bool use_color = color == "auto" ? isatty(fileno(stdout)) != 0 : is_true(color);
  const bool tabular = is_true(flag_value(args, "benchmark_counters_tabular").value_or("false"));
  const auto opts = static_cast<CR::OutputOptions>((use_color ? CR::OO_Color : CR::OO_None) |
                                                   (tabular ? CR::OO_Tabular : CR::OO_None));
  reporters r;
  r.display = make(flag_value(args, "benchmark_format").value_or("console"), opts, name_width);
  if (flag_value(args, "benchmark_out").value_or("").empty()) return r;
  r.file = make(flag_value(args, "benchmark_out_format").value_or("json"), CR::OO_None, name_width);
  return r;
}

}  // namespace bench
