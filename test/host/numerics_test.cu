// The numeric rules of the operators and accumulators (op.cuh, accum.cuh, compensated.cuh), checked
// on the host: the combine functions are __host__ __device__, so the rules the kernels apply can be
// shown here, for every order of combination.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <tally/reduce.cuh>

using namespace tally;

namespace {

constexpr float inf = std::numeric_limits<float>::infinity();
const float nan_f = std::numeric_limits<float>::quiet_NaN();

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

// Folds `values` with op in the order given by `order`, as a left fold, then as a balanced tree.
template <class Op, class S>
std::vector<S> fold_every_way(Op op, S identity, std::vector<S> values) {
  std::vector<S> results;
  std::vector<int> order(values.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
  do {
    S left = identity;
    for (int i : order) left = op(left, values[i]);
    results.push_back(left);
    S right = identity;
    for (int i : order) right = op(values[i], right);
    results.push_back(right);
    std::vector<S> level;
    for (int i : order) level.push_back(values[i]);
    while (level.size() > 1) {
      std::vector<S> next;
      for (std::size_t i = 0; i + 1 < level.size(); i += 2) next.push_back(op(level[i], level[i + 1]));
      if (level.size() % 2) next.push_back(level.back());
      level = next;
    }
    results.push_back(op(identity, level[0]));
  } while (std::next_permutation(order.begin(), order.end()));
  return results;
}

}  // namespace

TEST_CASE("min / max: a NaN anywhere gives NaN, in every order of combination") {
  const std::vector<float> values{3.0f, nan_f, -1.0f, inf, -inf};
  for (float r : fold_every_way(op::min{}, op::min{}.identity<float>(), values)) CHECK(std::isnan(r));
  for (float r : fold_every_way(op::max{}, op::max{}.identity<float>(), values)) CHECK(std::isnan(r));
  const std::vector<double> doubles{1.0, -2.0, std::nan("")};
  for (double r : fold_every_way(op::min{}, op::min{}.identity<double>(), doubles)) CHECK(std::isnan(r));
}

TEST_CASE("min / max: -0 < +0, in every order of combination") {
  const std::vector<float> zeros{0.0f, -0.0f, 0.0f, -0.0f};
  for (float r : fold_every_way(op::min{}, op::min{}.identity<float>(), zeros)) CHECK(bits(r) == bits(-0.0f));
  for (float r : fold_every_way(op::max{}, op::max{}.identity<float>(), zeros)) CHECK(bits(r) == bits(0.0f));
  const std::vector<float> with_negative{0.0f, -0.0f, -1.0f};
  for (float r : fold_every_way(op::min{}, op::min{}.identity<float>(), with_negative)) CHECK(r == -1.0f);
  for (float r : fold_every_way(op::max{}, op::max{}.identity<float>(), with_negative)) CHECK(bits(r) == bits(0.0f));
}

TEST_CASE("min / max: infinities and the identities") {
  CHECK(op::min{}(op::min{}.identity<float>(), inf) == inf);
  CHECK(op::max{}(op::max{}.identity<float>(), -inf) == -inf);
  CHECK(op::min{}(2.0f, -inf) == -inf);
  CHECK(op::max{}(2.0f, inf) == inf);
}

TEST_CASE("min / max on __half: NaN and signed zeros as for float") {
  const __half h_nan = __half(__half_raw{0x7E00});
  const __half pz = __half(__half_raw{0x0000}), nz = __half(__half_raw{0x8000});
  const std::vector<__half> values{__float2half(1.0f), h_nan, __float2half(-3.0f)};
  for (__half r : fold_every_way(op::min{}, op::min{}.identity<__half>(), values))
    CHECK(std::isnan(__half2float(r)));
  const std::vector<__half> zeros{pz, nz, pz};
  for (__half r : fold_every_way(op::min{}, op::min{}.identity<__half>(), zeros))
    CHECK(static_cast<__half_raw>(r).x == 0x8000);
  for (__half r : fold_every_way(op::max{}, op::max{}.identity<__half>(), zeros))
    CHECK(static_cast<__half_raw>(r).x == 0x0000);
}

TEST_CASE("arg_min / arg_max: the lowest index of a NaN if any, else of the extreme, in every order") {
  using A = arg<float>;
  const std::vector<A> with_nan{{2.0f, 0}, {nan_f, 5}, {-7.0f, 1}, {nan_f, 3}, {-7.0f, 4}};
  for (const A& r : fold_every_way(op::arg_min{}, op::arg_min{}.identity<float>(), with_nan)) {
    CHECK(std::isnan(r.value));
    CHECK(r.index == 3);
  }
  for (const A& r : fold_every_way(op::arg_max{}, op::arg_max{}.identity<float>(), with_nan)) {
    CHECK(std::isnan(r.value));
    CHECK(r.index == 3);
  }
  const std::vector<A> no_nan{{2.0f, 0}, {-7.0f, 6}, {inf, 2}, {-7.0f, 1}, {inf, 4}};
  for (const A& r : fold_every_way(op::arg_min{}, op::arg_min{}.identity<float>(), no_nan)) {
    CHECK(r.value == -7.0f);
    CHECK(r.index == 1);
  }
  for (const A& r : fold_every_way(op::arg_max{}, op::arg_max{}.identity<float>(), no_nan)) {
    CHECK(r.value == inf);
    CHECK(r.index == 2);
  }
  // -0 and +0 are equal values: the lower index wins, as in CUB.
  const std::vector<A> zeros{{0.0f, 3}, {-0.0f, 2}, {0.0f, 1}};
  for (const A& r : fold_every_way(op::arg_min{}, op::arg_min{}.identity<float>(), zeros)) CHECK(r.index == 1);
  // All elements +inf: arg_min still finds index 0 (the identity carries no index).
  const std::vector<A> infs{{inf, 1}, {inf, 0}};
  for (const A& r : fold_every_way(op::arg_min{}, op::arg_min{}.identity<float>(), infs)) CHECK(r.index == 0);
}

// append(a, b), the cheaper combine the vector load uses inside a 16-byte chunk, must equal the
// general combine whenever b follows a (b's index above a's, a a real element): every pair of
// special and ordinary values, both operators.
TEST_CASE("arg_min / arg_max: append equals the general combine when b follows a") {
  using A = arg<float>;
  const std::vector<float> values{nan_f, -nan_f, -inf, -1.5f, -0.0f, 0.0f, 1.5f, inf};
  int pairs = 0;
  for (const float x : values)
    for (const float y : values) {
      const A a{x, 4}, b{y, 5};
      CAPTURE(x);
      CAPTURE(y);
      const A min_general = op::arg_min{}(a, b), min_append = op::arg_min{}.append(a, b);
      const A max_general = op::arg_max{}(a, b), max_append = op::arg_max{}.append(a, b);
      CHECK(min_append.index == min_general.index);
      CHECK(bits(min_append.value) == bits(min_general.value));
      CHECK(max_append.index == max_general.index);
      CHECK(bits(max_append.value) == bits(max_general.value));
      ++pairs;
    }
  CHECK(pairs == 64);
}
// lift_run(v, i), how load::vector lifts a 16-byte chunk for arg_min / arg_max, must give the state
// of lifting v[0] and appending the others: every 4-tuple of special and ordinary floats (NaNs of
// both signs, infinities, both zeros, ties), compared bit for bit.
template <class Op>
void check_lift_run_float(Op op) {
  using A = arg<float>;
  const std::vector<float> values{nan_f, -nan_f, -inf, -1.5f, -0.0f, 0.0f, 1.5f, inf};
  int runs = 0;
  for (const float a : values)
    for (const float b : values)
      for (const float c : values)
        for (const float d : values) {
          const float v[4] = {a, b, c, d};
          A chain = op.template lift<float>(v[0], 40);
          for (int e = 1; e < 4; ++e) chain = op.append(chain, op.template lift<float>(v[e], 40 + e));
          const A run = op.template lift_run<float>(v, 40);
          CAPTURE(a);
          CAPTURE(b);
          CAPTURE(c);
          CAPTURE(d);
          REQUIRE(run.index == chain.index);
          REQUIRE(bits(run.value) == bits(chain.value));
          ++runs;
        }
  CHECK(runs == 4096);
}

TEST_CASE("arg_min / arg_max: lift_run equals lift and appends, float") {
  check_lift_run_float(op::arg_min{});
  check_lift_run_float(op::arg_max{});
}

// The same for the other widths a 16-byte chunk holds: 2 doubles, 4 int32, 8 __half (random runs
// drawn from a few values, so that ties and NaNs are common).
template <class T, int E, class Op, class Draw>
void check_lift_run_random(Op op, Draw draw) {
  std::mt19937 rng(20261123);
  for (int trial = 0; trial < 20000; ++trial) {
    T v[E];
    for (T& x : v) x = draw(rng);
    arg<T> chain = op.template lift<T>(v[0], 7);
    for (int e = 1; e < E; ++e) chain = op.append(chain, op.template lift<T>(v[e], 7 + e));
    const arg<T> run = op.template lift_run<T>(v, 7);
    REQUIRE(run.index == chain.index);
    REQUIRE(std::memcmp(&run.value, &chain.value, sizeof(T)) == 0);
  }
}

TEST_CASE("arg_min / arg_max: lift_run equals lift and appends, double, int32 and __half") {
  const std::vector<double> d{std::nan(""), -0.0, 0.0, -2.0, 3.0, std::numeric_limits<double>::infinity()};
  auto draw_d = [&](std::mt19937& r) { return d[r() % d.size()]; };
  check_lift_run_random<double, 2>(op::arg_min{}, draw_d);
  check_lift_run_random<double, 2>(op::arg_max{}, draw_d);
  auto draw_i = [](std::mt19937& r) { return static_cast<std::int32_t>(r() % 5) - 2; };
  check_lift_run_random<std::int32_t, 4>(op::arg_min{}, draw_i);
  check_lift_run_random<std::int32_t, 4>(op::arg_max{}, draw_i);
  const std::vector<__half> h{__half(__half_raw{0x7E00}), __half(__half_raw{0x8000}), __half(__half_raw{0x0000}),
                              __float2half(-1.0f), __float2half(2.0f)};
  auto draw_h = [&](std::mt19937& r) { return h[r() % h.size()]; };
  check_lift_run_random<__half, 8>(op::arg_min{}, draw_h);
  check_lift_run_random<__half, 8>(op::arg_max{}, draw_h);
}

TEST_CASE("sum: IEEE special values") {
  CHECK(std::isnan(op::sum{}(inf, -inf)));
  CHECK(op::sum{}(inf, 1.0f) == inf);
  CHECK(std::isnan(op::sum{}(nan_f, 1.0f)));
}

TEST_CASE("native integer sums wrap modulo 2^bits; the add is done unsigned (no signed-overflow UB)") {
  constexpr std::int32_t max32 = std::numeric_limits<std::int32_t>::max();
  constexpr std::int32_t min32 = std::numeric_limits<std::int32_t>::min();
  CHECK(op::sum{}(max32, std::int32_t{1}) == min32);
  CHECK(op::sum{}(min32, std::int32_t{-1}) == max32);
  CHECK(op::sum{}(std::numeric_limits<std::int64_t>::max(), std::int64_t{2}) == std::numeric_limits<std::int64_t>::min() + 1);
  CHECK(op::sum{}(std::uint32_t{0xFFFFFFFFu}, std::uint32_t{2}) == 1u);
  // wide: the exact sum in int64.
  using W = accum::wide::type<std::int32_t>;
  CHECK(op::sum{}(static_cast<W>(max32), static_cast<W>(max32)) == std::int64_t{2} * max32);
}

TEST_CASE("accum::kahan: the state types and what a sum writes") {
  CHECK(std::is_same_v<accum::kahan::type<float>, compensated<float>>);
  CHECK(std::is_same_v<accum::kahan::type<double>, compensated<double>>);
  CHECK(std::is_same_v<accum::kahan::type<__half>, compensated<float>>);
  CHECK(std::is_same_v<accum::value_t<compensated<float>>, float>);
  CHECK(std::is_same_v<accum::value_t<double>, double>);
  CHECK(std::is_trivially_copyable_v<compensated<double>>);
  CHECK(sizeof(compensated<float>) == 8);
  CHECK(can_reduce<op::sum, float, compensated<float>>::value);
  CHECK_FALSE(can_reduce<op::min, float, compensated<float>>::value);
}

TEST_CASE("compensated: TwoSum is exact, and the combine carries both errors") {
  const compensated<float> t = detail::two_sum(1.0f, 0x1p-30f);
  CHECK(t.sum == 1.0f);
  CHECK(t.comp == 0x1p-30f);
  const compensated<float> a{1.0f, 0x1p-30f}, b{0x1p-25f, 0x1p-31f};
  const compensated<float> c = a + b;
  CHECK(static_cast<long double>(c.sum) + c.comp == 1.0L + 0x1p-25L + 0x1p-30L + 0x1p-31L);
}

// One chain of 2^16 additions (a GPU thread makes about a thousand): the compensation's own error
// grows with the square of the chain length (u|S| + (k u)^2 sum|x|), so one chain of 2^22 would not do.
TEST_CASE("compensated: 2^16 same-sign floats summed left to right stay within 1 ulp; native does not") {
  // Exact sum in units of 2^-43 (every element is a multiple of it).
  std::mt19937_64 rng(42);
  compensated<float> k = op::sum{}.identity<compensated<float>>();
  float native = 0;
  __int128 exact = 0;
  for (int i = 0; i < (1 << 16); ++i) {
    const std::uint64_t h = rng();
    const std::int64_t units = (h & 1) ? (std::int64_t{1} << 43) + static_cast<std::int64_t>((h >> 1) & 0x7FFFFF) * (1 << 20)
                                       : (std::int64_t{1} << 23) + static_cast<std::int64_t>((h >> 1) & 0x7FFFFF);
    const float x = std::ldexp(static_cast<float>(units), -43);
    exact += units;
    k = op::sum{}(k, compensated<float>(x));
    native = op::sum{}(native, x);
  }
  const long double s = std::ldexp(static_cast<long double>(exact), -43);
  const long double ulp = std::ldexp(1.0L, std::ilogb(static_cast<double>(s)) - 23);
  const long double k_err = std::fabs(static_cast<long double>(k.value()) - s) / ulp;
  const long double n_err = std::fabs(static_cast<long double>(native) - s) / ulp;
  INFO("kahan error " << static_cast<double>(k_err) << " ulp, native " << static_cast<double>(n_err) << " ulp");
  CHECK(k_err <= 1.0L);
  CHECK(n_err > 2.0L);
}

TEST_CASE("compensated: infinities and NaN behave as in the native sum") {
  using C = compensated<float>;
  const C zero = op::sum{}.identity<C>();
  CHECK(static_cast<float>(op::sum{}(op::sum{}(zero, C(inf)), C(1.0f))) == inf);
  CHECK(static_cast<float>(op::sum{}(op::sum{}(zero, C(-inf)), C(1.0f))) == -inf);
  CHECK(std::isnan(static_cast<float>(op::sum{}(C(inf), C(-inf)))));
  CHECK(std::isnan(static_cast<float>(op::sum{}(C(nan_f), C(1.0f)))));
  CHECK(static_cast<float>(zero) == 0.0f);
}
