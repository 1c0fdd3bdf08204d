// The fuzz table's double entries (support/fuzz_entries.cuh); one translation unit per type.
#include "support/fuzz_entries.cuh"

namespace tally::test::fuzz {

void add_double_entries(std::vector<entry>& table) { add_entries<double, 1>(table, "double", compositions{}); }

}  // namespace tally::test::fuzz
