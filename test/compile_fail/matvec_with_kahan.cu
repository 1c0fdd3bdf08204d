// matvec forms its products in the accumulator: a compensated (kahan) state has no product.
#include <tally/matvec.cuh>

void f(const float* a, const float* x, float* y) {
  tally::matvec<tally::rows_policy<tally::rows::by_shape, tally::accum::kahan>>(a, 10, 10, 10, x, y);
}
