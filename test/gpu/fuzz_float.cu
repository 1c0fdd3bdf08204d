// The fuzz table's float entries (support/fuzz_entries.cuh); one translation unit per type.
#include "support/fuzz_entries.cuh"

namespace tally::test::fuzz {

void add_float_entries(std::vector<entry>& table) { add_entries<float, 0>(table, "float", compositions{}); }

}  // namespace tally::test::fuzz
