// y = A x for a row-major M x N matrix A with leading dimension ld: y[i] = sum over j of
// A[i][j] * x[j]. It is reduce_rows with a "dot" transform (each element times x[j], in the
// accumulator type) and op::sum, on the same row strategies and the same shape rule. Arguments come
// in reduce_rows' order: the matrix and its shape, then x, then y.
//
//   tally::matvec(d_A, M, N, ld, d_x, d_y, stream);                            // default policy
//   tally::matvec<tally::rows_policy<tally::rows::by_shape, tally::accum::wide>>(d_A, M, N, ld, d_x, d_y);
//   tally::rows_reducer<P, float> r;  r.dot(d_A, M, N, ld, d_x, d_y, stream);  // owned workspace
//
// float accumulates in float by default (as cublasSgemv does); accum::wide accumulates in double.
// accum::kahan and accum::reproducible are refused at compile time: they sum elements, not products.
// The plan reads 16-byte items when A, x and every row start are 16-byte aligned. Errors as
// reduce_rows, plus a null x with M, N > 0 and a misaligned x. N == 0 gives y = 0.
#pragma once
#include <tally/reduce_rows.cuh>

namespace tally {

template <class P, class T, class Out>
void matvec(const T* a, index_t m, index_t n, index_t ld, const T* x, Out* y, cudaStream_t stream = 0) {
  detail::validate_rows(a, m, n, ld, y, "tally::matvec", x, true);
  if (m == 0) return;
  rows_reducer<P, T, op::sum> r;
  detail::with_pool_workspace(r.need(r.plan(a, m, n, ld, x)), stream, "tally::matvec",
                              [&](void* ws, std::size_t bytes) { r.run_dot(a, m, n, ld, x, y, ws, bytes, stream); });
}

template <class T, class Out>
void matvec(const T* a, index_t m, index_t n, index_t ld, const T* x, Out* y, cudaStream_t stream = 0) {
  matvec<default_rows_policy<T, op::sum>>(a, m, n, ld, x, y, stream);
}

// Deprecated argument order (a, x, y, m, n, ld).
template <class P, class T, class Out>
[[deprecated("tally::matvec(a, x, y, m, n, ld): use matvec(a, m, n, ld, x, y)")]] void matvec(
    const T* a, const T* x, Out* y, index_t m, index_t n, index_t ld, cudaStream_t stream = 0) {
  matvec<P>(a, m, n, ld, x, y, stream);
}
template <class T, class Out>
[[deprecated("tally::matvec(a, x, y, m, n, ld): use matvec(a, m, n, ld, x, y)")]] void matvec(
    const T* a, const T* x, Out* y, index_t m, index_t n, index_t ld, cudaStream_t stream = 0) {
  matvec<default_rows_policy<T, op::sum>>(a, m, n, ld, x, y, stream);
}

}  // namespace tally
