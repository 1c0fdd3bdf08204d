// A planned CSR matrix-vector product: the matrix's partition is computed once, on the device, and
// every y = A x after it runs at full occupancy with no search of its own (cuSPARSE's SpMV
// preprocess is the same idea). csr_matvec.cuh plans inside each call instead.
//
//   tally::csr_plan<float> plan(d_row_offsets, rows, nnz, stream);  // checks the offsets, plans
//   plan.matvec(d_values, d_cols, d_x, d_y, stream);                 // as often as the rows stay
//
// y[r] = sum over j in [row_offsets[r], row_offsets[r + 1]) of values[j] * x[cols[j]], in the
// policy's accumulator; an empty row gives 0.
//   - The constructor tests 0 <= row_offsets[r] <= row_offsets[r + 1] <= nnz on the device and
//     throws tally::error naming the first bad row; it waits for that test and for two offsets
//     (the stream is synchronized), then queues the plan (one binary search a unit).
//   - The plan keeps row_offsets (not a copy): they must stay on the device, unchanged, while the
//     plan is used, as cuSPARSE's matrix descriptors keep theirs.
//   - matvec is asynchronous, allocates nothing and may be captured in a CUDA graph; calls on one
//     plan run in stream order (a plan's calls must not overlap on two streams: they share the
//     plan's slots). cols may be 32- or 64-bit; every column index must be a valid index of x.
//   - Deterministic: the order of every addition depends on the row offsets and the policy's Items
//     alone, so y is bit-identical run to run and across devices.
//   - Errors throw tally::error before any work is queued: rows < 0, nnz < 0, a null or misaligned
//     pointer where rows > 0, the current device not the plan's.
#pragma once
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <tally/csr_plan_policy.cuh>
#include <tally/detail/csr_plan_kernel.cuh>
#include <tally/detail/device_cache.hpp>
#include <tally/detail/reduction_checks.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/reduce_segments.cuh>

namespace tally {

template <class T, class Off = int, class P = default_csr_plan_policy<T>>
class csr_plan {
 public:
  using policy = P;
  using value_type = T;
  using accum_type = typename P::accum::template type<T>;
  using state_type = typename op::sum::template state<accum_type>;
  static_assert(std::is_integral_v<Off>, "tally::csr_plan: row offsets must be of an integer type");
  static_assert(std::is_trivially_copyable_v<state_type>, "tally::csr_plan: the accumulator's state must be trivially copyable");
  static_assert(detail::check_reduction<op::sum, T, accum_type, determinism::run_to_run, P::fixed_order>());

  csr_plan(const Off* row_offsets, index_t rows, index_t nnz, cudaStream_t stream = 0)
      : offsets_(row_offsets), rows_(rows), memory_(where) {
    if (rows < 0) throw error(std::string(where) + ": rows = " + std::to_string(rows) + " is negative");
    if (nnz < 0) throw error(std::string(where) + ": nnz = " + std::to_string(nnz) + " is negative");
    detail::check_segments_pointer(row_offsets, rows > 0, "row offsets", where, rows);
    if (rows == 0) return;
    const int device = memory_.device();
    programmatic_ = detail::programmatic_launch(P::launch::programmatic, device, where);
    memory_.reserve(edges_at);
    detail::check_offsets(row_offsets, rows, nnz, first_bad(), detail::sm_count(device, where), stream, where, "row",
                          "row_offsets");
    base_ = detail::offset_at(row_offsets, 0, where);
    n_ = detail::offset_at(row_offsets, static_cast<unsigned long long>(rows), where) - base_;
    units_ = (rows + n_ + P::unit - 1) / P::unit;
    memory_.reserve(bytes());
    const index_t threads = 256, blocks = (units_ + 1 + threads - 1) / threads;
    detail::queue_kernel(detail::csr_plan_edges<Off>, blocks < 65535 ? blocks : 65535, threads, 0, stream, false, where,
                         row_offsets, rows, base_, n_, index_t{P::unit}, units_, edges());
  }

  index_t rows() const { return rows_; }
  index_t nnz() const { return n_; }        // row_offsets[rows] - row_offsets[0]
  index_t units() const { return units_; }  // warps a product runs
  std::size_t bytes() const { return sums_at() + static_cast<std::size_t>(units_ / 32 + 1) * sizeof(slot); }  // held
  int device() const { return memory_.device(); }

  // y = A x. values and cols hold the matrix's non-zeros at [row_offsets[0], row_offsets[rows]).
  template <class Col, class Out>
  void matvec(const T* values, const Col* cols, const T* x, Out* y, cudaStream_t stream = 0) {
    detail::validate_csr(values, cols, offsets_, rows_, x, y);
    memory_.check_device();
    if (rows_ == 0) return;
    using S = state_type;
    constexpr auto kernel = detail::csr_plan_matvec<P::warps, P::items, P::registers, P::launch::programmatic, accum_type,
                                                    op::sum, T, Col, Off, Out, S>;
    const detail::csr_plan_args<T, Col, Off, Out, S> args{values, cols,   x,       y,      offsets_,
                                                         rows_,  base_,  n_,      edges(), units_,
                                                         tails(), sums()};
    detail::queue_kernel(kernel, (units_ + P::warps - 1) / P::warps, P::warps * 32, 0, stream, programmatic_, where, args,
                         op::sum{});
  }

 private:
  static constexpr const char* where = "tally::csr_plan";
  using slot = detail::published<state_type>;
  // Device memory: [the offsets test's answer][edges: units + 1][tails: units][sums: units / 32].
  static constexpr std::size_t edges_at = 256;
  static std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }
  std::size_t tails_at() const { return round_up(edges_at + static_cast<std::size_t>(units_ + 1) * sizeof(index_t)); }
  std::size_t sums_at() const { return round_up(tails_at() + static_cast<std::size_t>(units_) * sizeof(slot)); }
  unsigned char* memory() const { return static_cast<unsigned char*>(memory_.data()); }
  unsigned long long* first_bad() const { return reinterpret_cast<unsigned long long*>(memory()); }
  index_t* edges() const { return reinterpret_cast<index_t*>(memory() + edges_at); }
  slot* tails() const { return reinterpret_cast<slot*>(memory() + tails_at()); }
  slot* sums() const { return reinterpret_cast<slot*>(memory() + sums_at()); }

  const Off* offsets_ = nullptr;
  index_t rows_ = 0;
  index_t base_ = 0, n_ = 0, units_ = 0;
  detail::device_workspace memory_;  // zeroed when reserved: every slot starts clear
  bool programmatic_ = false;
};

}  // namespace tally
