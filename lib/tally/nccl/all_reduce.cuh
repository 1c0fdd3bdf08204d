// Device-wide reduction over the ranks of an NCCL communicator: every rank passes its part, and
// every rank receives the reduction of all the parts, concatenated in rank order.
//
//   tally::nccl::reducer<P, T, Op> r(comm);          // owns its workspace: no allocation per call
//   r.reserve(n_local);                               // then the local part is graph-capturable
//   r(d_in, n_local, d_out, stream);
//
//   tally::nccl::all_reduce<P>(comm, d_in, n_local, d_out, tally::op::sum{}, stream);   // one-off
//
// Each rank reduces its part with tally::reducer<P, T, Op> to the operator's state, then the ranks
// combine their states (combine.cuh): NCCL's all-reduce for integer sum / min / max, otherwise an
// all-gather of the states and a fold in rank order on every rank. Contract:
//   - Collective: every rank of comm calls it, with the same P, T, Op and Out, in the same order
//     relative to its other NCCL calls. n_local may differ between ranks, and may be 0.
//   - Every rank writes the same bits to *out (a device pointer on its own device).
//   - arg_min / arg_max report global indices: the index in the rank's part plus the element counts
//     of the ranks before it (gathered with the states, on every call).
//   - With accum::reproducible a floating sum has the bits of tally::reduce of the concatenated
//     parts on one GPU, for any number of ranks and any split; so do integer sum / min / max, all
//     min / max and arg_min / arg_max. Other floating sums are deterministic for a given rank count
//     and split (fixed order), not across splits.
//   - The current device must be the communicator's (cudaSetDevice), and stream on it.
//   - Bad arguments throw tally::error before any work is queued; a failed NCCL call throws
//     tally::nccl::error (a tally::error) naming it and ncclGetErrorString's text.
// One process driving several GPUs (one communicator each, ncclCommInitAll): all_reduce_group, or
// the three phases local, exchange (inside ncclGroupStart / ncclGroupEnd) and finish.
#pragma once
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <tally/default_policy.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/nccl/combine.cuh>
#include <tally/nccl/error.hpp>
#include <tally/reduce.cuh>

namespace tally::nccl {

template <class P, class T, class Op = op::sum>
class reducer {
 public:
  using local_reducer = tally::reducer<P, T, Op>;
  using input_type = T;
  using accum_type = typename local_reducer::accum_type;
  using state_type = typename local_reducer::state_type;
  // NCCL's all-reduce combines the states (else an all-gather and a fold in rank order).
  static constexpr bool native = detail::native_combine<Op, state_type>;

  // Bound to comm and to the current device, which must be comm's. Allocates the exchange buffers
  // (a few states a rank) here.
  explicit reducer(ncclComm_t comm, Op op = Op{})
      : combine_{detail::comm_facts::of(comm, where), op, where}, local_(op), buffer_(where) {
    buffer_.reserve(combine_.buffer_bytes(1));
  }

  int rank() const { return combine_.comm.rank; }
  int ranks() const { return combine_.comm.ranks; }
  int device() const { return combine_.comm.device; }
  ncclComm_t comm() const { return combine_.comm.comm; }

  // Workspace for local parts of up to n_local elements. Call it before capturing a graph.
  void reserve(index_t n_local) { local_.reserve(n_local); }

  // *out = the reduction of every rank's in[0, n_local), on every rank.
  template <class Out>
  void operator()(const T* in, index_t n_local, Out* out, cudaStream_t stream = 0) {
    tally::detail::validate_reduce(in, n_local, out, where);
    local(in, n_local, stream);
    combine_.exchange_and_finish(buffer_.data(), 1, out, stream);
  }

