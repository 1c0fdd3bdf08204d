// Must not compile: block::atomic folds with a shared-memory atomic, which exists for 32- and 64-bit
// integer sum, min and max only. A float sum is rejected with a sentence saying so, even when the
// caller accepts an unordered result (an int sum with the same composition compiles).
#include <tally/reduce.cuh>

using P = tally::reduce_policy<tally::load::vector<2>, tally::block::atomic, tally::smem::static_array>;

void exact_is_fine(const int* in, int* out) { tally::reducer<P, int>{}(in, 100, out); }
void rejected(const float* in, float* out) {
  tally::reducer<P, float, tally::op::sum, tally::determinism::not_guaranteed>{}(in, 100, out);  // must fail
}
