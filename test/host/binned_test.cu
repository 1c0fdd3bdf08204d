// binned<F>, the state of accum::reproducible, on the host: its value depends on the multiset of
// elements alone (any order, any split into parts merged in any order), it is the correctly rounded
// sum wherever no element falls below its kept bins, and otherwise within the documented bound of
// the exact sum (test/common/exact_sum.hpp). The GPU tests check that kernels give these same bits.
#include <doctest/doctest.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include <tally/policies/accum.cuh>
#include <tally/policies/binned.cuh>
#include <tally/policies/op.cuh>

#include "../common/exact_sum.hpp"
#include "../common/reproducible_data.cuh"

using tally::binned;

namespace {

template <class F>
std::uint64_t bits_of(F x) {
  if constexpr (std::is_same_v<F, float>) {
    std::uint32_t b;
    std::memcpy(&b, &x, 4);
    return b;
  } else {
    std::uint64_t b;
    std::memcpy(&b, &x, 8);
    return b;
  }
}

template <class F>
F from_parts(bool negative, int exponent, std::uint64_t mantissa_bits) {  // (1.m) * 2^exponent
  const double m = 1.0 + static_cast<double>(mantissa_bits) * 0x1p-52;
  const F v = static_cast<F>(std::ldexp(m, exponent));
  return negative ? -v : v;
}

// Data classes: the kind of input a caller sums, and the adversarial kinds the issue names.
enum class data { unit, mixed, wide, full_range, subnormal, cancelling, far_cancelling };

template <class F>
std::vector<F> make_data(data kind, std::size_t n, std::mt19937_64& rng) {
  constexpr bool is_float = std::is_same_v<F, float>;
  const int max_e = is_float ? 127 : 1023, min_e = is_float ? -149 : -1074;
  std::vector<F> v(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t r = rng();
    const std::uint64_t mant = r & ((std::uint64_t{1} << 52) - 1);
    const bool neg = (r >> 63) != 0;
    switch (kind) {
      case data::unit: v[i] = from_parts<F>(false, -static_cast<int>((r >> 52) % 24), mant); break;
      case data::mixed: v[i] = from_parts<F>(neg, -static_cast<int>((r >> 52) % 24), mant); break;
      case data::wide: v[i] = from_parts<F>(neg, static_cast<int>((r >> 52) % 48) - 24, mant); break;
      case data::full_range:
        v[i] = from_parts<F>(neg, min_e + 1 + static_cast<int>((r >> 52) % static_cast<std::uint64_t>(max_e - min_e)), mant);
        break;
      case data::subnormal: {
        const F tiny = std::numeric_limits<F>::denorm_min();
        v[i] = static_cast<F>(static_cast<double>(tiny) * static_cast<double>((r >> 40) % 4096)) * (neg ? F(-1) : F(1));
        break;
      }
      case data::cancelling:  // pairs x, -x of values near 2^30 around a few small ones: spans < 2^48
        if (i % 2 == 1) v[i] = -v[i - 1];
        else if (i % 16 == 0) v[i] = from_parts<F>(neg, -static_cast<int>((r >> 52) % 8), mant);
        else v[i] = from_parts<F>(neg, 20 + static_cast<int>((r >> 52) % 20), mant);
        break;
      case data::far_cancelling:  // the same with the large values near 2^100 (float) or 2^900
        if (i % 2 == 1) v[i] = -v[i - 1];
        else if (i % 16 == 0) v[i] = from_parts<F>(neg, -static_cast<int>((r >> 52) % 40), mant);
        else v[i] = from_parts<F>(neg, (is_float ? 100 : 900) + static_cast<int>((r >> 52) % 20), mant);
        break;
    }
  }
  return v;
}

template <class F>
binned<F> fold(const F* x, std::size_t n) {
  binned<F> s = binned<F>::empty();
  for (std::size_t i = 0; i < n; ++i) s = s + binned<F>(x[i]);
  return s;
}

// x split at random points into parts, each folded on its own, the parts merged in random order
// through a random binary tree.
template <class F>
binned<F> fold_split(const std::vector<F>& x, std::mt19937_64& rng) {
  const std::size_t parts = 1 + rng() % 12;
  std::vector<std::size_t> cut{0, x.size()};
  for (std::size_t k = 1; k < parts; ++k) cut.push_back(x.empty() ? 0 : rng() % (x.size() + 1));
  std::sort(cut.begin(), cut.end());
  std::vector<binned<F>> states;
  for (std::size_t k = 0; k + 1 < cut.size(); ++k) states.push_back(fold(x.data() + cut[k], cut[k + 1] - cut[k]));
  while (states.size() > 1) {
    const std::size_t a = rng() % states.size();
    binned<F> sa = states[a];
    states.erase(states.begin() + static_cast<long>(a));
    const std::size_t b = rng() % states.size();
    states[b] = (rng() & 1) ? sa + states[b] : states[b] + sa;
  }
  return states[0];
}

template <class F>
tally::test::exact_sum exact(const std::vector<F>& x) {
  tally::test::exact_sum e;
  for (F v : x) e.add(v);
  return e;
}

template <class F>
F rounded(const tally::test::exact_sum& e) {
  if constexpr (std::is_same_v<F, float>) return e.to_float();
  else return e.to_double();
}

// |result - exact sum| as a double, exactly rounded.
template <class F>
double error_of(const std::vector<F>& x, F result) {
  tally::test::exact_sum e = exact(x);
  e.add(-static_cast<double>(result));
  return std::fabs(e.to_double());
}

template <class F>
void check_order_free(data kind, int trials, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  for (int t = 0; t < trials; ++t) {
    const std::size_t n = t % 7 == 0 ? rng() % 4 : rng() % 5000;
    std::vector<F> x = make_data<F>(kind, n, rng);
    const F in_order = fold(x.data(), x.size()).value();
    const F split = fold_split(x, rng).value();
    std::shuffle(x.begin(), x.end(), rng);
    const F shuffled = fold(x.data(), x.size()).value();
    const F shuffled_split = fold_split(x, rng).value();
    INFO("trial " << t << " n " << n);
    CHECK(bits_of(in_order) == bits_of(split));
    CHECK(bits_of(in_order) == bits_of(shuffled));
    CHECK(bits_of(in_order) == bits_of(shuffled_split));
  }
}

}  // namespace

