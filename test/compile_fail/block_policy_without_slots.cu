// Must not compile: a block policy that does not say how many shared-memory slots it needs breaks
// the block family's contract, and reduce_policy names the missing member.
#include <tally/reduce.cuh>

struct no_slots {
  static constexpr const char* name = "no_slots";
  static constexpr bool fixed_order = true;
  template <int Threads, class S, class View, class Op>
  __device__ static S reduce(S v, View, Op) { return v; }
};

using bad = tally::reduce_policy<tally::load::single, no_slots, tally::smem::static_array>;
static_assert(bad::threads == 256);
