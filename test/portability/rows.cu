// Compile-only: reduce_rows and matvec with the default composition (every row strategy it runs),
// for sm_80 and sm_100 (CMakeLists.txt).
#include <tally/matvec.cuh>

void rows_on_every_architecture(const float* a, const double* b, tally::index_t m, tally::index_t n, float* sums,
                                const double* x, double* y, tally::arg<float>* where, cudaStream_t stream) {
  tally::reduce_rows(a, m, n, n, sums, tally::op::sum{}, stream);
  tally::reduce_rows(a, m, n, n, where, tally::op::arg_max{}, stream);
  tally::matvec(b, m, n, n, x, y, stream);
}
