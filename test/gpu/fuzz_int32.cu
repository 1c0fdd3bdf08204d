// The fuzz table's std::int32_t entries (support/fuzz_entries.cuh); one translation unit per type.
#include "support/fuzz_entries.cuh"

namespace tally::test::fuzz {

void add_int32_entries(std::vector<entry>& table) { add_entries<std::int32_t, 2>(table, "int32", compositions{}); }

}  // namespace tally::test::fuzz
