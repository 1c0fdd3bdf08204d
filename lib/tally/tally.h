/* <tally/tally.h>: tally's precompiled default-policy algorithms for C, and for any language that
 * loads libtally.so (Python's ctypes, Julia's ccall, Rust's FFI, ...). C99; no CUDA header needed.
 *
 * The functions are <tally/tally.hpp>'s, one per element type, named by a suffix:
 *   i32 int32_t, i64 int64_t, u32 uint32_t, u64 uint64_t, f32 float, f64 double,
 *   f16 and bf16: IEEE half and bfloat16 elements, passed as their 16 bits (uint16_t); results float.
 * Every function
 *   - takes device pointers and a stream as void* (a cudaStream_t; NULL is the default stream);
 *   - is asynchronous: the result is valid once the stream reaches it;
 *   - returns a tally_status, and on failure keeps, for the calling thread, a message naming the
 *     function and the problem (tally_last_error) and the CUDA error behind it if any
 *     (tally_last_cuda_error). A bad argument is found before anything is queued: the output is
 *     untouched. No exception crosses this interface.
 *   - is deterministic (same device, input and shape: the same bits).
 * Semantics, per family (tally.hpp says more):
 *   tally_sum / min / max / arg_min / arg_max_<t>(in, n, out, stream): one result for in[0, n);
 *     arg_* write {value, index}, the lowest index among equal extremes; n == 0 writes the identity
 *     (0, the type's largest or smallest value or +-infinity, index -1).
 *   tally_reproducible_sum_<f32|f64>(in, n, out, stream): the sum whose bits depend on the multiset
 *     of values alone (any GPU, grid or split of the input): tally::reproducible_sum.
 *   tally_row_sum / row_min / row_max / row_arg_min / row_arg_max_<t>(a, m, n, ld, out, stream): one
 *     result a row of the row-major m x n matrix a, leading dimension ld >= n (element (i, j) at
 *     a[i * ld + j]); row_arg_* write {value, column}.
 *   tally_matvec_<t>(a, m, n, ld, x, y, stream): y = a x (f16, bf16: products and sums in float).
 *   tally_transpose_<bits>(in, out, rows, cols, stream): out (cols x rows) = in (rows x cols)
 *     transposed, for 16-, 32- and 64-bit elements (the bits are copied); in and out must not overlap.
 *   tally_sort_<k>(keys, keys_out, n, stream): keys_out = keys sorted, stably, in key_order's total
 *     order (integers their own; floats -inf < ... < -0 < +0 < ... < +inf < NaN, NaNs equal and
 *     last): tally::sort. k: i32, i64, u32, u64, f32, f64.
 *   tally_sort_by_key_<k>_v<32|64>(keys, values, keys_out, values_out, n, stream): the same, and
 *     values_out[i] the value that came with keys_out[i]; values are any 32- or 64-bit elements
 *     (the bits are moved), aligned to their size: tally::sort_by_key.
 *   tally_merge_<k>_o<32|64>(keys, offsets, num_lists, n, out, stream): list i is
 *     keys[offsets[i], offsets[i + 1]), each sorted in key_order; out = their stable merge (equal keys
 *     in list order). The num_lists + 1 offsets (int32_t or int64_t) are device memory, ascending
 *     from 0 to n: tally::merge.
 *     Sorts and merges take their workspace from the stream-ordered pool; the input is never written,
 *     and no output may overlap an input or another output; n == 0 queues nothing.
 *   tally_segment_sum / min / max / arg_min / arg_max_<t>_o<32|64>(in, offsets, num_segments, out,
 *     stream): out[s] = the reduction of segment s, in[offsets[s], offsets[s + 1]); the
 *     num_segments + 1 offsets (int32_t or int64_t) are device memory, non-decreasing, every one a
 *     valid index of in (a precondition, not tested). An empty segment gives the identity (index -1
 *     for arg_*); arg_* write {value, index within the segment}, the lowest among equal extremes.
 *     t: i32, i64, f32, f64; f16, bf16: sum, min, max (float results): tally::segment_sum, ...
 *   tally_segment_<op>_checked_<t>_o<32|64>(in, n, offsets, num_segments, out, stream): the same,
 *     in holding n elements; 0 <= offsets[s] <= offsets[s + 1] <= n is tested on the device first,
 *     and a bad segment gives TALLY_ERROR_INVALID_ARGUMENT naming it, out untouched. It waits for
 *     that test (synchronizes the stream).
 *   tally_csr_matvec_<f32|f64>_o<32|64>(values, cols, row_offsets, rows, x, y, stream): CSR y = A x,
 *     y[r] = sum over j in [row_offsets[r], row_offsets[r + 1]) of values[j] * x[cols[j]], int32_t
 *     column indices: tally::csr_matvec.
 *     Segmented reductions and csr_matvec take their workspace (tens of KiB) from the stream-ordered
 *     pool (tally_reducer_segment_*, tally_reducer_csr_matvec_*: the reducer's); num_segments == 0
 *     (rows == 0) queues nothing.
 *   tally_plan_segment_sum_<t>_o<32|64>(&plan, offsets, num_segments, stream) and
 *   tally_plan_csr_matvec_<f32|f64>_o<32|64>(&plan, row_offsets, rows, stream): a plan, the split of
 *     the offsets among the grid found once on the device for many calls over the same offsets
 *     (cuSPARSE's SpMV preprocess): tally::offsets_plan. tally_segment_sum_planned_<t>(in, plan,
 *     out, stream) and tally_csr_matvec_planned_<f32|f64>(values, cols, plan, x, y, stream) then
 *     skip every block's searches, with the unplanned calls' bits; num_segments (rows) and the
 *     offsets come from the plan. A plan serves the calls of the function and element type it was
 *     made for, on its device; the offsets must keep their values while it is used. Making one
 *     allocates (synchronously): make plans before capturing a graph. tally_plan_destroy frees it.
 *   tally_reducer_*: the same as the one-off functions (but transposes, sorts and merges), through a
 *     reducer that allocates its device workspace once, in tally_reducer_create: its calls allocate
 *     nothing (graph-capturable, but for the checked segmented reductions, which wait for their
 *     test). One reducer's calls must not overlap on the device (one stream, or one reducer per
 *     stream). */
