// CSR sparse matrix-vector product y = A x: y[r] = sum over j in [row_offsets[r], row_offsets[r + 1])
// of values[j] * x[cols[j]]. It is reduce_segments with each element times its column's x, in the
// accumulator type, on the same merge-path kernel: a row of a million non-zeros and a million empty
// rows cost what their items cost.
//
//   tally::csr_matvec(d_values, d_cols, d_row_offsets, rows, d_x, d_y, stream);     // default policy
//   tally::segments_reducer<P, double> r;  r.dot(d_values, d_cols, d_row_offsets, rows, d_x, d_y, stream);
//   auto plan = r.plan_dot(d_row_offsets, rows, stream);   // once per matrix, as cuSPARSE's preprocess
//   r.dot(d_values, d_cols, plan, d_x, d_y, stream);        // then each product skips the blocks' searches
//
// Products accumulate in the policy's accumulator, native or wide (kahan and reproducible are refused
// at compile time). row_offsets and cols may be 32- or 64-bit. The unchecked precondition of reduce_segments holds for
// row_offsets, and every column index must be a valid index of x. An empty row gives y[r] = 0.
#pragma once
#include <tally/reduce_segments.cuh>

namespace tally {

template <class P, class T, class Col, class Off, class Out>
void csr_matvec(const T* values, const Col* cols, const Off* row_offsets, index_t rows, const T* x, Out* y,
                cudaStream_t stream = 0) {
  detail::validate_csr(values, cols, row_offsets, rows, x, y);
  if (rows == 0) return;
  segments_reducer<P, T, op::sum> r;
  detail::with_pool_workspace(r.need(), stream, "tally::csr_matvec", [&](void* ws, std::size_t bytes) {
    r.run_dot(values, cols, row_offsets, rows, x, y, ws, bytes, stream);
  });
}

template <class T, class Col, class Off, class Out>
void csr_matvec(const T* values, const Col* cols, const Off* row_offsets, index_t rows, const T* x, Out* y,
                cudaStream_t stream = 0) {
  csr_matvec<default_csr_policy<T>>(values, cols, row_offsets, rows, x, y, stream);
}

}  // namespace tally