TEST_CASE("binned: a plain-words state that merges exactly") {
  CHECK(std::is_trivially_copyable_v<binned<float>>);
  CHECK(std::is_trivially_copyable_v<binned<double>>);
  CHECK(sizeof(binned<float>) == 48);
  CHECK(std::is_same_v<tally::accum::reproducible::type<float>, binned<float>>);
  CHECK(std::is_same_v<tally::accum::reproducible::type<__half>, binned<float>>);
  CHECK(std::is_same_v<tally::accum::reproducible::type<double>, binned<double>>);
  CHECK(std::is_same_v<tally::accum::value_t<binned<double>>, double>);
  CHECK(tally::is_exact<tally::op::sum, binned<float>>::value);
  // A state copied as bytes (another stream, GPU or rank) merges like the original.
  std::mt19937_64 rng(7);
  const std::vector<double> x = make_data<double>(data::wide, 1000, rng);
  const binned<double> a = fold(x.data(), 500), b = fold(x.data() + 500, 500);
  binned<double> copy;
  std::memcpy(&copy, &b, sizeof copy);
  CHECK(bits_of((a + copy).value()) == bits_of(fold(x.data(), 1000).value()));
}

TEST_CASE("binned: the same bits for any order and any split") {
  std::uint64_t seed = 100;
  for (data kind : {data::unit, data::mixed, data::wide, data::full_range, data::subnormal, data::cancelling, data::far_cancelling}) {
    INFO("data class " << static_cast<int>(kind));
    check_order_free<float>(kind, 60, ++seed);
    check_order_free<double>(kind, 60, ++seed);
  }
}

TEST_CASE("binned: correctly rounded where no element falls below the kept bins") {
  std::mt19937_64 rng(11);
  for (int t = 0; t < 300; ++t) {
    const std::size_t n = 1 + rng() % 20000;
    for (data kind : {data::unit, data::mixed, data::wide}) {
      const std::vector<float> xf = make_data<float>(kind, n, rng);  // float: spans < 2^57
      CHECK(bits_of(fold(xf.data(), n).value()) == bits_of(exact(xf).to_float()));
    }
    const std::vector<double> xd = make_data<double>(data::mixed, n, rng);  // double: spans < 2^28
    CHECK(bits_of(fold(xd.data(), n).value()) == bits_of(exact(xd).to_double()));
  }
  // Cancellation that leaves only the small elements: still the rounded exact sum.
  for (int t = 0; t < 50; ++t) {
    const std::vector<float> x = make_data<float>(data::cancelling, 1 + rng() % 4000, rng);
    CHECK(bits_of(fold(x.data(), x.size()).value()) == bits_of(exact(x).to_float()));
  }
}

