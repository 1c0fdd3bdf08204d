// binned<F, K>: a reproducible floating sum, the state accum::reproducible gives op::sum. Its value
// depends on the multiset of the summed elements alone: not on their order, the grouping, the
// policy, the grid, the device or how the input was split, since every element is cut into slices
// on one fixed grid and each slice is added exactly. After Ahrens, Demmel and Nguyen, "Algorithms
// for efficient reproducible floating point summation" (ACM TOMS 46(3), 2020), with bins held in
// double for every input type.
//
// The grid. Bin j (j = 0 .. 52) holds integer multiples of 2^grid(j), grid(j) = 1006 - 40 j; bin 52
// holds multiples of 2^-1074, the smallest subnormal double, and bin 0 holds values past DBL_MAX.
// An element x belongs to the smallest j with |x| < 2^(grid(j) + 39) (its index). A state holds the
// K consecutive bins index .. index + K - 1 (index = the index of the largest element seen) and
// drops everything finer. An element is cut into its slices on those bins, each rounded to the
// bin's grid: the slices depend on x and the grid alone, so the kept sum is the same whatever came
// first. Bin k is the double 1.5 * 2^(grid + 52) + m_k 2^grid (so its ulp is 2^grid, and adding x to
// it rounds x onto the grid: the slice is the difference) and carry[k] counts multiples of
// 2^(grid + 50) moved out of it (renormalization, every 1024 additions, keeps the double in its
// binade); both are exact integers, so adding two states is exact too.
//
// Per element (add): one conversion to double, one integer compare of its high word with `top`
// and one of the room left, 2K - 1 + K double additions and K integer ors (the slice of x | 1 is
// never a tie, so rounding to nearest even cannot depend on what the bin holds). A run of elements
// (add_run: load::vector's 16-byte chunks) takes those compares once, and skips the finest bin
// when it would only receive zeros (3K - 5 double additions an element). Everything else
// (a new top bin, a renormalization, +-inf and NaN, the scaled bin 0, the finest bins, two states
// of different top bins, the final rounding) is out of line. A lifted element is a state tagged
// single (room == single_tag) that holds x; the sum of a state and a single deposits x, and the tag
// folds away wherever the element was just lifted. docs/reproducible.md has the measurements.
//
// Accuracy (docs/numerics.md): the kept bins hold the exact sum of every element's bits at or
// above 2^grid(index + K - 1), and the result is that sum rounded once to nearest (even). With K = 3
// an element loses bits only when it is below 2^-56 of the largest |x| (float input) or 2^-27
// (double input), and the error beyond that one rounding is at most n 2^-80 max|x|: float sums of
// data spanning less than 2^56 in magnitude are correctly rounded. Subnormals add exactly.
//
// Special values: +-inf and NaN are kept apart as three flags; a NaN anywhere, or +inf and -inf
// together, give NaN, one infinity alone gives it. A finite exact sum beyond the largest F rounds
// to +-inf. -0 comes out as +0 (the exact sum of zeros is 0).
//
// Limits: a state takes any number of states and up to 2^31 renormalizations a bin (2^41 elements of
// the largest magnitude its top bin holds).
#pragma once
#include <cstdint>
#include <type_traits>

#include <cuda/std/bit>
#include <cuda/std/limits>

#include "config.cuh"

// The rare paths (a new top bin, a renormalization, special values, states of different top bins,
// the final rounding) are kept out of line: inlined, their code crowds the instruction cache of
// kernels whose hot loop is a dozen instructions.
#if defined(__CUDACC__) && !defined(TALLY_BINNED_INLINE_ALL)
#define TALLY_BINNED_COLD __host__ __device__ __noinline__
#else
#define TALLY_BINNED_COLD TALLY_HD
#endif

namespace tally {

template <class F, int K = 3>
struct binned {
  static_assert(std::is_same_v<F, float> || std::is_same_v<F, double>, "tally::binned<F>: F is float or double");
  static_assert(K >= 2 && K <= 4, "tally::binned<F, K>: K (bins kept) is 2, 3 or 4");

  static constexpr int width = 40;                    // bits between two bins' grids
  static constexpr int digits = std::is_same_v<F, float> ? 24 : 53;  // significand bits of an element
  static constexpr int top_grid = 1006;               // grid(0)
  static constexpr int bins = 53;                     // grid(52) = -1074
  static constexpr int lowest_index = bins - K;       // an empty state's index
  static constexpr int endurance = 1 << (50 - width); // additions between renormalizations
  static constexpr int top_scale = 64;                // bin 0 is kept scaled by 2^-64 (1.5 * 2^1058 is no double)
  static constexpr std::int32_t single_tag = INT32_MIN;
  enum : std::uint32_t { plus_inf = 1, minus_inf = 2, nan = 4 };

