// The default-policy row reductions and matvec behind <tally/tally.hpp>, and the macros that stamp
// the public functions of one element type into that type's source file.
#pragma once
#include <algorithm>
#include <cstddef>
#include <string>

#include <tally/matvec.cuh>
#include <tally/reduce_rows.cuh>
#include <tally/tally.hpp>

#include "default_reductions.cuh"
#include "device_reducer_impl.hpp"

namespace tally::detail {

template <class T, class Op>
using default_rows_reducer = rows_reducer<default_rows_policy<T, Op>, T, Op>;

// by_shape's bound on this device for each operation tally.hpp offers on T. Constructing the
// reducers also fills the per-device caches later calls read.
template <class T, class... Ops>
std::size_t largest_rows_workspace(type_list<Ops...>) {
  return std::max({rows::by_shape::workspace_bound(default_rows_reducer<T, Ops>().device_facts(),
                                                  sizeof(typename default_rows_reducer<T, Ops>::state_type))...});
}

template <class T>
std::size_t rows_workspace_bound() {
  return largest_rows_workspace<T>(ops_of<T>{});
}

// by_shape's bound for matvec on T (the sum reducer's dot, with its own kernels' occupancy).
template <class T>
std::size_t matvec_workspace_bound() {
  const default_rows_reducer<T, op::sum> r;
  return rows::by_shape::workspace_bound(r.dot_device_facts(), sizeof(typename default_rows_reducer<T, op::sum>::state_type));
}

// A one-off call (workspace from the stream-ordered pool); validate first, so that argument
// errors name the public function alone.
template <class Op, class T, class Out>
void rows_once(const char* where, const T* a, index_t m, index_t n, index_t ld, Out* out, cudaStream_t stream) {
  validate_rows(a, m, n, ld, out, where);
  naming(where, [&] { reduce_rows<default_rows_policy<T, Op>>(a, m, n, ld, out, Op{}, stream); });
}

template <class T, class Y>
void matvec_once(const char* where, const T* a, index_t m, index_t n, index_t ld, const T* x, Y* y, cudaStream_t stream) {
  validate_rows(a, m, n, ld, y, where, x, true);
  naming(where, [&] { matvec<default_rows_policy<T, op::sum>>(a, m, n, ld, x, y, stream); });
}

template <class Op, class T, class Out>
void rows_into(const char* where, device_reducer_impl* self, const T* a, index_t m, index_t n, index_t ld, Out* out,
               cudaStream_t stream) {
  live(self, where);
  validate_rows(a, m, n, ld, out, where);
  using R = default_rows_reducer<T, Op>;
  in_workspace<R>(where, self, stream, [&](const R& r) { return r.need(r.plan(a, m, n, ld)); },
                  [&](const R& r, void* ws, std::size_t bytes) { r.run(a, m, n, ld, out, ws, bytes, stream); });
}

template <class T, class Y>
void matvec_into(const char* where, device_reducer_impl* self, const T* a, index_t m, index_t n, index_t ld, const T* x,
                 Y* y, cudaStream_t stream) {
  live(self, where);
  validate_rows(a, m, n, ld, y, where, x, true);
  using R = default_rows_reducer<T, op::sum>;
  in_workspace<R>(where, self, stream, [&](const R& r) { return r.need(r.plan(a, m, n, ld, x)); },
                  [&](const R& r, void* ws, std::size_t bytes) { r.run_dot(a, m, n, ld, x, y, ws, bytes, stream); });
}

}  // namespace tally::detail

// The public row function NAME (operator OP) on element type T, and its device_reducer twin. Used
// inside namespace tally.
#define TALLY_DEFINE_ROW(NAME, OP, T, OUT)                                                                      \
  void NAME(const T* a, index_t m, index_t n, index_t ld, OUT* out, cudaStream_t stream) {                      \
    detail::rows_once<op::OP>("tally::" #NAME, a, m, n, ld, out, stream);                                       \
  }                                                                                                             \
  void device_reducer::NAME(const T* a, index_t m, index_t n, index_t ld, OUT* out, cudaStream_t stream) {      \
    detail::rows_into<op::OP>("tally::device_reducer::" #NAME, impl_.get(), a, m, n, ld, out, stream);           \
  }

// Every row operation on T (results of type T, arg<T> for the arg ones), and T's workspace bound.
#define TALLY_DEFINE_ALL_ROWS(T)                     \
  TALLY_DEFINE_ROW(row_sum, sum, T, T)               \
  TALLY_DEFINE_ROW(row_min, min, T, T)               \
  TALLY_DEFINE_ROW(row_max, max, T, T)               \
  TALLY_DEFINE_ROW(row_arg_min, arg_min, T, arg<T>)  \
  TALLY_DEFINE_ROW(row_arg_max, arg_max, T, arg<T>)  \
  template std::size_t detail::rows_workspace_bound<T>();

// A 16-bit floating type: row_sum, row_min and row_max with float results, and T's workspace bound.
#define TALLY_DEFINE_FLOAT16_ROWS(T)        \
  TALLY_DEFINE_ROW(row_sum, sum, T, float)  \
  TALLY_DEFINE_ROW(row_min, min, T, float)  \
  TALLY_DEFINE_ROW(row_max, max, T, float)  \
  template std::size_t detail::rows_workspace_bound<T>();

// matvec on T with results of type Y, and its device_reducer twin.
#define TALLY_DEFINE_MATVEC(T, Y)                                                                                     \
  void matvec(const T* a, index_t m, index_t n, index_t ld, const T* x, Y* y, cudaStream_t stream) {                  \
    detail::matvec_once("tally::matvec", a, m, n, ld, x, y, stream);                                                  \
  }                                                                                                                   \
  void device_reducer::matvec(const T* a, index_t m, index_t n, index_t ld, const T* x, Y* y, cudaStream_t stream) {  \
    detail::matvec_into("tally::device_reducer::matvec", impl_.get(), a, m, n, ld, x, y, stream);                     \
  }                                                                                                                   \
  template std::size_t detail::matvec_workspace_bound<T>();
