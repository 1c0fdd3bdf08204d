// The default-policy segmented reductions and CSR SpMV behind <tally/tally.hpp>, and the macros that
// stamp the public functions of one element type and their device_reducer twins into its source
// file (segments_int.cu, segments_float.cu, segments_float16.cu, csr_matvec.cu). Each public function
// checks its arguments (the template's checks: signs, null and misaligned pointers, naming the public
// function) before any CUDA call, then calls the one-off template with its default policy, or (the
// twin) the same policy's segments_reducer in the device_reducer's workspace: libtally's bits are the
// template's.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>

#include <tally/csr_matvec.cuh>
#include <tally/reduce_segments.cuh>
#include <tally/tally.hpp>

#include "default_reductions.cuh"
#include "device_reducer_impl.hpp"
#include "offsets_plan.cuh"

namespace tally::detail {

template <class T, class Op>
using default_segments_reducer = segments_reducer<default_segments_policy<T, Op>, T, Op>;
template <class T>
using default_csr_reducer = segments_reducer<default_csr_policy<T>, T, op::sum>;

// The workspace of every segmented reduction tally.hpp offers on T (segments_workspace_bound), and of
// csr_matvec on T: it depends on the device alone (segments_reducer::need), not on the offsets'
// type, the sizes or the output type. Constructing the reducers also fills the per-device caches
// (SM count, threads a multiprocessor) that later calls read.
template <class T, class... Ops>
std::size_t largest_segments_workspace(type_list<Ops...>) {
  return std::max({default_segments_reducer<T, Ops>().workspace_bytes()...});
}
template <class T>
std::size_t segments_workspace_bound() {
  return largest_segments_workspace<T>(ops_of<T>{});
}
template <class T>
std::size_t csr_workspace_bound() {
  return default_csr_reducer<T>().workspace_bytes();
}

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

// A device_reducer's segmented reduction: the unchecked form (checked false; n is not given) or the
// checked one, which tests the offsets against n and waits for that test. The same checks as the
// one-offs first; num_segments == 0 then queues nothing.
template <class Op, class T, class Offset, class Out>
void segments_into(const char* where, device_reducer_impl* self, bool checked, const T* in, index_t n,
                   const Offset* offsets, index_t segments, Out* out, cudaStream_t stream) {
  live(self, where);
  validate_segments(in, offsets, segments, out, where, n, checked);
  if (segments == 0) return;
  using R = default_segments_reducer<T, Op>;
  in_workspace<R>(where, self, stream, [](const R& r) { return r.need(); },
                  [&](const R& r, void* ws, std::size_t bytes) {
                    if (checked) r.run(in, n, offsets, segments, out, ws, bytes, stream);
                    else r.run(in, offsets, segments, out, ws, bytes, stream);
                  });
}

template <class T, class Col, class Offset, class Y>
void csr_matvec_into(device_reducer_impl* self, const T* values, const Col* cols, const Offset* row_offsets, index_t rows,
                     const T* x, Y* y, cudaStream_t stream) {
  constexpr const char* where = "tally::device_reducer::csr_matvec";
  live(self, where);
  validate_csr(values, cols, row_offsets, rows, x, y, where);
  if (rows == 0) return;
  using R = default_csr_reducer<T>;
  in_workspace<R>(where, self, stream, [](const R& r) { return r.need(); },
                  [&](const R& r, void* ws, std::size_t bytes) { r.run_dot(values, cols, row_offsets, rows, x, y, ws, bytes, stream); });
}

// Planned calls (offsets_plan): a plan of segment_sum on T takes the grid of tally.hpp's segment_sum
// (results in float for 16-bit floats), a plan of csr_matvec the CSR kernel's; the calls check that
// the plan is theirs, then run the template's planned call, in the pool's workspace (one-off) or the
// device_reducer's.
template <class T>
using sum_out = std::conditional_t<is_16bit_float<T>, float, T>;

// A plan that `maker` makes with make() (a segments_plan over these offsets), after the offsets' checks.
template <class Offset, class Make>
offsets_plan make_plan(const std::string& maker, const Offset* offsets, index_t segments, Make make) {
  validate_offsets(offsets, segments, maker.c_str());
  segments_plan<Offset> split;
  naming(maker.c_str(), [&] { split = make(); });
  return offsets_plan_access::make(maker, std::move(split));
}
template <class T, class Offset>
offsets_plan make_sum_plan(const Offset* offsets, index_t segments, cudaStream_t stream) {
  return make_plan(sum_plan_maker<T>(), offsets, segments, [&] {
    return default_segments_reducer<T, op::sum>().template plan<sum_out<T>>(offsets, segments, stream);
  });
}
template <class T, class Offset>
offsets_plan make_csr_plan(const Offset* row_offsets, index_t rows, cudaStream_t stream) {
  return make_plan(csr_plan_maker<T>(), row_offsets, rows, [&] {
    return default_csr_reducer<T>().template plan_dot<std::int32_t>(row_offsets, rows, stream);
  });
}

// A planned call of reducer type R over a plan that `maker` made: checks(split) (its arguments, no
// CUDA call), then, where the plan has segments, run(r, split, workspace, bytes) in workspace from
// the pool (one_off) or the device_reducer self's (null once moved from).
template <class R, class Checks, class Run>
void planned_call(const char* where, device_reducer_impl* self, bool one_off, const offsets_plan& plan,
                  const std::string& maker, cudaStream_t stream, Checks checks, Run run) {
  if (!one_off) live(self, where);
  std::visit(
      [&](const auto& split) {
        checks(split);
        if (split.segments() == 0) return;
        const auto call = [&](const R& r, void* ws, std::size_t bytes) { run(r, split, ws, bytes); };
        if (!one_off) return in_workspace<R>(where, self, stream, [](const R& r) { return r.need(); }, call);
        naming(where, [&] {
          const R r;
          with_pool_workspace(r.need(), stream, "tally::reduce_segments",
                              [&](void* ws, std::size_t bytes) { call(r, ws, bytes); });
        });
      },
      offsets_plan_access::split_for(plan, maker, where));
}

template <class T, class Out>
void planned_sum(const char* where, device_reducer_impl* self, bool one_off, const T* in, const offsets_plan& plan,
                 Out* out, cudaStream_t stream) {
  planned_call<default_segments_reducer<T, op::sum>>(
      where, self, one_off, plan, sum_plan_maker<T>(), stream,
      [&](const auto& split) { validate_segments(in, split.offsets(), split.segments(), out, where); },
      [&](const auto& r, const auto& split, void* ws, std::size_t bytes) { r.run(in, split, out, ws, bytes, stream); });
}
template <class T, class Y>
void planned_csr_matvec(const char* where, device_reducer_impl* self, bool one_off, const T* values,
                        const std::int32_t* cols, const offsets_plan& plan, const T* x, Y* y, cudaStream_t stream) {
  planned_call<default_csr_reducer<T>>(
      where, self, one_off, plan, csr_plan_maker<T>(), stream,
      [&](const auto& split) { validate_csr(values, cols, split.offsets(), split.segments(), x, y, where); },
      [&](const auto& r, const auto& split, void* ws, std::size_t bytes) {
        r.run_dot(values, cols, split, x, y, ws, bytes, stream);
      });
}

}  // namespace tally::detail

