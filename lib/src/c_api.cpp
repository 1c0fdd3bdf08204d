// <tally/tally.h>: the C interface over <tally/tally.hpp>. Plain C++ (no kernel here): each function
// converts its arguments, calls the C++ function and turns any exception into a status and the
// calling thread's last-error message, prefixed with the C function's name.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <new>
#include <string>
#include <type_traits>
#include <utility>

#include <cuda_runtime_api.h>

#include <tally/tally.h>
#include <tally/tally.hpp>

namespace {

thread_local std::string last_error;
thread_local int last_cuda_error = 0;

// Runs f; returns the status the C caller sees and records what went wrong.
template <class F>
tally_status guarded(const char* name, F f) noexcept {
  try {
    f();
    return TALLY_SUCCESS;
  } catch (const tally::error& e) {
    last_cuda_error = static_cast<int>(e.code());
    last_error = std::string(name) + ": " + e.what();
    return e.code() == cudaSuccess ? TALLY_ERROR_INVALID_ARGUMENT : TALLY_ERROR_CUDA;
  } catch (const std::bad_alloc&) {
    last_cuda_error = 0;
    last_error = std::string(name) + ": out of host memory";
  } catch (const std::exception& e) {
    last_cuda_error = 0;
    last_error = std::string(name) + ": " + e.what();
  } catch (...) {
    last_cuda_error = 0;
    last_error = std::string(name) + ": unknown error";
  }
  return TALLY_ERROR_INTERNAL;
}

cudaStream_t stream_of(void* stream) { return static_cast<cudaStream_t>(stream); }

// The C result types are the C++ ones, field for field.
template <class C, class Cpp>
constexpr bool same_layout = sizeof(C) == sizeof(Cpp) && alignof(C) == alignof(Cpp);
static_assert(same_layout<tally_arg_i32, tally::arg<std::int32_t>> && same_layout<tally_arg_i64, tally::arg<std::int64_t>> &&
                  same_layout<tally_arg_u32, tally::arg<std::uint32_t>> &&
                  same_layout<tally_arg_u64, tally::arg<std::uint64_t>> && same_layout<tally_arg_f32, tally::arg<float>> &&
                  same_layout<tally_arg_f64, tally::arg<double>>,
              "tally.h: the arg structs must match tally::arg<T>");
static_assert(offsetof(tally_arg_f32, index) == offsetof(tally::arg<float>, index), "tally.h: arg layout");
static_assert(sizeof(__half) == sizeof(std::uint16_t) && sizeof(__nv_bfloat16) == sizeof(std::uint16_t),
              "tally.h: 16-bit floats travel as their bits");

template <class T>
const T* as(const void* p) {
  return static_cast<const T*>(p);
}
template <class T>
T* as(void* p) {
  return static_cast<T*>(p);
}

}  // namespace

struct tally_reducer {
  tally::device_reducer r;
};

struct tally_plan {
  tally::offsets_plan plan;
};

namespace {
// The reducer behind a handle, or an invalid-argument error (guarded names the function).
tally::device_reducer& reducer_of(tally_reducer* handle) {
  if (handle == nullptr) throw tally::error("the reducer is null");
  return handle->r;
}
// The plan behind a handle, likewise.
const tally::offsets_plan& plan_of(const tally_plan* handle) {
  if (handle == nullptr) throw tally::error("the plan is null");
  return handle->plan;
}
}  // namespace

