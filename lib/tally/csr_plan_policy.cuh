// csr_plan_policy: the composition a csr_plan takes (csr_plan.cuh).
//
// The merged sequence of row ends and non-zeros is cut into units of 32 * Items items, a warp each
// (detail/csr_plan_kernel.cuh): a unit costs the same whether its items are the non-zeros of one
// long row or a thousand empty rows.
//
//   Warps      warps a block; each takes its own unit, so a block has no barrier
//   Items      items a lane walks; odd, so that lanes walking Items consecutive shared-memory words
//              hit different banks
//   Registers  registers a thread the kernel is held to (__launch_bounds__): 65536 / (32 Registers)
//              warps an SM can be resident, each with Items columns, values and x gathers in flight
//   Accum      the accumulator (accum.cuh)
//   Launch     the launch policy (launch.cuh)
//
// The order of every combination depends on the row offsets and Items alone (not the device):
// fixed_order is true. default_csr_plan_policy<T>: 4 warps of 7 items at 40 registers (48 warps an
// SM) for 4-byte values, 5 items at 48 for 8-byte ones (docs/segments.md has the sweep).
#pragma once
#include <string>

#include <tally/default_policy.cuh>
#include <tally/policies/accum.cuh>
#include <tally/policies/launch.cuh>
#include <tally/policies/op.cuh>

namespace tally {

template <int Warps = 4, int Items = 7, int Registers = 40, class Accum = accum::native, class Launch = launch::pdl>
struct csr_plan_policy {
  static_assert(Warps >= 1 && Warps <= 32, "tally csr_plan_policy: Warps must be between 1 and 32");
  static_assert(Items >= 1 && Items <= 32, "tally csr_plan_policy: Items must be between 1 and 32");
  static_assert(Registers >= 24 && Registers <= 255, "tally csr_plan_policy: Registers must be between 24 and 255");
  static_assert(accum::check_accum_policy<Accum>());
  static_assert(launch::check_launch_policy<Launch>());
  static constexpr int warps = Warps;
  static constexpr int items = Items;
  static constexpr int registers = Registers;
  static constexpr int unit = 32 * Items;  // merged items a warp takes
  using accum = Accum;
  using launch = Launch;
  static constexpr bool fixed_order = true;
  // "planned<4x7,40>/native/pdl": for test output and benchmark names.
  static std::string name() {
    return "planned<" + std::to_string(Warps) + "x" + std::to_string(Items) + "," + std::to_string(Registers) + ">/" +
           Accum::name + "/" + Launch::name;
  }
};

template <class T>
using default_csr_plan_policy = std::conditional_t<sizeof(T) <= 4, csr_plan_policy<4, 7, 40, detail::default_accum<T, op::sum>>,
                                                   csr_plan_policy<4, 5, 48, detail::default_accum<T, op::sum>>>;

}  // namespace tally
