// <tally/tally.hpp>: precompiled default-policy algorithms for plain C++ programs.
//
// No CUDA syntax: g++ (or any C++11 compiler) includes this header and links libtally.a (or
// libtally.so) and the CUDA runtime (the `tally::tally` and `tally::tally_shared` CMake targets
// bring both). The functions are the default-policy instantiations of the templates
// (<tally/reduce.cuh>, <tally/reduce_rows.cuh>, <tally/matvec.cuh>, <tally/transpose.cuh>,
// <tally/sort.cuh>, <tally/merge.cuh>, <tally/reduce_segments.cuh>, <tally/csr_matvec.cuh>); use
// those directly for other types, operators or policies. <tally/tally.h> is the same for C.
//
//   #include <tally/tally.hpp>
//   tally::sum(d_in, n, d_out, stream);                 // one-off: workspace from the stream-ordered pool
//   tally::row_max(d_A, M, N, ld, d_max, stream);       // a result a row of a row-major M x N matrix
//   tally::matvec(d_A, M, N, ld, d_x, d_y, stream);     // y = A x
//   tally::transpose(d_A, d_At, M, N, stream);          // out of place, bits copied
//   tally::sort(d_keys, d_sorted, n, stream);           // stable, NaN last, -0 before +0
//   tally::sort_by_key(d_keys, d_vals, d_sorted, d_vals_out, n, stream);
//   tally::merge(d_keys, d_offsets, lists, n, d_merged, stream);  // sorted lists into one
//   tally::segment_sum(d_in, d_offsets, S, d_sums, stream);  // segment s: in[offsets[s], offsets[s + 1])
//   tally::csr_matvec(d_vals, d_cols, d_row_offsets, M, d_x, d_y, stream);  // CSR y = A x
//   tally::offsets_plan plan = tally::plan_csr_matvec<float>(d_row_offsets, M, stream);  // split once,
//   tally::csr_matvec(d_vals, d_cols, plan, d_x, d_y, stream);                           // call often
//
//   tally::device_reducer r;                            // allocates its workspace once, here
//   r.sum(d_a, n, d_sum, stream);                       // later calls allocate nothing
//   r.row_arg_max(d_A, M, N, ld, d_where, stream);
//   r.segment_sum(d_in, d_offsets, S, d_sums, stream);  // segmented reductions and csr_matvec too
//
// Device-wide reductions of in[0, n)
//   T = int32, int64, uint32, uint64, float, double:
//     sum     -> T        (accumulated in T, as cub::DeviceReduce::Sum does; integer sums wrap)
//     min, max -> T
//     arg_min, arg_max -> tally::arg<T> {value, index}: the lowest index among equal extremes
//   T = __half, __nv_bfloat16:
//     sum, min, max -> float (sums accumulate in float; min / max are exact)
//   T = float, double:
//     reproducible_sum -> T  (accum::reproducible: the same bits for the same multiset of values on
//                            every GPU, grid and split of the input; the exact sum rounded once
//                            unless elements span more than 2^56 (float) or 2^27 (double) in
//                            magnitude; docs/numerics.md)
//   For n == 0 the result is the identity: 0 for sum, the largest (min) or smallest (max) value of
//   the type (+-infinity for floating types), and index -1 for arg_min / arg_max.
// Row reductions of a row-major M x N matrix a with leading dimension ld >= N (element (i, j) at
// a[i * ld + j]), one result a row in out[0, M)
//   T = int32, int64, float, double: row_sum, row_min, row_max -> T; row_arg_min, row_arg_max ->
//     tally::arg<T> {value, column}
//   T = __half, __nv_bfloat16: row_sum, row_min, row_max -> float
//   M == 0 does nothing; N == 0 writes the identity to every row (as n == 0 above).
// matvec: y[i] = sum over j of a[i * ld + j] * x[j], for T = float, double (y of type T) and
//   __half, __nv_bfloat16 (products and sums in float, y float).
// transpose: out (cols x rows, row-major) = in (rows x cols, row-major) transposed, for every 2-,
//   4- and 8-byte element type below (the bits are copied); in and out must not overlap.
// Sorts and merges, on keys K = int32, int64, uint32, uint64, float, double, in key_order's total
// order (<tally/policies/key_order.cuh>): integers in their own order; floating keys -inf <
// negatives < -0 < +0 < positives < +inf < NaN, every NaN equal to every other and last. Stable:
// equal keys (NaNs of any payload, too) keep their input order, so the output's bits are a function
// of the input alone. Out of place: the input is never written, and no output may overlap an input
// or another output. Their workspace (about n keys, and n values) comes from the stream-ordered
// pool.
//   sort(keys, keys_out, n): keys_out[0, n) = keys[0, n) sorted.
//   sort_by_key(keys, values, keys_out, values_out, n): the keys sorted, values_out[i] the value
//     that came with keys_out[i]. Values are any trivially copyable 4- or 8-byte type (moved as
//     their bits, as std::uint32_t / std::uint64_t; the pointers aligned to their size).
//   merge(keys, offsets, num_lists, n, out): list i is keys[offsets[i], offsets[i + 1]), each
//     sorted in key_order; out[0, n) = their merge, equal keys in list order. The num_lists + 1
//     offsets (int32 or int64) are device memory, ascending from offsets[0] = 0 to
//     offsets[num_lists] = n (a precondition: they are not read on the host). num_lists = 0 only
//     with n = 0.
//   n == 0 queues nothing; keys and outputs may then be null (merge's offsets too if num_lists == 0).
// Segmented reductions: segment s of in is in[offsets[s], offsets[s + 1]), one result a segment in
// out[0, num_segments). The num_segments + 1 offsets (int32 or int64) are device memory; the
// unchecked form never reads them on the host.
//   T = int32, int64, float, double: segment_sum, segment_min, segment_max -> T; segment_arg_min,
//     segment_arg_max -> tally::arg<T> {value, index within the segment}, the lowest among equal
//     extremes
//   T = __half, __nv_bfloat16: segment_sum, segment_min, segment_max -> float (sums accumulate in
//     float; min / max are exact)
//   An empty segment gives the identity (as n == 0 above, index -1); num_segments == 0 queues
//   nothing (in, offsets and out may then be null).
//   Unchecked form (in, offsets, num_segments, out): a precondition, not tested: offsets[0] <=
//     offsets[1] <= ... <= offsets[num_segments], every one a valid index of in. Offsets that break
//     it give meaningless results, but nothing outside in[offsets[0], offsets[num_segments]), out
//     and the offsets is read or written.
//   Checked form (in, n, offsets, num_segments, out): in holds n elements; 0 <= offsets[s] <=
//     offsets[s + 1] <= n is tested on the device first, and a failure throws tally::error naming
//     the first bad segment, with out untouched. It waits for that test (a stream
//     synchronization), so it cannot be captured in a CUDA graph.
//   Workspace (tens of KiB: two partial states a resident block) from the stream-ordered pool, or
//   a device_reducer's.
// csr_matvec(values, cols, row_offsets, rows, x, y): CSR y = A x, y[r] = sum over j in
//   [row_offsets[r], row_offsets[r + 1]) of values[j] * x[cols[j]], for T = float, double (y of
//   type T), cols int32, row_offsets int32 or int64. The unchecked precondition above holds for
//   row_offsets, and every column index must be a valid index of x; an empty row gives 0;
//   rows == 0 queues nothing.
// Planned calls (offsets_plan, below): segment_sum and csr_matvec over a plan made once for many
//   calls over the same offsets, with the unplanned calls' bits.
//
// Every function
//   - takes device pointers: `in` holds n elements (it may be null when n == 0), `out` one result
//     (sorts and merges: n results; segments: one a segment);
//   - is asynchronous: it queues its work on `stream` and returns; *out is valid once the stream
//     reaches that point (cudaStreamSynchronize, an event, or a later kernel on the same stream);
//   - is deterministic: the same device, n and input give a bit-identical result;
//   - never writes the input.
//
// Errors: one convention, exceptions. Every failure a call detects throws tally::error (<tally/error.hpp>, derived
// from std::runtime_error) whose what() names the function and the problem, for example
//   "tally::sum: input pointer is null but n = 10".
// error::code() is the CUDA error behind it (cudaErrorMemoryAllocation, ...), or cudaSuccess for a
// bad argument or a misused device_reducer. Bad arguments (negative n or num_segments, a null input
// with n > 0, a null output, a pointer not aligned to its type, an output overlapping an input) are
// checked before any CUDA call: nothing is queued and *out is untouched.
// A failure of the queued kernels themselves (e.g. an input pointer that is not device memory)
// surfaces as CUDA errors do, as the status of the next synchronising CUDA call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <tally/error.hpp>
#include <tally/types.hpp>

