// The shared-memory steps tally::sort's kernels share: a tile's padded positions, the merge-path
// search of a thread's diagonal, and the serial merge of a thread's outputs (Odeh, Green, Mwassi,
// Shmueli and Birk, "Merge Path - Parallel Merging Made Simple", 2012). Values ride along with keys
// where V is not no_values.
#pragma once
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::detail {

struct no_values {};

// Shared-memory position of element k of a tile: one word of padding every 32, so that a thread's
// Items consecutive elements and a warp's strided ones both spread over the banks.
TALLY_DEVICE int padded(int k) { return k + (k >> 5); }

// An array of N T in shared memory, or nothing for no_values.
template <class T, int N>
struct smem_array {
  T data[N];
  TALLY_DEVICE T& operator[](int i) { return data[i]; }
  TALLY_DEVICE const T& operator[](int i) const { return data[i]; }
};
template <int N>
struct smem_array<no_values, N> {
  TALLY_DEVICE no_values operator[](int) const { return {}; }
};

// How many of the first d outputs of merging a = [a0, a0 + la) and b = [b0, b0 + lb) (32-bit
// positions in shared memory, key(position) reads one) come from a; a's key first on a tie.
template <class K, class Get>
TALLY_DEVICE int smem_merge_path(int d, Get key, int a0, int la, int b0, int lb) {
  int lo = d > lb ? d - lb : 0, hi = d < la ? d : la;
  while (lo < hi) {
    const int mid = (lo + hi) >> 1;
    if (key_order<K>::less(key(b0 + d - 1 - mid), key(a0 + mid))) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

// Merges Items outputs starting at a[i], b[j] (positions as above), passing each to
// emit(u, key, tile position it came from); outputs past la + lb are unspecified. Without branches:
// each step takes one head and loads its successor (one shared load, one rank); a head past its run
// is never taken, and its load may read up to Items + 1 elements past the merged range (shared
// arrays are sized for it: smem_elements below).
template <int Items, class K, class Get, class Emit>
TALLY_DEVICE void serial_merge(Get key, int a0, int la, int i, int b0, int lb, int j, Emit emit) {
  using rank_t = typename key_order<K>::rank_t;
  K ka = key(a0 + i), kb = key(b0 + j);
  rank_t ra = key_order<K>::rank(ka), rb = key_order<K>::rank(kb);
#pragma unroll
  for (int u = 0; u < Items; ++u) {
    const bool take_b = j < lb && (i >= la || rb < ra);
    emit(u, take_b ? kb : ka, take_b ? b0 + j : a0 + i);
    i += take_b ? 0 : 1;
    j += take_b ? 1 : 0;
    const K x = key(take_b ? b0 + j : a0 + i);
    const rank_t rx = key_order<K>::rank(x);
    ka = take_b ? ka : x;
    ra = take_b ? ra : rx;
    kb = take_b ? x : kb;
    rb = take_b ? rx : rb;
  }
}

// Elements a shared array of a tile of Tile elements (and values) holds: the padded tile and the
// reads serial_merge makes past its end.
template <int Tile, int Items>
inline constexpr int smem_elements = Tile + Items + 1 + (Tile + Items + 1) / 32 + 1;

}  // namespace tally::detail