// Plans of segment_sum on T (results OUT) over 32- and 64-bit offsets, and the planned segment_sum
// with its device_reducer twin.
#define TALLY_DEFINE_PLANNED_SUM(T, OUT)                                                                              \
  offsets_plan detail::plan_segment_sum(detail::plan_for<T>, const std::int32_t* offsets, index_t num_segments,       \
                                        cudaStream_t stream) {                                                        \
    return detail::make_sum_plan<T>(offsets, num_segments, stream);                                                   \
  }                                                                                                                   \
  offsets_plan detail::plan_segment_sum(detail::plan_for<T>, const std::int64_t* offsets, index_t num_segments,       \
                                        cudaStream_t stream) {                                                        \
    return detail::make_sum_plan<T>(offsets, num_segments, stream);                                                   \
  }                                                                                                                   \
  void segment_sum(const T* in, const offsets_plan& plan, OUT* out, cudaStream_t stream) {                            \
    detail::planned_sum("tally::segment_sum", nullptr, true, in, plan, out, stream);                                  \
  }                                                                                                                   \
  void device_reducer::segment_sum(const T* in, const offsets_plan& plan, OUT* out, cudaStream_t stream) {            \
    detail::planned_sum("tally::device_reducer::segment_sum", impl_.get(), false, in, plan, out, stream);             \
  }

