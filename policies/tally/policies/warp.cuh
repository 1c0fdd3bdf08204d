// Warp-level helpers shared by the block policies and the segment kernel: shuffles for any trivially
// copyable state (split into 32-bit words, as CUB's ShuffleDown does) and a full-warp tree reduction.
#pragma once
#include <type_traits>

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

// Tree over the first `Lanes` lanes (a power of two <= 32); lane 0 gets the total.
// Lane 0's result only depends on lanes [0, Lanes), so the other lanes may hold anything.
template <int Lanes, class S, class Op>
TALLY_DEVICE S warp_reduce(S v, Op op) {
#pragma unroll
  for (int offset = Lanes / 2; offset > 0; offset /= 2) v = op(v, shfl_down(v, offset));
  return v;
}

}  // namespace tally::detail
