// csr_matvec forms its products in the accumulator: a reproducible (binned) state has no product.
#include <tally/csr_matvec.cuh>

void f(const double* values, const int* cols, const int* offsets, const double* x, double* y) {
  tally::csr_matvec<tally::default_csr_policy<double>::with_accum<tally::accum::reproducible>>(values, cols, offsets, 10, x, y);
}