#ifndef TALLY_TALLY_H
#define TALLY_TALLY_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum tally_status {
  TALLY_SUCCESS = 0,
  TALLY_ERROR_INVALID_ARGUMENT = 1, /* a bad argument: nothing was queued, the output is untouched */
  TALLY_ERROR_CUDA = 2,             /* a CUDA call failed: tally_last_cuda_error() gives its cudaError_t */
  TALLY_ERROR_INTERNAL = 3          /* anything else (no host memory, ...) */
} tally_status;

/* The message of the calling thread's last failed call ("" if none), valid until its next call. */
const char* tally_last_error(void);
/* The cudaError_t behind the calling thread's last failed call, 0 if none. */
int tally_last_cuda_error(void);
/* A constant name for a status ("TALLY_SUCCESS", ...). */
const char* tally_status_name(tally_status status);

/* arg_min / arg_max results: the extreme value and its index (column for row_arg_*). */
typedef struct tally_arg_i32 { int32_t value; int64_t index; } tally_arg_i32;
typedef struct tally_arg_i64 { int64_t value; int64_t index; } tally_arg_i64;
typedef struct tally_arg_u32 { uint32_t value; int64_t index; } tally_arg_u32;
typedef struct tally_arg_u64 { uint64_t value; int64_t index; } tally_arg_u64;
typedef struct tally_arg_f32 { float value; int64_t index; } tally_arg_f32;
typedef struct tally_arg_f64 { double value; int64_t index; } tally_arg_f64;

/* An owner of device workspace (opaque): bound to the device current at creation. */
typedef struct tally_reducer tally_reducer;
tally_status tally_reducer_create(tally_reducer** reducer);
/* Frees the reducer (NULL: nothing); waits for its queued work to finish. */
void tally_reducer_destroy(tally_reducer* reducer);

