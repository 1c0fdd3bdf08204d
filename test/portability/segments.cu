// Compile-only: reduce_segments and csr_matvec with the default compositions, for sm_80 and sm_100.
#include <cstdint>
#include <cuda_fp16.h>
#include <tally/csr_matvec.cuh>
#include <tally/reduce_segments.cuh>

void segments_on_every_architecture(const float* a, const __half* h, const int* offsets, const std::int64_t* offsets64,
                                    tally::index_t segments, float* sums, __half* maxima, const int* cols,
                                    const double* values, const double* x, double* y, cudaStream_t stream) {
  tally::reduce_segments(a, offsets, segments, sums, tally::op::sum{}, stream);
  tally::reduce_segments(h, offsets64, segments, maxima, tally::op::max{}, stream);
  tally::reduce_segments(a, offsets, offsets + 1, segments, sums, tally::op::sum{}, stream);
  tally::csr_matvec(values, cols, offsets, segments, x, y, stream);
}