extern "C" {

const char* tally_last_error(void) { return last_error.c_str(); }
int tally_last_cuda_error(void) { return last_cuda_error; }

const char* tally_status_name(tally_status status) {
  switch (status) {
    case TALLY_SUCCESS: return "TALLY_SUCCESS";
    case TALLY_ERROR_INVALID_ARGUMENT: return "TALLY_ERROR_INVALID_ARGUMENT";
    case TALLY_ERROR_CUDA: return "TALLY_ERROR_CUDA";
    case TALLY_ERROR_INTERNAL: return "TALLY_ERROR_INTERNAL";
  }
  return "unknown tally_status";
}

tally_status tally_reducer_create(tally_reducer** reducer) {
  return guarded("tally_reducer_create", [&] {
    if (reducer == nullptr) throw tally::error("the place for the reducer is null");
    *reducer = new tally_reducer{tally::device_reducer()};
  });
}

void tally_reducer_destroy(tally_reducer* reducer) { delete reducer; }

// One-off function C_NAME = tally::CPP_NAME on C type CT (C++ type T), results OUTC (OUT), and its
// reducer twin tally_reducer_<...>.
#define TALLY_C_REDUCTION(C_NAME, CPP_NAME, CT, T, OUTC, OUT)                                                   \
  tally_status tally_##C_NAME(const CT* in, int64_t n, OUTC* out, void* stream) {                               \
    return guarded("tally_" #C_NAME, [&] { tally::CPP_NAME(as<T>(in), n, as<OUT>(out), stream_of(stream)); }); \
  }                                                                                                             \
  tally_status tally_reducer_##C_NAME(tally_reducer* r, const CT* in, int64_t n, OUTC* out, void* stream) {     \
    return guarded("tally_reducer_" #C_NAME, [&] {                                                              \
      reducer_of(r).CPP_NAME(as<T>(in), n, as<OUT>(out), stream_of(stream));         \
    });                                                                                                         \
  }
#define TALLY_C_ROWS(C_NAME, CPP_NAME, CT, T, OUTC, OUT)                                                           \
  tally_status tally_##C_NAME(const CT* a, int64_t m, int64_t n, int64_t ld, OUTC* out, void* stream) {           \
    return guarded("tally_" #C_NAME, [&] { tally::CPP_NAME(as<T>(a), m, n, ld, as<OUT>(out), stream_of(stream)); }); \
  }                                                                                                                \
  tally_status tally_reducer_##C_NAME(tally_reducer* r, const CT* a, int64_t m, int64_t n, int64_t ld, OUTC* out,  \
                                      void* stream) {                                                              \
    return guarded("tally_reducer_" #C_NAME, [&] {                                                                 \
      reducer_of(r).CPP_NAME(as<T>(a), m, n, ld, as<OUT>(out), stream_of(stream));       \
    });                                                                                                            \
  }
#define TALLY_C_MATVEC(SUFFIX, CT, T, YC, Y)                                                                               \
  tally_status tally_matvec_##SUFFIX(const CT* a, int64_t m, int64_t n, int64_t ld, const CT* x, YC* y, void* stream) {   \
    return guarded("tally_matvec_" #SUFFIX,                                                                                \
                   [&] { tally::matvec(as<T>(a), m, n, ld, as<T>(x), as<Y>(y), stream_of(stream)); });                     \
  }                                                                                                                        \
  tally_status tally_reducer_matvec_##SUFFIX(tally_reducer* r, const CT* a, int64_t m, int64_t n, int64_t ld, const CT* x, \
                                             YC* y, void* stream) {                                                        \
    return guarded("tally_reducer_matvec_" #SUFFIX, [&] {                                                                  \
      reducer_of(r).matvec(as<T>(a), m, n, ld, as<T>(x), as<Y>(y), stream_of(stream));    \
    });                                                                                                                    \
  }

