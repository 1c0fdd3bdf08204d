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

template <class S>
union state_words {
  S value;
  state_word<S> w[sizeof(S) / sizeof(state_word<S>)];
};

// *p = s, padding included.
template <class S>
TALLY_DEVICE void store_words(S* p, const S& s) {
  state_words<S> u;
  u.value = s;
#pragma unroll
  for (unsigned k = 0; k < sizeof(u.w) / sizeof(u.w[0]); ++k) reinterpret_cast<state_word<S>*>(p)[k] = u.w[k];
}

// A load that bypasses L1 (ld.global.cg): partials written by other blocks of this launch are
// read from L2, never from a stale L1 line or the read-only path.
template <class S>
TALLY_DEVICE S load_from_l2(const S* p) {
  state_words<S> u;
#pragma unroll
  for (unsigned k = 0; k < sizeof(u.w) / sizeof(u.w[0]); ++k) u.w[k] = __ldcg(reinterpret_cast<const state_word<S>*>(p) + k);
  return u.value;
}

}  // namespace tally::detail