TEST_CASE("binned: within n 2^-80 max|x| of the exact sum on adversarial data") {
  std::mt19937_64 rng(13);
  auto check = [&](auto tag, data kind) {
    using F = decltype(tag);
    for (int t = 0; t < 40; ++t) {
      const std::vector<F> x = make_data<F>(kind, 1 + rng() % 5000, rng);
      const F r = fold(x.data(), x.size()).value();
      double max_abs = 0;
      for (F v : x) max_abs = std::max(max_abs, std::fabs(static_cast<double>(v)));
      const F exact_r = rounded<F>(exact(x));
      const double half_ulp = std::isinf(exact_r) ? 0 : (static_cast<double>(std::nextafter(std::fabs(exact_r), std::numeric_limits<F>::infinity())) - std::fabs(static_cast<double>(exact_r))) / 2;
      const double bound = static_cast<double>(x.size()) * std::ldexp(max_abs, -80) + half_ulp;
      INFO("data class " << static_cast<int>(kind) << " n " << x.size() << " result " << r << " exact " << exact_r);
      if (std::isinf(exact_r)) CHECK(r == exact_r);
      else CHECK(error_of(x, r) <= bound);
    }
  };
  for (data kind : {data::full_range, data::subnormal, data::cancelling, data::far_cancelling}) {
    check(float{}, kind);
    check(double{}, kind);
  }
}

TEST_CASE("binned: special values, overflow, signed zeros, subnormals") {
  using B = binned<double>;
  const double inf = std::numeric_limits<double>::infinity(), nan = std::numeric_limits<double>::quiet_NaN();
  auto sum = [](std::vector<double> x) { return fold(x.data(), x.size()).value(); };
  CHECK(sum({}) == 0.0);
  CHECK(sum({1.5}) == 1.5);
  CHECK(sum({inf, 1.0}) == inf);
  CHECK(sum({-inf, 1.0}) == -inf);
  CHECK(std::isnan(sum({inf, -inf})));
  CHECK(std::isnan(sum({1.0, nan, 2.0})));
  CHECK(std::isnan(sum({nan, inf})));
  // The largest doubles live in the scaled bin 0: exact there, and the overflow rounds to inf.
  CHECK(sum({DBL_MAX, DBL_MAX, -DBL_MAX}) == DBL_MAX);
  CHECK(sum({DBL_MAX, DBL_MAX}) == inf);
  CHECK(sum({-DBL_MAX, -DBL_MAX}) == -inf);
  CHECK(sum({DBL_MAX, 0x1p950, -DBL_MAX}) == 0x1p950);
  CHECK(sum({DBL_MAX, 1.0, -DBL_MAX}) == 0.0);  // 1 is 2^1023 below: below the kept bins
  CHECK(sum({1e300, 1e-300, -1e300}) == 0.0);  // 2^2000 apart: 1e-300 is below the kept bins
  // Floats past FLT_MAX in sum round to inf in a float result.
  std::vector<float> big{FLT_MAX, FLT_MAX};
  CHECK(fold(big.data(), 2).value() == std::numeric_limits<float>::infinity());
  // Zeros: the exact sum of zeros is +0.
  CHECK(!std::signbit(sum({-0.0, -0.0})));
  // Subnormals add exactly.
  const double d = std::numeric_limits<double>::denorm_min();
  CHECK(sum({d, d, d}) == 3 * d);
  CHECK(sum({DBL_MIN, -d}) == DBL_MIN - d);
  // A single lifted element and the identity are states too.
  CHECK((B(2.0) + B(3.0)).value() == 5.0);
  CHECK((B(0) + B(0)).value() == 0.0);
  CHECK(B(7.0).value() == 7.0);
}