// sum, min, max (and arg_min, arg_max) through X on suffix S (C type CT, C++ type T), named with
// PREFIX (nothing, or row_); 16-bit floats travel as uint16_t and give float results.
#define TALLY_C_VALUE_OPS(X, PREFIX, S, CT, T, OUTC, OUT) \
  X(PREFIX##sum_##S, PREFIX##sum, CT, T, OUTC, OUT)       \
  X(PREFIX##min_##S, PREFIX##min, CT, T, OUTC, OUT)       \
  X(PREFIX##max_##S, PREFIX##max, CT, T, OUTC, OUT)
#define TALLY_C_ALL_OPS(X, PREFIX, S, CT, T)                                   \
  TALLY_C_VALUE_OPS(X, PREFIX, S, CT, T, CT, T)                                \
  X(PREFIX##arg_min_##S, PREFIX##arg_min, CT, T, tally_arg_##S, tally::arg<T>) \
  X(PREFIX##arg_max_##S, PREFIX##arg_max, CT, T, tally_arg_##S, tally::arg<T>)
#define TALLY_C_ALL_REDUCTIONS(S, CT, T) TALLY_C_ALL_OPS(TALLY_C_REDUCTION, , S, CT, T)
#define TALLY_C_FLOAT16_REDUCTIONS(S, T) TALLY_C_VALUE_OPS(TALLY_C_REDUCTION, , S, uint16_t, T, float, float)
#define TALLY_C_ALL_ROWS(S, CT, T) TALLY_C_ALL_OPS(TALLY_C_ROWS, row_, S, CT, T)
#define TALLY_C_FLOAT16_ROWS(S, T) TALLY_C_VALUE_OPS(TALLY_C_ROWS, row_, S, uint16_t, T, float, float)

TALLY_C_ALL_REDUCTIONS(i32, int32_t, std::int32_t)
TALLY_C_ALL_REDUCTIONS(i64, int64_t, std::int64_t)
TALLY_C_ALL_REDUCTIONS(u32, uint32_t, std::uint32_t)
TALLY_C_ALL_REDUCTIONS(u64, uint64_t, std::uint64_t)
TALLY_C_ALL_REDUCTIONS(f32, float, float)
TALLY_C_ALL_REDUCTIONS(f64, double, double)
TALLY_C_REDUCTION(reproducible_sum_f32, reproducible_sum, float, float, float, float)
TALLY_C_REDUCTION(reproducible_sum_f64, reproducible_sum, double, double, double, double)
TALLY_C_FLOAT16_REDUCTIONS(f16, __half)
TALLY_C_FLOAT16_REDUCTIONS(bf16, __nv_bfloat16)

TALLY_C_ALL_ROWS(i32, int32_t, std::int32_t)
TALLY_C_ALL_ROWS(i64, int64_t, std::int64_t)
TALLY_C_ALL_ROWS(f32, float, float)
TALLY_C_ALL_ROWS(f64, double, double)
TALLY_C_FLOAT16_ROWS(f16, __half)
TALLY_C_FLOAT16_ROWS(bf16, __nv_bfloat16)

TALLY_C_MATVEC(f32, float, float, float, float)
TALLY_C_MATVEC(f64, double, double, double, double)
TALLY_C_MATVEC(f16, uint16_t, __half, float, float)
TALLY_C_MATVEC(bf16, uint16_t, __nv_bfloat16, float, float)

// Transposes by element size: moved as unsigned words of that size.
#define TALLY_C_TRANSPOSE(BITS)                                                                              \
  tally_status tally_transpose_##BITS(const void* in, void* out, int64_t rows, int64_t cols, void* stream) { \
    return guarded("tally_transpose_" #BITS, [&] {                                                           \
      tally::transpose(as<std::uint##BITS##_t>(in), as<std::uint##BITS##_t>(out), rows, cols, stream_of(stream)); \
    });                                                                                                      \
  }
TALLY_C_TRANSPOSE(16)
TALLY_C_TRANSPOSE(32)
TALLY_C_TRANSPOSE(64)

// Sorts and merges on suffix S (C type CT, C++ type T): values by width, moved as unsigned words of
// that size; offsets of 32 and 64 bits.
#define TALLY_C_SORT_BY_KEY(S, CT, T, BITS)                                                                       \
  tally_status tally_sort_by_key_##S##_v##BITS(const CT* keys, const void* values, CT* keys_out, void* values_out, \
                                               int64_t n, void* stream) {                                        \
    using word = std::uint##BITS##_t;                                                                             \
    return guarded("tally_sort_by_key_" #S "_v" #BITS, [&] {                                                     \
      tally::sort_by_key(as<T>(keys), as<word>(values), as<T>(keys_out), as<word>(values_out), n, stream_of(stream)); \
    });                                                                                                           \
  }
#define TALLY_C_MERGE(S, CT, T, BITS)                                                                                \
  tally_status tally_merge_##S##_o##BITS(const CT* keys, const int##BITS##_t* offsets, int64_t num_lists, int64_t n, \
                                         CT* out, void* stream) {                                                    \
    return guarded("tally_merge_" #S "_o" #BITS, [&] {                                                              \
      tally::merge(as<T>(keys), as<std::int##BITS##_t>(offsets), num_lists, n, as<T>(out), stream_of(stream));      \
    });                                                                                                              \
  }
#define TALLY_C_SORTS(S, CT, T)                                                                                     \
  tally_status tally_sort_##S(const CT* keys, CT* keys_out, int64_t n, void* stream) {                             \
    return guarded("tally_sort_" #S, [&] { tally::sort(as<T>(keys), as<T>(keys_out), n, stream_of(stream)); });     \
  }                                                                                                                 \
  TALLY_C_SORT_BY_KEY(S, CT, T, 32)                                                                                 \
  TALLY_C_SORT_BY_KEY(S, CT, T, 64)                                                                                 \
  TALLY_C_MERGE(S, CT, T, 32)                                                                                       \
  TALLY_C_MERGE(S, CT, T, 64)
TALLY_C_SORTS(i32, int32_t, std::int32_t)
TALLY_C_SORTS(i64, int64_t, std::int64_t)
TALLY_C_SORTS(u32, uint32_t, std::uint32_t)
TALLY_C_SORTS(u64, uint64_t, std::uint64_t)
TALLY_C_SORTS(f32, float, float)
TALLY_C_SORTS(f64, double, double)

// Segmented reductions: OP on suffix S (C type CT, C++ type T; results OUTC, OUT) with BITS-bit
// offsets, unchecked (tally_segment_<op>_<s>_o<bits>) and checked against n
// (tally_segment_<op>_checked_<s>_o<bits>), and their reducer twins tally_reducer_segment_<...>.
#define TALLY_C_SEGMENT(OP, S, CT, T, OUTC, OUT, BITS)                                                                   \
  tally_status tally_segment_##OP##_##S##_o##BITS(const CT* in, const int##BITS##_t* offsets, int64_t num_segments,     \
                                                  OUTC* out, void* stream) {                                            \
    return guarded("tally_segment_" #OP "_" #S "_o" #BITS, [&] {                                                        \
      tally::segment_##OP(as<T>(in), as<std::int##BITS##_t>(offsets), num_segments, as<OUT>(out), stream_of(stream));   \
    });                                                                                                                 \
  }                                                                                                                     \
  tally_status tally_segment_##OP##_checked_##S##_o##BITS(const CT* in, int64_t n, const int##BITS##_t* offsets,        \
                                                          int64_t num_segments, OUTC* out, void* stream) {              \
    return guarded("tally_segment_" #OP "_checked_" #S "_o" #BITS, [&] {                                                \
      tally::segment_##OP(as<T>(in), n, as<std::int##BITS##_t>(offsets), num_segments, as<OUT>(out), stream_of(stream)); \
    });                                                                                                                 \
  }                                                                                                                     \
  tally_status tally_reducer_segment_##OP##_##S##_o##BITS(tally_reducer* r, const CT* in, const int##BITS##_t* offsets, \
                                                          int64_t num_segments, OUTC* out, void* stream) {              \
    return guarded("tally_reducer_segment_" #OP "_" #S "_o" #BITS, [&] {                                                \
      reducer_of(r).segment_##OP(as<T>(in), as<std::int##BITS##_t>(offsets), num_segments, as<OUT>(out), stream_of(stream));     \
    });                                                                                                                 \
  }                                                                                                                     \
  tally_status tally_reducer_segment_##OP##_checked_##S##_o##BITS(tally_reducer* r, const CT* in, int64_t n,            \
                                                                  const int##BITS##_t* offsets, int64_t num_segments,   \
                                                                  OUTC* out, void* stream) {                            \
    return guarded("tally_reducer_segment_" #OP "_checked_" #S "_o" #BITS, [&] {                                        \
      reducer_of(r).segment_##OP(as<T>(in), n, as<std::int##BITS##_t>(offsets), num_segments, as<OUT>(out), stream_of(stream));  \
    });                                                                                                                 \
  }
