// The default-policy reductions behind <tally/tally.hpp>, and the macros that stamp the public
// functions of one element type into that type's source file.
#pragma once
#include <algorithm>
#include <cstddef>
#include <limits>
#include <string>
#include <type_traits>

#include <tally/reduce.cuh>
#include <tally/tally.hpp>

#include "device_reducer_impl.hpp"

namespace tally::detail {

// The entries of tally.hpp: an operator of op:: with its default policy, or reproducible_sum (op::sum
// with accum::reproducible).
namespace entry {
using op::arg_max;
using op::arg_min;
using op::max;
using op::min;
using op::sum;
struct reproducible_sum {};
}  // namespace entry

template <class T, class Entry>
struct entry_of {
  using policy = default_reduce_policy<T, Entry>;
  using op = Entry;
};
template <class T>
struct entry_of<T, entry::reproducible_sum> {
  using policy = typename default_reduce_policy<T>::template with_accum<accum::reproducible>;
  using op = op::sum;
};

template <class T, class Entry>
using default_reducer = reducer<typename entry_of<T, Entry>::policy, T, typename entry_of<T, Entry>::op>;

// The operations tally.hpp offers on element type T (rows too), and its reductions' entries: those
// operations, and reproducible_sum on float and double.
template <class T>
using ops_of = std::conditional_t<is_16bit_float<T>, type_list<op::sum, op::min, op::max>,
                                  type_list<op::sum, op::min, op::max, op::arg_min, op::arg_max>>;
template <class T>
using entries_of = std::conditional_t<std::is_floating_point_v<T>,
                                      type_list<op::sum, op::min, op::max, op::arg_min, op::arg_max, entry::reproducible_sum>,
                                      ops_of<T>>;

template <class T, class... Ops>
std::size_t largest_workspace(type_list<Ops...>) {
  static_assert((entry_of<T, Ops>::policy::grid::finishes_in_last_block && ...),
                "device_reducer sizes its workspace once, at construction: that needs a grid policy whose "
                "partials do not grow with n (grid::resident or grid::resident_pdl)");
  // With a resident grid the workspace grows with n up to one partial per resident block, so the
  // largest n gives the bound. Constructing each reducer also fills the per-device caches (SM count,
  // occupancy) that later calls read, so that those calls make no attribute query.
  constexpr index_t any_n = std::numeric_limits<index_t>::max();
  return std::max({default_reducer<T, Ops>().workspace_bytes(any_n)...});
}

template <class T>
std::size_t workspace_bound() {
  return largest_workspace<T>(entries_of<T>{});
}

// A one-off reduction: workspace from the stream-ordered pool (tally::reduce).
template <class Entry, class T, class Out>
void reduce_once(const char* where, const T* in, index_t n, Out* out, cudaStream_t stream) {
  validate_reduce(in, n, out, where);  // first, so that argument errors name the public function alone
  using E = entry_of<T, Entry>;
  naming(where, [&] { reduce<typename E::policy>(in, n, out, typename E::op{}, stream); });
}

// Throws unless self is a live device_reducer (not moved from).
inline device_reducer_impl* live(device_reducer_impl* self, const char* where) {
  if (self == nullptr) throw error(std::string(where) + ": this device_reducer has been moved from");
  return self;
}

// A call of a reducer of type R in a device_reducer's workspace: call(r, workspace, bytes) once the
// workspace is ready for what need(r) says the call needs (prepare clears any ticket an earlier call
// left as a partial; the workspace never grows: it was sized for every call). Arguments are checked.
template <class R, class Need, class Call>
void in_workspace(const char* where, device_reducer_impl* self, cudaStream_t stream, Need need, Call call) {
  naming(where, [&] {
    const R r;  // reads the current device (cudaGetDevice) and its cached facts: no allocation
    check_same_device(*self, r.device());
    call(r, self->prepare(need(r), stream), self->bytes);
  });
}

template <class Op, class T, class Out>
void reduce_into(const char* where, device_reducer_impl* self, const T* in, index_t n, Out* out, cudaStream_t stream) {
  live(self, where);
  validate_reduce(in, n, out, where);
  using R = default_reducer<T, Op>;
  in_workspace<R>(where, self, stream, [&](const R& r) { return r.need(r.plan(n)); },
                  [&](const R& r, void* ws, std::size_t bytes) { r.run(in, n, out, ws, bytes, stream); });
}

}  // namespace tally::detail

// The public function OP on element type T, and its device_reducer twin. Used inside namespace tally.
#define TALLY_DEFINE_REDUCTION(OP, T, OUT)                                                        \
  void OP(const T* in, index_t n, OUT* out, cudaStream_t stream) {                                \
    detail::reduce_once<detail::entry::OP>("tally::" #OP, in, n, out, stream);                    \
  }                                                                                               \
  void device_reducer::OP(const T* in, index_t n, OUT* out, cudaStream_t stream) {                \
    detail::reduce_into<detail::entry::OP>("tally::device_reducer::" #OP, impl_.get(), in, n, out, stream); \
  }

// Every operation on T (results of type T, arg<T> for arg_min / arg_max), and T's workspace bound.
#define TALLY_DEFINE_ALL_REDUCTIONS(T)     \
  TALLY_DEFINE_REDUCTION(sum, T, T)        \
  TALLY_DEFINE_REDUCTION(min, T, T)        \
  TALLY_DEFINE_REDUCTION(max, T, T)        \
  TALLY_DEFINE_REDUCTION(arg_min, T, arg<T>) \
  TALLY_DEFINE_REDUCTION(arg_max, T, arg<T>) \
  template std::size_t detail::workspace_bound<T>();

// The reproducible sum of a float or double type.
#define TALLY_DEFINE_REPRODUCIBLE_SUM(T) TALLY_DEFINE_REDUCTION(reproducible_sum, T, T)

// A 16-bit floating type: sum, min and max with float results, and T's workspace bound.
#define TALLY_DEFINE_FLOAT16_REDUCTIONS(T) \
  TALLY_DEFINE_REDUCTION(sum, T, float)    \
  TALLY_DEFINE_REDUCTION(min, T, float)    \
  TALLY_DEFINE_REDUCTION(max, T, float)    \
  template std::size_t detail::workspace_bound<T>();
