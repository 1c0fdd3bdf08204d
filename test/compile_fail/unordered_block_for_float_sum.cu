// Must not compile: a block policy whose order of combination is not fixed (as an atomic one's
// would be) cannot give a float sum the same bits run to run, so reducer rejects it unless the
// caller asks for tally::determinism::not_guaranteed. (An exact operator, an int sum, would pass.)
#include <tally/reduce.cuh>

struct unordered : tally::block::warp_shuffle {
  static constexpr const char* name = "unordered";
  static constexpr bool fixed_order = false;
};

using P = tally::reduce_policy<tally::load::vector<2>, unordered, tally::smem::static_array>;
tally::reducer<P, int> exact_is_fine;                                              // int sum: exact
tally::reducer<P, float, tally::op::sum, tally::determinism::not_guaranteed> asked;  // accepted
tally::reducer<P, float> rejected;                                                  // must fail
