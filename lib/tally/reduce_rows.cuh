// Row reduction of a row-major M x N matrix with leading dimension ld (element (i, j) at
// A[i * ld + j]): out[i] = op over j of A[i][j], one result per row.
//
//   tally::rows_reducer<P, T, Op> r;            // owns its workspace: no allocation per call
//   r(d_A, M, N, ld, d_out, stream);
//   tally::reduce_rows<P>(d_A, M, N, ld, d_out, tally::op::max{}, stream);   // one-off
//   tally::reduce_rows(d_A, M, N, ld, d_out);                                 // default policy, sum
//
// P is a rows_policy (rows_policy.cuh) or a bare row strategy (policies/rows.cuh); matvec.cuh
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
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include <tally/detail/device_cache.hpp>
#include <tally/detail/launch.cuh>
#include <tally/detail/rows_group_kernel.cuh>
#include <tally/detail/rows_span_kernel.cuh>
#include <tally/error.hpp>
#include <tally/policies/op.cuh>
#include <tally/rows_plan.cuh>
#include <tally/rows_policy.cuh>

namespace tally {

namespace detail {

inline std::string rows_shape(index_t m, index_t n, index_t ld) {
  return "M = " + std::to_string(m) + ", N = " + std::to_string(n) + ", ld = " + std::to_string(ld);
}

template <class U>
void check_aligned(const U* p, const char* what, const char* where) {
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(U) != 0)
    throw error(std::string(where) + ": " + what + " pointer is not aligned to its type (" + std::to_string(alignof(U)) +
                " bytes)");
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

// Rows start on 16-byte boundaries (and x does): the plan may read 16-byte items.
template <class T>
bool rows_aligned16(const T* a, index_t ld, const T* x) {
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  return aligned(a) && (static_cast<std::uint64_t>(ld) * sizeof(T)) % 16 == 0 && (x == nullptr || aligned(x));
}

inline int warps_per_sm(int device, const char* where) {
  static std::atomic<int> cache[max_devices] = {};
  return cached_per_device(cache, device, [where](int d) {
    int v = 0;
    check_cuda(cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerMultiProcessor, d), where, "cudaDeviceGetAttribute");
    return v / 32 > 0 ? v / 32 : 1;
  });
}

}  // namespace detail

template <class P, class T, class Op = op::sum>
class rows_reducer {
 public:
  using policy = as_rows_policy_t<P>;
  using strategy = typename policy::strategy;
  using launch_policy = typename policy::launch;
  using input_type = T;
  using accum_type = typename policy::accum::template type<T>;
  using state_type = typename Op::template state<accum_type>;

  static_assert(can_reduce<Op, T, accum_type>::value,
                "tally::reduce_rows: this operator cannot reduce this element type (it has no identity for the "
                "accumulator type, or the accumulator type has no operator+ / operator< the operator needs). "
                "Pick another accum policy or operator, or wrap a functor with tally::op::make_op(f, identity).");

