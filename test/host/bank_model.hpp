// A model of the 32 shared-memory banks, shared by the host tests of the 1-D layouts (reduce) and
// the 2-D tiles (transpose): how many wavefronts one warp-wide access needs.
//
// Shared memory serves 128 bytes per wavefront: a warp of accesses of up to 4 bytes in one phase,
// 8-byte accesses in two half-warps, 16-byte accesses in four quarter-warps. Within a phase,
// distinct 4-byte words in one bank serialise; lanes reading the same word share it.
#pragma once
#include <algorithm>
#include <cstddef>
#include <map>
#include <set>
#include <vector>

namespace tally::test {

struct bank_cost {
  int ways = 1;        // worst conflict of any phase: 1 is conflict-free
  int wavefronts = 0;  // all phases
  int ideal = 0;       // wavefronts without conflicts: one per phase that has an active lane
};

// Lane t accesses access_bytes bytes at byte offset offset[t] (-1: lane inactive).
inline bank_cost bank_cost_of(const std::vector<long>& offset, std::size_t access_bytes) {
  constexpr long word_bytes = 4, banks = 32;
  const int lanes_per_phase = access_bytes >= 4 ? static_cast<int>(128 / access_bytes) : 32;
  bank_cost cost;
  for (int phase = 0; phase < 32; phase += lanes_per_phase) {
    std::map<long, std::set<long>> words_in_bank;
    for (int lane = phase; lane < phase + lanes_per_phase; ++lane) {
      if (offset[lane] < 0) continue;
      const long first = offset[lane] / word_bytes;
      const long last = (offset[lane] + static_cast<long>(access_bytes) - 1) / word_bytes;
      for (long w = first; w <= last; ++w) words_in_bank[w % banks].insert(w);
    }
    if (words_in_bank.empty()) continue;
    int ways = 1;
    for (const auto& [bank, words] : words_in_bank) ways = std::max(ways, static_cast<int>(words.size()));
    cost.ways = std::max(cost.ways, ways);
    cost.wavefronts += ways;
    cost.ideal += 1;
  }
  return cost;
}

// Worst conflict of a warp in which lane t touches element idx[t] of type T (-1: inactive).
template <class T>
int conflict_ways(const std::vector<long>& idx) {
  std::vector<long> offset(idx.size());
  for (std::size_t i = 0; i < idx.size(); ++i) offset[i] = idx[i] < 0 ? -1 : idx[i] * static_cast<long>(sizeof(T));
  return bank_cost_of(offset, sizeof(T)).ways;
}

}  // namespace tally::test
