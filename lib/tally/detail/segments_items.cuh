// What the segment kernel reads and what it leaves for its fix-up:
//
//   plain_elements<T>            reduce_segments: element j is in[j]
//   csr_elements<T, Col, Acc>    csr_matvec: element j is values[j] * x[cols[j]] in the accumulator type
//   gathered_elements<T, Off>    reduce_segments over begin / end offsets: element k of segment s is
//                                in[begins[s] + k]
//   segments_args                one call: the offsets, the segment count, the output, the elements
//   segment_entry<S>             a block's partial state of a segment that crosses its share's edge
#pragma once
#include <cstdint>

#include <tally/detail/load_evict_first.cuh>
#include <tally/policies/accum.cuh>
#include <tally/policies/config.cuh>

namespace tally::detail {

// An element source: at(j)[k] loads what element j + k needs first (raw; a cursor, so that a
// thread's loads at k = 0, Threads, 2 * Threads ... share one address and immediate offsets), and
// finish(raw, j) gives element j from it (CSR: raw is the column; finish loads the value and gathers
// x). The kernel loads a tile's raw parts while it walks the tile before and finishes them when the
// tile starts, so that the walk never waits for a gather, which waits for its column.
// end_rounds: rounds of end candidates (Threads each) a tile prefetches with its elements, as many
// as the registers left allow (four cover tiles whose segments average Items / 4 elements or more
// without waiting for a load).
// row_shares: shares of one segment length may be read as rows (segments_row_share.cuh).
// short_shares: shares of short segments may be read a segment a thread (segments_short_share.cuh).
// gathers_x: every element gathers from a second array (CSR's x); the kernel then asks for 80
// registers a thread, 3 blocks of 256 an SM (segments_min_blocks).
// end_weight: what an end (closing a segment, writing its result) costs in elements when the grid
// is cut into equal shares: 32 where an element is one load (with 8, shares rich in short segments
// finished last), 2 for CSR, whose elements cost three loads and a gather each, 128 for the begin /
// end form, whose tiles of short segments read the input and whose long segments the warps fold
// (docs/segments.md has the sweeps).
template <class T>
struct plain_elements {
  using value = T;
  using raw = T;
  static constexpr bool gathered = false;
  static constexpr int end_rounds = 4;
  static constexpr bool row_shares = true;
  static constexpr bool short_shares = true;
  static constexpr bool gathers_x = false;
  static constexpr index_t end_weight = 32;
  const T* in;
  // Read once: the tiles' loads take the evict-first hint (H200: +2 - 7 % on walked tiles, power
  // law and one long segment among short ones, docs/segments.md).
  struct cursor {
    const T* p;
    TALLY_DEVICE T operator[](int k) const { return load_evict_first(p + k); }
  };
  TALLY_DEVICE cursor at(index_t j) const { return {in + j}; }
  TALLY_DEVICE T finish(const T& r, index_t) const { return r; }
};

// CSR: the columns and values are read once, with the evict-first hint (ld.global.cs), so that they
// do not push x out of L2, which every gather reads (H100: power-law and short rows +3 - 16 %,
// docs/segments.md).
template <class T, class Col, class Acc>
struct csr_elements {
  static_assert(accum::takes_products<Acc>);
  using value = Acc;
  static constexpr bool gathered = false;
  static constexpr int end_rounds = 2;  // four spill
  static constexpr bool row_shares = false;  // staging holds the values, not the columns and x gathers
  static constexpr bool short_shares = false;
  static constexpr bool gathers_x = true;
  static constexpr index_t end_weight = 2;
  using raw = Col;
  const T* values;
  const Col* cols;
  const T* x;
  struct cursor {
    const Col* c;
    TALLY_DEVICE Col operator[](int k) const { return __ldcs(c + k); }
  };
  TALLY_DEVICE cursor at(index_t j) const { return {cols + j}; }
  // Element j's place in its 32-element line of columns: loads that start `line_shift(j)` elements
  // earlier start on a 128-byte line (256 for 8-byte columns). Never before cols[0]: the caller's
  // columns need not start on a line.
  TALLY_DEVICE int line_shift(index_t j) const {
    const int s = static_cast<int>(reinterpret_cast<std::uintptr_t>(cols + j) / sizeof(Col) % 32);
    return j < s ? static_cast<int>(j) : s;
  }
  TALLY_DEVICE Acc finish(const Col& col, index_t j) const {
    return static_cast<Acc>(__ldcs(values + j)) * static_cast<Acc>(x[static_cast<index_t>(col)]);
  }
};

// Segments given by begin and end offsets (not contiguous): the kernel runs over virtual offsets
// (the running sum of the lengths) and reads element k of segment s at in[begins[s] + k].
template <class T, class Off>
struct gathered_elements {
  using value = T;
  using raw = T;
  static constexpr bool gathered = true;
  static constexpr int end_rounds = 4;
  static constexpr bool row_shares = false;  // not contiguous
  static constexpr bool short_shares = false;
  static constexpr bool gathers_x = false;
  static constexpr index_t end_weight = 128;
  const T* in;
  const Off* begins;
  TALLY_DEVICE index_t start(index_t s) const { return static_cast<index_t>(begins[s]); }
  TALLY_DEVICE T load(index_t real) const { return in[real]; }
  struct cursor {
    TALLY_DEVICE T operator[](int) const { return T{}; }
  };
  TALLY_DEVICE cursor at(index_t) const { return {}; }  // unused: gathered elements load in the walk
  TALLY_DEVICE T finish(const T& r, index_t) const { return r; }
};

// The length of begin/end segment s, 0 where end < begin: the virtual offsets' increments.
template <class Off>
struct segment_length {
  const Off* begins;
  const Off* ends;
  TALLY_HD index_t operator()(index_t s) const {
    const index_t l = static_cast<index_t>(ends[s]) - static_cast<index_t>(begins[s]);
    return l > 0 ? l : 0;
  }
};

template <class Off, class Out, class Elements>
struct segments_args {
  const Off* offsets;  // segments + 1 of them: segment s is elements [offsets[s], offsets[s + 1])
  index_t segments;
  Out* out;
  Elements elements;
};

// The kernel's types: the first template argument of segments_kernel.
template <class Launch, class Acc, class Off, class Out, class Op, class Elements>
struct segments_types {
  using launch = Launch;
  using acc = Acc;
  using offset = Off;
  using out = Out;
  using op = Op;
  using elements = Elements;
  using element = typename Elements::value;
  using state = typename Op::template state<Acc>;
  using args = segments_args<Off, Out, Elements>;
};

// Block b leaves two entries, 2b and 2b + 1: the state of its first segment over its share, and
// closes = 1 when the segment ends in the share; then, when the share closed it, the state of the
// segment open at the share's end. segment = -1 marks an unused entry. 16 bytes for 4-byte states,
// 16-aligned: the fix-up's thread loads each entry of its run in one 16-byte load (its runs' word
// loads, 24 bytes an entry, cost 3.5 us a call: docs/segments.md).
template <class S>
struct alignas(16) segment_entry {
  S state;
  unsigned closes;
  index_t segment;
};

}  // namespace tally::detail
