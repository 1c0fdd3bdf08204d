// How the ranks' partial states become one result on every rank (tally::nccl's second step).
//
// Each rank has reduced its part to m states (m = 1 for a device-wide reduce, m = rows for a row
// reduction split by columns). Then either
//   - native: NCCL's all-reduce of the m states, where that is exact and independent of the order
//     NCCL combines in: integer sum (in the unsigned type of the same width, so that it wraps as
//     tally's sums do), integer min and max, on 1-, 4- and 8-byte integers; or
//   - gather: an all-gather of every rank's record (its m states, then its element count where the
//     states carry indices), and on every rank one small kernel folding the records in rank order,
//     rank 0 first. Every rank folds the same bytes in the same order, so every rank writes the same
//     bits. arg_min / arg_max states get the element counts of the ranks before them added to their
//     indices, so indices are global.
// Floating min and max take the gather path: NCCL's floating min / max need not follow tally's
// rules (a NaN anywhere gives NaN, -0 < +0), and one state a rank costs an all-gather about what it
// costs an all-reduce.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <tally/detail/state_words.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/error.hpp>
#include <tally/nccl/error.hpp>
#include <tally/policies/op.cuh>

namespace tally::nccl::detail {

template <class Op>
inline constexpr bool is_sum_min_max =
    std::is_same_v<Op, op::sum> || std::is_same_v<Op, op::min> || std::is_same_v<Op, op::max>;

// Whether NCCL's all-reduce combines states S of operator Op exactly (see the top of this file).
template <class Op, class S>
inline constexpr bool native_combine = std::is_integral_v<S> && !std::is_same_v<S, bool> &&
                                       (sizeof(S) == 1 || sizeof(S) == 4 || sizeof(S) == 8) && is_sum_min_max<Op>;

// NCCL's data type for an integer state; sums use the unsigned type (two's complement wrapping).
template <class S>
constexpr ncclDataType_t nccl_type(bool sum) {
  constexpr bool is_signed = std::is_signed_v<S>;
  if constexpr (sizeof(S) == 1) return is_signed && !sum ? ncclInt8 : ncclUint8;
  else if constexpr (sizeof(S) == 4) return is_signed && !sum ? ncclInt32 : ncclUint32;
  else return is_signed && !sum ? ncclInt64 : ncclUint64;
}

template <class Op>
constexpr ncclRedOp_t nccl_op() {
  if constexpr (std::is_same_v<Op, op::sum>) return ncclSum;
  else if constexpr (std::is_same_v<Op, op::min>) return ncclMin;
  else return ncclMax;
}

constexpr std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

// One rank's record: its m states, then (Counted) its element count as an int64, padded so that
// records placed back to back keep the states aligned.
template <class S>
struct record_layout {
  static constexpr bool counted = is_arg<S>::value;
  static constexpr std::size_t align = alignof(S) > 8 ? alignof(S) : 8;
  static constexpr std::size_t count_offset(index_t m) { return round_up(static_cast<std::size_t>(m) * sizeof(S), 8); }
  static constexpr std::size_t bytes(index_t m) { return round_up(count_offset(m) + (counted ? 8 : 0), align); }
};

// The element count of this rank, into its record (a kernel: capturable, and ordered on the stream).
template <class I>
__global__ void store_count(I* at, I count) { *at = count; }

// The fold, in rank order, of row `row`'s state in each of `ranks` records. A state of an
// arg_min / arg_max part that held no element has index -1 (its finalize says so) and is skipped;
// the others get the counts of the records before them added to their index. Host and device: the
// host tests run it.
template <class Acc, class S, class Op>
TALLY_HD S fold_row(const unsigned char* records, std::size_t record_bytes, std::size_t count_offset, int ranks,
                    index_t row, const Op& op) {
  S acc = op.template identity<Acc>();
  [[maybe_unused]] index_t offset = 0;
  for (int r = 0; r < ranks; ++r) {
    const unsigned char* record = records + static_cast<std::size_t>(r) * record_bytes;
    S s = reinterpret_cast<const S*>(record)[row];
    if constexpr (is_arg<S>::value) {
      if (s.index >= 0) {
        s.index += offset;
        acc = op(acc, s);
      }
      offset += *reinterpret_cast<const std::int64_t*>(record + count_offset);
    } else {
      acc = op(acc, s);
    }
  }
  return acc;
}

// out[row] = the finalized fold of each row, a thread a row.
template <class Acc, class S, class Out, class Op>
__global__ void fold_records(const unsigned char* records, std::size_t record_bytes, std::size_t count_offset,
                             int ranks, index_t m, Op op, Out* out) {
  const index_t row = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (row >= m) return;
  const S acc = fold_row<Acc, S>(records, record_bytes, count_offset, ranks, row, op);
  tally::detail::store_words(out + row, op.template finalize<Out>(acc));
}

// The combine step of one communicator, over device memory its owner provides: a send record
// followed by `ranks` receive records (buffer_bytes(m)). It allocates nothing.
template <class Acc, class S, class Op>
struct combiner {
  using layout = record_layout<S>;
  static constexpr bool native = native_combine<Op, S>;