#define TALLY_C_SEGMENT_OFFSETS(OP, S, CT, T, OUTC, OUT) \
  TALLY_C_SEGMENT(OP, S, CT, T, OUTC, OUT, 32)           \
  TALLY_C_SEGMENT(OP, S, CT, T, OUTC, OUT, 64)
#define TALLY_C_ALL_SEGMENTS(S, CT, T)                                      \
  TALLY_C_SEGMENT_OFFSETS(sum, S, CT, T, CT, T)                             \
  TALLY_C_SEGMENT_OFFSETS(min, S, CT, T, CT, T)                             \
  TALLY_C_SEGMENT_OFFSETS(max, S, CT, T, CT, T)                             \
  TALLY_C_SEGMENT_OFFSETS(arg_min, S, CT, T, tally_arg_##S, tally::arg<T>) \
  TALLY_C_SEGMENT_OFFSETS(arg_max, S, CT, T, tally_arg_##S, tally::arg<T>)
#define TALLY_C_FLOAT16_SEGMENTS(S, T)                          \
  TALLY_C_SEGMENT_OFFSETS(sum, S, uint16_t, T, float, float) \
  TALLY_C_SEGMENT_OFFSETS(min, S, uint16_t, T, float, float) \
  TALLY_C_SEGMENT_OFFSETS(max, S, uint16_t, T, float, float)
TALLY_C_ALL_SEGMENTS(i32, int32_t, std::int32_t)
TALLY_C_ALL_SEGMENTS(i64, int64_t, std::int64_t)
TALLY_C_ALL_SEGMENTS(f32, float, float)
TALLY_C_ALL_SEGMENTS(f64, double, double)
TALLY_C_FLOAT16_SEGMENTS(f16, __half)
TALLY_C_FLOAT16_SEGMENTS(bf16, __nv_bfloat16)

// CSR SpMV on suffix S: 32-bit column indices, BITS-bit row offsets; and its reducer twin.
#define TALLY_C_CSR_MATVEC(S, CT, T, BITS)                                                                             \
  tally_status tally_csr_matvec_##S##_o##BITS(const CT* values, const int32_t* cols, const int##BITS##_t* row_offsets, \
                                              int64_t rows, const CT* x, CT* y, void* stream) {                        \
    return guarded("tally_csr_matvec_" #S "_o" #BITS, [&] {                                                            \
      tally::csr_matvec(as<T>(values), as<std::int32_t>(cols), as<std::int##BITS##_t>(row_offsets), rows, as<T>(x),    \
                        as<T>(y), stream_of(stream));                                                                  \
    });                                                                                                                \
  }                                                                                                                    \
  tally_status tally_reducer_csr_matvec_##S##_o##BITS(tally_reducer* r, const CT* values, const int32_t* cols,         \
                                                      const int##BITS##_t* row_offsets, int64_t rows, const CT* x,     \
                                                      CT* y, void* stream) {                                           \
    return guarded("tally_reducer_csr_matvec_" #S "_o" #BITS, [&] {                                                    \
      reducer_of(r).csr_matvec(as<T>(values), as<std::int32_t>(cols), as<std::int##BITS##_t>(row_offsets), rows, as<T>(x),      \
                      as<T>(y), stream_of(stream));                                                                    \
    });                                                                                                                \
  }