  explicit rows_reducer(Op op = Op{}) : op_(op), device_(detail::current_device(where)) {
    facts_.sm_count = detail::sm_count(device_, where);
    facts_.warps_per_sm = detail::warps_per_sm(device_, where);
    facts_.span_blocks_per_sm = span_blocks_per_sm(device_);
    programmatic_ = launch_policy::programmatic && detail::compute_capability_major(device_, where) >= 9;
  }
  ~rows_reducer() { release(); }
  rows_reducer(const rows_reducer&) = delete;
  rows_reducer& operator=(const rows_reducer&) = delete;
  rows_reducer(rows_reducer&& o) noexcept { *this = std::move(o); }
  rows_reducer& operator=(rows_reducer&& o) noexcept {
    if (this != &o) {
      release();
      op_ = o.op_;
      device_ = o.device_;
      facts_ = o.facts_;
      programmatic_ = o.programmatic_;
      workspace_ = std::exchange(o.workspace_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
    }
    return *this;
  }

  int device() const { return device_; }
  const rows_device& device_facts() const { return facts_; }

  // The plan of a call on A (and x, for dot) of this shape.
  rows_plan plan(const T* a, index_t m, index_t n, index_t ld, const T* x = nullptr) const {
    return plan_rows<launch_strategy, T>(m, n, ld, detail::rows_aligned16(a, ld, x), facts_);
  }

  // Workspace bytes a call of this shape needs, whatever the pointers' alignment.
  std::size_t workspace_bytes(index_t m, index_t n, index_t ld) const {
    const std::size_t v = plan_rows<launch_strategy, T>(m, n, ld, true, facts_).workspace_bytes(sizeof(state_type));
    const std::size_t s = plan_rows<launch_strategy, T>(m, n, ld, false, facts_).workspace_bytes(sizeof(state_type));
    return v > s ? v : s;
  }

  // Allocates workspace for calls of this shape. Call it before capturing a graph.
  void reserve(index_t m, index_t n, index_t ld) { reserve_bytes(workspace_bytes(m, n, ld)); }

  // out[i] = op over row i of A.
  template <class Out>
  void operator()(const T* a, index_t m, index_t n, index_t ld, Out* out, cudaStream_t stream = 0) {
    detail::validate_rows(a, m, n, ld, out, where);
    check_device();
    const rows_plan p = plan(a, m, n, ld);
    reserve_bytes(p.workspace_bytes(sizeof(state_type)));
    launch_plan(p, a, detail::plain_rows{}, out, workspace_, stream);
  }

  // y[i] = op over j of A[i][j] * x[j] (with op::sum: y = A x). matvec.cuh's entry point.
  template <class Out>
  void dot(const T* a, const T* x, index_t m, index_t n, index_t ld, Out* y, cudaStream_t stream = 0) {
    detail::validate_rows(a, m, n, ld, y, dot_where, x, true);
    check_device();
    const rows_plan p = plan(a, m, n, ld, x);
    reserve_bytes(p.workspace_bytes(sizeof(state_type)));
    launch_plan(p, a, detail::dot_rows<T>{x}, y, workspace_, stream);
  }

  // As operator(), with caller-provided workspace of at least workspace_bytes(m, n, ld) bytes,
  // whose first partials_offset bytes (the row tickets) are 0 on first use (cudaMemset); every
  // call leaves them 0 again.
  template <class Out>
  void run(const T* a, index_t m, index_t n, index_t ld, Out* out, void* workspace, std::size_t workspace_size,
           cudaStream_t stream) const {
    detail::validate_rows(a, m, n, ld, out, where);
    const rows_plan p = plan(a, m, n, ld);
    check_workspace(p, workspace, workspace_size);
    launch_plan(p, a, detail::plain_rows{}, out, workspace, stream);
  }
  template <class Out>
  void run_dot(const T* a, const T* x, index_t m, index_t n, index_t ld, Out* y, void* workspace,
               std::size_t workspace_size, cudaStream_t stream) const {
    detail::validate_rows(a, m, n, ld, y, dot_where, x, true);
    const rows_plan p = plan(a, m, n, ld, x);
    check_workspace(p, workspace, workspace_size);
    launch_plan(p, a, detail::dot_rows<T>{x}, y, workspace, stream);
  }

 private:
  static constexpr const char* where = "tally::reduce_rows";
  static constexpr const char* dot_where = "tally::matvec";
  // by_shape launches the kernels of these two strategies' families, with 256 threads.
  using launch_strategy = strategy;
  using span_strategy = std::conditional_t<strategy::strategy == rows::kind::group, rows::blocks_per_row<>, strategy>;
  static constexpr int span_threads = span_strategy::threads;
  using span_block = typename span_strategy::block;
  using span_smem = typename span_strategy::smem;
  static constexpr int vector_elems = load::detail::vectorizable<T> ? static_cast<int>(16 / sizeof(T)) : 1;

  void check_device() const {
    if (detail::current_device(where) != device_)
      throw error(std::string(where) + ": the current device is not the one this reducer was made on (device " +
                  std::to_string(device_) + ")");
  }

  void check_workspace(const rows_plan& p, const void* workspace, std::size_t size) const {
    const std::size_t need = p.workspace_bytes(sizeof(state_type));
    if (size < need || (need > 0 && workspace == nullptr))
      throw error(std::string(where) + ": workspace of " + std::to_string(size) + " bytes is smaller than the " +
                  std::to_string(need) + " bytes " + detail::rows_shape(p.m, p.n, p.ld) + " needs");
  }

  void reserve_bytes(std::size_t need) {
    if (need <= capacity_) return;
    release();
    detail::check_cuda(cudaMalloc(&workspace_, need), where, "cudaMalloc(workspace)");
    capacity_ = need;
    // Tickets start at 0 and every call leaves them at 0; zeroing all of it covers any M.
    detail::check_cuda(cudaMemset(workspace_, 0, need), where, "cudaMemset(workspace)");
  }

  // Queues the kernel of plan p; arguments are already checked.
  template <class Xform, class Out>
  void launch_plan(const rows_plan& p, const T* a, Xform xform, Out* out, void* workspace, cudaStream_t stream) const {
    if (p.launch == rows_launch::none) return;
    const detail::rows_args<T, Out, Xform> args{a, p.m, p.n, p.ld, out, xform, p.items, p.tail_begin};
    if (p.vectorized) {
      if constexpr (vector_elems > 1) launch_vec<vector_elems>(p, args, workspace, stream);
    } else {
      launch_vec<1>(p, args, workspace, stream);
    }
  }

  template <int V, class Args>
  void launch_vec(const rows_plan& p, const Args& args, void* workspace, cudaStream_t stream) const {
    if (p.launch == rows_launch::span) {
      if constexpr (strategy::strategy != rows::kind::group) launch_span<V>(p, args, workspace, stream);
      return;
    }
    if constexpr (strategy::strategy == rows::kind::group) {
      launch_group<V, strategy::lanes, strategy::threads>(p, args, stream);
    } else if constexpr (strategy::strategy == rows::kind::by_shape && V == 1) {
      if (p.lanes == 8) launch_group<V, 8, strategy::threads>(p, args, stream);
      else launch_group<V, 32, strategy::threads>(p, args, stream);
    } else if constexpr (strategy::strategy == rows::kind::by_shape) {
      switch (p.lanes) {
        case 1: launch_group<V, 1, strategy::threads>(p, args, stream); break;
        case 2: launch_group<V, 2, strategy::threads>(p, args, stream); break;
        case 4: launch_group<V, 4, strategy::threads>(p, args, stream); break;
        case 8: launch_group<V, 8, strategy::threads>(p, args, stream); break;
        case 16: launch_group<V, 16, strategy::threads>(p, args, stream); break;
        default: launch_group<V, 32, strategy::threads>(p, args, stream); break;
      }
    }
  }

  template <int V, int Lanes, int Threads, class T2, class Out, class Xform>
  void launch_group(const rows_plan& p, const detail::rows_args<T2, Out, Xform>& args, cudaStream_t stream) const {
    constexpr int R = detail::rows_unroll;
    using L = launch_policy;
    if (Lanes == 32 && p.rows_in_flight == 1) {
      if constexpr (Lanes == 32)
        detail::queue_kernel(&detail::group_rows_kernel<L, Lanes, Threads, 1, R, V, accum_type, T2, Out, Op, Xform>, p.blocks,
                             Threads, 0, stream, programmatic_, where, args, op_);
    } else {
      detail::queue_kernel(&detail::group_rows_kernel<L, Lanes, Threads, R, 1, V, accum_type, T2, Out, Op, Xform>, p.blocks,
                           Threads, 0, stream, programmatic_, where, args, op_);
    }
  }

  template <int V, class Out, class Xform>
  static constexpr auto span_kernel() {
    return &detail::span_rows_kernel<launch_policy, span_block, span_smem, span_threads, detail::rows_unroll, V, accum_type,
                                     T, Out, Op, Xform>;
  }
  static constexpr std::size_t span_dynamic_smem =
      span_smem::template dynamic_bytes<state_type, span_block::template slots<span_threads>>;

  template <int V, class Out, class Xform>
  void launch_span(const rows_plan& p, const detail::rows_args<T, Out, Xform>& args, void* workspace,
                   cudaStream_t stream) const {
    auto* base = static_cast<unsigned char*>(workspace);
    state_type* partials = p.splits > 1 ? reinterpret_cast<state_type*>(base + p.partials_offset()) : nullptr;
    unsigned* tickets = p.splits > 1 ? reinterpret_cast<unsigned*>(base) : nullptr;
    detail::queue_kernel(span_kernel<V, Out, Xform>(), p.blocks, span_threads, span_dynamic_smem, stream, programmatic_, where,
                         args, op_, p.splits, p.items_per_split, partials, tickets);
  }

  // Occupancy of the span kernel (the vectorized, plain-output instantiation stands for all: they
  // differ only in a few registers); the occupancy API answers for the current device.
  static int span_blocks_per_sm(int device) {
    if constexpr (strategy::strategy == rows::kind::group || strategy::strategy == rows::kind::block) {
      return 1;  // unused by these plans
    } else {
      static std::atomic<int> cache[detail::max_devices] = {};
      return detail::cached_per_device(cache, device, [](int) {
        int blocks = 0;
        detail::check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                               &blocks, span_kernel<vector_elems, state_type, detail::plain_rows>(), span_threads,
                               span_dynamic_smem),
                           where, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
        return blocks > 0 ? blocks : 1;
      });
    }
  }