/* Plans of segment_sum and csr_matvec (opaque; tally::offsets_plan): *plan is written on success. */
typedef struct tally_plan tally_plan;
tally_status tally_plan_segment_sum_i32_o32(tally_plan** plan, const int32_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_i32_o64(tally_plan** plan, const int64_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_i64_o32(tally_plan** plan, const int32_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_i64_o64(tally_plan** plan, const int64_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_f32_o32(tally_plan** plan, const int32_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_f32_o64(tally_plan** plan, const int64_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_f64_o32(tally_plan** plan, const int32_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_f64_o64(tally_plan** plan, const int64_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_f16_o32(tally_plan** plan, const int32_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_f16_o64(tally_plan** plan, const int64_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_bf16_o32(tally_plan** plan, const int32_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_segment_sum_bf16_o64(tally_plan** plan, const int64_t* offsets, int64_t num_segments, void* stream);
tally_status tally_plan_csr_matvec_f32_o32(tally_plan** plan, const int32_t* row_offsets, int64_t rows, void* stream);
tally_status tally_plan_csr_matvec_f32_o64(tally_plan** plan, const int64_t* row_offsets, int64_t rows, void* stream);
tally_status tally_plan_csr_matvec_f64_o32(tally_plan** plan, const int32_t* row_offsets, int64_t rows, void* stream);
tally_status tally_plan_csr_matvec_f64_o64(tally_plan** plan, const int64_t* row_offsets, int64_t rows, void* stream);
/* Frees the plan (NULL: nothing); waits for the device to finish with it. */
void tally_plan_destroy(tally_plan* plan);
/* Planned calls, one-off (workspace from the stream-ordered pool) and through a reducer. */
tally_status tally_segment_sum_planned_i32(const int32_t* in, const tally_plan* plan, int32_t* out, void* stream);
tally_status tally_segment_sum_planned_i64(const int64_t* in, const tally_plan* plan, int64_t* out, void* stream);
tally_status tally_segment_sum_planned_f32(const float* in, const tally_plan* plan, float* out, void* stream);
tally_status tally_segment_sum_planned_f64(const double* in, const tally_plan* plan, double* out, void* stream);
tally_status tally_segment_sum_planned_f16(const uint16_t* in, const tally_plan* plan, float* out, void* stream);
tally_status tally_segment_sum_planned_bf16(const uint16_t* in, const tally_plan* plan, float* out, void* stream);
tally_status tally_csr_matvec_planned_f32(const float* values, const int32_t* cols, const tally_plan* plan, const float* x, float* y, void* stream);
tally_status tally_csr_matvec_planned_f64(const double* values, const int32_t* cols, const tally_plan* plan, const double* x, double* y, void* stream);
tally_status tally_reducer_segment_sum_planned_i32(tally_reducer* reducer, const int32_t* in, const tally_plan* plan, int32_t* out, void* stream);
tally_status tally_reducer_segment_sum_planned_i64(tally_reducer* reducer, const int64_t* in, const tally_plan* plan, int64_t* out, void* stream);
tally_status tally_reducer_segment_sum_planned_f32(tally_reducer* reducer, const float* in, const tally_plan* plan, float* out, void* stream);
tally_status tally_reducer_segment_sum_planned_f64(tally_reducer* reducer, const double* in, const tally_plan* plan, double* out, void* stream);
tally_status tally_reducer_segment_sum_planned_f16(tally_reducer* reducer, const uint16_t* in, const tally_plan* plan, float* out, void* stream);
tally_status tally_reducer_segment_sum_planned_bf16(tally_reducer* reducer, const uint16_t* in, const tally_plan* plan, float* out, void* stream);
tally_status tally_reducer_csr_matvec_planned_f32(tally_reducer* reducer, const float* values, const int32_t* cols, const tally_plan* plan, const float* x, float* y, void* stream);
tally_status tally_reducer_csr_matvec_planned_f64(tally_reducer* reducer, const double* values, const int32_t* cols, const tally_plan* plan, const double* x, double* y, void* stream);

/* Transposes: no workspace. */
tally_status tally_transpose_16(const void* in, void* out, int64_t rows, int64_t cols, void* stream);
tally_status tally_transpose_32(const void* in, void* out, int64_t rows, int64_t cols, void* stream);
tally_status tally_transpose_64(const void* in, void* out, int64_t rows, int64_t cols, void* stream);

/* Sorts and merges (workspace from the stream-ordered pool): keys alone, keys with 32- or 64-bit
 * values (passed as void*, moved as their bits), and merges with 32- or 64-bit offsets. */
tally_status tally_sort_i32(const int32_t* keys, int32_t* keys_out, int64_t n, void* stream);
tally_status tally_sort_i64(const int64_t* keys, int64_t* keys_out, int64_t n, void* stream);
tally_status tally_sort_u32(const uint32_t* keys, uint32_t* keys_out, int64_t n, void* stream);
tally_status tally_sort_u64(const uint64_t* keys, uint64_t* keys_out, int64_t n, void* stream);
tally_status tally_sort_f32(const float* keys, float* keys_out, int64_t n, void* stream);
tally_status tally_sort_f64(const double* keys, double* keys_out, int64_t n, void* stream);
tally_status tally_sort_by_key_i32_v32(const int32_t* keys, const void* values, int32_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_i32_v64(const int32_t* keys, const void* values, int32_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_i64_v32(const int64_t* keys, const void* values, int64_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_i64_v64(const int64_t* keys, const void* values, int64_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_u32_v32(const uint32_t* keys, const void* values, uint32_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_u32_v64(const uint32_t* keys, const void* values, uint32_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_u64_v32(const uint64_t* keys, const void* values, uint64_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_u64_v64(const uint64_t* keys, const void* values, uint64_t* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_f32_v32(const float* keys, const void* values, float* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_f32_v64(const float* keys, const void* values, float* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_f64_v32(const double* keys, const void* values, double* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_sort_by_key_f64_v64(const double* keys, const void* values, double* keys_out, void* values_out, int64_t n, void* stream);
tally_status tally_merge_i32_o32(const int32_t* keys, const int32_t* offsets, int64_t num_lists, int64_t n, int32_t* out, void* stream);
tally_status tally_merge_i32_o64(const int32_t* keys, const int64_t* offsets, int64_t num_lists, int64_t n, int32_t* out, void* stream);
tally_status tally_merge_i64_o32(const int64_t* keys, const int32_t* offsets, int64_t num_lists, int64_t n, int64_t* out, void* stream);
tally_status tally_merge_i64_o64(const int64_t* keys, const int64_t* offsets, int64_t num_lists, int64_t n, int64_t* out, void* stream);
tally_status tally_merge_u32_o32(const uint32_t* keys, const int32_t* offsets, int64_t num_lists, int64_t n, uint32_t* out, void* stream);
tally_status tally_merge_u32_o64(const uint32_t* keys, const int64_t* offsets, int64_t num_lists, int64_t n, uint32_t* out, void* stream);
tally_status tally_merge_u64_o32(const uint64_t* keys, const int32_t* offsets, int64_t num_lists, int64_t n, uint64_t* out, void* stream);
tally_status tally_merge_u64_o64(const uint64_t* keys, const int64_t* offsets, int64_t num_lists, int64_t n, uint64_t* out, void* stream);
tally_status tally_merge_f32_o32(const float* keys, const int32_t* offsets, int64_t num_lists, int64_t n, float* out, void* stream);
tally_status tally_merge_f32_o64(const float* keys, const int64_t* offsets, int64_t num_lists, int64_t n, float* out, void* stream);
tally_status tally_merge_f64_o32(const double* keys, const int32_t* offsets, int64_t num_lists, int64_t n, double* out, void* stream);
tally_status tally_merge_f64_o64(const double* keys, const int64_t* offsets, int64_t num_lists, int64_t n, double* out, void* stream);

/* Segmented reductions (workspace from the stream-ordered pool): segment s is
 * in[offsets[s], offsets[s + 1]), one result a segment; 32- or 64-bit offsets (_o32, _o64) in device
 * memory. The _checked_ forms take n, the elements of in, and test the offsets against it first. */
tally_status tally_segment_sum_i32_o32(const int32_t* in, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_sum_i32_o64(const int32_t* in, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_sum_checked_i32_o32(const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_sum_checked_i32_o64(const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_min_i32_o32(const int32_t* in, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_min_i32_o64(const int32_t* in, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_min_checked_i32_o32(const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_min_checked_i32_o64(const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_max_i32_o32(const int32_t* in, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_max_i32_o64(const int32_t* in, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_max_checked_i32_o32(const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_max_checked_i32_o64(const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_segment_arg_min_i32_o32(const int32_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_min_i32_o64(const int32_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_min_checked_i32_o32(const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_min_checked_i32_o64(const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_max_i32_o32(const int32_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_max_i32_o64(const int32_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_max_checked_i32_o32(const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_arg_max_checked_i32_o64(const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_segment_sum_i64_o32(const int64_t* in, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_sum_i64_o64(const int64_t* in, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_sum_checked_i64_o32(const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_sum_checked_i64_o64(const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_min_i64_o32(const int64_t* in, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_min_i64_o64(const int64_t* in, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_min_checked_i64_o32(const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_min_checked_i64_o64(const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_max_i64_o32(const int64_t* in, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_max_i64_o64(const int64_t* in, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_max_checked_i64_o32(const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_max_checked_i64_o64(const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_segment_arg_min_i64_o32(const int64_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_min_i64_o64(const int64_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_min_checked_i64_o32(const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_min_checked_i64_o64(const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_max_i64_o32(const int64_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_max_i64_o64(const int64_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_max_checked_i64_o32(const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_arg_max_checked_i64_o64(const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_segment_sum_f32_o32(const float* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_f32_o64(const float* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_checked_f32_o32(const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_checked_f32_o64(const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_f32_o32(const float* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_f32_o64(const float* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_checked_f32_o32(const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_checked_f32_o64(const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_f32_o32(const float* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_f32_o64(const float* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_checked_f32_o32(const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_checked_f32_o64(const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_arg_min_f32_o32(const float* in, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_min_f32_o64(const float* in, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_min_checked_f32_o32(const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_min_checked_f32_o64(const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_max_f32_o32(const float* in, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_max_f32_o64(const float* in, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_max_checked_f32_o32(const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_arg_max_checked_f32_o64(const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_segment_sum_f64_o32(const double* in, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_sum_f64_o64(const double* in, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_sum_checked_f64_o32(const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_sum_checked_f64_o64(const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_min_f64_o32(const double* in, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_min_f64_o64(const double* in, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_min_checked_f64_o32(const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_min_checked_f64_o64(const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_max_f64_o32(const double* in, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_max_f64_o64(const double* in, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_max_checked_f64_o32(const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_max_checked_f64_o64(const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_segment_arg_min_f64_o32(const double* in, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_min_f64_o64(const double* in, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_min_checked_f64_o32(const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_min_checked_f64_o64(const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_max_f64_o32(const double* in, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_max_f64_o64(const double* in, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_max_checked_f64_o32(const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_arg_max_checked_f64_o64(const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_segment_sum_f16_o32(const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_f16_o64(const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_checked_f16_o32(const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_checked_f16_o64(const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_f16_o32(const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_f16_o64(const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_checked_f16_o32(const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_checked_f16_o64(const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_f16_o32(const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_f16_o64(const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_checked_f16_o32(const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_checked_f16_o64(const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_bf16_o32(const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_bf16_o64(const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_checked_bf16_o32(const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_sum_checked_bf16_o64(const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_bf16_o32(const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_bf16_o64(const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_checked_bf16_o32(const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_min_checked_bf16_o64(const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_bf16_o32(const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_bf16_o64(const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_checked_bf16_o32(const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_segment_max_checked_bf16_o64(const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
/* CSR y = A x: 32-bit column indices, 32- or 64-bit row offsets. */
tally_status tally_csr_matvec_f32_o32(const float* values, const int32_t* cols, const int32_t* row_offsets, int64_t rows, const float* x, float* y, void* stream);
tally_status tally_csr_matvec_f32_o64(const float* values, const int32_t* cols, const int64_t* row_offsets, int64_t rows, const float* x, float* y, void* stream);
tally_status tally_csr_matvec_f64_o32(const double* values, const int32_t* cols, const int32_t* row_offsets, int64_t rows, const double* x, double* y, void* stream);
tally_status tally_csr_matvec_f64_o64(const double* values, const int32_t* cols, const int64_t* row_offsets, int64_t rows, const double* x, double* y, void* stream);

/* One-off device-wide reductions. */
tally_status tally_sum_i32(const int32_t* in, int64_t n, int32_t* out, void* stream);
tally_status tally_min_i32(const int32_t* in, int64_t n, int32_t* out, void* stream);
tally_status tally_max_i32(const int32_t* in, int64_t n, int32_t* out, void* stream);
tally_status tally_arg_min_i32(const int32_t* in, int64_t n, tally_arg_i32* out, void* stream);
tally_status tally_arg_max_i32(const int32_t* in, int64_t n, tally_arg_i32* out, void* stream);
tally_status tally_sum_i64(const int64_t* in, int64_t n, int64_t* out, void* stream);
tally_status tally_min_i64(const int64_t* in, int64_t n, int64_t* out, void* stream);
tally_status tally_max_i64(const int64_t* in, int64_t n, int64_t* out, void* stream);
tally_status tally_arg_min_i64(const int64_t* in, int64_t n, tally_arg_i64* out, void* stream);
tally_status tally_arg_max_i64(const int64_t* in, int64_t n, tally_arg_i64* out, void* stream);
tally_status tally_sum_u32(const uint32_t* in, int64_t n, uint32_t* out, void* stream);
tally_status tally_min_u32(const uint32_t* in, int64_t n, uint32_t* out, void* stream);
tally_status tally_max_u32(const uint32_t* in, int64_t n, uint32_t* out, void* stream);
tally_status tally_arg_min_u32(const uint32_t* in, int64_t n, tally_arg_u32* out, void* stream);
tally_status tally_arg_max_u32(const uint32_t* in, int64_t n, tally_arg_u32* out, void* stream);
tally_status tally_sum_u64(const uint64_t* in, int64_t n, uint64_t* out, void* stream);
tally_status tally_min_u64(const uint64_t* in, int64_t n, uint64_t* out, void* stream);
tally_status tally_max_u64(const uint64_t* in, int64_t n, uint64_t* out, void* stream);
tally_status tally_arg_min_u64(const uint64_t* in, int64_t n, tally_arg_u64* out, void* stream);
tally_status tally_arg_max_u64(const uint64_t* in, int64_t n, tally_arg_u64* out, void* stream);
tally_status tally_sum_f32(const float* in, int64_t n, float* out, void* stream);
tally_status tally_min_f32(const float* in, int64_t n, float* out, void* stream);
tally_status tally_max_f32(const float* in, int64_t n, float* out, void* stream);
tally_status tally_arg_min_f32(const float* in, int64_t n, tally_arg_f32* out, void* stream);
tally_status tally_arg_max_f32(const float* in, int64_t n, tally_arg_f32* out, void* stream);
tally_status tally_sum_f64(const double* in, int64_t n, double* out, void* stream);
tally_status tally_min_f64(const double* in, int64_t n, double* out, void* stream);
tally_status tally_max_f64(const double* in, int64_t n, double* out, void* stream);
tally_status tally_arg_min_f64(const double* in, int64_t n, tally_arg_f64* out, void* stream);
tally_status tally_arg_max_f64(const double* in, int64_t n, tally_arg_f64* out, void* stream);
/* The reproducible sums (tally::reproducible_sum): the same bits for the same multiset of values on
 * every GPU, grid and split of the input. */
tally_status tally_reproducible_sum_f32(const float* in, int64_t n, float* out, void* stream);
tally_status tally_reproducible_sum_f64(const double* in, int64_t n, double* out, void* stream);
tally_status tally_sum_f16(const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_min_f16(const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_max_f16(const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_sum_bf16(const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_min_bf16(const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_max_bf16(const uint16_t* in, int64_t n, float* out, void* stream);

/* One-off row reductions and matvec. */
tally_status tally_row_sum_i32(const int32_t* a, int64_t m, int64_t n, int64_t ld, int32_t* out, void* stream);
tally_status tally_row_min_i32(const int32_t* a, int64_t m, int64_t n, int64_t ld, int32_t* out, void* stream);
tally_status tally_row_max_i32(const int32_t* a, int64_t m, int64_t n, int64_t ld, int32_t* out, void* stream);
tally_status tally_row_arg_min_i32(const int32_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i32* out, void* stream);
tally_status tally_row_arg_max_i32(const int32_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i32* out, void* stream);
tally_status tally_row_sum_i64(const int64_t* a, int64_t m, int64_t n, int64_t ld, int64_t* out, void* stream);
tally_status tally_row_min_i64(const int64_t* a, int64_t m, int64_t n, int64_t ld, int64_t* out, void* stream);
tally_status tally_row_max_i64(const int64_t* a, int64_t m, int64_t n, int64_t ld, int64_t* out, void* stream);
tally_status tally_row_arg_min_i64(const int64_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i64* out, void* stream);
tally_status tally_row_arg_max_i64(const int64_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i64* out, void* stream);
tally_status tally_row_sum_f32(const float* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_min_f32(const float* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_max_f32(const float* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_arg_min_f32(const float* a, int64_t m, int64_t n, int64_t ld, tally_arg_f32* out, void* stream);
tally_status tally_row_arg_max_f32(const float* a, int64_t m, int64_t n, int64_t ld, tally_arg_f32* out, void* stream);
tally_status tally_row_sum_f64(const double* a, int64_t m, int64_t n, int64_t ld, double* out, void* stream);
tally_status tally_row_min_f64(const double* a, int64_t m, int64_t n, int64_t ld, double* out, void* stream);
tally_status tally_row_max_f64(const double* a, int64_t m, int64_t n, int64_t ld, double* out, void* stream);
tally_status tally_row_arg_min_f64(const double* a, int64_t m, int64_t n, int64_t ld, tally_arg_f64* out, void* stream);
tally_status tally_row_arg_max_f64(const double* a, int64_t m, int64_t n, int64_t ld, tally_arg_f64* out, void* stream);
tally_status tally_row_sum_f16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_min_f16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_max_f16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_sum_bf16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_min_bf16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_row_max_bf16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_matvec_f32(const float* a, int64_t m, int64_t n, int64_t ld, const float* x, float* y, void* stream);
tally_status tally_matvec_f64(const double* a, int64_t m, int64_t n, int64_t ld, const double* x, double* y, void* stream);
tally_status tally_matvec_f16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, const uint16_t* x, float* y, void* stream);
tally_status tally_matvec_bf16(const uint16_t* a, int64_t m, int64_t n, int64_t ld, const uint16_t* x, float* y, void* stream);

/* The same through a reducer: no allocation per call. */
tally_status tally_reducer_sum_i32(tally_reducer* reducer, const int32_t* in, int64_t n, int32_t* out, void* stream);
tally_status tally_reducer_min_i32(tally_reducer* reducer, const int32_t* in, int64_t n, int32_t* out, void* stream);
tally_status tally_reducer_max_i32(tally_reducer* reducer, const int32_t* in, int64_t n, int32_t* out, void* stream);
tally_status tally_reducer_arg_min_i32(tally_reducer* reducer, const int32_t* in, int64_t n, tally_arg_i32* out, void* stream);
tally_status tally_reducer_arg_max_i32(tally_reducer* reducer, const int32_t* in, int64_t n, tally_arg_i32* out, void* stream);
tally_status tally_reducer_sum_i64(tally_reducer* reducer, const int64_t* in, int64_t n, int64_t* out, void* stream);
tally_status tally_reducer_min_i64(tally_reducer* reducer, const int64_t* in, int64_t n, int64_t* out, void* stream);
tally_status tally_reducer_max_i64(tally_reducer* reducer, const int64_t* in, int64_t n, int64_t* out, void* stream);
tally_status tally_reducer_arg_min_i64(tally_reducer* reducer, const int64_t* in, int64_t n, tally_arg_i64* out, void* stream);
tally_status tally_reducer_arg_max_i64(tally_reducer* reducer, const int64_t* in, int64_t n, tally_arg_i64* out, void* stream);
tally_status tally_reducer_sum_u32(tally_reducer* reducer, const uint32_t* in, int64_t n, uint32_t* out, void* stream);
tally_status tally_reducer_min_u32(tally_reducer* reducer, const uint32_t* in, int64_t n, uint32_t* out, void* stream);
tally_status tally_reducer_max_u32(tally_reducer* reducer, const uint32_t* in, int64_t n, uint32_t* out, void* stream);
tally_status tally_reducer_arg_min_u32(tally_reducer* reducer, const uint32_t* in, int64_t n, tally_arg_u32* out, void* stream);
tally_status tally_reducer_arg_max_u32(tally_reducer* reducer, const uint32_t* in, int64_t n, tally_arg_u32* out, void* stream);
tally_status tally_reducer_sum_u64(tally_reducer* reducer, const uint64_t* in, int64_t n, uint64_t* out, void* stream);
tally_status tally_reducer_min_u64(tally_reducer* reducer, const uint64_t* in, int64_t n, uint64_t* out, void* stream);
tally_status tally_reducer_max_u64(tally_reducer* reducer, const uint64_t* in, int64_t n, uint64_t* out, void* stream);
tally_status tally_reducer_arg_min_u64(tally_reducer* reducer, const uint64_t* in, int64_t n, tally_arg_u64* out, void* stream);
tally_status tally_reducer_arg_max_u64(tally_reducer* reducer, const uint64_t* in, int64_t n, tally_arg_u64* out, void* stream);
tally_status tally_reducer_sum_f32(tally_reducer* reducer, const float* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_min_f32(tally_reducer* reducer, const float* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_max_f32(tally_reducer* reducer, const float* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_arg_min_f32(tally_reducer* reducer, const float* in, int64_t n, tally_arg_f32* out, void* stream);
tally_status tally_reducer_arg_max_f32(tally_reducer* reducer, const float* in, int64_t n, tally_arg_f32* out, void* stream);
tally_status tally_reducer_sum_f64(tally_reducer* reducer, const double* in, int64_t n, double* out, void* stream);
tally_status tally_reducer_min_f64(tally_reducer* reducer, const double* in, int64_t n, double* out, void* stream);
tally_status tally_reducer_max_f64(tally_reducer* reducer, const double* in, int64_t n, double* out, void* stream);
tally_status tally_reducer_arg_min_f64(tally_reducer* reducer, const double* in, int64_t n, tally_arg_f64* out, void* stream);
tally_status tally_reducer_arg_max_f64(tally_reducer* reducer, const double* in, int64_t n, tally_arg_f64* out, void* stream);
tally_status tally_reducer_reproducible_sum_f32(tally_reducer* reducer, const float* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_reproducible_sum_f64(tally_reducer* reducer, const double* in, int64_t n, double* out, void* stream);
tally_status tally_reducer_sum_f16(tally_reducer* reducer, const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_min_f16(tally_reducer* reducer, const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_max_f16(tally_reducer* reducer, const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_sum_bf16(tally_reducer* reducer, const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_min_bf16(tally_reducer* reducer, const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_max_bf16(tally_reducer* reducer, const uint16_t* in, int64_t n, float* out, void* stream);
tally_status tally_reducer_row_sum_i32(tally_reducer* reducer, const int32_t* a, int64_t m, int64_t n, int64_t ld, int32_t* out, void* stream);
tally_status tally_reducer_row_min_i32(tally_reducer* reducer, const int32_t* a, int64_t m, int64_t n, int64_t ld, int32_t* out, void* stream);
tally_status tally_reducer_row_max_i32(tally_reducer* reducer, const int32_t* a, int64_t m, int64_t n, int64_t ld, int32_t* out, void* stream);
tally_status tally_reducer_row_arg_min_i32(tally_reducer* reducer, const int32_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i32* out, void* stream);
tally_status tally_reducer_row_arg_max_i32(tally_reducer* reducer, const int32_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i32* out, void* stream);
tally_status tally_reducer_row_sum_i64(tally_reducer* reducer, const int64_t* a, int64_t m, int64_t n, int64_t ld, int64_t* out, void* stream);
tally_status tally_reducer_row_min_i64(tally_reducer* reducer, const int64_t* a, int64_t m, int64_t n, int64_t ld, int64_t* out, void* stream);
tally_status tally_reducer_row_max_i64(tally_reducer* reducer, const int64_t* a, int64_t m, int64_t n, int64_t ld, int64_t* out, void* stream);
tally_status tally_reducer_row_arg_min_i64(tally_reducer* reducer, const int64_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i64* out, void* stream);
tally_status tally_reducer_row_arg_max_i64(tally_reducer* reducer, const int64_t* a, int64_t m, int64_t n, int64_t ld, tally_arg_i64* out, void* stream);
tally_status tally_reducer_row_sum_f32(tally_reducer* reducer, const float* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_min_f32(tally_reducer* reducer, const float* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_max_f32(tally_reducer* reducer, const float* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_arg_min_f32(tally_reducer* reducer, const float* a, int64_t m, int64_t n, int64_t ld, tally_arg_f32* out, void* stream);
tally_status tally_reducer_row_arg_max_f32(tally_reducer* reducer, const float* a, int64_t m, int64_t n, int64_t ld, tally_arg_f32* out, void* stream);
tally_status tally_reducer_row_sum_f64(tally_reducer* reducer, const double* a, int64_t m, int64_t n, int64_t ld, double* out, void* stream);
tally_status tally_reducer_row_min_f64(tally_reducer* reducer, const double* a, int64_t m, int64_t n, int64_t ld, double* out, void* stream);
tally_status tally_reducer_row_max_f64(tally_reducer* reducer, const double* a, int64_t m, int64_t n, int64_t ld, double* out, void* stream);
tally_status tally_reducer_row_arg_min_f64(tally_reducer* reducer, const double* a, int64_t m, int64_t n, int64_t ld, tally_arg_f64* out, void* stream);
tally_status tally_reducer_row_arg_max_f64(tally_reducer* reducer, const double* a, int64_t m, int64_t n, int64_t ld, tally_arg_f64* out, void* stream);
tally_status tally_reducer_row_sum_f16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_min_f16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_max_f16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_sum_bf16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_min_bf16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_row_max_bf16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, float* out, void* stream);
tally_status tally_reducer_matvec_f32(tally_reducer* reducer, const float* a, int64_t m, int64_t n, int64_t ld, const float* x, float* y, void* stream);
tally_status tally_reducer_matvec_f64(tally_reducer* reducer, const double* a, int64_t m, int64_t n, int64_t ld, const double* x, double* y, void* stream);
tally_status tally_reducer_matvec_f16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, const uint16_t* x, float* y, void* stream);
tally_status tally_reducer_matvec_bf16(tally_reducer* reducer, const uint16_t* a, int64_t m, int64_t n, int64_t ld, const uint16_t* x, float* y, void* stream);
/* Segmented reductions (unchecked and _checked_, 32- and 64-bit offsets) and csr_matvec through a
 * reducer. The checked forms wait for their test of the offsets: they cannot be captured in a graph. */
tally_status tally_reducer_segment_sum_i32_o32(tally_reducer* reducer, const int32_t* in, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_sum_i32_o64(tally_reducer* reducer, const int32_t* in, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_sum_checked_i32_o32(tally_reducer* reducer, const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_sum_checked_i32_o64(tally_reducer* reducer, const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_min_i32_o32(tally_reducer* reducer, const int32_t* in, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_min_i32_o64(tally_reducer* reducer, const int32_t* in, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_min_checked_i32_o32(tally_reducer* reducer, const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_min_checked_i32_o64(tally_reducer* reducer, const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_max_i32_o32(tally_reducer* reducer, const int32_t* in, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_max_i32_o64(tally_reducer* reducer, const int32_t* in, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_max_checked_i32_o32(tally_reducer* reducer, const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_max_checked_i32_o64(tally_reducer* reducer, const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int32_t* out, void* stream);
tally_status tally_reducer_segment_arg_min_i32_o32(tally_reducer* reducer, const int32_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_min_i32_o64(tally_reducer* reducer, const int32_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_i32_o32(tally_reducer* reducer, const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_i32_o64(tally_reducer* reducer, const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_max_i32_o32(tally_reducer* reducer, const int32_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_max_i32_o64(tally_reducer* reducer, const int32_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_i32_o32(tally_reducer* reducer, const int32_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_i32_o64(tally_reducer* reducer, const int32_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i32* out, void* stream);
tally_status tally_reducer_segment_sum_i64_o32(tally_reducer* reducer, const int64_t* in, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_sum_i64_o64(tally_reducer* reducer, const int64_t* in, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_sum_checked_i64_o32(tally_reducer* reducer, const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_sum_checked_i64_o64(tally_reducer* reducer, const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_min_i64_o32(tally_reducer* reducer, const int64_t* in, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_min_i64_o64(tally_reducer* reducer, const int64_t* in, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_min_checked_i64_o32(tally_reducer* reducer, const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_min_checked_i64_o64(tally_reducer* reducer, const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_max_i64_o32(tally_reducer* reducer, const int64_t* in, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_max_i64_o64(tally_reducer* reducer, const int64_t* in, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_max_checked_i64_o32(tally_reducer* reducer, const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_max_checked_i64_o64(tally_reducer* reducer, const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, int64_t* out, void* stream);
tally_status tally_reducer_segment_arg_min_i64_o32(tally_reducer* reducer, const int64_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_min_i64_o64(tally_reducer* reducer, const int64_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_i64_o32(tally_reducer* reducer, const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_i64_o64(tally_reducer* reducer, const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_max_i64_o32(tally_reducer* reducer, const int64_t* in, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_max_i64_o64(tally_reducer* reducer, const int64_t* in, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_i64_o32(tally_reducer* reducer, const int64_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_i64_o64(tally_reducer* reducer, const int64_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_i64* out, void* stream);
tally_status tally_reducer_segment_sum_f32_o32(tally_reducer* reducer, const float* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_f32_o64(tally_reducer* reducer, const float* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_checked_f32_o32(tally_reducer* reducer, const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_checked_f32_o64(tally_reducer* reducer, const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_f32_o32(tally_reducer* reducer, const float* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_f32_o64(tally_reducer* reducer, const float* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_checked_f32_o32(tally_reducer* reducer, const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_checked_f32_o64(tally_reducer* reducer, const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_f32_o32(tally_reducer* reducer, const float* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_f32_o64(tally_reducer* reducer, const float* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_checked_f32_o32(tally_reducer* reducer, const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_checked_f32_o64(tally_reducer* reducer, const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_arg_min_f32_o32(tally_reducer* reducer, const float* in, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_min_f32_o64(tally_reducer* reducer, const float* in, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_f32_o32(tally_reducer* reducer, const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_f32_o64(tally_reducer* reducer, const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_max_f32_o32(tally_reducer* reducer, const float* in, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_max_f32_o64(tally_reducer* reducer, const float* in, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_f32_o32(tally_reducer* reducer, const float* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_f32_o64(tally_reducer* reducer, const float* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f32* out, void* stream);
tally_status tally_reducer_segment_sum_f64_o32(tally_reducer* reducer, const double* in, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_sum_f64_o64(tally_reducer* reducer, const double* in, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_sum_checked_f64_o32(tally_reducer* reducer, const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_sum_checked_f64_o64(tally_reducer* reducer, const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_min_f64_o32(tally_reducer* reducer, const double* in, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_min_f64_o64(tally_reducer* reducer, const double* in, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_min_checked_f64_o32(tally_reducer* reducer, const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_min_checked_f64_o64(tally_reducer* reducer, const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_max_f64_o32(tally_reducer* reducer, const double* in, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_max_f64_o64(tally_reducer* reducer, const double* in, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_max_checked_f64_o32(tally_reducer* reducer, const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_max_checked_f64_o64(tally_reducer* reducer, const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, double* out, void* stream);
tally_status tally_reducer_segment_arg_min_f64_o32(tally_reducer* reducer, const double* in, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_min_f64_o64(tally_reducer* reducer, const double* in, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_f64_o32(tally_reducer* reducer, const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_min_checked_f64_o64(tally_reducer* reducer, const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_max_f64_o32(tally_reducer* reducer, const double* in, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_max_f64_o64(tally_reducer* reducer, const double* in, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_f64_o32(tally_reducer* reducer, const double* in, int64_t n, const int32_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_arg_max_checked_f64_o64(tally_reducer* reducer, const double* in, int64_t n, const int64_t* offsets, int64_t num_segments, tally_arg_f64* out, void* stream);
tally_status tally_reducer_segment_sum_f16_o32(tally_reducer* reducer, const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_f16_o64(tally_reducer* reducer, const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_checked_f16_o32(tally_reducer* reducer, const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_checked_f16_o64(tally_reducer* reducer, const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_f16_o32(tally_reducer* reducer, const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_f16_o64(tally_reducer* reducer, const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_checked_f16_o32(tally_reducer* reducer, const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_checked_f16_o64(tally_reducer* reducer, const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_f16_o32(tally_reducer* reducer, const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_f16_o64(tally_reducer* reducer, const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_checked_f16_o32(tally_reducer* reducer, const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_checked_f16_o64(tally_reducer* reducer, const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_bf16_o32(tally_reducer* reducer, const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_bf16_o64(tally_reducer* reducer, const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_checked_bf16_o32(tally_reducer* reducer, const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_sum_checked_bf16_o64(tally_reducer* reducer, const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_bf16_o32(tally_reducer* reducer, const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_bf16_o64(tally_reducer* reducer, const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_checked_bf16_o32(tally_reducer* reducer, const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_min_checked_bf16_o64(tally_reducer* reducer, const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_bf16_o32(tally_reducer* reducer, const uint16_t* in, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_bf16_o64(tally_reducer* reducer, const uint16_t* in, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_checked_bf16_o32(tally_reducer* reducer, const uint16_t* in, int64_t n, const int32_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_segment_max_checked_bf16_o64(tally_reducer* reducer, const uint16_t* in, int64_t n, const int64_t* offsets, int64_t num_segments, float* out, void* stream);
tally_status tally_reducer_csr_matvec_f32_o32(tally_reducer* reducer, const float* values, const int32_t* cols, const int32_t* row_offsets, int64_t rows, const float* x, float* y, void* stream);
tally_status tally_reducer_csr_matvec_f32_o64(tally_reducer* reducer, const float* values, const int32_t* cols, const int64_t* row_offsets, int64_t rows, const float* x, float* y, void* stream);
tally_status tally_reducer_csr_matvec_f64_o32(tally_reducer* reducer, const double* values, const int32_t* cols, const int32_t* row_offsets, int64_t rows, const double* x, double* y, void* stream);
tally_status tally_reducer_csr_matvec_f64_o64(tally_reducer* reducer, const double* values, const int32_t* cols, const int64_t* row_offsets, int64_t rows, const double* x, double* y, void* stream);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* TALLY_TALLY_H */
