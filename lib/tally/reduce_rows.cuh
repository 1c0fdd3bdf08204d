// Row reduction of a row-major M x N matrix with leading dimension ld (element (i, j) at
// A[i * ld + j]): out[i] = op over j of A[i][j], one result per row.
//
//   tally::rows_reducer<P, T, Op> r;            // owns its workspace: no allocation per call
//   r(d_A, M, N, ld, d_out, stream);
//   tally::reduce_rows<P>(d_A, M, N, ld, d_out, tally::op::max{}, stream);   // one-off
//   tally::reduce_rows(d_A, M, N, ld, d_out);                                 // default policy, sum
//
// P is a rows_policy (rows_policy.cuh) or a bare row strategy (rows/strategy.cuh); matvec.cuh
// builds y = A x on the same machinery. Conventions:
//   - out[i] has the caller's type: sum writes any type the accumulator converts to, min / max
//     write T, arg_min / arg_max write tally::arg<T>{value, column} (lowest column wins ties).
//   - M == 0 does nothing (out may be null). N == 0 writes the operator's identity to every row:
//     0 for sum, +inf / -inf (or the type's extremes) for min / max, and column -1 for arg_*.
//   - Errors throw tally::error before any work is queued, and nothing is written: M, N < 0;
//     ld < N; M * ld beyond 64-bit indexing; a null A with M, N > 0; a null out with M > 0; a
//     pointer not aligned to its type.
//   - Deterministic: the combination order depends on (M, N, ld, alignment, device) alone.
//   - Asynchronous; capturable in a CUDA graph once the reducer has reserved its workspace.
#pragma once
#include <cstdint>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include <tally/detail/device_cache.hpp>
#include <tally/detail/pointer_checks.hpp>
#include <tally/detail/reduction_checks.cuh>
#include <tally/detail/rows_call.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/error.hpp>
#include <tally/policies/determinism.cuh>
#include <tally/policies/op.cuh>
#include <tally/rows_plan.cuh>
#include <tally/rows_policy.cuh>

namespace tally {

namespace detail {

inline std::string rows_shape(index_t m, index_t n, index_t ld) {
  return "M = " + std::to_string(m) + ", N = " + std::to_string(n) + ", ld = " + std::to_string(ld);
}

// Argument checks of reduce_rows (x == nullptr and needs_x false) and matvec; no CUDA call.
template <class T, class Out, class X = T>
void validate_rows(const T* a, index_t m, index_t n, index_t ld, const Out* out, const char* where,
                   const X* x = nullptr, bool needs_x = false) {
  const std::string w(where);
  if (m < 0) throw error(w + ": M = " + std::to_string(m) + " is negative");
  if (n < 0) throw error(w + ": N = " + std::to_string(n) + " is negative");
  if (ld < n) throw error(w + ": ld = " + std::to_string(ld) + " is smaller than N = " + std::to_string(n));
  // The last element, (M - 1) * ld + N - 1, and the row offsets must fit in index_t.
  if (m > 1 && ld > 0 && m - 1 > (INT64_MAX - n) / ld)
    throw error(w + ": " + rows_shape(m, n, ld) + " addresses elements beyond 64-bit indexing");
  if (a == nullptr && m > 0 && n > 0) throw error(w + ": matrix pointer is null but " + rows_shape(m, n, ld));
  if (needs_x && x == nullptr && m > 0 && n > 0) throw error(w + ": vector x pointer is null but N = " + std::to_string(n));
  if (out == nullptr && m > 0) throw error(w + ": output pointer is null but M = " + std::to_string(m));
  check_aligned(a, "matrix", where);
  if (needs_x) check_aligned(x, "vector x", where);
  check_aligned(out, "output", where);
}

// What A * B gives: dot multiplies in the accumulator type (compensated and binned ones do not).
template <class A>
using product_t = decltype(std::declval<A>() * std::declval<A>());

// Rows start on 16-byte boundaries (and x does): the plan may read 16-byte items.
template <class T>
bool rows_aligned16(const T* a, index_t ld, const T* x) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return aligned(a) && (static_cast<std::uint64_t>(ld) * sizeof(T)) % 16 == 0 && (x == nullptr || aligned(x));
}

inline int warps_per_sm(int device, const char* where) {
  const int warps = max_threads_per_sm(device, where) / 32;
  return warps > 0 ? warps : 1;
}

}  // namespace detail