// The public segmented reduction NAME (operator OP) on element type T with results OUT and OFFSET
// offsets: the unchecked and the checked form, and their device_reducer twins. Used inside
// namespace tally.
#define TALLY_DEFINE_SEGMENT(NAME, OP, T, OUT, OFFSET)                                                                 \
  void NAME(const T* in, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream) {                 \
    detail::segments_once<op::OP>("tally::" #NAME, in, offsets, num_segments, out, stream);                            \
  }                                                                                                                    \
  void NAME(const T* in, index_t n, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream) {      \
    detail::segments_checked_once<op::OP>("tally::" #NAME, in, n, offsets, num_segments, out, stream);                 \
  }                                                                                                                    \
  void device_reducer::NAME(const T* in, const OFFSET* offsets, index_t num_segments, OUT* out, cudaStream_t stream) { \
    detail::segments_into<op::OP>("tally::device_reducer::" #NAME, impl_.get(), false, in, -1, offsets, num_segments,  \
                                  out, stream);                                                                        \
  }                                                                                                                    \
  void device_reducer::NAME(const T* in, index_t n, const OFFSET* offsets, index_t num_segments, OUT* out,            \
                            cudaStream_t stream) {                                                                     \
    detail::segments_into<op::OP>("tally::device_reducer::" #NAME, impl_.get(), true, in, n, offsets, num_segments,    \
                                  out, stream);                                                                        \
  }

// NAME with 32- and 64-bit offsets.
#define TALLY_DEFINE_SEGMENT_OFFSETS(NAME, OP, T, OUT)    \
  TALLY_DEFINE_SEGMENT(NAME, OP, T, OUT, std::int32_t) \
  TALLY_DEFINE_SEGMENT(NAME, OP, T, OUT, std::int64_t)

// Every segmented reduction on T (results of type T, arg<T> for the arg ones), and T's workspace
// bound.
#define TALLY_DEFINE_ALL_SEGMENTS(T)                                \
  TALLY_DEFINE_PLANNED_SUM(T, T)                                    \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_sum, sum, T, T)              \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_min, min, T, T)              \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_max, max, T, T)              \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_arg_min, arg_min, T, arg<T>) \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_arg_max, arg_max, T, arg<T>) \
  template std::size_t detail::segments_workspace_bound<T>();

// A 16-bit floating type: segment_sum, segment_min and segment_max with float results, and T's
// workspace bound.
#define TALLY_DEFINE_FLOAT16_SEGMENTS(T)                     \
  TALLY_DEFINE_PLANNED_SUM(T, float)                       \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_sum, sum, T, float) \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_min, min, T, float) \
  TALLY_DEFINE_SEGMENT_OFFSETS(segment_max, max, T, float) \
  template std::size_t detail::segments_workspace_bound<T>();

// csr_matvec on T with 32-bit column indices and OFFSET row offsets, and its device_reducer twin.
#define TALLY_DEFINE_CSR_MATVEC(T, OFFSET)                                                                          \
  void csr_matvec(const T* values, const std::int32_t* cols, const OFFSET* row_offsets, index_t rows, const T* x,   \
                  T* y, cudaStream_t stream) {                                                                      \
    detail::csr_matvec_once(values, cols, row_offsets, rows, x, y, stream);                                         \
  }                                                                                                                 \
  void device_reducer::csr_matvec(const T* values, const std::int32_t* cols, const OFFSET* row_offsets, index_t rows, \
                                  const T* x, T* y, cudaStream_t stream) {                                          \
    detail::csr_matvec_into(impl_.get(), values, cols, row_offsets, rows, x, y, stream);                            \
  }

// Plans of csr_matvec on T over 32- and 64-bit row offsets, and the planned csr_matvec with its
// device_reducer twin.
#define TALLY_DEFINE_PLANNED_CSR_MATVEC(T)                                                                               \
  offsets_plan detail::plan_csr_matvec(detail::plan_for<T>, const std::int32_t* row_offsets, index_t rows,               \
                                       cudaStream_t stream) {                                                           \
    return detail::make_csr_plan<T>(row_offsets, rows, stream);                                                          \
  }                                                                                                                      \
  offsets_plan detail::plan_csr_matvec(detail::plan_for<T>, const std::int64_t* row_offsets, index_t rows,               \
                                       cudaStream_t stream) {                                                           \
    return detail::make_csr_plan<T>(row_offsets, rows, stream);                                                          \
  }                                                                                                                      \
  void csr_matvec(const T* values, const std::int32_t* cols, const offsets_plan& plan, const T* x, T* y,                 \
                  cudaStream_t stream) {                                                                                 \
    detail::planned_csr_matvec("tally::csr_matvec", nullptr, true, values, cols, plan, x, y, stream);                    \
  }                                                                                                                      \
  void device_reducer::csr_matvec(const T* values, const std::int32_t* cols, const offsets_plan& plan, const T* x, T* y, \
                                  cudaStream_t stream) {                                                                 \
    detail::planned_csr_matvec("tally::device_reducer::csr_matvec", impl_.get(), false, values, cols, plan, x, y,        \
                               stream);                                                                                  \
  }

// csr_matvec on T with 32- and 64-bit row offsets, its planned form, and T's workspace bound.
#define TALLY_DEFINE_CSR_MATVECS(T)           \
  TALLY_DEFINE_PLANNED_CSR_MATVEC(T)        \
  TALLY_DEFINE_CSR_MATVEC(T, std::int32_t)  \
  TALLY_DEFINE_CSR_MATVEC(T, std::int64_t)  \
  template std::size_t detail::csr_workspace_bound<T>();
