// The two types tally's results and sizes are made of. Plain C++: shared by the template headers
// and by <tally/tally.hpp>, which g++ alone compiles.
#pragma once
#include <cstdint>

namespace tally {

// Every element offset is 64-bit: inputs beyond 2^31 elements are a supported size, not an edge case.
using index_t = std::int64_t;

// Result of arg_min / arg_max: the extreme value and the lowest index at which it occurs.
// For n == 0 the value is the operator's identity and the index is -1.
template <class V>
struct arg {
  V value;
  index_t index;
};

// A list of compositions: the named ones of each algorithm (reduce_policies::all, ...), which the
// tests and the benchmarks walk.
template <class... Ps>
struct policy_list {};

}  // namespace tally
