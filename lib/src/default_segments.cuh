// The default-policy segmented reductions and CSR SpMV behind <tally/tally.hpp>, and the macros that
// stamp the public functions of one element type into its source file (segments_int.cu,
// segments_float.cu, segments_float16.cu, csr_matvec.cu). Each public function checks its arguments
// (the template's checks: signs, null and misaligned pointers, naming the public function) before
// any CUDA call, then calls the one-off template with its default policy: libtally's bits are the
// template's.
#pragma once
#include <cstdint>

#include <tally/csr_matvec.cuh>
#include <tally/reduce_segments.cuh>
#include <tally/tally.hpp>

#include "device_reducer_impl.hpp"

namespace tally::detail {

// The unchecked form: offsets are a precondition (never read on the host).
template <class Op, class T, class Offset, class Out>
void segments_once(const char* where, const T* in, const Offset* offsets, index_t segments, Out* out,
                   cudaStream_t stream) {
  validate_segments(in, offsets, segments, out, where);
  if (segments == 0) return;
  naming(where, [&] { reduce_segments<default_segments_policy<T, Op>>(in, offsets, segments, out, Op{}, stream); });
}

// The checked form: the template tests the offsets against n on the device and throws naming the
// first bad segment ("tally::segment_sum: tally::reduce_segments: segment 1 (...) ...").
template <class Op, class T, class Offset, class Out>
void segments_checked_once(const char* where, const T* in, index_t n, const Offset* offsets, index_t segments,
                           Out* out, cudaStream_t stream) {
  validate_segments(in, offsets, segments, out, where, n, true);
  if (segments == 0) return;
  naming(where,
         [&] { reduce_segments<default_segments_policy<T, Op>>(in, n, offsets, segments, out, Op{}, stream); });
}

// The template's own name is the public one ("tally::csr_matvec"): its errors need no prefix.
template <class T, class Col, class Offset, class Y>
void csr_matvec_once(const T* values, const Col* cols, const Offset* row_offsets, index_t rows, const T* x, Y* y,
                     cudaStream_t stream) {
  validate_csr(values, cols, row_offsets, rows, x, y);
  if (rows == 0) return;
  tally::csr_matvec<default_csr_policy<T>>(values, cols, row_offsets, rows, x, y, stream);
}

}  // namespace tally::detail

// The public segmented reduction NAME (operator OP) on element type T with results OUT and OFFSET
// offsets: the unchecked and the checked form. Used inside namespace tally.
#define TALLY_DEFINE_SEGMENT(NAME, OP, T, OUT, OFFSET)                                                            \
  void NAME(const T* in, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream) {            \
    detail::segments_once<op::OP>("tally::" #NAME, in, offsets, num_segments, out, stream);                       \
  }                                                                                                               \
  void NAME(const T* in, index_t n, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream) { \
    detail::segments_checked_once<op::OP>("tally::" #NAME, in, n, offsets, num_segments, out, stream);            \
  }

// NAME with 32- and 64-bit offsets.
#define TALLY_DEFINE_SEGMENT_OFFSETS(NAME, OP, T, OUT)    \
  TALLY_DEFINE_SEGMENT(NAME, OP, T, OUT, std::int32_t) \
  TALLY_DEFINE_SEGMENT(NAME, OP, T, OUT, std::int64_t)

// Every segmented reduction on T (results of type T, arg<T> for the arg ones).
#define TALLY_DEFINE_ALL_SEGMENTS(T)                                \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_sum, sum, T, T)              \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_min, min, T, T)              \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_max, max, T, T)              \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_arg_min, arg_min, T, arg<T>) \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_arg_max, arg_max, T, arg<T>)

// A 16-bit floating type: segment_sum, segment_min and segment_max with float results.
#define TALLY_DEFINE_FLOAT16_SEGMENTS(T)                     \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_sum, sum, T, float) \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_min, min, T, float) \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_max, max, T, float)

// csr_matvec on T with 32-bit column indices and OFFSET row offsets.
#define TALLY_DEFINE_CSR_MATVEC(T, OFFSET)                                                                     \
  void csr_matvec(const T* values, const std::int32_t* cols, const OFFSET* row_offsets, index_t rows, const T* x, \
                  T* y, cudaStream_t stream) {                                                                 \
    detail::csr_matvec_once(values, cols, row_offsets, rows, x, y, stream);                                    \
  }