TALLY_C_CSR_MATVEC(f32, float, float, 32)
TALLY_C_CSR_MATVEC(f32, float, float, 64)
TALLY_C_CSR_MATVEC(f64, double, double, 32)
TALLY_C_CSR_MATVEC(f64, double, double, 64)

void tally_plan_destroy(tally_plan* plan) { delete plan; }

// A plan of CALL (segment_sum, csr_matvec) on suffix S (C++ type T) over BITS-bit offsets.
#define TALLY_C_PLAN(CALL, S, T, BITS)                                                                           \
  tally_status tally_plan_##CALL##_##S##_o##BITS(tally_plan** plan, const int##BITS##_t* offsets, int64_t count,  \
                                                 void* stream) {                                                \
    return guarded("tally_plan_" #CALL "_" #S "_o" #BITS, [&] {                                                  \
      if (plan == nullptr) throw tally::error("the place for the plan is null");                                \
      tally::offsets_plan made = tally::plan_##CALL<T>(as<std::int##BITS##_t>(offsets), count, stream_of(stream)); \
      *plan = new tally_plan{std::move(made)};                                                                 \
    });                                                                                                         \
  }
// The planned segment_sum on suffix S (C type CT, C++ type T; results OUTC, OUT), and its reducer twin.
#define TALLY_C_PLANNED_SUM(S, CT, T, OUTC, OUT)                                                                    \
  TALLY_C_PLAN(segment_sum, S, T, 32)                                                                          \
  TALLY_C_PLAN(segment_sum, S, T, 64)                                                                          \
  tally_status tally_segment_sum_planned_##S(const CT* in, const tally_plan* plan, OUTC* out, void* stream) {       \
    return guarded("tally_segment_sum_planned_" #S, [&] {                                                           \
      tally::segment_sum(as<T>(in), plan_of(plan), as<OUT>(out), stream_of(stream)); \
    });                                                                                                             \
  }                                                                                                                 \
  tally_status tally_reducer_segment_sum_planned_##S(tally_reducer* r, const CT* in, const tally_plan* plan, OUTC* out, \
                                                     void* stream) {                                                \
    constexpr const char* name = "tally_reducer_segment_sum_planned_" #S;                                          \
    return guarded(name, [&] {                                                                                      \
      reducer_of(r).segment_sum(as<T>(in), plan_of(plan), as<OUT>(out), stream_of(stream));            \
    });                                                                                                             \
  }
