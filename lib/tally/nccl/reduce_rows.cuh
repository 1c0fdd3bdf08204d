// Row reduction and matrix-vector product of a matrix split by columns over the ranks of an NCCL
// communicator: rank r holds the column block A_r (M x N_r, row-major, leading dimension ld) of
// A = [A_0 A_1 ... A_{R-1}], and every rank receives out[i] = op over row i of A.
//
//   tally::nccl::rows_reducer<P, T, Op> r(comm);      // owns its workspace
//   r(d_A_local, M, N_local, ld, d_out, stream);       // row reduction
//   r.dot(d_A_local, M, N_local, ld, d_x_local, d_y, stream);   // y = A x, x split like the columns
//
//   tally::nccl::reduce_rows<P>(comm, d_A_local, M, N_local, ld, d_out, op, stream);   // one-off
//   tally::nccl::matvec<P>(comm, d_A_local, M, N_local, ld, d_x_local, d_y, stream);
//
// Each rank computes the M states of its block with tally::rows_reducer<P, T, Op> (the same
// strategies as tally::reduce_rows), then the ranks combine them row by row as all_reduce does
// (combine.cuh). Contract, besides reduce_rows' and all_reduce's:
//   - M, the op, P, T and Out are the same on every rank; N_local and ld may differ, and N_local may be 0.
//   - arg_min / arg_max give global columns: the column in the block plus the columns of the ranks before.
//   - With accum::reproducible each row's floating sum has the bits of tally::reduce_rows on the
//     whole matrix on one GPU, for any split of the columns.
//   - M == 0 does nothing on every rank (no NCCL call).
#pragma once
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <tally/detail/workspace.hpp>
#include <tally/nccl/combine.cuh>
#include <tally/nccl/error.hpp>
#include <tally/reduce_rows.cuh>

namespace tally::nccl {

template <class P, class T, class Op = op::sum>
class rows_reducer {
 public:
  using local_reducer = tally::rows_reducer<P, T, Op>;
  using input_type = T;
  using accum_type = typename local_reducer::accum_type;
  using state_type = typename local_reducer::state_type;
  static constexpr bool native = detail::native_combine<Op, state_type>;

  explicit rows_reducer(ncclComm_t comm, Op op = Op{})
      : combine_{detail::comm_facts::of(comm, where), op, where}, local_(op), buffer_(where) {}

  int rank() const { return combine_.comm.rank; }
  int ranks() const { return combine_.comm.ranks; }
  int device() const { return combine_.comm.device; }

  // Workspace for calls of this shape (the local rows and the exchange of M states a rank). Call it
  // before capturing a graph.
  void reserve(index_t m, index_t n_local, index_t ld) {
    local_.reserve(m, n_local, ld);
    buffer_.reserve(combine_.buffer_bytes(m));
  }

  // out[i] = op over row i of the whole matrix, on every rank.
  template <class Out>
  void operator()(const T* a, index_t m, index_t n_local, index_t ld, Out* out, cudaStream_t stream = 0) {
    tally::detail::validate_rows(a, m, n_local, ld, out, where);
    if (m == 0) return;
    local(a, m, n_local, ld, stream);
    combine_.exchange_and_finish(buffer_.data(), m, out, stream);
  }

  // y[i] = sum over j of A[i][j] * x[j], x split like A's columns (x_local: this rank's N_local entries).
  template <class Out>
  void dot(const T* a, index_t m, index_t n_local, index_t ld, const T* x_local, Out* y, cudaStream_t stream = 0) {
    tally::detail::validate_rows(a, m, n_local, ld, y, dot_where, x_local, true);
    if (m == 0) return;
    local_dot(a, m, n_local, ld, x_local, stream);
    combine_.exchange_and_finish(buffer_.data(), m, y, stream);
  }