template <class P, class T, class Op = op::sum, class Determinism = determinism::run_to_run>
class rows_reducer {
 public:
  using policy = as_rows_policy_t<P>;
  using strategy = typename policy::strategy;
  using launch_policy = typename policy::launch;
  using input_type = T;
  using accum_type = typename policy::accum::template type<T>;
  using state_type = typename Op::template state<accum_type>;

  static_assert(detail::check_reduction<Op, T, accum_type, Determinism, policy::fixed_order>());

  explicit rows_reducer(Op op = Op{}) : op_(op), workspace_(where) {
    const int device = workspace_.device();
    facts_.sm_count = detail::sm_count(device, where);
    facts_.warps_per_sm = detail::warps_per_sm(device, where);
    facts_.l2_bytes = detail::l2_bytes(device, where);
    facts_.blocks_per_sm = rows::blocks_per_sm<strategy, types<state_type, detail::plain_rows>>(device);
    programmatic_ = detail::programmatic_launch(launch_policy::programmatic, device, where);
  }

  int device() const { return workspace_.device(); }
  // The device facts of row reductions, and of dot (matvec), whose kernels hold more registers (the
  // strategy's answer is cached per device; a reducer that never calls dot never compiles its kernels).
  const rows_device& device_facts() const { return facts_; }
  rows_device dot_device_facts() const {
    rows_device d = facts_;
    d.blocks_per_sm = rows::blocks_per_sm<strategy, types<state_type, detail::dot_rows<T>>>(workspace_.device());
    return d;
  }

  // The plan of a call on A of this shape; with x (not null), of dot.
  rows_plan plan(const T* a, index_t m, index_t n, index_t ld) const {
    return plan_rows<strategy, T>(m, n, ld, detail::rows_aligned16(a, ld, static_cast<const T*>(nullptr)), facts_);
  }
  rows_plan plan(const T* a, index_t m, index_t n, index_t ld, const T* x) const {
    if (x == nullptr) return plan(a, m, n, ld);
    return plan_rows<strategy, T>(m, n, ld, detail::rows_aligned16(a, ld, x), dot_device_facts(), true);
  }

  // Workspace bytes a call of this shape needs, row reduction or dot (where the accumulator
  // multiplies), whatever the pointers' alignment.
  std::size_t workspace_bytes(index_t m, index_t n, index_t ld) const {
    std::size_t most = 0;
    const auto take = [&](const rows_device& d, bool dot) {
      for (const bool aligned : {false, true}) {
        const std::size_t b = need(plan_rows<strategy, T>(m, n, ld, aligned, d, dot)).total;
        most = b > most ? b : most;
      }
    };
    take(facts_, false);
    if constexpr (detail::is_detected<detail::product_t, accum_type>) take(dot_device_facts(), true);
    return most;
  }

  // Allocates workspace for calls of this shape. Call it before capturing a graph.
  void reserve(index_t m, index_t n, index_t ld) { workspace_.reserve(workspace_bytes(m, n, ld)); }

  // out[i] = op over row i of A.
  template <class Out>
  void operator()(const T* a, index_t m, index_t n, index_t ld, Out* out, cudaStream_t stream = 0) {
    detail::validate_rows(a, m, n, ld, out, where);
    workspace_.check_device();
    const rows_plan p = plan(a, m, n, ld);
    launch_plan(p, a, detail::plain_rows{}, out, workspace_.prepare(need(p), stream), stream);
  }

  // y[i] = op over j of A[i][j] * x[j] (with op::sum: y = A x). matvec.cuh's entry point.
  template <class Out>
  void dot(const T* a, index_t m, index_t n, index_t ld, const T* x, Out* y, cudaStream_t stream = 0) {
    detail::validate_rows(a, m, n, ld, y, dot_where, x, true);
    workspace_.check_device();
    const rows_plan p = plan(a, m, n, ld, x);
    launch_plan(p, a, detail::dot_rows<T>{x}, y, workspace_.prepare(need(p), stream), stream);
  }

