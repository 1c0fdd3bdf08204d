#include "report.hpp"

#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>

#include "summary.hpp"

namespace bench {

namespace {

constexpr std::int64_t pow2(int k) { return std::int64_t{1} << k; }

// GB/s of a reduction of n elements: the n * sizeof(T) bytes it must read.
std::optional<double> read_gbps(std::optional<double> seconds, std::int64_t n, std::size_t element_bytes) {
  return gbps(seconds, static_cast<double>(n) * static_cast<double>(element_bytes));
}

// One step of the classical ladder: tally's rung and the figures the sources give for it.
struct ladder_step {
  const char* rung;          // tally::reduce_policies::<rung>; null for a step tally folds into another
  double harris_ms;          // Harris, "Optimizing Parallel Reduction in CUDA": G80, 2^22 int32
  double seed_us;            // seed 002's table (its n and GPU are not stated)
  double harris_gbps, seed_gbps;
};

constexpr ladder_step ladder_steps[] = {
    {"baseline", 8.054, 3118.4, 2.083, 42.503},
    {"strided", 3.456, 1904.4, 4.854, 73.522},
    {"sequential", 1.722, 1475.2, 9.741, 97.536},
    {"first_add", 0.965, 758.38, 17.377, 189.78},
    {"unroll_last_warp", 0.536, 484.01, 31.289, 287.25},
    {nullptr, 0.381, 0, 43.996, 0},  // Harris' kernel 6: tally's unroll_last_warp already is it
    {"complete_unroll", 0.268, 477.23, 62.671, 291.77},
};

// Off the ladder: cumulative speed-up only.
constexpr const char* side_rows[] = {"ladder_unroll4", "ladder_shuffle", "ladder_atomic", "ladder_atomic_hybrid", "cub", "tally_default"};

constexpr std::int64_t ladder_sizes[] = {pow2(22), pow2(24)};

std::optional<double> ladder_time(const results& r, const std::string& lib, std::int64_t n) {
  return r.median(row_name("int32", "sum", lib, mode::back_to_back, n));
}

std::optional<double> positive(double v) { return v > 0 ? std::optional<double>(v) : std::nullopt; }

// One column group: time, GB/s, speed-up over the row above and over the baseline.
std::string group(std::optional<double> time, int time_precision, std::optional<double> gbps_value, int gbps_precision,
                  std::optional<double> above, std::optional<double> base) {
  return "|" + cell(time, 9, time_precision) + cell(gbps_value, 9, gbps_precision) +
         cell(ratio(above, time), 7, 2) + cell(ratio(base, time), 7, 2) + " ";
}

std::string tally_group(const results& r, const char* lib, std::int64_t n, std::optional<double> above,
                        std::optional<double> base) {
  const auto t = lib ? ladder_time(r, lib, n) : std::nullopt;
  return group(t ? std::optional<double>(*t * 1e6) : std::nullopt, 1, read_gbps(t, n, 4), 1,
               above ? std::optional<double>(*above * 1e6) : std::nullopt,
               base ? std::optional<double>(*base * 1e6) : std::nullopt);
}

void print_line(std::string line) {
  while (!line.empty() && line.back() == ' ') line.pop_back();
  std::printf("%s\n", line.c_str());
}

std::string label(const std::string& text) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%-24s", text.c_str());
  return buf;
}

}  // namespace

void print_ladder_report(const results& r, const std::string& gpu) {
  std::optional<double> base[2];
  for (int i = 0; i < 2; ++i) base[i] = ladder_time(r, "ladder_baseline", ladder_sizes[i]);
  if (!base[0] && !base[1]) return;

  std::printf("\n== The reduction ladder: int32 sum, back_to_back (time per call, input from device memory), %s ==\n",
              gpu.c_str());
  std::printf("%s| %-32s| %-32s| %-32s| %s\n", label("").c_str(), "n = 2^22, this GPU", "n = 2^24, this GPU",
              "Harris, G80, n = 2^22", "seed 002 article");
  const char* columns = "       us     GB/s   step  cumul ";
  print_line(label("rung") + "|" + columns + "|" + columns + "|       ms     GB/s   step  cumul |" + columns);

  std::optional<double> above[2], harris_above, seed_above;
  const double harris_base = ladder_steps[0].harris_ms, seed_base = ladder_steps[0].seed_us;
  for (const ladder_step& s : ladder_steps) {
    const std::string lib = s.rung ? std::string("ladder_") + s.rung : "";
    std::string line = label(s.rung ? s.rung : "  (Harris kernel 6)");
    for (int i = 0; i < 2; ++i) {
      line += tally_group(r, s.rung ? lib.c_str() : nullptr, ladder_sizes[i], above[i], base[i]);
      if (s.rung) above[i] = ladder_time(r, lib, ladder_sizes[i]);
    }
    // The sources' figures as published.
    line += group(s.harris_ms, 3, s.harris_gbps, 3, harris_above, harris_base);
    line += group(positive(s.seed_us), 2, positive(s.seed_gbps), 3, s.seed_us > 0 ? seed_above : std::nullopt, seed_base);
    harris_above = s.harris_ms;
    if (s.seed_us > 0) seed_above = s.seed_us;
    print_line(line);
  }
  for (const char* lib : side_rows) {
    const std::string name = lib;
    std::string line = label(name.rfind("ladder_", 0) == 0 ? name.substr(7) : name);
    for (int i = 0; i < 2; ++i) line += tally_group(r, lib, ladder_sizes[i], std::nullopt, base[i]);
    print_line(line + "|");
  }
  std::printf(
      "step = time of the rung above / time; cumul = baseline time / time. unroll4 (seed 004), shuffle (seed 001),\n"
      "atomic and atomic_hybrid (seed 003: complete_unroll with shared-memory atomics in the block, every thread\n"
      "on one slot, or groups of 8 on their own slot first), cub and tally_default are off the ladder: cumulative\n"
      "only. Harris' kernels 1-7: interleaved addressing with divergent branches (baseline), with bank conflicts\n"
      "(strided), sequential addressing, first add during load, unroll last warp, completely unrolled (kernel 6:\n"
      "tally's unroll_last_warp already has a compile-time block size, so it is kernels 5 and 6 at once), multiple\n"
      "elements per thread (complete_unroll). Seed 002's rows:\n"
      "Baseline, 交错寻址 (strided), 解决 bank conflict (sequential), 去除 idle 线程 (first_add), 展开最后一个 Warp\n"
      "(unroll_last_warp), 完全展开 (complete_unroll); its speed-ups are recomputed from its times (its own column\n"
      "prints 2.29 for the third row, where its times give 2.11).\n");
}

