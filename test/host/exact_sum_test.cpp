// The exact host sum (test/common/exact_sum.hpp), the reference of the reproducible-sum tests:
// exactness, one rounding (ties to even, subnormals, overflow), IEEE special values, and the same
// bits for every order and split of the terms.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "../common/exact_sum.hpp"

using tally::test::exact_sum;

namespace {

template <class F>
exact_sum sum_of(const std::vector<F>& v) {
  exact_sum s;
  for (F x : v) s.add(x);
  return s;
}
double as_double(const std::vector<double>& v) { return sum_of(v).to_double(); }
float as_float(const std::vector<float>& v) { return sum_of(v).to_float(); }

std::uint64_t bits(double x) {
  std::uint64_t b;
  std::memcpy(&b, &x, sizeof b);
  return b;
}

}  // namespace

TEST_CASE("exact_sum: no rounding until the end") {
  CHECK(as_double({1e300, 1.0, -1e300}) == 1.0);
  CHECK(as_double({std::ldexp(1.0, 1023), std::ldexp(1.0, 1023), -std::ldexp(1.0, 1023)}) == std::ldexp(1.0, 1023));
  CHECK(as_double({1.0, std::ldexp(1.0, -1074), -1.0}) == std::ldexp(1.0, -1074));
  // 0.1 + 0.2 - 0.3 as doubles needs 55 bits: a long double adds it exactly.
  CHECK(as_double({0.1, 0.2, -0.3}) == static_cast<double>(static_cast<long double>(0.1) + static_cast<long double>(0.2) - static_cast<long double>(0.3)));

  // Integers of up to 2^40, a thousand of them: the exact sum fits an int64.
  std::mt19937_64 g(7);
  std::vector<double> v;
  std::int64_t exact = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::int64_t k = static_cast<std::int64_t>(g() % (std::uint64_t{1} << 41)) - (std::int64_t{1} << 40);
    v.push_back(static_cast<double>(k));
    exact += k;
  }
  CHECK(as_double(v) == static_cast<double>(exact));
}

TEST_CASE("exact_sum: one rounding, to nearest, ties to even") {
  const double u = std::ldexp(1.0, -53);  // half an ulp of 1
  CHECK(as_double({1.0, u}) == 1.0);                                         // tie: to even (down)
  CHECK(as_double({1.0, u, std::ldexp(1.0, -200)}) == std::nextafter(1.0, 2.0));  // just above the tie
  CHECK(as_double({1.0 + 2 * u, u}) == 1.0 + 4 * u);                         // tie: to even (up)
  CHECK(as_double({-1.0, -u}) == -1.0);
  CHECK(as_float({1.0f, std::ldexp(1.0f, -24)}) == 1.0f);
  CHECK(as_float({16777216.0f, 1.0f}) == 16777216.0f);
  CHECK(as_float({16777216.0f, 3.0f}) == 16777220.0f);
  // Random sums of a thousand values in [-1, 1) with 52-bit fractions: the exact sum fits in 62
  // bits, so a long double adds them exactly, and its conversion rounds as to_double must.
  std::mt19937_64 g(11);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> v;
    long double exact = 0;
    for (int i = 0; i < 1000; ++i) {
      const double x = std::ldexp(static_cast<double>(static_cast<std::int64_t>(g() >> 11) - (std::int64_t{1} << 52)), -52);
      v.push_back(x);
      exact += x;
    }
    CHECK(bits(as_double(v)) == bits(static_cast<double>(exact)));
    std::vector<float> f(v.begin(), v.begin() + 100);
    exact_sum s;
    long double fe = 0;
    for (float x : f) {
      s.add(x);
      fe += x;
    }
    CHECK(s.to_float() == static_cast<float>(fe));
  }
}