  // The three phases of operator(), for one thread driving several communicators: local and
  // finish on each rank's device, exchange inside ncclGroupStart / ncclGroupEnd.
  void local(const T* in, index_t n_local, cudaStream_t stream = 0) {
    local_(in, n_local, combine_.send_states(buffer_.data()), stream);
    combine_.stamp(buffer_.data(), 1, n_local, stream);
  }
  void exchange(cudaStream_t stream = 0) const { combine_.exchange(buffer_.data(), 1, stream); }
  template <class Out>
  void finish(Out* out, cudaStream_t stream = 0) const {
    tally::detail::validate_reduce(static_cast<const T*>(nullptr), 0, out, where);
    combine_.finish(buffer_.data(), 1, out, stream);
  }

 private:
  static constexpr const char* where = "tally::nccl::all_reduce";
  detail::combiner<accum_type, state_type, Op> combine_;
  local_reducer local_;
  tally::detail::device_workspace buffer_;  // [send record][received records]
};

// One-off: the local workspace and the exchange buffers come from tally's stream-ordered pool
// (detail::with_pool_workspace, on stream).
template <class P, class T, class Out, class Op = op::sum>
void all_reduce(ncclComm_t comm, const T* in, index_t n_local, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  constexpr const char* where = "tally::nccl::all_reduce";
  tally::detail::validate_reduce(in, n_local, out, where);
  using local_reducer = tally::reducer<P, T, Op>;
  using state_type = typename local_reducer::state_type;
  const detail::combiner<typename local_reducer::accum_type, state_type, Op> combine{
      detail::comm_facts::of(comm, where), op, where};
  local_reducer r(op);
  detail::pooled_call(combine, 1, n_local, out, r.need(r.plan(n_local)), stream,
                      [&](state_type* states, void* ws, std::size_t bytes) { r.run(in, n_local, states, ws, bytes, stream); });
}

// The same with default_reduce_policy<T, Op>.
template <class T, class Out, class Op = op::sum>
void all_reduce(ncclComm_t comm, const T* in, index_t n_local, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  all_reduce<default_reduce_policy<T, Op>>(comm, in, n_local, out, op, stream);
}

// One thread driving `count` ranks, reducers[r] on its own device: rank r reduces in[r][0,
// n_local[r]) on streams[r] into out[r]. Checks every argument first; restores the current device.
template <class Reducer, class Out>
void all_reduce_group(Reducer* const* reducers, int count, const typename Reducer::input_type* const* in,
                      const index_t* n_local, Out* const* out, const cudaStream_t* streams) {
  constexpr const char* where = "tally::nccl::all_reduce_group";
  if (count < 0) throw tally::error(std::string(where) + ": count = " + std::to_string(count) + " is negative");
  if (count > 0 && (reducers == nullptr || in == nullptr || n_local == nullptr || out == nullptr || streams == nullptr))
    throw tally::error(std::string(where) + ": an array argument is null");
  for (int r = 0; r < count; ++r) {
    if (reducers[r] == nullptr) throw tally::error(std::string(where) + ": reducers[" + std::to_string(r) + "] is null");
    tally::detail::validate_reduce(in[r], n_local[r], out[r], where);
  }
  const int previous = tally::detail::current_device(where);
  struct restore {
    int device;
    ~restore() { cudaSetDevice(device); }
  } restore_device{previous};
  for (int r = 0; r < count; ++r) {
    tally::detail::check_cuda(cudaSetDevice(reducers[r]->device()), where, "cudaSetDevice");
    reducers[r]->local(in[r], n_local[r], streams[r]);
  }
  detail::check_nccl(ncclGroupStart(), where, "ncclGroupStart");
  try {
    for (int r = 0; r < count; ++r) reducers[r]->exchange(streams[r]);
  } catch (...) {
    ncclGroupEnd();
    throw;
  }
  detail::check_nccl(ncclGroupEnd(), where, "ncclGroupEnd");
  for (int r = 0; r < count; ++r) {
    tally::detail::check_cuda(cudaSetDevice(reducers[r]->device()), where, "cudaSetDevice");
    reducers[r]->finish(out[r], streams[r]);
  }
}

}  // namespace tally::nccl
