// The fuzz table's __half entries (support/fuzz_entries.cuh); one translation unit per type.
#include "support/fuzz_entries.cuh"

namespace tally::test::fuzz {

void add_half_entries(std::vector<entry>& table) { add_entries<__half, 4>(table, "half", compositions{}); }

}  // namespace tally::test::fuzz
