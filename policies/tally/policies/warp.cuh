// Warp-level helpers shared by the block policies and the segment kernel: shuffles for any trivially
// copyable state (split into 32-bit words, as CUB's ShuffleDown does) and a full-warp tree reduction.
#pragma once
#include <type_traits>
#include <utility>

#include "config.cuh"

namespace tally::detail {

inline constexpr int warp_size = 32;
inline constexpr unsigned full_mask = 0xffffffffu;

// v of the lane `offset` above (shfl_down) or below (shfl_up) this one, word by word.
template <bool Down, class T>
TALLY_DEVICE T shfl_words(const T& v, int offset) {
  static_assert(std::is_trivially_copyable_v<T>, "tally: warp shuffles need trivially copyable states");
  constexpr int words = (sizeof(T) + 3) / 4;
  union {
    T value;
    unsigned w[words];
  } in{}, out{};
  in.value = v;
#pragma unroll
  for (int k = 0; k < words; ++k)
    out.w[k] = Down ? __shfl_down_sync(full_mask, in.w[k], offset) : __shfl_up_sync(full_mask, in.w[k], offset);
  return out.value;
}
template <class T>
TALLY_DEVICE T shfl_down(const T& v, int offset) { return shfl_words<true>(v, offset); }
template <class T>
TALLY_DEVICE T shfl_up(const T& v, int offset) { return shfl_words<false>(v, offset); }

// Whether Op sums a whole warp's states in one call, op.warp_total(v, counts): every lane gets the
// total of the lanes whose `counts` is true (op::sum of binned states: exact integer warp sums).
template <class Op, class S, class = void>
struct has_warp_total : std::false_type {};
template <class Op, class S>
struct has_warp_total<Op, S, std::void_t<decltype(std::declval<const Op&>().warp_total(std::declval<const S&>(), true))>>
    : std::true_type {};

// The total of each aligned group of `Lanes` lanes (a power of two <= 32) in the group's first lane
// (the rows kernels: a group a row). Every lane of the warp calls it; a group's result depends on
// the group's lanes alone.
template <int Lanes, class S, class Op>
TALLY_DEVICE S warp_reduce(S v, Op op) {
  if constexpr (Lanes == warp_size && has_warp_total<Op, S>::value) {
    return op.warp_total(v, true);
  } else {
#pragma unroll
    for (int offset = Lanes / 2; offset > 0; offset /= 2) v = op(v, shfl_down(v, offset));
    return v;
  }
}

// The total of lanes [0, Lanes) in lane 0; the other lanes may hold anything (block::warp_shuffle's
// warp totals). Every lane of the warp calls it.
template <int Lanes, class S, class Op>
TALLY_DEVICE S warp_total(S v, Op op) {
  if constexpr (has_warp_total<Op, S>::value) {
    return op.warp_total(v, static_cast<int>(threadIdx.x % warp_size) < Lanes);
  } else {
    return warp_reduce<Lanes>(v, op);
  }
}

}  // namespace tally::detail