  comm_facts comm;
  Op op;
  const char* where;

  static constexpr std::size_t buffer_bytes(index_t m, int ranks) {
    return layout::bytes(m) * (native ? 2 : 1 + static_cast<std::size_t>(ranks));
  }
  std::size_t buffer_bytes(index_t m) const { return buffer_bytes(m, comm.ranks); }

  // Where this rank's local reduction writes its m states.
  static S* send_states(void* buffer) { return static_cast<S*>(buffer); }
  static unsigned char* received(void* buffer, index_t m) { return static_cast<unsigned char*>(buffer) + layout::bytes(m); }

  // After the local states: this rank's element count, where the states carry indices.
  void stamp(void* buffer, index_t m, index_t count, cudaStream_t stream) const {
    if constexpr (layout::counted) {
      auto* at = reinterpret_cast<std::int64_t*>(static_cast<unsigned char*>(buffer) + layout::count_offset(m));
      store_count<<<1, 1, 0, stream>>>(at, static_cast<std::int64_t>(count));
      tally::detail::check_cuda(cudaGetLastError(), where, "store_count<<<>>>");
    }
  }

  // The NCCL call: all-reduce of the states (native) or all-gather of the records. dst receives the
  // result (native) where given, instead of the buffer.
  void exchange(void* buffer, index_t m, cudaStream_t stream, void* dst = nullptr) const {
    if constexpr (native) {
      check_nccl(ncclAllReduce(buffer, dst != nullptr ? dst : received(buffer, m), static_cast<std::size_t>(m),
                               nccl_type<S>(std::is_same_v<Op, op::sum>), nccl_op<Op>(), comm.comm, stream),
                 where, "ncclAllReduce");
    } else {
      check_nccl(ncclAllGather(buffer, received(buffer, m), layout::bytes(m), ncclUint8, comm.comm, stream), where,
                 "ncclAllGather");
    }
  }

  // out[0, m) from the received records.
  template <class Out>
  void finish(void* buffer, index_t m, Out* out, cudaStream_t stream) const {
    launch_fold(received(buffer, m), native ? 1 : comm.ranks, m, out, stream);
  }

  // exchange, then finish; where the exchange already gives the output (native, Out is the state
  // type), NCCL writes out itself and no fold runs.
  template <class Out>
  void exchange_and_finish(void* buffer, index_t m, Out* out, cudaStream_t stream) const {
    if constexpr (native && std::is_same_v<Out, S>) {
      exchange(buffer, m, stream, out);
    } else {
      exchange(buffer, m, stream);
      finish(buffer, m, out, stream);
    }
  }

  template <class Out>
  void launch_fold(const unsigned char* records, int ranks, index_t m, Out* out, cudaStream_t stream) const {
    if (m == 0) return;
    constexpr int threads = 128;
    const index_t blocks = (m + threads - 1) / threads;
    fold_records<Acc, S, Out, Op><<<static_cast<unsigned>(blocks), threads, 0, stream>>>(
        records, layout::bytes(m), layout::count_offset(m), ranks, m, op, out);
    tally::detail::check_cuda(cudaGetLastError(), where, "fold_records<<<>>>");
  }
};

// A one-off call: the exchange buffers of m states and the local workspace (need) in one
// allocation from the stream-ordered pool, everything up to the end of the local tickets zeroed on
// the stream. local(states, workspace, bytes) queues the local part; count is this rank's elements.
template <class Combiner, class Out, class Local>
void pooled_call(const Combiner& combine, index_t m, index_t count, Out* out, tally::detail::workspace_need need,
                 cudaStream_t stream, Local local) {
  const std::size_t head = round_up(combine.buffer_bytes(m), 256);
  tally::detail::with_pool_workspace(
      {head + need.tickets, head + need.total}, stream, combine.where, [&](void* buffer, std::size_t) {
        void* local_ws = need.total > 0 ? static_cast<unsigned char*>(buffer) + head : nullptr;
        local(combine.send_states(buffer), local_ws, need.total);
        combine.stamp(buffer, m, count, stream);
        combine.exchange_and_finish(buffer, m, out, stream);
      });
}

}  // namespace tally::nccl::detail
