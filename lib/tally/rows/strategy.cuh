// Row strategies: who reduces one row of a row-major M x N matrix (reduce_rows, matvec). A strategy
// is one struct that carries its own plan and launch, so a new one is one file: no enum, planner or
// launcher to edit.
//
// Contract (check_row_strategy; docs/policies.md, and docs/composing.md writes one):
//   name                     static constexpr const char*
//   fixed_order              static constexpr bool: the order of combination depends on the plan alone
//   plan<T>(p, device)       static, host, constexpr-friendly: fills the launch fields of rows_plan p
//                            (rows_plan.cuh), whose shape and item fields plan_rows has filled, from
//                            the shape and the device facts alone (no CUDA call: host-testable)
//   launch(p, call)          static, host: queues the kernel(s) of plan p through call (a
//                            detail::rows_call<K>: call.queue(kernel, p, dynamic_smem, extra...),
//                            call.with_item_elems(p, f), call.tickets(p), call.partials(p))
// Optional:
//   blocks_per_sm<K>(device) static, host: resident blocks per SM of its kernel for the call types K,
//                            which plan then reads as device.blocks_per_sm (rows_reducer asks for the
//                            row sum's types once per device, and for matvec's (K::xform a
//                            dot_rows) when it plans a matvec; plan sees p.dot then)
// Its kernels: every row r in [0, M) gets op over its columns of lift(xform(A[r][j]), j) written to
// out[r] by finalize, exactly once; A is never written; tickets are left 0 and partials are written
// before they are read; with K::launch::programmatic, launch::wait_for_previous_grid() comes before
// any global access. The helpers below are what tally's own strategies build their kernels from.
#pragma once
#include <type_traits>

#include <tally/detail/rows_call.cuh>
#include <tally/detail/rows_items.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/contract.cuh>
#include <tally/policies/launch.cuh>
#include <tally/policies/op.cuh>
#include <tally/rows_plan.cuh>

namespace tally::rows {

// For a strategy's plan and kernel:
using tally::detail::fold_item;     // acc combined with one item of a row (lifted; times x[j] for matvec)
using tally::detail::item_weights;  // x's item for matvec (nothing for row sums), to pass to fold_item
using tally::detail::grid_of;       // blocks for `work` units of work, capped at the grid limit
using tally::detail::row_item;      // V consecutive elements of a row, read as one access
using tally::detail::store_words;   // a state or result stored as whole words, padding included

namespace detail {
using probe_types = tally::detail::rows_types<launch::stream_ordered, float, float, float, op::sum, tally::detail::plain_rows>;
template <class S> using plan_member = decltype(S::template plan<float>(std::declval<rows_plan&>(), std::declval<const rows_device&>()));
template <class S>
using launch_member = decltype(S::launch(std::declval<const rows_plan&>(), std::declval<const tally::detail::rows_call<probe_types>&>()));
template <class S, class K> using blocks_per_sm_member = decltype(S::template blocks_per_sm<K>(int{}));
}  // namespace detail

template <class S>
constexpr bool check_row_strategy() {
  using tally::detail::is_detected;
  static_assert(is_detected<tally::detail::name_member, S>, "tally row strategy: missing 'static constexpr const char* name'");
  static_assert(is_detected<tally::detail::fixed_order_member, S>,
                "tally row strategy: missing 'static constexpr bool fixed_order' (whether its order of combination is fixed)");
  static_assert(is_detected<detail::plan_member, S>,
                "tally row strategy: missing 'template <class T> static void plan(rows_plan& p, const rows_device& device)'");
  static_assert(is_detected<detail::launch_member, S>,
                "tally row strategy: missing 'template <class Call> static void launch(const rows_plan& p, const Call& call)'");
  return true;
}

// Resident blocks per SM of strategy S's kernel for call types K, or 1 if S does not say.
template <class S, class K>
int blocks_per_sm(int device) {
  if constexpr (tally::detail::is_detected<detail::blocks_per_sm_member, S, K>) return S::template blocks_per_sm<K>(device);
  else return 1;
}

}  // namespace tally::rows
