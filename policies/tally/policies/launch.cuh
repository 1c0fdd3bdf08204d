// Launch policies: how a call's kernel starts behind the kernel ahead of it in the stream. One family
// for every algorithm (reduce_policy, rows_policy, transpose_policy).
//
// Contract (check_launch_policy):
//   name          static constexpr const char*
//   programmatic  static constexpr bool: launch with programmatic dependent launch (PDL)
// A kernel launched programmatically calls launch::wait_for_previous_grid() before its first global
// access, so results are those of a plain launch.
//
//   stream_ordered  a plain launch: dispatched once the kernel ahead has completed
//   pdl             programmatic dependent launch on sm_90 and later (plain elsewhere): dispatched
//                   while the kernel ahead drains, its blocks waiting (griddepcontrol.wait) for that
//                   kernel to complete, memory included. Launches captured in a CUDA graph are plain
//                   (detail/launch.cuh says why). tally's kernels never release the next launch early:
//                   it is released as their blocks exit (docs/performance.md: earlier releases
//                   measured slower).
#pragma once
#include "contract.cuh"

namespace tally::launch {

// Blocks until the kernel this launch depends on has completed and its writes are visible
// (griddepcontrol.wait). A no-op without a programmatic launch and before sm_90.
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

struct stream_ordered {
  static constexpr const char* name = "stream_ordered";
  static constexpr bool programmatic = false;
};

struct pdl {
  static constexpr const char* name = "pdl";
  static constexpr bool programmatic = true;
};

namespace detail {
template <class L> using programmatic_member = std::enable_if_t<std::is_same_v<std::remove_cv_t<decltype(L::programmatic)>, bool>>;
}  // namespace detail

template <class L>
constexpr bool check_launch_policy() {
  static_assert(tally::detail::is_detected<tally::detail::name_member, L>,
                "tally launch policy: missing 'static constexpr const char* name'");
  static_assert(tally::detail::is_detected<detail::programmatic_member, L>,
                "tally launch policy: missing 'static constexpr bool programmatic' (launch with PDL or not)");
  return true;
}

}  // namespace tally::launch
