// A state or result moved to and from global memory as whole words. Index-carrying states have
// padding (arg<float>: 4 value bytes, 4 padding, 8 index): a plain `*p = s` stores the fields only,
// and a reader of whole words (load_from_l2 below, or a caller copying an output array) would read
// bytes no one wrote. compute-sanitizer's initcheck reports exactly that. Writing every word keeps
// every byte of what tally writes defined.
#pragma once
#include <type_traits>

#include <tally/policies/config.cuh>

namespace tally::detail {

template <class S>
using state_word = std::conditional_t<sizeof(S) % 4 == 0, unsigned,
                                      std::conditional_t<sizeof(S) % 2 == 0, unsigned short, unsigned char>>;

// S as an array of W (words, or vectors where S's size and alignment allow).
template <class S, class W>
union state_vectors {
  S value;
  W w[sizeof(S) / sizeof(W)];
};

template <class S>
using state_words = state_vectors<S, state_word<S>>;

// One st.global a word, as volatile PTX: a plain store of a padding word, whose register holds no
// defined value, is one the compiler may drop, and the bytes would stay unwritten (seen: initcheck
// still reported arg<float> outputs stored through plain word stores).
TALLY_DEVICE void store_word(unsigned* p, unsigned w) {
  asm volatile("st.global.b32 [%0], %1;" ::"l"(p), "r"(w) : "memory");
}
TALLY_DEVICE void store_word(unsigned short* p, unsigned short w) {
  asm volatile("st.global.b16 [%0], %1;" ::"l"(p), "h"(w) : "memory");
}
TALLY_DEVICE void store_word(unsigned char* p, unsigned char w) {
  asm volatile("st.global.b8 [%0], %1;" ::"l"(p), "h"(static_cast<unsigned short>(w)) : "memory");
}

// *p = s, padding included. p points to global memory.
template <class S>
TALLY_DEVICE void store_words(S* p, const S& s) {
  state_words<S> u;
  u.value = s;
#pragma unroll
  for (unsigned k = 0; k < sizeof(u.w) / sizeof(u.w[0]); ++k) store_word(reinterpret_cast<state_word<S>*>(p) + k, u.w[k]);
}

// A load that bypasses L1 (ld.global.cg): partials written by other blocks of this launch are
// read from L2, never from a stale L1 line or the read-only path. In 16- or 8-byte vectors where
// S's size and alignment allow: a word a load puts a sector request on every word of a thread's
// state, which cost the segment kernel's fix-up 2 us (docs/segments.md).
template <class S>
TALLY_DEVICE S load_from_l2(const S* p) {
  using W = std::conditional_t<sizeof(S) % 16 == 0 && alignof(S) >= 16, uint4,
                               std::conditional_t<sizeof(S) % 8 == 0 && alignof(S) >= 8, uint2, state_word<S>>>;
  state_vectors<S, W> u;
#pragma unroll
  for (unsigned k = 0; k < sizeof(u.w) / sizeof(u.w[0]); ++k) u.w[k] = __ldcg(reinterpret_cast<const W*>(p) + k);
  return u.value;
}

}  // namespace tally::detail
