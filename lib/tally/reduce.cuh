// Device-wide reduction of n elements to one value, composed from a reduce_policy.
//
//   tally::reducer<P, T, Op> r;                  // owns its workspace: no allocation per call
//   r(d_in, n, d_out, stream);
//
//   tally::reduce<P>(d_in, n, d_out, tally::op::sum{}, stream);   // one-off: workspace from the
//                                                                  // stream-ordered pool
// Both are asynchronous, deterministic (same device, same n -> bit-identical result; a composition
// that cannot promise it is rejected at compile time, determinism.cuh), capturable in a CUDA graph
// (once the reducer has reserved its workspace), and check every argument before any work is
// queued: on error they throw tally::error and the output is not written.
#pragma once
#include <atomic>
#include <cstdint>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include <tally/default_policy.cuh>
#include <tally/detail/device_cache.hpp>
#include <tally/detail/reduction_checks.cuh>
#include <tally/detail/reduce_kernel.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/error.hpp>
#include <tally/ladder.cuh>
#include <tally/policies/determinism.cuh>
#include <tally/policies/op.cuh>
#include <tally/reduce_policies.cuh>
#include <tally/reduce_policy.cuh>

namespace tally {

// How a reduction of n elements is launched.
struct reduce_plan {
  index_t n = 0;
  index_t tiles = 0;   // tiles of P::tile_items<T> elements
  index_t blocks = 1;  // blocks of the first pass; 1 means a single launch writes the result
  bool two_pass() const { return blocks > 1; }
};

// Pure host function: the plan for n elements on a device with sm_count SMs running blocks_per_sm
// blocks of the first-pass kernel each.
template <class P, class T>
constexpr reduce_plan plan_reduce(index_t n, int sm_count, int blocks_per_sm) {
  constexpr index_t tile = P::template tile_items<T>;
  const index_t tiles = n / tile + (n % tile != 0);
  const index_t blocks = P::grid::blocks(tiles, sm_count, blocks_per_sm);
  return {n, tiles, blocks < 1 ? 1 : blocks};
}

namespace detail {

// Argument checks shared by every entry point; no CUDA call, so they run anywhere.
template <class T, class Out>
void validate_reduce(const T* in, index_t n, const Out* out, const char* where) {
  if (n < 0) throw error(std::string(where) + ": n = " + std::to_string(n) + " is negative");
  if (in == nullptr && n > 0)
    throw error(std::string(where) + ": input pointer is null but n = " + std::to_string(n));
  if (out == nullptr) throw error(std::string(where) + ": output pointer is null");
  if (reinterpret_cast<std::uintptr_t>(in) % alignof(T) != 0)
    throw error(std::string(where) + ": input pointer is not aligned to its element type (" +
                std::to_string(alignof(T)) + " bytes)");
  if (reinterpret_cast<std::uintptr_t>(out) % alignof(Out) != 0)
    throw error(std::string(where) + ": output pointer is not aligned to its type (" +
                std::to_string(alignof(Out)) + " bytes)");
}

}  // namespace detail

template <class P, class T, class Op = op::sum, class Determinism = determinism::run_to_run>
class reducer {
 public:
  using policy = P;
  using input_type = T;
  using accum_type = typename P::accum::template type<T>;
  using state_type = typename Op::template state<accum_type>;

  static_assert(detail::check_reduction<Op, T, accum_type, Determinism, P::fixed_order>());

  explicit reducer(Op op = Op{}) : op_(op), workspace_(where) {
    const int device = workspace_.device();
    sm_count_ = detail::sm_count(device, where);
    blocks_per_sm_ = first_pass_blocks_per_sm(device);
    programmatic_ = detail::programmatic_launch(P::launch::programmatic, device, where);
  }

  reduce_plan plan(index_t n) const { return plan_reduce<P, T>(n, sm_count_, blocks_per_sm_); }
  int device() const { return workspace_.device(); }

  // Bytes of device workspace a reduction of n elements needs (0 when one block suffices): the
  // partials, after a ticket counter when the last block combines them.
  std::size_t workspace_bytes(index_t n) const { return need(plan(n)).total; }

  // Allocates workspace for reductions of up to n elements. Call it before capturing a graph.
  void reserve(index_t n) { workspace_.reserve(workspace_bytes(n)); }

  // Reduces in[0, n) into *out, growing the owned workspace if n needs more than reserved.
  template <class Out>
  void operator()(const T* in, index_t n, Out* out, cudaStream_t stream = 0) {
    detail::validate_reduce(in, n, out, where);
    workspace_.check_device();
    const reduce_plan p = plan(n);
    launch_plan(in, out, p, workspace_.prepare(need(p), stream), stream);
  }

