// Compile-only: the device-wide reduce on every operator, with the default composition and a rung
// of the ladder, for sm_80 and sm_100 (CMakeLists.txt).
#include <tally/reduce.cuh>

void reduce_on_every_architecture(const float* f, const double* d, const __half* h, const int* i, tally::index_t n,
                                  float* out, tally::arg<double>* where, int* total, cudaStream_t stream) {
  tally::reduce<tally::default_reduce_policy<float>>(f, n, out, tally::op::sum{}, stream);
  tally::reduce<tally::default_reduce_policy<float, tally::op::min>>(f, n, out, tally::op::min{}, stream);
  tally::reduce<tally::default_reduce_policy<double, tally::op::arg_min>>(d, n, where, tally::op::arg_min{}, stream);
  tally::reduce<tally::default_reduce_policy<__half>>(h, n, out, tally::op::sum{}, stream);
  tally::reduce<tally::reduce_policies::unroll_last_warp>(i, n, total, tally::op::sum{}, stream);
}