  void release() noexcept {
    if (workspace_ != nullptr) cudaFree(workspace_);
    workspace_ = nullptr;
    capacity_ = 0;
  }

  Op op_{};
  int device_ = 0;
  rows_device facts_{};
  bool programmatic_ = false;  // launch with PDL: the policy asks for it and the device has it
  void* workspace_ = nullptr;
  std::size_t capacity_ = 0;
};

namespace detail {

// One-off call: workspace from the device's stream-ordered pool (cudaMallocAsync / cudaFreeAsync
// on `stream`), tickets zeroed on the stream; call(reducer, workspace, bytes) queues the work.
template <class State, class Call>
void with_pool_workspace(const rows_plan& p, cudaStream_t stream, const char* where, Call call) {
  const std::size_t bytes = p.workspace_bytes(sizeof(State));
  void* workspace = nullptr;
  if (bytes > 0) check_cuda(cudaMallocAsync(&workspace, bytes, stream), where, "cudaMallocAsync");
  try {
    if (bytes > 0) check_cuda(cudaMemsetAsync(workspace, 0, p.partials_offset(), stream), where, "cudaMemsetAsync");
    call(workspace, bytes);
  } catch (...) {
    if (workspace != nullptr) cudaFreeAsync(workspace, stream);
    throw;
  }
  if (workspace != nullptr) check_cuda(cudaFreeAsync(workspace, stream), where, "cudaFreeAsync");
}

}  // namespace detail

// One-off row reduction with policy P (a rows_policy or a bare row strategy).
template <class P, class T, class Out, class Op = op::sum>
void reduce_rows(const T* a, index_t m, index_t n, index_t ld, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  detail::validate_rows(a, m, n, ld, out, "tally::reduce_rows");
  if (m == 0) return;
  rows_reducer<P, T, Op> r(op);
  const rows_plan p = r.plan(a, m, n, ld);
  detail::with_pool_workspace<typename rows_reducer<P, T, Op>::state_type>(p, stream, "tally::reduce_rows",
                              [&](void* ws, std::size_t bytes) { r.run(a, m, n, ld, out, ws, bytes, stream); });
}

// The same with default_rows_policy<T, Op>.
template <class T, class Out, class Op = op::sum>
void reduce_rows(const T* a, index_t m, index_t n, index_t ld, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  reduce_rows<default_rows_policy<T, Op>>(a, m, n, ld, out, op, stream);
}

}  // namespace tally
