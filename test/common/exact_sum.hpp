// The exact sum of floating-point values, rounded once: the host reference the reproducible-sum tests
// measure error against (issue 22). Plain C++; no GPU.
//
// A two's-complement fixed-point integer whose bit 0 weighs 2^-1074 (the smallest subnormal double)
// and which spans past 2^1024 with 64 bits of headroom holds the sum of up to 2^64 finite doubles
// (floats convert exactly) with no rounding at all, in any order; two of them merge exactly.
// to_double() and to_float() round it once, to nearest with ties to even, with subnormal results
// where they fall and +-inf past the largest finite value, as IEEE 754 rounds one operation.
// Special values follow IEEE addition: a NaN anywhere, or +inf and -inf together, give NaN; +inf
// (-inf) alone gives +inf (-inf); an exact zero is +0, unless every term was -0.
#pragma once
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

namespace tally::test {

class exact_sum {
 public:
  static constexpr int limbs = 36;  // 2304 bits: 1074 below 2^0, 1024 above, 64 of headroom, a sign

  void add(double x) {
    ++terms_;
    if (!(x == 0 && std::signbit(x))) only_negative_zeros_ = false;
    if (std::isnan(x)) {
      nan_ = true;
      return;
    }
    if (std::isinf(x)) {
      (x > 0 ? positive_inf_ : negative_inf_) = true;
      return;
    }
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    const int biased = static_cast<int>((bits >> 52) & 0x7ff);
    const std::uint64_t fraction = bits & ((std::uint64_t{1} << 52) - 1);
    // x = mantissa * 2^(shift - 1074): normals carry the implicit bit, subnormals do not.
    const std::uint64_t mantissa = biased == 0 ? fraction : fraction | (std::uint64_t{1} << 52);
    const int shift = biased == 0 ? 0 : biased - 1;
    if (mantissa == 0) return;
    add_shifted(mantissa, shift, std::signbit(x));
  }
  void add(float x) { add(static_cast<double>(x)); }  // exact

  // this += other, exactly.
  void merge(const exact_sum& o) {
    unsigned carry = 0;
    for (int k = 0; k < limbs; ++k) {
      const unsigned __int128 s = static_cast<unsigned __int128>(v_[k]) + o.v_[k] + carry;
      v_[k] = static_cast<std::uint64_t>(s);
      carry = static_cast<unsigned>(s >> 64);
    }
    nan_ = nan_ || o.nan_;
    positive_inf_ = positive_inf_ || o.positive_inf_;
    negative_inf_ = negative_inf_ || o.negative_inf_;
    only_negative_zeros_ = only_negative_zeros_ && o.only_negative_zeros_;
    terms_ += o.terms_;
  }

  double to_double() const { return round<double>(53, 0); }
  // A float's quantum, 2^-149, is bit 1074 - 149 of the integer.
  float to_float() const { return round<float>(24, 1074 - 149); }

 private:
  // Adds (or subtracts) mantissa * 2^shift to the integer.
  void add_shifted(std::uint64_t mantissa, int shift, bool negative) {
    const int limb = shift / 64;
    const unsigned __int128 placed = static_cast<unsigned __int128>(mantissa) << (shift % 64);
    const std::uint64_t part[2] = {static_cast<std::uint64_t>(placed), static_cast<std::uint64_t>(placed >> 64)};
    if (!negative) {
      unsigned carry = 0;
      for (int k = limb; k < limbs && (k < limb + 2 || carry); ++k) {
        const unsigned __int128 s = static_cast<unsigned __int128>(v_[k]) + (k < limb + 2 ? part[k - limb] : 0) + carry;
        v_[k] = static_cast<std::uint64_t>(s);
        carry = static_cast<unsigned>(s >> 64);
      }
    } else {
      unsigned borrow = 0;
      for (int k = limb; k < limbs && (k < limb + 2 || borrow); ++k) {
        const std::uint64_t sub = k < limb + 2 ? part[k - limb] : 0;
        const std::uint64_t before = v_[k];
        v_[k] = before - sub - borrow;
        borrow = (before < sub || (before == sub && borrow)) ? 1 : 0;
      }
    }
  }

  // Rounds |integer| * 2^-1074 to a format with `precision` mantissa bits whose smallest quantum is
  // bit `quantum` of the integer; the sign is the integer's.
  template <class F>
  F round(int precision, int quantum) const {
    if (nan_ || (positive_inf_ && negative_inf_)) return std::numeric_limits<F>::quiet_NaN();
    if (positive_inf_) return std::numeric_limits<F>::infinity();
    if (negative_inf_) return -std::numeric_limits<F>::infinity();
    const bool negative = v_[limbs - 1] >> 63;
    std::array<std::uint64_t, limbs> m = v_;
    if (negative) {  // magnitude: two's complement negation
      unsigned carry = 1;
      for (auto& w : m) {
        const unsigned __int128 s = static_cast<unsigned __int128>(~w) + carry;
        w = static_cast<std::uint64_t>(s);
        carry = static_cast<unsigned>(s >> 64);
      }
    }
    int top = -1;  // the highest set bit
    for (int k = limbs - 1; k >= 0 && top < 0; --k)
      if (m[k]) top = k * 64 + 63 - __builtin_clzll(m[k]);
    if (top < 0) return terms_ > 0 && only_negative_zeros_ ? -F(0) : F(0);
    const auto bit = [&](int i) { return i >= 0 && ((m[i / 64] >> (i % 64)) & 1); };
    int low = top - (precision - 1);  // the lowest bit the result keeps
    if (low < quantum) low = quantum;
    std::uint64_t kept = 0;
    for (int i = top; i >= low; --i) kept = (kept << 1) | (bit(i) ? 1 : 0);
    if (low > 0) {  // bits below `low` are rounded off: to nearest, ties to even
      const bool half = bit(low - 1);
      bool sticky = false;
      for (int i = low - 2; i >= 0 && !sticky; --i) sticky = bit(i);
      if (half && (sticky || (kept & 1))) ++kept;
    } else {
      low = 0;
    }
    // kept <= 2^precision is exact in F; the scaling overflows to +-inf exactly when IEEE rounding would.
    const F magnitude = std::ldexp(static_cast<F>(kept), low - 1074);
    return negative ? -magnitude : magnitude;
  }

  std::array<std::uint64_t, limbs> v_{};
  bool nan_ = false, positive_inf_ = false, negative_inf_ = false;
  bool only_negative_zeros_ = true;
  std::uint64_t terms_ = 0;
};

}  // namespace tally::test
