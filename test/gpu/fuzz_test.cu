// Differential fuzz test: random cases, each reduced by tally and by cub::DeviceReduce on the same
// device window and compared (exactly for integer sums, min, max and arg_*; within the two
// libraries' rounding bounds for floating sums), the input re-verified afterwards.
//
// A case draws, from a seed derived from (TALLY_FUZZ_SEED, case number): an entry of the table
// (composition x element type x operator, support/fuzz_entries.cuh), a start offset (every multiple
// of the element size within 64 bytes of a 256-byte boundary, so every vector head length), and n:
// log-uniform from 0 to 2^31.05 (~70%), around multiples of the composition's tile, block or warp
// (~30%), or just above 2^31 (0.4%). Data is generated on the device in the window the case reads,
// inside one arena allocated once.
//
//   TALLY_FUZZ_SEED=S     the run's seed (default: from the clock); printed first
//   TALLY_FUZZ_CASES=N    cases to run (default 2000; the long mode is 100000)
//   TALLY_FUZZ_FIRST=I    first case number (with TALLY_FUZZ_CASES=1: replay case I alone)
//   TALLY_TEST_MAX_N=M    caps n (the sanitizer runs)
// A failing check prints the case, its parameters and the command line that replays it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>

#include "support/data.cuh"
#include "support/fuzz.cuh"

using namespace tally;
using namespace tally::test;
using namespace tally::test::fuzz;

namespace {

std::uint64_t env_u64(const char* name, std::uint64_t fallback) {
  const char* v = std::getenv(name);
  return v ? std::strtoull(v, nullptr, 0) : fallback;
}

constexpr index_t two_pow(int k) { return index_t{1} << k; }

// Largest n a case may use: just beyond 2^31 (log-uniform reaches 2^31.05), capped for sanitizers.
index_t largest_n() { return capped(static_cast<index_t>(std::ldexp(1.0, 31) * 1.04) + two_pow(20)); }

// The arena: room for largest_n() elements of 8 bytes past a 64-byte offset, or 70% of the free
// memory where that is less (cases then clamp n to what fits, and the run says so).
arena make_arena() {
  std::size_t free_bytes = 0, total_bytes = 0;
  TALLY_TEST_CHECK_CUDA(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::size_t wanted = static_cast<std::size_t>(largest_n()) * 8 + 64;
  const std::size_t bytes = std::min(wanted, free_bytes / 10 * 7);
  arena a;
  a.bytes = bytes;
  TALLY_TEST_CHECK_CUDA(cudaMalloc(&a.base, bytes));
  std::printf("fuzz: arena of %.2f GB%s\n", static_cast<double>(bytes) * 1e-9,
              bytes < wanted ? " (less than wanted: n is clamped to what fits)" : "");
  return a;
}

fuzz_case draw_case(std::uint64_t master, std::uint64_t index, const std::vector<entry>& table, const arena& a) {
  std::mt19937_64 rng(mix(master, index));
  fuzz_case c;
  c.index = index;
  c.entry = static_cast<int>(rng() % table.size());
  const entry& e = table[c.entry];
  c.offset_bytes = e.element_bytes * (rng() % (64 / e.element_bytes));
  const std::uint64_t mode = rng() % 1000;
  index_t n = 0;
  if (mode < 4) {
    n = two_pow(31) + 1 + static_cast<index_t>(rng() % two_pow(20));
  } else if (mode < 300) {
    const std::uint64_t which = rng() % 3;
    const index_t unit = which == 0 ? e.tile : which == 1 ? e.threads : 32;
    const index_t k = rng() % 4 == 0 ? static_cast<index_t>(rng() % 5000) : static_cast<index_t>(rng() % 9);
    n = std::max<index_t>(0, k * unit + static_cast<index_t>(rng() % 3) - 1);
  } else {
    const double u = std::uniform_real_distribution<double>(0.0, 31.05)(rng);
    n = static_cast<index_t>(std::floor(std::exp2(u))) - 1;
  }
  const index_t fits = static_cast<index_t>((a.bytes - c.offset_bytes) / e.element_bytes);
  c.n = std::min({n, capped(n), fits});
  c.seed = rng();
  return c;
}

}  // namespace

TEST_CASE("fuzz: random compositions, types, operators, sizes and offsets give CUB's answer") {
  const std::uint64_t master = env_u64(
      "TALLY_FUZZ_SEED", static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                             std::random_device{}());
  const std::uint64_t cases = env_u64("TALLY_FUZZ_CASES", 2000);
  const std::uint64_t first = env_u64("TALLY_FUZZ_FIRST", 0);
  std::printf("TALLY_FUZZ_SEED=%llu (cases %llu..%llu)\n", static_cast<unsigned long long>(master),
              static_cast<unsigned long long>(first), static_cast<unsigned long long>(first + cases - 1));
  std::fflush(stdout);

  std::vector<entry> table;
  add_float_entries(table);
  add_double_entries(table);
  add_int32_entries(table);
  add_int64_entries(table);
  add_half_entries(table);
  REQUIRE(!table.empty());
  const arena a = make_arena();

  const auto start = std::chrono::steady_clock::now();
  std::map<std::string, int> per_type_op;
  index_t largest = 0;
  int beyond_2_31 = 0, empty = 0;
  for (std::uint64_t i = first; i < first + cases; ++i) {
    const fuzz_case c = draw_case(master, i, table, a);
    const entry& e = table[c.entry];
    INFO("fuzz case " << i << " of TALLY_FUZZ_SEED=" << master << ": " << std::string(e.type) << " " << e.op << ", policy "
                      << e.policy << ", n = " << c.n << ", input at byte offset " << c.offset_bytes
                      << ", data seed " << c.seed << "; replay: TALLY_FUZZ_SEED=" << master
                      << " TALLY_FUZZ_FIRST=" << i << " TALLY_FUZZ_CASES=1");
    e.run(c, a);
    ++per_type_op[std::string(e.type) + "/" + e.op];
    largest = std::max(largest, c.n);
    beyond_2_31 += c.n > two_pow(31);
    empty += c.n == 0;
    if ((i - first + 1) % 500 == 0) {
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      std::printf("fuzz: %llu cases in %.1f s\n", static_cast<unsigned long long>(i - first + 1), s);
      std::fflush(stdout);
    }
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("fuzz: %llu cases over %zu table entries in %.1f s; %d with n > 2^31, %d with n = 0, largest n %lld\n",
              static_cast<unsigned long long>(cases), table.size(), seconds, beyond_2_31, empty,
              static_cast<long long>(largest));
  std::printf("fuzz: cases per type/op:");
  for (const auto& [key, count] : per_type_op) std::printf(" %s %d", key.c_str(), count);
  std::printf("\n");
  cudaFree(a.base);
}
