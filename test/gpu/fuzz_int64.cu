// The fuzz table's std::int64_t entries (support/fuzz_entries.cuh); one translation unit per type.
#include "support/fuzz_entries.cuh"

namespace tally::test::fuzz {

void add_int64_entries(std::vector<entry>& table) { add_entries<std::int64_t, 3>(table, "int64", compositions{}); }

}  // namespace tally::test::fuzz