  double bin[K];
  std::int32_t carry[K];
  std::uint32_t top;     // 2^20 (2068 - 40 index), index = the global index of bin[0]: an element
                         // whose high word without sign is below it fits in the top bin
  std::int32_t room;     // additions left before a renormalization; 0 forces the slow path
  std::uint32_t special; // plus_inf | minus_inf | nan seen

  binned() = default;  // trivial: a shuffle-able, shared-memory-able state

  // One element (the operator's lift, and 0 for its identity): tagged, folded into a state later.
  template <class U>
  TALLY_HD explicit binned(const U& x) : bin{}, carry{}, top(0), room(single_tag), special(0) {
    bin[0] = static_cast<double>(static_cast<F>(x));
  }

  // The state of no element.
  TALLY_HD static binned empty() { return empty_at(lowest_index); }

  // The state of no element whose top bin is j. Bin 0 (scaled) and the finest bins (where x | 1 would
  // add to bin 52) take their additions on the slow path: no room.
  TALLY_HD static binned empty_at(int j) {
    binned s;
    s.set_index(j);
    TALLY_UNROLL
    for (int k = 0; k < K; ++k) {
      s.bin[k] = base(j + k);
      s.carry[k] = 0;
    }
    s.room = j == 0 || j == lowest_index ? 0 : endurance;
    s.special = 0;
    return s;
  }

  // Adds one element x.
  TALLY_HD void add(double x) {
    if (room > 0 && (high_word(x) & 0x7fffffffu) < top) {  // index_of(x) >= index
      deposit<false>(x);
      --room;
    } else if (x != 0.0) {  // adding 0 changes nothing, not even a single's tag
      *this = added_slowly(*this, x);
    }
  }

  // Adds E elements at once (load::vector's 16-byte chunks, through op::sum::fold_run): one range
  // and room check for the run instead of one an element. The identity (a single holding 0) starts
  // in line at the run's top bin; everything else the run needs goes out of line. When every element
  // of the run is a multiple of the second finest kept grid (its exponent at most 80 - digits bits
  // below the top bin's bound: data within 2^16 of the largest float, say), the finest bin would
  // only receive zeros, and the run skips it.
  template <class T, int E>
  TALLY_HD void add_run(const T (&v)[E]) {
    run<E> r;
    std::uint32_t m = 0;            // the largest high word without sign: a NaN's is above every finite one's
    std::uint32_t low = ~0u;        // the smallest (for float input, 0 counts as no element: it has no bits)
    TALLY_UNROLL
    for (int e = 0; e < E; ++e) {
      r.x[e] = static_cast<double>(static_cast<F>(v[e]));
      const std::uint32_t h = high_word(r.x[e]) & 0x7fffffffu;
      m = h > m ? h : m;
      const std::uint32_t l = std::is_same_v<F, float> ? h - 1 : h;  // a float's high word is 0 for 0 alone
      low = l < low ? l : low;
    }
    if (!(room >= E && m < top) && !started_at(m)) {
      *this = added_slowly(*this, r);
      return;
    }
    constexpr std::uint32_t coarse = static_cast<std::uint32_t>(width * (K - 1) - digits) << 20;
    if (low >= top - coarse) {
      TALLY_UNROLL
      for (int e = 0; e < E; ++e) deposit<false, false, true>(r.x[e]);
    } else {
      TALLY_UNROLL
      for (int e = 0; e < E; ++e) deposit<false>(r.x[e]);
    }
    room -= E;
  }

  // Adds another state: exact, so a + b == b + a and (a + b) + c == a + (b + c), bit for bit. A
  // lifted element is deposited in line; two states meet out of line (the trees of a kernel call
  // it a few times, and share its code).
  TALLY_HD void merge(binned b) {
    if (b.room == single_tag) return add(b.bin[0]);
    if (room != single_tag && top == b.top) {  // the common case in a tree: the same top bin
      renormalize();
      b.renormalize();  // each bin then holds less than a quarter of its binade: their sum fits
      TALLY_UNROLL
      for (int k = 0; k < K; ++k) {
        bin[k] += b.bin[k] - base(index() + k);
        carry[k] += b.carry[k];
      }
      special |= b.special;
      room = 0;  // renormalize before the next addition
      return;
    }
    *this = merged(*this, b);
  }
  TALLY_BINNED_COLD static binned merged(binned a, binned b) {
    if (a.room == single_tag) {
      const double x = a.bin[0];
      a = b;
      a.add(x);
      return a;
    }
    a.renormalize();
    b.renormalize();  // each bin then holds less than a quarter of its binade: their sum fits
    if (b.index() < a.index()) a.raise_to(b.index());
    a.fold_in(b);
    a.special |= b.special;
    a.room = 0;  // renormalize before the next addition
    return a;
  }