// add_run, the path of load::vector's chunks, against adding the same elements one at a time: from
// the identity (its inline start), from states of other top bins, across renormalizations, with
// zeros, special values, DBL_MAX (the scaled bin 0) and subnormals (the finest bins) in the runs.
template <class F, int E>
void check_runs(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  const F specials[] = {F(0), -F(0), std::numeric_limits<F>::infinity(), -std::numeric_limits<F>::infinity(),
                        std::numeric_limits<F>::quiet_NaN(), std::numeric_limits<F>::max(), std::numeric_limits<F>::denorm_min()};
  for (int t = 0; t < 400; ++t) {
    const data kind = static_cast<data>(t % 7);
    const std::size_t runs = 1 + rng() % (t % 5 == 0 ? 600 : 40);  // 600 runs: past a renormalization
    std::vector<F> x = make_data<F>(kind, runs * E, rng);
    if (t % 3 == 0) x[rng() % x.size()] = specials[rng() % 7];
    if (t % 11 == 0) std::fill(x.begin(), x.begin() + E, F(0));  // a first run of zeros
    binned<F> by_run = t % 2 == 0 ? binned<F>(F(0)) : fold(x.data(), x.size() / 3);  // the identity, or a state
    binned<F> by_element = by_run;
    for (std::size_t r = 0; r < runs; ++r) {
      F v[E];
      std::copy(x.begin() + static_cast<long>(r * E), x.begin() + static_cast<long>((r + 1) * E), v);
      by_run.add_run(v);
      for (int e = 0; e < E; ++e) by_element = by_element + binned<F>(v[e]);
    }
    INFO("trial " << t << " data class " << static_cast<int>(kind) << " runs " << runs);
    CHECK(bits_of(by_run.value()) == bits_of(by_element.value()));
  }
}

TEST_CASE("binned: a run of elements adds as its elements one at a time") {
  check_runs<float, 4>(21);
  check_runs<float, 8>(22);
  check_runs<double, 2>(23);
}

// value() of states with random bins and carries (negative and large ones too) against the exact
// value of their fields, rounded once.
template <class F>
void check_rounding(std::uint64_t seed) {
  using B = binned<F>;
  std::mt19937_64 rng(seed);
  for (int t = 0; t < 20000; ++t) {
    const int j = 2 + static_cast<int>(rng() % (B::lowest_index - 1));  // carries of index 0, 1 pass DBL_MAX
    B s = B::empty_at(j);
    tally::test::exact_sum e;
    for (int k = 0; k < 3; ++k) {
      // Empty, small, full, large-carry and sparse (one or two bits: ties, and sticky bits far below
      // them) fractions and carries.
      const int shape = static_cast<int>(rng() % 5);
      std::uint64_t fraction = shape == 0 ? 0 : rng() & ((std::uint64_t{1} << (shape == 1 ? 8 : 50)) - 1);
      std::int32_t carry = shape == 0 ? 0 : static_cast<std::int32_t>(rng() % (shape == 3 ? 0x7fffffffu : 16u)) - (shape == 3 ? 0x3fffffff : 8);
      if (shape == 4) {
        fraction = (std::uint64_t{1} << (rng() % 50)) | (rng() % 2 ? std::uint64_t{1} << (rng() % 50) : 0);
        carry = rng() % 3 == 0 ? 0 : static_cast<std::int32_t>(1u << (rng() % 30)) * (rng() % 2 ? 1 : -1);
      }
      s.bin[k] = B::from_bits(B::bits(B::base(j + k)) | fraction);
      s.carry[k] = carry;
      e.add(std::ldexp(static_cast<double>(fraction), B::grid(j + k)));
      e.add(std::ldexp(static_cast<double>(carry), B::grid(j + k) + 50));
    }
    s.room = 0;
    INFO("trial " << t << " index " << j);
    CHECK(bits_of(s.value()) == bits_of(rounded<F>(e)));
  }
}

TEST_CASE("binned: the value of any state is its exact value rounded once") {
  check_rounding<float>(31);
  check_rounding<double>(32);
}

TEST_CASE("binned: the host fold of the fixed inputs has the committed digest") {
  // The GPU test checks every GPU's reduce against the same constant.
  const std::uint64_t d = tally::test::host_digest();
  MESSAGE("host digest 0x" << std::hex << d);
  CHECK(d == tally::test::committed_digest);
}