void print_summary(const results& r, const std::string& gpu, const bandwidth_ceiling& ceiling) {
  constexpr std::int64_t sizes[] = {pow2(10), pow2(16), pow2(20), pow2(24), pow2(28)};
  struct type_info {
    const char* name;
    std::size_t bytes;
  };
  constexpr type_info types[] = {{"float", 4}, {"int32", 4}, {"double", 8}};
  constexpr const char* ops[] = {"sum", "min", "arg_min"};
  constexpr mode modes[] = {mode::single, mode::back_to_back};

  std::printf("\n== tally_default vs CUB on %s: median time per call; GB/s = n * sizeof(T) / time; "
              "vs_cub = CUB time / tally time ==\n", gpu.c_str());
  std::printf("read ceiling %.1f GB/s (%s); device-to-device copy %.1f GB/s (read + write)\n",
              ceiling.read_GBps, ceiling.read_config.c_str(), ceiling.copy_GBps);
  std::printf("%-7s %-8s %-6s |%-30s |%s\n", "", "", "", "  single", "  back_to_back");
  std::printf("%-7s %-8s %-6s |%s |%s\n", "type", "op", "n", "  tally GB/s   CUB GB/s vs_cub", "  tally GB/s   CUB GB/s vs_cub");
  for (const type_info& t : types)
    for (const char* op : ops)
      for (const std::int64_t n : sizes) {
        std::string line;
        bool any = false;
        for (const mode m : modes) {
          const auto tally = r.median(row_name(t.name, op, "tally_default", m, n));
          const auto cub = r.median(row_name(t.name, op, "cub", m, n));
          any = any || tally || cub;
          line += " |" + cell(read_gbps(tally, n, t.bytes), 12, 1) + cell(read_gbps(cub, n, t.bytes), 11, 1) + cell(ratio(cub, tally), 7, 3);
        }
        if (any) std::printf("%-7s %-8s %-6s%s\n", t.name, op, size_label(n).c_str(), line.c_str());
      }
}

void print_kahan_cost(const results& r, const std::string& gpu) {
  struct type_info {
    const char* name;
    std::size_t bytes;
  };
  constexpr type_info types[] = {{"float", 4}, {"double", 8}};
  bool header = false;
  for (const type_info& t : types)
    for (int k = 10; k <= 28; k += 2)
      for (const mode m : {mode::single, mode::back_to_back}) {
        const std::int64_t n = pow2(k);
        const auto kahan = r.median(row_name(t.name, "sum", "tally_kahan", m, n));
        const auto native = r.median(row_name(t.name, "sum", "tally_default", m, n));
        if (!kahan || !native) continue;
        if (!header) {
          std::printf("\n== accum::kahan vs the native accumulator (tally_default), sum, %s: cost = kahan time / "
                      "native time - 1 ==\n", gpu.c_str());
          std::printf("%-7s %-6s %-13s %12s %12s %8s\n", "type", "n", "mode", "native GB/s", "kahan GB/s", "cost");
          header = true;
        }
        std::printf("%-7s %-6s %-13s%s%s %7.1f%%\n", t.name, size_label(n).c_str(),
                    m == mode::single ? "single" : "back_to_back", cell(read_gbps(native, n, t.bytes), 13, 1).c_str(),
                    cell(read_gbps(kahan, n, t.bytes), 13, 1).c_str(), 100.0 * (*kahan / *native - 1.0));
      }
}

}  // namespace bench
