// load_evict_first: a value read once, with the evict-first hint (ld.global.cs, LDG.E.EF), so that a
// stream of such loads leaves L2 (and L1) to what is read again. Row sums and whole double rows
// (rows_items.cuh) and the segment kernel's tiles (segments_items.cuh) read this way; measured in
// docs/performance.md and docs/segments.md.
#pragma once
#include <cstring>
#include <type_traits>

#include <tally/policies/config.cuh>

namespace tally::detail {

// Whether a 16-byte value holds two 8-byte elements (rows_items.cuh says so for its items of two
// doubles): it loads as double2, not uint4, whose words a guarded load moved into the elements'
// register pairs at once, waiting for the load (docs/performance.md, "Double matvec: whole rows
// streamed").
template <class T>
constexpr bool pairs_of_8_bytes = false;

// One load of the value's width (a 16-byte value stays one LDG.128). Values of other sizes, or
// aligned below their size (a user's struct of two floats), load plainly: a word load needs its
// word's alignment.
template <class T>
TALLY_DEVICE T load_evict_first(const T* p) {
  if constexpr ((sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8 || sizeof(T) == 16) && alignof(T) >= sizeof(T)) {
    using word = std::conditional_t<pairs_of_8_bytes<T>, double2,
                 std::conditional_t<sizeof(T) == 16, uint4,
                                    std::conditional_t<sizeof(T) == 8, uint2,
                                                       std::conditional_t<sizeof(T) == 4, unsigned, unsigned short>>>>;
    const word u = __ldcs(reinterpret_cast<const word*>(p));
    T r;
    memcpy(&r, &u, sizeof(T));
    return r;
  } else {
    return *p;
  }
}

}  // namespace tally::detail