  // Reduces with caller-provided workspace of at least workspace_bytes(n) bytes, 16-byte aligned
  // (cudaMalloc's is). Where the last block combines the partials, the workspace's first 16 bytes
  // hold a ticket counter that must be 0 on first use (cudaMemset); every call leaves it 0 again.
  template <class Out>
  void run(const T* in, index_t n, Out* out, void* workspace, std::size_t workspace_size, cudaStream_t stream) const {
    detail::validate_reduce(in, n, out, where);
    const reduce_plan p = plan(n);
    detail::check_workspace(workspace, workspace_size, need(p), where, "a reduction of n = " + std::to_string(n));
    launch_plan(in, out, p, workspace, stream);
  }

  // What a call of plan p needs: a 16-byte ticket (last block combines) and the partials.
  static detail::workspace_need need(const reduce_plan& p) {
    if (!p.two_pass()) return {};
    return {partials_offset, partials_offset + static_cast<std::size_t>(p.blocks) * sizeof(state_type)};
  }

 private:
  static constexpr const char* where = "tally::reduce";
  // Workspace layout: [ticket, padded to 16 bytes][partials] when the last block finishes.
  static constexpr std::size_t partials_offset = P::grid::finishes_in_last_block ? 16 : 0;
  using element_lift_t = detail::lift_element<Op, accum_type>;
  element_lift_t element_lift() const { return {op_}; }

  // Queues the kernel(s) of plan p; arguments are already checked.
  template <class Out>
  void launch_plan(const T* in, Out* out, const reduce_plan& p, void* workspace, cudaStream_t stream) const {
    using result = detail::write_result<Out>;
    if (!p.two_pass()) {
      launch<typename P::load, T>(1, stream, in, p.n, element_lift(), result{out});
      return;
    }
    auto* base = static_cast<unsigned char*>(workspace);
    auto* partials = reinterpret_cast<state_type*>(base + partials_offset);
    if constexpr (P::grid::finishes_in_last_block) {
      launch<typename P::load, T>(p.blocks, stream, in, p.n, element_lift(),
                                  detail::last_block_combines<state_type, Out>{partials, reinterpret_cast<unsigned*>(base), out});
    } else {
      launch<typename P::load, T>(p.blocks, stream, in, p.n, element_lift(), detail::write_partial<state_type>{partials});
      launch<load::single, state_type>(1, stream, partials, p.blocks, detail::lift_state{}, result{out});
    }
  }

  template <class Load, class In, class Lift, class Finish>
  static constexpr auto kernel() {
    return &detail::reduce_kernel<P, Load, accum_type, In, Op, Lift, Finish>;
  }

  template <class Load, class In, class Lift, class Finish>
  void launch(index_t blocks, cudaStream_t stream, const In* in, index_t n, Lift lift, Finish finish) const {
    detail::queue_kernel(kernel<Load, In, Lift, Finish>(), blocks, P::threads, P::template dynamic_smem_bytes<state_type>,
                         stream, programmatic_, where, in, n, op_, lift, finish);
  }

  // Occupancy of the first-pass kernel; the occupancy API answers for the current device, which
  // is `device` whenever this runs (the constructor and the call both read it).
  static int first_pass_blocks_per_sm(int device) {
    static std::atomic<int> cache[detail::max_devices] = {};
    return detail::cached_per_device(cache, device, [](int) {
      int blocks = 0;
      detail::check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                             &blocks, kernel<typename P::load, T, element_lift_t, detail::write_partial<state_type>>(),
                             P::threads, P::template dynamic_smem_bytes<state_type>),
                         where, "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      return blocks > 0 ? blocks : 1;
    });
  }

  Op op_{};
  detail::device_workspace workspace_;
  int sm_count_ = 0;
  int blocks_per_sm_ = 0;
  bool programmatic_ = false;  // launch with PDL: the launch policy asks for it and the device has it
};

// One-off reduction: the workspace comes from tally's stream-ordered memory pool of the device
// (detail::with_pool_workspace, on `stream`), which graph capture also records.
template <class P, class T, class Out, class Op = op::sum>
void reduce(const T* in, index_t n, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  detail::validate_reduce(in, n, out, "tally::reduce");
  reducer<P, T, Op> r(op);
  detail::with_pool_workspace(r.need(r.plan(n)), stream, "tally::reduce",
                              [&](void* workspace, std::size_t bytes) { r.run(in, n, out, workspace, bytes, stream); });
}

}  // namespace tally