  // The exact sum of the kept bits rounded once, to nearest even.
  TALLY_HD F value() const;
  TALLY_BINNED_COLD static F rounded(binned s);
  template <class U>
  TALLY_HD explicit operator U() const {
    return static_cast<U>(value());
  }

  // --- the parts -------------------------------------------------------------------------------
  TALLY_HD static std::uint64_t bits(double x) { return cuda::std::bit_cast<std::uint64_t>(x); }
  TALLY_HD static double from_bits(std::uint64_t b) { return cuda::std::bit_cast<double>(b); }
  TALLY_HD static std::uint32_t high_word(double x) { return static_cast<std::uint32_t>(bits(x) >> 32); }
  TALLY_HD int index() const { return index_of_top(top); }
  TALLY_HD static int index_of_top(std::uint32_t t) { return (2068 - static_cast<int>(t >> 20)) / width; }
  TALLY_HD void set_index(int j) { top = static_cast<std::uint32_t>(2068 - width * j) << 20; }
  TALLY_HD static int grid(int j) { return top_grid - width * j; }
  // 1.5 * 2^(grid(j) + 52), scaled by 2^-top_scale for bin 0: the empty bin j.
  TALLY_HD static double base(int j) {
    const int e = grid(j) + 52 - (j == 0 ? top_scale : 0);
    return from_bits((static_cast<std::uint64_t>(e + 1023) << 52) | (std::uint64_t{1} << 51));
  }
  // x with the last bit of its significand set: rounded to a grid at least 4 ulps of x wide, it is
  // never a tie, and it rounds as x does otherwise.
  TALLY_HD static double odd(double x) { return from_bits(bits(x) | 1u); }

  // The index of x (finite): the smallest j with |x| < 2^(grid(j) + 39), at most lowest_index.
  TALLY_HD static int index_of(double x) { return index_of_high(high_word(x) & 0x7fffffffu); }
  // The same from the high word of |x|.
  TALLY_HD static int index_of_high(std::uint32_t h) {
    const int e = static_cast<int>(h >> 20);
    const int bound = (e == 0 ? 1 : e) - 1022;  // |x| < 2^bound
    const int j = (top_grid + width - 1 - bound) / width;
    return j < lowest_index ? j : lowest_index;
  }

  // Cuts x into its slices on bins index .. index + K - 1 and adds each to its bin (index >= 1
  // unless Scaled). The remainder below the last bin is rounded onto it. Coarse: x is a multiple of
  // the grid of bin K - 2, so nothing is left for bin K - 1.
  template <bool Scaled, bool Finest = false, bool Coarse = false>
  TALLY_HD void deposit(double x) {
    TALLY_UNROLL
    for (int k = 0; k < K - 1; ++k) {
      if (Scaled && k == 0) {  // slice 2^1024 of DBL_MAX is no double: the remainder too is taken scaled
        const double xs = x * 0x1p-64;
        const double s = bin[0] + odd(xs);
        x = (xs + (bin[0] - s)) * 0x1p64;
        bin[0] = s;
      } else {
        const double s = bin[k] + odd(x);
        if (!(Coarse && k == K - 2)) x += bin[k] - s;  // x minus its slice, exactly
        bin[k] = s;
      }
    }
    // The finest bin (grid 2^-1074) holds every double exactly: no rounding, and x | 1 would add.
    // Only the slow path deposits there: a state at the lowest index has no room.
    if (!Coarse) bin[K - 1] += Finest ? x : odd(x);
  }

  // Moves multiples of 2^(grid + 50) out of each bin into its carry: the bins stay in their binade.
  TALLY_HD void renormalize() {
    TALLY_UNROLL
    for (int k = 0; k < K; ++k) {
      std::uint64_t b = bits(bin[k]);
      carry[k] += static_cast<std::int32_t>((b >> 50) & 3) - 2;
      b = (b & ~(std::uint64_t{3} << 50)) | (std::uint64_t{2} << 50);
      bin[k] = from_bits(b);
    }
  }

  // The identity becomes the empty state of the top bin of a run whose largest high word is m,
  // when that bin takes additions in line (finite, neither bin 0 nor the finest bins).
  TALLY_HD bool started_at(std::uint32_t m) {
    if (room != single_tag || bin[0] != 0.0 || m >= 0x7ff00000u) return false;
    const int j = index_of_high(m);
    if (j == 0 || j == lowest_index) return false;
    *this = empty_at(j);
    return true;
  }