TEST_CASE("exact_sum: subnormals and overflow") {
  const double tiny = std::ldexp(1.0, -1074);
  CHECK(as_double({tiny, tiny}) == 2 * tiny);
  CHECK(as_double({DBL_MIN, -tiny}) == DBL_MIN - tiny);  // the largest subnormal
  CHECK(as_double({-tiny, tiny}) == 0.0);
  CHECK(as_double({DBL_MAX, DBL_MAX}) == std::numeric_limits<double>::infinity());
  CHECK(as_double({DBL_MAX, std::ldexp(1.0, 969)}) == DBL_MAX);                          // below the tie
  CHECK(as_double({DBL_MAX, std::ldexp(1.0, 970)}) == std::numeric_limits<double>::infinity());  // the tie, odd: up
  CHECK(as_double({-DBL_MAX, -DBL_MAX, DBL_MAX}) == -DBL_MAX);
  // float results: a subnormal float, rounding below the float quantum, overflow.
  const float ftiny = std::ldexp(1.0f, -149);
  CHECK(as_float({ftiny, ftiny, ftiny}) == 3 * ftiny);
  exact_sum s;
  s.add(std::ldexp(1.0, -150));  // half the smallest float: a tie, to even (0)
  CHECK(s.to_float() == 0.0f);
  s.add(std::ldexp(1.0, -200));
  CHECK(s.to_float() == ftiny);
  exact_sum big;
  big.add(static_cast<double>(FLT_MAX));
  big.add(static_cast<double>(FLT_MAX));
  CHECK(big.to_float() == std::numeric_limits<float>::infinity());
  CHECK(big.to_double() == 2.0 * FLT_MAX);
}

TEST_CASE("exact_sum: IEEE special values and signed zeros") {
  const double inf = std::numeric_limits<double>::infinity();
  CHECK(std::isnan(as_double({1.0, std::nan(""), 2.0})));
  CHECK(std::isnan(as_double({inf, -inf})));
  CHECK(as_double({inf, 1.0, -DBL_MAX}) == inf);
  CHECK(as_double({-inf, 5.0}) == -inf);
  CHECK(std::signbit(as_double({-0.0, -0.0})));
  CHECK(!std::signbit(as_double({-0.0, 0.0})));
  CHECK(!std::signbit(as_double({1.0, -1.0})));
  CHECK(!std::signbit(exact_sum{}.to_double()));
  CHECK(std::signbit(as_float({-0.0f})));
}

TEST_CASE("exact_sum: the same bits for every order and split") {
  std::mt19937_64 g(2024);
  std::vector<double> v;
  for (int i = 0; i < 3000; ++i) {  // the whole exponent range, subnormals included, both signs
    const double m = static_cast<double>(g() >> 11) * 0x1p-53;
    const int e = static_cast<int>(g() % 2098) - 1074;
    v.push_back((g() & 1 ? -1 : 1) * std::ldexp(m, e > 970 ? 970 : e));
  }
  // Pairs that cancel exactly, so the exact sum is known: the sum of `known` alone.
  const std::vector<double> known = {std::ldexp(1.0, -1074), 3.0, std::ldexp(1.0, 600), -7.5};
  std::vector<double> all = known;
  for (double x : v) {
    all.push_back(x);
    all.push_back(-x);
  }
  const double want = as_double(known);
  const std::uint64_t want_bits = bits(want);
  CHECK(want == std::ldexp(1.0, 600));  // 3 - 7.5 + 2^-1074 is far below half an ulp of 2^600
  for (int trial = 0; trial < 20; ++trial) {
    std::shuffle(all.begin(), all.end(), g);
    const int parts = 1 + static_cast<int>(g() % 16);
    std::vector<exact_sum> partial(static_cast<std::size_t>(parts));
    for (std::size_t i = 0; i < all.size(); ++i) partial[g() % partial.size()].add(all[i]);
    std::shuffle(partial.begin(), partial.end(), g);
    exact_sum total;
    for (const exact_sum& p : partial) total.merge(p);
    CHECK(bits(total.to_double()) == want_bits);
    CHECK(bits(sum_of(all).to_double()) == want_bits);
  }
}