  // Deprecated argument order; dot(a, m, n, ld, x, y, stream) is the order of matvec and reduce_rows.
  template <class Out>
  [[deprecated("rows_reducer::dot(a, x, m, n, ld, y): use dot(a, m, n, ld, x, y)")]] void dot(
      const T* a, const T* x, index_t m, index_t n, index_t ld, Out* y, cudaStream_t stream = 0) {
    dot(a, m, n, ld, x, y, stream);
  }

  // As operator() and dot, with caller-provided workspace of at least workspace_bytes(m, n, ld)
  // bytes, 16-byte aligned (cudaMalloc's is), whose first need(plan).tickets bytes (the row
  // tickets) are 0 when the call starts (cudaMemset); a call leaves them 0, and may leave the bytes
  // after them non-zero.
  template <class Out>
  void run(const T* a, index_t m, index_t n, index_t ld, Out* out, void* workspace, std::size_t workspace_size,
           cudaStream_t stream) const {
    detail::validate_rows(a, m, n, ld, out, where);
    const rows_plan p = plan(a, m, n, ld);
    detail::check_workspace(workspace, workspace_size, need(p), where, detail::rows_shape(p.m, p.n, p.ld));
    launch_plan(p, a, detail::plain_rows{}, out, workspace, stream);
  }
  template <class Out>
  void run_dot(const T* a, index_t m, index_t n, index_t ld, const T* x, Out* y, void* workspace,
               std::size_t workspace_size, cudaStream_t stream) const {
    detail::validate_rows(a, m, n, ld, y, dot_where, x, true);
    const rows_plan p = plan(a, m, n, ld, x);
    detail::check_workspace(workspace, workspace_size, need(p), where, detail::rows_shape(p.m, p.n, p.ld));
    launch_plan(p, a, detail::dot_rows<T>{x}, y, workspace, stream);
  }

  // What a call of plan p needs: its tickets and partial states.
  static detail::workspace_need need(const rows_plan& p) {
    return {p.partials_offset(), p.workspace_bytes(sizeof(state_type))};
  }

 private:
  static constexpr const char* where = "tally::reduce_rows";
  static constexpr const char* dot_where = "tally::matvec";
  template <class Out, class Xform>
  using types = detail::rows_types<launch_policy, accum_type, T, Out, Op, Xform>;

  // Queues the kernel(s) of plan p through the strategy; arguments are already checked.
  template <class Xform, class Out>
  void launch_plan(const rows_plan& p, const T* a, Xform xform, Out* out, void* workspace, cudaStream_t stream) const {
    if (!p.launches()) return;
    const detail::rows_call<types<Out, Xform>> call{
        {a, p.m, p.n, p.ld, out, xform, p.items, p.tail_begin}, op_, workspace, stream, programmatic_, where};
    strategy::launch(p, call);
  }

  Op op_{};
  detail::device_workspace workspace_;
  rows_device facts_{};
  bool programmatic_ = false;  // launch with PDL: the policy asks for it and the device has it
};

// One-off row reduction with policy P (a rows_policy or a bare row strategy).
template <class P, class T, class Out, class Op = op::sum>
void reduce_rows(const T* a, index_t m, index_t n, index_t ld, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  detail::validate_rows(a, m, n, ld, out, "tally::reduce_rows");
  if (m == 0) return;
  rows_reducer<P, T, Op> r(op);
  detail::with_pool_workspace(r.need(r.plan(a, m, n, ld)), stream, "tally::reduce_rows",
                              [&](void* ws, std::size_t bytes) { r.run(a, m, n, ld, out, ws, bytes, stream); });
}

// The same with default_rows_policy<T, Op>.
template <class T, class Out, class Op = op::sum>
void reduce_rows(const T* a, index_t m, index_t n, index_t ld, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  reduce_rows<default_rows_policy<T, Op>>(a, m, n, ld, out, op, stream);
}

}  // namespace tally
