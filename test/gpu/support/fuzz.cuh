// The differential fuzz test (fuzz_test.cu): random cases drawn from a fixed table of (composition,
// element type, operator) entries, each reduced by tally and by cub::DeviceReduce on the same
// device window and compared. The table is filled by one translation unit per element type
// (fuzz_<type>.cu), so that its instantiations compile in parallel.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include <tally/types.hpp>

namespace tally::test::fuzz {

// One device allocation, filled per case only where the case reads: [offset, offset + n * size).
struct arena {
  unsigned char* base = nullptr;
  std::size_t bytes = 0;
};

struct fuzz_case {
  std::uint64_t index = 0;  // case number within the run
  std::uint64_t seed = 0;   // the data's seed
  int entry = 0;            // into the table
  index_t n = 0;
  std::size_t offset_bytes = 0;  // of the input from the arena's (256-byte aligned) base
};

// Runs one case: fills the window, reduces it with tally and CUB, compares (doctest CHECKs), and
// checks that the input is unchanged.
using run_fn = void (*)(const fuzz_case&, const arena&);

struct entry {
  std::string policy;  // reduce_policy::name()
  const char* type;
  const char* op;
  std::size_t element_bytes;
  index_t tile;  // elements per tile: the sizes around its multiples are block boundaries
  int threads;
  run_fn run;
};

void add_float_entries(std::vector<entry>&);
void add_double_entries(std::vector<entry>&);
void add_int32_entries(std::vector<entry>&);
void add_int64_entries(std::vector<entry>&);
void add_half_entries(std::vector<entry>&);

}  // namespace tally::test::fuzz