  template <int E>
  struct run {
    double x[E];
  };
  template <int E>
  TALLY_BINNED_COLD static binned added_slowly(binned s, run<E> r) {
    TALLY_UNROLL
    for (int e = 0; e < E; ++e) s.add(r.x[e]);
    return s;
  }

  // A lifted element as a state of its own (its top bin), and a state renormalized and raised to
  // the top bin `t` (at or above its own): the warp sum (binned_warp.cuh) brings its lanes there.
  TALLY_BINNED_COLD static binned settled(binned s) { return added_slowly(empty(), s.bin[0]); }
  TALLY_BINNED_COLD static binned raised(binned s, std::uint32_t t) {
    s.renormalize();
    s.raise_to(index_of_top(t));
    return s;
  }

  // Everything add() does not do in its one compare: a single to unpack, a renormalization due,
  // an infinity or NaN, an element above the top bin, the scaled bin 0.
  TALLY_BINNED_COLD static binned added_slowly(binned s, double x) {
    if (s.room == single_tag) {  // a single and x: start at the top bin of the larger, no raise
      const double first = s.bin[0];
      const int a = first - first == 0.0 ? index_of(first) : lowest_index;  // finite; index_of(0) is the lowest
      const int b = x - x == 0.0 ? index_of(x) : lowest_index;
      s = empty_at(a < b ? a : b);
      s.add_checked(first);
    }
    s.add_checked(x);
    return s;
  }
  TALLY_HD void add_checked(double x) {
    if (!(x - x == 0.0)) {  // +-inf or NaN
      special |= x != x ? nan : x > 0 ? plus_inf : minus_inf;
      return;
    }
    if (x == 0.0) return;  // adds nothing
    if (room <= 0) {
      renormalize();
      room = endurance;
    }
    const int j = index_of(x);
    if (j < index()) raise_to(j);
    const int i = index();
    if (i == 0) deposit<true>(x);
    else if (i == lowest_index) deposit<false, true>(x);
    else deposit<false>(x);
    // Bin 0 (scaled) and the finest bins take their additions on this path.
    room = i == 0 || i == lowest_index ? 0 : room - 1;
  }

  // Makes j the top bin: bins shift down by index - j, the finest drop out.
  TALLY_HD void raise_to(int j) {
    binned r = empty_at(j);
    r.fold_in(*this);
    r.special = special;
    r.room = room;
    *this = r;
  }

