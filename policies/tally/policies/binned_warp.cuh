// binned_warp_sum: the sum of a warp's binned states (binned.cuh) in one step of exact integer warp
// sums, where a tree of shuffles would move 48-byte states through 5 levels of merges. Every lane
// is brought to the warp's top bin (the largest top; a lane below it is raised out of line, which
// only happens when the lanes saw elements of different magnitudes) and renormalized, so that each
// of its bins is the empty bin plus a fraction below 2^50 and a carry. The fractions are summed as
// two 25-bit halves and the carries as int32, each over 32 lanes with redux.sync: integer sums, so
// the total is exact and its bits cannot depend on the lanes' order. op::sum offers it as its warp_total
// (warp.cuh): both levels of block::warp_shuffle and the rows' warp-wide groups use it.
#pragma once
#include <cstdint>

#include "binned.cuh"
#include "config.cuh"

namespace tally {

// redux.sync is sm_80 and later: before, op::sum has no warp_total for binned states, and the warps
// use the tree of shuffles.
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800
// Every lane of the warp calls it, and every lane gets the total of the lanes whose `counts` is true.
template <class F, int K>
TALLY_DEVICE binned<F, K> binned_warp_sum(binned<F, K> v, bool counts) {
  using B = binned<F, K>;
  constexpr unsigned all = 0xffffffffu;
  constexpr std::uint64_t fraction = (std::uint64_t{1} << 50) - 1;
  // A lane adds nothing when it does not count or holds the identity (a lifted 0).
  const bool none = !counts || (v.room == B::single_tag && v.bin[0] == 0.0);
  if (!none && v.room == B::single_tag) v = B::settled(v);
  const std::uint32_t top = __reduce_max_sync(all, none ? 0u : v.top);  // every top is above 0
  if (top == 0) return B::empty();
  if (!none) v = v.top == top ? v : B::raised(v, top);
  v.renormalize();

  B total = B::empty_at(B::index_of_top(top));
  TALLY_UNROLL
  for (int k = 0; k < K; ++k) {
    const std::uint64_t f = none ? 0 : B::bits(v.bin[k]) & fraction;
    const std::uint64_t low = __reduce_add_sync(all, static_cast<std::uint32_t>(f & 0x1ffffffu));
    const std::uint64_t high = __reduce_add_sync(all, static_cast<std::uint32_t>(f >> 25));
    const std::uint64_t sum = low + (high << 25);  // below 2^56
    total.bin[k] = B::from_bits(B::bits(total.bin[k]) | (sum & fraction));
    total.carry[k] = __reduce_add_sync(all, none ? 0 : v.carry[k]) + static_cast<std::int32_t>(sum >> 50);
  }
  total.special = __reduce_or_sync(all, none ? 0u : v.special);
  total.room = 0;  // renormalize before the next addition, as after any merge
  return total;
}
#endif

}  // namespace tally
