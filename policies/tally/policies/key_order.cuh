// key_order: the total order in which tally's merge (and sort) place keys. Integers in their own
// order. Floating keys by their bits made unsigned-comparable: -inf < negative numbers < -0 < +0 <
// positive numbers < +inf < NaN, every NaN (any sign or payload) equal to every other and last, as a
// NaN-last sort expects; -0 comes before +0 (IEEE totalOrder's choice), so two sorts of the same
// keys give the same bits.
#pragma once
#include <cstdint>
#include <type_traits>

#include <cuda/std/bit>

#include "config.cuh"

namespace tally {

template <class K>
struct key_order {
  static_assert(std::is_integral_v<K> || std::is_same_v<K, float> || std::is_same_v<K, double>,
                "tally::key_order<K>: keys are integers, float or double");
  // An unsigned integer whose order is K's order: comparing two of them compares the keys.
  using rank_t = std::conditional_t<sizeof(K) <= 4, std::uint32_t, std::uint64_t>;
  TALLY_HD static rank_t rank(K k) {
    if constexpr (std::is_integral_v<K>) {
      const auto u = static_cast<rank_t>(static_cast<std::make_unsigned_t<K>>(k));
      constexpr rank_t flip = std::is_signed_v<K> ? rank_t{1} << (8 * sizeof(rank_t) - 1) : 0;
      // Narrow types widen first: the sign bit of an int8 / int16 moves to the top.
      if constexpr (std::is_signed_v<K> && sizeof(K) < sizeof(rank_t))
        return static_cast<rank_t>(static_cast<rank_t>(static_cast<std::int64_t>(k)) ^ flip);
      else return u ^ flip;
    } else {
      constexpr rank_t sign = rank_t{1} << (8 * sizeof(rank_t) - 1);
      const rank_t b = cuda::std::bit_cast<rank_t>(k);
      // Negative: every bit flipped; positive: the sign bit set. Written with the sign spread into
      // a mask (one shift, one xor) rather than a branch or two selects.
      using signed_t = std::make_signed_t<rank_t>;
      const rank_t flip = static_cast<rank_t>(static_cast<signed_t>(b) >> (8 * sizeof(rank_t) - 1)) | sign;
      return k != k ? ~rank_t{0} : b ^ flip;  // every NaN last, equal to each other
    }
  }
  TALLY_HD static bool less(K a, K b) { return rank(a) < rank(b); }
  // Whether rank is a bijection, so that from_rank restores the key: integers of rank_t's width.
  // Floating keys are not (every NaN has one rank), nor narrower integers.
  static constexpr bool invertible = std::is_integral_v<K> && sizeof(K) == sizeof(rank_t);
  TALLY_HD static K from_rank(rank_t r) {
    static_assert(invertible, "tally::key_order<K>::from_rank: K's rank is not a bijection");
    constexpr rank_t flip = std::is_signed_v<K> ? rank_t{1} << (8 * sizeof(rank_t) - 1) : 0;
    return static_cast<K>(r ^ flip);
  }
};

}  // namespace tally
