#include "config.hpp"

#include <algorithm>

#include "program.hpp"

namespace bench {

namespace {

constexpr std::int64_t pow2(int k) { return std::int64_t{1} << k; }

bool contains(const std::vector<std::int64_t>& v, std::int64_t n) { return std::find(v.begin(), v.end(), n) != v.end(); }

}  // namespace

const char* run_config::name() const {
  switch (kind) {
    case run_kind::full: return "full";
    case run_kind::quick: return "quick";
    case run_kind::ladder: return "ladder";
  }
  return "?";
}

bool run_config::wants(const algorithm& a, std::int64_t n) const {
  const bool ladder_type = std::find(ladder_types.begin(), ladder_types.end(), a.type) != ladder_types.end();
  if (a.is_ladder()) return ladder_type && contains(ladder_sizes, n);
  if (contains(sizes, n)) return true;
  // The ladder table's reference rows.
  return a.type == "int32" && a.op == "sum" && a.lib != "thrust" && contains(ladder_sizes, n);
}

std::vector<std::int64_t> run_config::all_sizes() const {
  std::vector<std::int64_t> all = sizes;
  all.insert(all.end(), ladder_sizes.begin(), ladder_sizes.end());
  std::sort(all.begin(), all.end());
  all.erase(std::unique(all.begin(), all.end()), all.end());
  return all;
}

const std::vector<std::string> own_flags = {"--quick", "--full", "--ladder", "--target_ms="};

const char* const usage =
    "tally_bench: tally vs cub::DeviceReduce and thrust::reduce\n"
    "  (no flag)      full run: n = 2^10..2^28 (even powers) + 1000003, 2^24+3, 3*2^26+1;\n"
    "                 float/int32/double x sum/min/arg_min x cub/thrust/tally_default; the ladder\n"
    "                 for int32 and float sum; 7 repetitions\n"
    "  --quick        n = 2^10, 2^16, 2^20, 2^24, 2^28; ladder at 2^22 and 2^24 int32; 5 repetitions\n"
    "  --ladder       only the ladder report (int32 sum, 2^22 and 2^24); 9 repetitions\n"
    "  --target_ms=X  GPU time one repetition of a row aims at (20 full/ladder, 5 quick)\n"
    "Google Benchmark's flags follow (e.g. --benchmark_filter=, --benchmark_out=FILE\n"
    "--benchmark_out_format=json, --benchmark_repetitions=N).\n\n";

run_config parse_args(const std::vector<std::string>& own) {
  run_config cfg;
  double target_ms = 0;
  for (const std::string& a : own) {
    if (a == "--quick") cfg.kind = run_kind::quick;
    else if (a == "--full") cfg.kind = run_kind::full;
    else if (a == "--ladder") cfg.kind = run_kind::ladder;
    else target_ms = positive_flag(a, "milliseconds");  // --target_ms=
  }

  switch (cfg.kind) {
    case run_kind::full:
      for (int k = 10; k <= 28; k += 2) cfg.sizes.push_back(pow2(k));
      cfg.sizes.insert(cfg.sizes.end(), {1000003, pow2(24) + 3, 3 * pow2(26) + 1});
      std::sort(cfg.sizes.begin(), cfg.sizes.end());
      cfg.ladder_sizes = cfg.sizes;
      cfg.ladder_types = {"int32", "float"};
      cfg.repetitions = 7;
      cfg.target_seconds = 20e-3;
      break;
    case run_kind::quick:
      cfg.sizes = {pow2(10), pow2(16), pow2(20), pow2(24), pow2(28)};
      cfg.ladder_sizes = {pow2(22), pow2(24)};
      cfg.ladder_types = {"int32"};
      cfg.repetitions = 5;
      cfg.target_seconds = 5e-3;
      break;
    case run_kind::ladder:
      cfg.ladder_sizes = {pow2(22), pow2(24)};
      cfg.ladder_types = {"int32"};
      cfg.repetitions = 9;
      cfg.target_seconds = 20e-3;
      break;
  }
  if (target_ms > 0) cfg.target_seconds = target_ms * 1e-3;
  return cfg;
}

}  // namespace bench
