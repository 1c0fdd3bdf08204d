// Compile-only: the transpose's default compositions for 2-, 4- and 8-byte elements, for sm_80 and
// sm_100 (CMakeLists.txt).
#include <cstdint>

#include <tally/transpose.cuh>

void transpose_on_every_architecture(const std::uint16_t* a, std::uint16_t* at, const float* b, float* bt, const double* c,
                                     double* ct, tally::index_t rows, tally::index_t cols, cudaStream_t stream) {
  tally::transpose(a, at, rows, cols, stream);
  tally::transpose(b, bt, rows, cols, stream);
  tally::transpose(c, ct, rows, cols, stream);
}
