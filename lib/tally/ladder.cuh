// Deprecated spelling: the ladder rungs are tally::reduce_policies (reduce_policies.cuh).
#pragma once
#include <tally/reduce_policies.cuh>

namespace tally {
namespace ladder = reduce_policies;
}  // namespace tally