  // The phases, for one thread driving several communicators (exchange inside ncclGroupStart /
  // ncclGroupEnd); m must be the same in the three calls.
  void local(const T* a, index_t m, index_t n_local, index_t ld, cudaStream_t stream = 0) {
    void* buffer = prepare(m, stream);
    local_(a, m, n_local, ld, combine_.send_states(buffer), stream);
    combine_.stamp(buffer, m, n_local, stream);
  }
  void local_dot(const T* a, index_t m, index_t n_local, index_t ld, const T* x_local, cudaStream_t stream = 0) {
    void* buffer = prepare(m, stream);
    local_.dot(a, m, n_local, ld, x_local, combine_.send_states(buffer), stream);
    combine_.stamp(buffer, m, n_local, stream);
  }
  void exchange(index_t m, cudaStream_t stream = 0) const {
    if (m > 0) combine_.exchange(buffer_.data(), m, stream);
  }
  template <class Out>
  void finish(index_t m, Out* out, cudaStream_t stream = 0) const {
    if (m > 0 && out == nullptr) throw tally::error(std::string(where) + ": output pointer is null but M = " + std::to_string(m));
    tally::detail::check_aligned(out, "output", where);
    combine_.finish(buffer_.data(), m, out, stream);
  }

 private:
  static constexpr const char* where = "tally::nccl::reduce_rows";
  static constexpr const char* dot_where = "tally::nccl::matvec";

  void* prepare(index_t m, cudaStream_t stream) { return buffer_.prepare({0, combine_.buffer_bytes(m)}, stream); }

  detail::combiner<accum_type, state_type, Op> combine_;
  local_reducer local_;
  tally::detail::device_workspace buffer_;  // [send record][received records]
};

namespace detail {

// One-off row call: local rows and exchange buffers from the stream-ordered pool. local(r, states,
// workspace, bytes) queues the local part.
template <class P, class T, class Out, class Op, class Plan, class Local>
void rows_one_off(ncclComm_t comm, index_t m, index_t n_local, Out* out, Op op, cudaStream_t stream, const char* where,
                  Plan plan, Local local) {
  using local_reducer = tally::rows_reducer<P, T, Op>;
  using state_type = typename local_reducer::state_type;
  const combiner<typename local_reducer::accum_type, state_type, Op> combine{comm_facts::of(comm, where), op, where};
  if (m == 0) return;
  local_reducer r(op);
  pooled_call(combine, m, n_local, out, r.need(plan(r)), stream,
              [&](state_type* states, void* ws, std::size_t bytes) { local(r, states, ws, bytes); });
}

}  // namespace detail

// One-off row reduction with policy P (a rows_policy or a bare row strategy).
template <class P, class T, class Out, class Op = op::sum>
void reduce_rows(ncclComm_t comm, const T* a, index_t m, index_t n_local, index_t ld, Out* out, Op op = Op{},
                 cudaStream_t stream = 0) {
  constexpr const char* where = "tally::nccl::reduce_rows";
  tally::detail::validate_rows(a, m, n_local, ld, out, where);
  detail::rows_one_off<P, T>(
      comm, m, n_local, out, op, stream, where, [&](const auto& r) { return r.plan(a, m, n_local, ld); },
      [&](auto& r, auto* states, void* ws, std::size_t bytes) { r.run(a, m, n_local, ld, states, ws, bytes, stream); });
}

template <class T, class Out, class Op = op::sum>
void reduce_rows(ncclComm_t comm, const T* a, index_t m, index_t n_local, index_t ld, Out* out, Op op = Op{},
                 cudaStream_t stream = 0) {
  reduce_rows<default_rows_policy<T, Op>>(comm, a, m, n_local, ld, out, op, stream);
}

// One-off y = A x with A split by columns and x split alike.
template <class P, class T, class Out>
void matvec(ncclComm_t comm, const T* a, index_t m, index_t n_local, index_t ld, const T* x_local, Out* y,
            cudaStream_t stream = 0) {
  constexpr const char* where = "tally::nccl::matvec";
  tally::detail::validate_rows(a, m, n_local, ld, y, where, x_local, true);
  detail::rows_one_off<P, T>(
      comm, m, n_local, y, op::sum{}, stream, where, [&](const auto& r) { return r.plan(a, m, n_local, ld, x_local); },
      [&](auto& r, auto* states, void* ws, std::size_t bytes) {
        r.run_dot(a, m, n_local, ld, x_local, states, ws, bytes, stream);
      });
}

template <class T, class Out>
void matvec(ncclComm_t comm, const T* a, index_t m, index_t n_local, index_t ld, const T* x_local, Out* y,
            cudaStream_t stream = 0) {
  matvec<default_rows_policy<T, op::sum>>(comm, a, m, n_local, ld, x_local, y, stream);
}

}  // namespace tally::nccl