TALLY_C_PLANNED_SUM(i32, int32_t, std::int32_t, int32_t, std::int32_t)
TALLY_C_PLANNED_SUM(i64, int64_t, std::int64_t, int64_t, std::int64_t)
TALLY_C_PLANNED_SUM(f32, float, float, float, float)
TALLY_C_PLANNED_SUM(f64, double, double, double, double)
TALLY_C_PLANNED_SUM(f16, uint16_t, __half, float, float)
TALLY_C_PLANNED_SUM(bf16, uint16_t, __nv_bfloat16, float, float)

// The planned csr_matvec on suffix S, and its reducer twin.
#define TALLY_C_PLANNED_CSR_MATVEC(S, CT, T)                                                                        \
  TALLY_C_PLAN(csr_matvec, S, T, 32)                                                                           \
  TALLY_C_PLAN(csr_matvec, S, T, 64)                                                                           \
  tally_status tally_csr_matvec_planned_##S(const CT* values, const int32_t* cols, const tally_plan* plan,          \
                                            const CT* x, CT* y, void* stream) {                                     \
    constexpr const char* name = "tally_csr_matvec_planned_" #S;                                                    \
    return guarded(name, [&] {                                                                                      \
      tally::csr_matvec(as<T>(values), as<std::int32_t>(cols), plan_of(plan), as<T>(x), as<T>(y),            \
                        stream_of(stream));                                                                         \
    });                                                                                                             \
  }                                                                                                                 \
  tally_status tally_reducer_csr_matvec_planned_##S(tally_reducer* r, const CT* values, const int32_t* cols,        \
                                                    const tally_plan* plan, const CT* x, CT* y, void* stream) {     \
    constexpr const char* name = "tally_reducer_csr_matvec_planned_" #S;                                            \
    return guarded(name, [&] {                                                                                      \
      reducer_of(r).csr_matvec(as<T>(values), as<std::int32_t>(cols), plan_of(plan), as<T>(x), as<T>(y), \
                                     stream_of(stream));                                                            \
    });                                                                                                             \
  }
TALLY_C_PLANNED_CSR_MATVEC(f32, float, float)
TALLY_C_PLANNED_CSR_MATVEC(f64, double, double)

}  // extern "C"