// Stamps the declarations of every operation on one element type, for the free functions and for
// device_reducer's members alike: reductions `void op(in, n, out, stream = 0)` and row reductions
// `void row_op(a, m, n, ld, out, stream = 0)`. TALLY_VALUE_OPS_ / TALLY_ALL_OPS_ apply a declaration
// to sum, min, max (and arg_min, arg_max), their names prefixed with PREFIX (nothing, or row_).
#define TALLY_REDUCTION_(NAME, T, OUT) void NAME(const T* in, index_t n, OUT* out, cudaStream_t stream = 0);
#define TALLY_ROWS_(NAME, T, OUT) \
  void NAME(const T* a, index_t m, index_t n, index_t ld, OUT* out, cudaStream_t stream = 0);
#define TALLY_VALUE_OPS_(DECL, PREFIX, T, OUT) \
  DECL(PREFIX##sum, T, OUT)                    \
  DECL(PREFIX##min, T, OUT)                    \
  DECL(PREFIX##max, T, OUT)
#define TALLY_ALL_OPS_(DECL, PREFIX, T)    \
  TALLY_VALUE_OPS_(DECL, PREFIX, T, T)     \
  DECL(PREFIX##arg_min, T, arg<T>)         \
  DECL(PREFIX##arg_max, T, arg<T>)
#define TALLY_MATVEC_(T, Y) \
  void matvec(const T* a, index_t m, index_t n, index_t ld, const T* x, Y* y, cudaStream_t stream = 0);
#define TALLY_EVERY_TYPE_                                    \
  TALLY_ALL_OPS_(TALLY_REDUCTION_, , std::int32_t)           \
  TALLY_ALL_OPS_(TALLY_REDUCTION_, , std::int64_t)           \
  TALLY_ALL_OPS_(TALLY_REDUCTION_, , std::uint32_t)          \
  TALLY_ALL_OPS_(TALLY_REDUCTION_, , std::uint64_t)          \
  TALLY_ALL_OPS_(TALLY_REDUCTION_, , float)                  \
  TALLY_ALL_OPS_(TALLY_REDUCTION_, , double)                 \
  TALLY_REDUCTION_(reproducible_sum, float, float)           \
  TALLY_REDUCTION_(reproducible_sum, double, double)         \
  TALLY_VALUE_OPS_(TALLY_REDUCTION_, , __half, float)        \
  TALLY_VALUE_OPS_(TALLY_REDUCTION_, , __nv_bfloat16, float) \
  TALLY_ALL_OPS_(TALLY_ROWS_, row_, std::int32_t)            \
  TALLY_ALL_OPS_(TALLY_ROWS_, row_, std::int64_t)            \
  TALLY_ALL_OPS_(TALLY_ROWS_, row_, float)                   \
  TALLY_ALL_OPS_(TALLY_ROWS_, row_, double)                  \
  TALLY_VALUE_OPS_(TALLY_ROWS_, row_, __half, float)         \
  TALLY_VALUE_OPS_(TALLY_ROWS_, row_, __nv_bfloat16, float)  \
  TALLY_MATVEC_(float, float)                                \
  TALLY_MATVEC_(double, double)                              \
  TALLY_MATVEC_(__half, float)                               \
  TALLY_MATVEC_(__nv_bfloat16, float)
// Transposes need no workspace: free functions only.
#define TALLY_TRANSPOSE_(T) void transpose(const T* in, T* out, index_t rows, index_t cols, cudaStream_t stream = 0);
// Sorts and merges on key type K: free functions only. Values of 4 and 8 bytes go to the library as
// std::uint32_t / std::uint64_t; the template takes any other trivially copyable type of those sizes.
#define TALLY_SORT_(K)                                                                                                \
  void sort(const K* keys, K* keys_out, index_t n, cudaStream_t stream = 0);                                         \
  void sort_by_key(const K* keys, const std::uint32_t* values, K* keys_out, std::uint32_t* values_out, index_t n,    \
                   cudaStream_t stream = 0);                                                                          \
  void sort_by_key(const K* keys, const std::uint64_t* values, K* keys_out, std::uint64_t* values_out, index_t n,    \
                   cudaStream_t stream = 0);                                                                          \
  template <class V>                                                                                                  \
  void sort_by_key(const K* keys, const V* values, K* keys_out, V* values_out, index_t n, cudaStream_t stream = 0) { \
    typedef typename detail::value_bits<V>::type bits;                                                               \
    sort_by_key(keys, reinterpret_cast<const bits*>(values), keys_out, reinterpret_cast<bits*>(values_out), n,      \
                stream);                                                                                              \
  }                                                                                                                   \
  void merge(const K* keys, const std::int32_t* offsets, index_t num_lists, index_t n, K* out,                       \
             cudaStream_t stream = 0);                                                                                \
  void merge(const K* keys, const std::int64_t* offsets, index_t num_lists, index_t n, K* out, cudaStream_t stream = 0);
// Segmented reductions, for the free functions and for device_reducer's members alike: NAME on
// element type T with results OUT, unchecked and checked, with OFFSET offsets; TALLY_SEGMENTS32_ /
// TALLY_SEGMENTS64_ are its declarations for TALLY_VALUE_OPS_ / TALLY_ALL_OPS_ (prefix segment_).
// TALLY_EVERY_SEGMENT_ declares every segmented reduction and csr_matvec.
#define TALLY_SEGMENTS_WITH_(NAME, T, OUT, OFFSET)                                                           \
  void NAME(const T* in, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream = 0); \
  void NAME(const T* in, index_t n, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream = 0);
#define TALLY_SEGMENTS32_(NAME, T, OUT) TALLY_SEGMENTS_WITH_(NAME, T, OUT, std::int32_t)
#define TALLY_SEGMENTS64_(NAME, T, OUT) TALLY_SEGMENTS_WITH_(NAME, T, OUT, std::int64_t)
#define TALLY_CSR_MATVEC_(T, OFFSET)                                                                          \
  void csr_matvec(const T* values, const std::int32_t* cols, const OFFSET* row_offsets, index_t rows, const T* x, \
                  T* y, cudaStream_t stream = 0);
// Planned calls (over an offsets_plan): segment_sum on T with results OUT; csr_matvec on T.
#define TALLY_PLANNED_SUM_(T, OUT) void segment_sum(const T* in, const offsets_plan& plan, OUT* out, cudaStream_t stream = 0);
#define TALLY_PLANNED_CSR_MATVEC_(T)                                                                                \
  void csr_matvec(const T* values, const std::int32_t* cols, const offsets_plan& plan, const T* x, T* y, \
                  cudaStream_t stream = 0);
#define TALLY_EVERY_SEGMENT_                                           \
  TALLY_PLANNED_SUM_(std::int32_t, std::int32_t)                       \
  TALLY_PLANNED_SUM_(std::int64_t, std::int64_t)                       \
  TALLY_PLANNED_SUM_(float, float)                                     \
  TALLY_PLANNED_SUM_(double, double)                                   \
  TALLY_PLANNED_SUM_(__half, float)                                    \
  TALLY_PLANNED_SUM_(__nv_bfloat16, float)                             \
  TALLY_PLANNED_CSR_MATVEC_(float)                                     \
  TALLY_PLANNED_CSR_MATVEC_(double)                                    \
  TALLY_ALL_OPS_(TALLY_SEGMENTS32_, segment_, std::int32_t)            \
  TALLY_ALL_OPS_(TALLY_SEGMENTS64_, segment_, std::int32_t)            \
  TALLY_ALL_OPS_(TALLY_SEGMENTS32_, segment_, std::int64_t)            \
  TALLY_ALL_OPS_(TALLY_SEGMENTS64_, segment_, std::int64_t)            \
  TALLY_ALL_OPS_(TALLY_SEGMENTS32_, segment_, float)                   \
  TALLY_ALL_OPS_(TALLY_SEGMENTS64_, segment_, float)                   \
  TALLY_ALL_OPS_(TALLY_SEGMENTS32_, segment_, double)                  \
  TALLY_ALL_OPS_(TALLY_SEGMENTS64_, segment_, double)                  \
  TALLY_VALUE_OPS_(TALLY_SEGMENTS32_, segment_, __half, float)         \
  TALLY_VALUE_OPS_(TALLY_SEGMENTS64_, segment_, __half, float)         \
  TALLY_VALUE_OPS_(TALLY_SEGMENTS32_, segment_, __nv_bfloat16, float)  \
  TALLY_VALUE_OPS_(TALLY_SEGMENTS64_, segment_, __nv_bfloat16, float)  \
  TALLY_CSR_MATVEC_(float, std::int32_t)                               \
  TALLY_CSR_MATVEC_(float, std::int64_t)                               \
  TALLY_CSR_MATVEC_(double, std::int32_t)                              \
  TALLY_CSR_MATVEC_(double, std::int64_t)

namespace tally {

namespace detail {
struct device_reducer_impl;  // defined in the library (lib/src): the workspace and its device

// The word a sort_by_key value travels to the library as: its bits, 4 or 8 bytes.
template <class V>
struct value_bits {
  static_assert(std::is_trivially_copyable<V>::value && (sizeof(V) == 4 || sizeof(V) == 8),
                "tally::sort_by_key: values are trivially copyable 4- or 8-byte types (use <tally/sort.cuh> for others)");
  typedef typename std::conditional<sizeof(V) == 4, std::uint32_t, std::uint64_t>::type type;
};
struct offsets_plan_impl;    // defined in the library: the split, its offsets type and its maker
struct offsets_plan_access;  // the library's way in
// The element type a plan is made for (plan_segment_sum<T>, plan_csr_matvec<T>).
template <class T>
struct plan_for {};
}  // namespace detail

// A plan: the split of one offsets array among the blocks of a grid, and each share's path, found
// once on the device for many calls over the same offsets (a CSR matrix in an iterative solver: what
// cuSPARSE's SpMV preprocess is to cusparseSpMV). Planned calls skip every block's searches and
// tests, and give the unplanned call's bits (what that saves: docs/segments.md).
//   offsets_plan plan = plan_segment_sum<T>(offsets, num_segments, stream);   // serves segment_sum on T
//   offsets_plan plan = plan_csr_matvec<T>(row_offsets, rows, stream);        // serves csr_matvec on T
// - Made on the stream (two small kernels, no host wait) after its own allocation (some 17 bytes a
//   resident block, cudaMalloc, synchronous): make plans before capturing a graph; the planned
//   calls capture like the unplanned ones.
// - Serves the calls it was made for (the function and element type, on the device current when it
//   was made); any other throws tally::error naming its maker. num_segments comes from the plan.
// - The offsets must keep their values while the plan is used: it holds their pointer, not a copy.
//   If they change, results are meaningless but no read or write leaves the input, the offsets and
//   out[0, num_segments).
// - Movable, not copyable. A default-constructed or moved-from plan is empty and serves nothing.
class offsets_plan {
 public:
  offsets_plan() noexcept;
  ~offsets_plan();
  offsets_plan(offsets_plan&& other) noexcept;
  offsets_plan& operator=(offsets_plan&& other) noexcept;
  offsets_plan(const offsets_plan&) = delete;
  offsets_plan& operator=(const offsets_plan&) = delete;

  bool empty() const noexcept;
  index_t num_segments() const noexcept;  // 0 when empty

 private:
  friend struct detail::offsets_plan_access;
  std::unique_ptr<detail::offsets_plan_impl> impl_;
};

namespace detail {
// The makers of plans, one element type each (the templates below pick one by its tag).
#define TALLY_PLAN_MAKER_(NAME, T)                                                                      \
  offsets_plan NAME(plan_for<T>, const std::int32_t* offsets, index_t num_segments, cudaStream_t stream); \
  offsets_plan NAME(plan_for<T>, const std::int64_t* offsets, index_t num_segments, cudaStream_t stream);
TALLY_PLAN_MAKER_(plan_segment_sum, std::int32_t)
TALLY_PLAN_MAKER_(plan_segment_sum, std::int64_t)
TALLY_PLAN_MAKER_(plan_segment_sum, float)
TALLY_PLAN_MAKER_(plan_segment_sum, double)
TALLY_PLAN_MAKER_(plan_segment_sum, __half)
TALLY_PLAN_MAKER_(plan_segment_sum, __nv_bfloat16)
TALLY_PLAN_MAKER_(plan_csr_matvec, float)
TALLY_PLAN_MAKER_(plan_csr_matvec, double)
#undef TALLY_PLAN_MAKER_
}  // namespace detail

// A plan of segment_sum on T (int32, int64, float, double, __half, __nv_bfloat16) over these
// offsets (Offset: std::int32_t or std::int64_t, device memory, the unchecked form's precondition);
// num_segments == 0 gives a plan of no segments, whose calls queue nothing.
template <class T, class Offset>
offsets_plan plan_segment_sum(const Offset* offsets, index_t num_segments, cudaStream_t stream = 0) {
  return detail::plan_segment_sum(detail::plan_for<T>(), offsets, num_segments, stream);
}
// A plan of csr_matvec on T (float, double) over these row offsets.
template <class T, class Offset>
offsets_plan plan_csr_matvec(const Offset* row_offsets, index_t rows, cudaStream_t stream = 0) {
  return detail::plan_csr_matvec(detail::plan_for<T>(), row_offsets, rows, stream);
}

// One-off reductions: a call whose n needs more than one block takes its workspace (at most tens
// of KiB) from tally's stream-ordered memory pool of the device (cudaMallocFromPoolAsync /
// cudaFreeAsync on `stream`; the pool keeps up to 64 MiB mapped between calls). device_reducer below
// allocates nothing per call.
//
//   void sum    (const T* in, index_t n, T* out,      cudaStream_t stream = 0);
//   void min    (const T* in, index_t n, T* out,      cudaStream_t stream = 0);
//   void max    (const T* in, index_t n, T* out,      cudaStream_t stream = 0);
//   void arg_min(const T* in, index_t n, arg<T>* out, cudaStream_t stream = 0);
//   void arg_max(const T* in, index_t n, arg<T>* out, cudaStream_t stream = 0);
//   void sum / min / max(const __half* or const __nv_bfloat16* in, index_t n, float* out, cudaStream_t stream = 0);
//   void row_sum / row_min / row_max / row_arg_min / row_arg_max(const T* a, index_t m, index_t n, index_t ld,
//                                                                 Out* out, cudaStream_t stream = 0);
//   void matvec(const T* a, index_t m, index_t n, index_t ld, const T* x, Y* y, cudaStream_t stream = 0);
TALLY_EVERY_TYPE_

// Transposes: 2-, 4- and 8-byte elements. No workspace, no allocation.
TALLY_TRANSPOSE_(std::int16_t)
TALLY_TRANSPOSE_(std::uint16_t)
TALLY_TRANSPOSE_(__half)
TALLY_TRANSPOSE_(__nv_bfloat16)
TALLY_TRANSPOSE_(std::int32_t)
TALLY_TRANSPOSE_(std::uint32_t)
TALLY_TRANSPOSE_(float)
TALLY_TRANSPOSE_(std::int64_t)
TALLY_TRANSPOSE_(std::uint64_t)
TALLY_TRANSPOSE_(double)

// Sorts and merges: keys K of the six types below, with workspace from the stream-ordered pool.
//
//   void sort(const K* keys, K* keys_out, index_t n, cudaStream_t stream = 0);
//   void sort_by_key(const K* keys, const V* values, K* keys_out, V* values_out, index_t n,
//                    cudaStream_t stream = 0);     // V: any trivially copyable 4- or 8-byte type
//   void merge(const K* keys, const Offset* offsets, index_t num_lists, index_t n, K* out,
//              cudaStream_t stream = 0);           // Offset: std::int32_t or std::int64_t
TALLY_SORT_(std::int32_t)
TALLY_SORT_(std::int64_t)
TALLY_SORT_(std::uint32_t)
TALLY_SORT_(std::uint64_t)
TALLY_SORT_(float)
TALLY_SORT_(double)

// Segmented reductions and CSR SpMV, one-off: workspace from the stream-ordered pool (device_reducer
// below has them too). Offset: std::int32_t or std::int64_t.
//
//   void segment_sum / segment_min / segment_max / segment_arg_min / segment_arg_max(
//       const T* in, const Offset* offsets, index_t num_segments, Out* out, cudaStream_t stream = 0);
//   void segment_sum / ... / segment_arg_max(const T* in, index_t n, const Offset* offsets,
//       index_t num_segments, Out* out, cudaStream_t stream = 0);   // checked against n first
//   void csr_matvec(const T* values, const std::int32_t* cols, const Offset* row_offsets, index_t rows,
//                   const T* x, T* y, cudaStream_t stream = 0);
//   void segment_sum(const T* in, const offsets_plan& plan, Out* out, cudaStream_t stream = 0);
//   void csr_matvec(const T* values, const std::int32_t* cols, const offsets_plan& plan, const T* x, T* y,
//                   cudaStream_t stream = 0);                       // planned: offsets and count from the plan
TALLY_EVERY_SEGMENT_

// Reductions that never allocate: the object owns one device workspace, allocated in the
// constructor and sized for the largest workspace any operation above needs at any size (a few
// hundred KiB at most), and every member call reuses it. The members have the signatures of the
// free functions (every one but transpose, which needs no workspace; and the sorts and merges, whose
// workspace grows with n: <tally/sort.cuh>'s sorter and <tally/merge.cuh>'s merger own theirs). The
// segmented reductions and csr_matvec are there too, with the free functions' bits, checks and
// messages; num_segments == 0 (rows == 0) queues nothing.
//
// - Bound to a device: the one current when it was constructed. A call made while another device
//   is current throws tally::error (switch back with cudaSetDevice first).
// - One workspace, shared by every call: the calls must not overlap on the device. Calls on one
//   stream never do; calls that may (different streams with no event between them, or different
//   host threads) need one device_reducer each.
// - Graph capture: calls can be captured in a CUDA graph, since they allocate nothing (the
//   constructor also reads the device's facts; a segmented reduction's or csr_matvec's first call
//   of each kernel asks its occupancy once, which a capture allows), but for the checked segmented
//   reductions, which wait for their test of the offsets.
// - Movable, not copyable; a moved-from object throws tally::error when called.
class device_reducer {
 public:
  // Throws tally::error if no device is usable or the workspace cannot be allocated.
  device_reducer();
  ~device_reducer();
  device_reducer(device_reducer&& other) noexcept;
  device_reducer& operator=(device_reducer&& other) noexcept;
  device_reducer(const device_reducer&) = delete;
  device_reducer& operator=(const device_reducer&) = delete;

  // The device this object's workspace lives on (-1 once moved from).
  int device() const noexcept;
  // Bytes of device workspace it owns.
  std::size_t workspace_bytes() const noexcept;

  TALLY_EVERY_TYPE_
  TALLY_EVERY_SEGMENT_

 private:
  std::unique_ptr<detail::device_reducer_impl> impl_;
};

}  // namespace tally

#undef TALLY_EVERY_SEGMENT_
#undef TALLY_PLANNED_CSR_MATVEC_
#undef TALLY_PLANNED_SUM_
#undef TALLY_CSR_MATVEC_
#undef TALLY_SEGMENTS64_
#undef TALLY_SEGMENTS32_
#undef TALLY_SEGMENTS_WITH_
#undef TALLY_SORT_
#undef TALLY_TRANSPOSE_
#undef TALLY_MATVEC_
#undef TALLY_EVERY_TYPE_
#undef TALLY_ALL_OPS_
#undef TALLY_VALUE_OPS_
#undef TALLY_ROWS_
#undef TALLY_REDUCTION_