  // Adds the bins of s (s.index >= index, both renormalized) to this state's bins of the same
  // global index. One branch per shift, so that every index is a constant: a bin array indexed by
  // a variable would put the state in local memory.
  TALLY_HD void fold_in(const binned& s) {
    const int shift = s.index() - index();
    TALLY_UNROLL
    for (int d = 0; d < K; ++d) {
      if (shift == d) {
        TALLY_UNROLL
        for (int k = d; k < K; ++k) {
          bin[k] += s.bin[k - d] - base(index() + k);  // both exact: the same grid and binade
          carry[k] += s.carry[k - d];
        }
      }
    }
  }
};

template <class F, int K>
TALLY_HD binned<F, K> operator+(binned<F, K> a, const binned<F, K>& b) {
  a.merge(b);
  return a;
}

template <class T> struct is_binned : std::false_type {};
template <class F, int K> struct is_binned<binned<F, K>> : std::true_type {};

namespace detail {

// window * 2^(e - 63) rounded to nearest even as F, negated when neg: window holds the value's top
// 64 bits (its top bit set), sticky whether any bit below them is set.
template <class F>
TALLY_HD F round_window(bool neg, std::uint64_t window, bool sticky, int e) {
  constexpr int digits = std::is_same_v<F, float> ? 24 : 53;
  constexpr int min_exp = std::is_same_v<F, float> ? -126 : -1022;  // of the smallest normal
  constexpr int max_exp = std::is_same_v<F, float> ? 127 : 1023;
  // Keep `digits` bits, fewer below the normal range.
  const int keep = e >= min_exp ? digits : digits - (min_exp - e);
  if (keep < 0) return neg ? -F(0) : F(0);  // below half the smallest subnormal
  std::uint64_t m = keep == 0 ? 0 : window >> (64 - keep);
  const std::uint64_t rest = keep == 0 ? window : window << keep;  // the dropped bits, top aligned
  const bool half = (rest >> 63) != 0;
  sticky |= (rest << 1) != 0;
  if (half && (sticky || (m & 1))) ++m;
  int exp2 = e - keep + 1;  // the value is m * 2^exp2
  if (m >> digits) {        // rounding carried out of the kept digits
    m >>= 1;
    ++exp2;
  }
  if (m == 0) return neg ? -F(0) : F(0);
  if (exp2 + 63 - cuda::std::countl_zero(m) > max_exp) {
    const F inf = cuda::std::numeric_limits<F>::infinity();
    return neg ? -inf : inf;
  }
  // m < 2^digits and the exponent is in F's range: m * 2^exp2 is exact in F. Two exact scalings
  // (exp2 may be below -1022, where 2^exp2 alone is no double).
  const int first = exp2 < -1000 ? -1000 : exp2 > 1000 ? 1000 : exp2;
  const auto pow2 = [](int k) { return cuda::std::bit_cast<double>(static_cast<std::uint64_t>(k + 1023) << 52); };
  const double r = static_cast<double>(m) * pow2(first) * pow2(exp2 - first);
  const F v = static_cast<F>(r);
  return neg ? -v : v;
}

}  // namespace detail

template <class F, int K>
TALLY_HD F binned<F, K>::value() const {
  return rounded(*this);
}

template <class F, int K>
TALLY_BINNED_COLD F binned<F, K>::rounded(binned s) {
  if (s.room == single_tag) return static_cast<F>(s.bin[0]);
  if (s.special) {
    if ((s.special & nan) || (s.special & (plus_inf | minus_inf)) == (plus_inf | minus_inf))
      return cuda::std::numeric_limits<F>::quiet_NaN();
    return (s.special & plus_inf) ? cuda::std::numeric_limits<F>::infinity() : -cuda::std::numeric_limits<F>::infinity();
  }
  s.renormalize();
  // The exact sum as K + 1 limbs of radix 2^40, coarsest first, in units of the finest grid: limb
  // k + 1 holds bin k's fraction (below 2^50) and bin k + 1's carry (2^50 = 2^10 * 2^40), limb 0 bin
  // 0's carry. Every limb is a named scalar: an array indexed by a variable would go to local memory.
  std::int64_t limb[K + 1];
  TALLY_UNROLL
  for (int k = 0; k <= K; ++k) {
    const std::int64_t fraction = k == 0 ? 0 : static_cast<std::int64_t>(bits(s.bin[k - 1]) & ((std::uint64_t{1} << 50) - 1));
    limb[k] = fraction + (k < K ? static_cast<std::int64_t>(s.carry[k]) * 1024 : 0);
  }
  // Limbs 1 .. K into [0, 2^40), the sign into limb 0; a negative sum is negated and done again.
  const auto propagate = [&limb] {
    TALLY_UNROLL
    for (int k = K; k >= 1; --k) {
      const std::int64_t c = limb[k] >> 40;
      limb[k] -= c * (std::int64_t{1} << 40);
      limb[k - 1] += c;
    }
  };
  propagate();
  const bool neg = limb[0] < 0;
  if (neg) {
    TALLY_UNROLL
    for (int k = 0; k <= K; ++k) limb[k] = -limb[k];
    propagate();
  }
  // The top nonzero limb t, and the 64 bits from its top bit down (limbs t + 1 and t + 2 below it).
  int t = -1;
  TALLY_UNROLL
  for (int k = K; k >= 0; --k) t = limb[k] != 0 ? k : t;
  if (t < 0) return F(0);
  const auto at = [&limb](int i) {
    std::uint64_t v = 0;
    TALLY_UNROLL
    for (int k = 0; k <= K; ++k) v = i == k ? static_cast<std::uint64_t>(limb[k]) : v;
    return v;
  };
  const std::uint64_t hi = at(t), next = at(t + 1), next2 = at(t + 2);
  const int b = 63 - cuda::std::countl_zero(hi);  // hi < 2^43
  const int shift = 63 - b;                       // 20 .. 63: limb t + 1 lands at bits [shift - 40, shift)
  std::uint64_t window = hi << shift;
  bool sticky = false;
  if (shift >= 40) {
    window |= next << (shift - 40);
    window |= shift == 40 ? 0 : next2 >> (80 - shift);
    sticky = shift != 40 && (next2 << (shift - 16)) != 0;  // next2's bits below the window (next2 < 2^40)
    sticky |= shift == 40 && next2 != 0;
  } else {
    window |= next >> (40 - shift);
    sticky = (next << (24 + shift)) != 0 || next2 != 0;
  }
  TALLY_UNROLL
  for (int k = 0; k <= K; ++k) sticky |= k > t + 2 && limb[k] != 0;
  return detail::round_window<F>(neg, window, sticky, width * (K - t) + b + grid(s.index() + K - 1));
}

}  // namespace tally
