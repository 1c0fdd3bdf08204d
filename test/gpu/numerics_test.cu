// Numerics on the GPU (the rules are in policies/tally/policies/op.cuh and accum.cuh; the host
// suite checks them for every order of combination): NaN, +-inf and signed zeros against CUB (and
// in half and bf16 through reduce, reduce_rows and reduce_segments), integer overflow, and
// accum::kahan's error on 2^28-element sums against the exact sum.
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include <tally/reduce_rows.cuh>
#include <tally/reduce_segments.cuh>

#include "support/check.cuh"

using namespace tally;
using namespace tally::test;

namespace {

template <class T, class Op>
using policy_a = reduce_policy<load::unroll<8>, block::sequential_unrolled, smem::padded, 512, accum::native, grid::per_tile>;
template <class T, class Op>
using policy_b = reduce_policy<load::single, block::interleaved, smem::dynamic, 128>;

template <class Op, class T>
using out_of = std::conditional_t<std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>, arg<T>, T>;

template <class P, class Op, class T>
out_of<Op, T> tally_result(const T* in, index_t n) {
  device_buffer<out_of<Op, T>> out(1);
  out.poison();
  reducer<P, T, Op> r;
  r(in, n, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  return out.read();
}

// Runs f(policy_name, result) for Op over in[0, n) with three compositions that differ in every family.
template <class Op, class T, class F>
void for_each_policy(const T* in, index_t n, F f) {
  f("default", tally_result<default_reduce_policy<T, Op>, Op>(in, n));
  f("unroll8/sequential_unrolled/padded/512/per_tile", tally_result<policy_a<T, Op>, Op>(in, n));
  f("single/interleaved/dynamic/128", tally_result<policy_b<T, Op>, Op>(in, n));
}

template <class T>
void put(const dataset<T>& d, index_t i, T v) {
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(const_cast<T*>(d.data()) + i, &v, sizeof(T), cudaMemcpyHostToDevice));
}

std::uint32_t bits(float x) {
  std::uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

constexpr float inf = INFINITY;

}  // namespace

TEST_CASE("+-inf without NaN: min, max, arg_min and arg_max equal CUB's; +inf and -inf sum to NaN, as in CUB") {
  const index_t n = capped((index_t{1} << 20) + 7);
  REQUIRE(n >= 1000);
  const dataset<float> d(n, next_seed());
  const index_t p_inf[] = {n / 3, n - 1}, p_ninf[] = {7, n / 2};
  for (index_t p : p_inf) put(d, p, inf);
  for (index_t p : p_ninf) put(d, p, -inf);
  const auto cub_min = cub_result<op::min, float>(d), cub_max = cub_result<op::max, float>(d);
  const auto cub_amin = cub_result<op::arg_min, float>(d), cub_amax = cub_result<op::arg_max, float>(d);
  const float cub_sum = cub_result<op::sum, float>(d);
  CHECK(cub_min == -inf);
  CHECK(cub_max == inf);
  CHECK(std::isnan(cub_sum));
  for_each_policy<op::min>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(r == cub_min); });
  for_each_policy<op::max>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(r == cub_max); });
  for_each_policy<op::arg_min>(d.data(), n, [&](const char* p, arg<float> r) {
    CAPTURE(p);
    CHECK(r.value == -inf);
    CHECK(r.index == p_ninf[0]);
    CHECK(r.index == cub_amin.index);
  });
  for_each_policy<op::arg_max>(d.data(), n, [&](const char* p, arg<float> r) {
    CAPTURE(p);
    CHECK(r.value == inf);
    CHECK(r.index == p_inf[0]);
    CHECK(r.index == cub_amax.index);
  });
  for_each_policy<op::sum>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(std::isnan(r)); });
}

TEST_CASE("+inf alone sums to +inf, as in CUB") {
  const index_t n = capped(65537);
  const dataset<float> d(n, next_seed());
  put(d, n / 2, inf);
  put(d, n - 1, inf);
  CHECK(cub_result<op::sum, float>(d) == inf);
  for_each_policy<op::sum>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(r == inf); });
}

TEST_CASE("a NaN anywhere: sum, min and max are NaN, arg_min / arg_max its lowest index, whatever the policy") {
  const index_t n = capped((index_t{1} << 20) + 7);
  REQUIRE(n >= 1000);
  for (const index_t first_nan : {index_t{0}, index_t{5}, n / 2, n - 2}) {
    const dataset<float> d(n, next_seed());
    const index_t second_nan = first_nan + 1 + (n - first_nan - 1) / 2;
    put(d, first_nan, NAN);
    put(d, second_nan, -NAN);
    put(d, n / 4, -inf);  // the extreme of the other values
    CAPTURE(first_nan);
    CAPTURE(second_nan);
    for_each_policy<op::sum>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(std::isnan(r)); });
    for_each_policy<op::min>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(std::isnan(r)); });
    for_each_policy<op::max>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(std::isnan(r)); });
    for_each_policy<op::arg_min>(d.data(), n, [&](const char* p, arg<float> r) {
      CAPTURE(p);
      CHECK(std::isnan(r.value));
      CHECK(r.index == first_nan);
    });
    for_each_policy<op::arg_max>(d.data(), n, [&](const char* p, arg<float> r) {
      CAPTURE(p);
      CHECK(std::isnan(r.value));
      CHECK(r.index == first_nan);
    });
    // What is compared with CUB on data holding a NaN: its sum is NaN too; its min / max / ArgMin use
    // `<` alone, so they return a NaN or the extreme of the other values depending on where the NaN
    // meets them (reported here, not required).
    CHECK(std::isnan(cub_result<op::sum, float>(d)));
    const float cub_min = cub_result<op::min, float>(d);
    CHECK((std::isnan(cub_min) || cub_min == -inf));
    const arg<float> cub_amin = cub_result<op::arg_min, float>(d);
    MESSAGE("NaN at " << first_nan << " and " << second_nan << ": CUB min " << cub_min << ", CUB ArgMin {"
                      << cub_amin.value << ", " << cub_amin.index << "}; tally: NaN and {NaN, " << first_nan << "}");
  }
}

TEST_CASE("signed zeros: min is -0 and max +0 whatever the policy; arg_min takes the lowest index, as CUB") {
  const index_t n = capped(65537);
  const dataset<float> d(n, next_seed());
  TALLY_TEST_CHECK_CUDA(cudaMemset(const_cast<float*>(d.data()), 0, n * sizeof(float)));  // +0
  for (index_t p : {n / 3, n / 2, n - 1}) put(d, p, -0.0f);
  for_each_policy<op::min>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(bits(r) == bits(-0.0f)); });
  for_each_policy<op::max>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(bits(r) == bits(0.0f)); });
  const arg<float> cub_amin = cub_result<op::arg_min, float>(d);
  for_each_policy<op::arg_min>(d.data(), n, [&](const char* p, arg<float> r) {
    CAPTURE(p);
    CHECK(r.index == 0);
    CHECK(r.index == cub_amin.index);
  });
  CHECK(cub_result<op::min, float>(d) == 0.0f);  // CUB: either zero, by order
}

TEST_CASE("all elements +inf: min is +inf and arg_min index 0 (CUB's Min folds in FLT_MAX, its initial value)") {
  const index_t n = capped(1000);
  const dataset<float> d(n, next_seed());
  std::vector<float> infs(static_cast<std::size_t>(n), inf);
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(const_cast<float*>(d.data()), infs.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  for_each_policy<op::min>(d.data(), n, [&](const char* p, float r) { CAPTURE(p); CHECK(r == inf); });
  for_each_policy<op::arg_min>(d.data(), n, [&](const char* p, arg<float> r) {
    CAPTURE(p);
    CHECK(r.value == inf);
    CHECK(r.index == 0);
  });
  MESSAGE("CUB Min over all +inf: " << cub_result<op::min, float>(d));
}

namespace {

template <class T>
__global__ void fill_constant(T* out, index_t n, T v) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x) out[i] = v;
}

template <class T>
void fill_with(const dataset<T>& d, T v) {
  fill_constant<<<1024, 256>>>(const_cast<T*>(d.data()), d.size(), v);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
}

using wide_sum = reduce_policy<load::vector<2>, block::warp_shuffle, smem::static_array, 256, accum::wide>;

}  // namespace

TEST_CASE("integer overflow both ways: native wraps modulo 2^32 (as CUB), accum::wide is exact") {
  const index_t n = capped((index_t{1} << 20) + 3);
  for (const std::int32_t v : {std::int32_t{(1 << 30) + 12345}, std::int32_t{-(1 << 30) - 777}}) {
    const dataset<std::int32_t> d(n, next_seed());
    fill_with(d, v);
    const std::int64_t exact = std::int64_t{v} * n;
    const auto wrapped = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(exact)));
    CAPTURE(v);
    CAPTURE(n);
    CHECK(tally_result<default_reduce_policy<std::int32_t>, op::sum>(d.data(), n) == wrapped);
    CHECK(tally_result<policy_a<std::int32_t, op::sum>, op::sum>(d.data(), n) == wrapped);
    CHECK(cub_result<op::sum, std::int32_t>(d) == wrapped);
    device_buffer<std::int64_t> out(1);
    reducer<wide_sum, std::int32_t> r;
    r(d.data(), n, out.get());
    CHECK(out.read() == exact);
  }
  // int64 wraps modulo 2^64 the same way.
  const index_t m = capped(4097);
  const dataset<std::int64_t> d(m, next_seed());
  fill_with(d, std::int64_t{1} << 61);
  const auto wrapped64 = static_cast<std::int64_t>(static_cast<std::uint64_t>(m) << 61);
  CHECK(tally_result<default_reduce_policy<std::int64_t>, op::sum>(d.data(), m) == wrapped64);
  CHECK(cub_result<op::sum, std::int64_t>(d) == wrapped64);
}

namespace {

// Kahan test data: element i is |x| in [1, 2) or "tiny" with equal odds, every value an exact
// multiple of 2^-U, so that the host sums the units exactly in 128-bit integers. Tiny values are
// below half an ulp of a running sum of 32 or more, so a native per-thread sum drops them all.
//   float:  U = 43, big 1 + m 2^-23 (m < 2^23), tiny 2^-20 (1 + m 2^-23)
//   double: U = 69, big 1 + m 2^-52 (m < 2^52), tiny 2^-49 (1 + m 2^-20)
template <class F> struct kahan_format;
template <> struct kahan_format<float> {
  static constexpr int U = 43, big_bits = 23, tiny_bits = 23, tiny_shift = 23;
  static constexpr float unit = 0x1p-43f, big_step = 0x1p-23f;
};
template <> struct kahan_format<double> {
  static constexpr int U = 69, big_bits = 52, tiny_bits = 20, tiny_shift = 20;
  static constexpr double unit = 0x1p-69, big_step = 0x1p-52;
};

struct kahan_draw {
  bool tiny, negative;
  std::uint64_t m;
};

template <class F>
__host__ __device__ kahan_draw draw(std::uint64_t seed, index_t i, bool mixed) {
  using K = kahan_format<F>;
  const std::uint64_t h = mix(seed, static_cast<std::uint64_t>(i));
  const bool tiny = h & 1;
  return {tiny, mixed && ((h >> 1) & 1), (h >> 2) & ((std::uint64_t{1} << (tiny ? K::tiny_bits : K::big_bits)) - 1)};
}

template <class F>
__host__ __device__ F kahan_value(std::uint64_t seed, index_t i, bool mixed) {
  using K = kahan_format<F>;
  const kahan_draw d = draw<F>(seed, i, mixed);
  // Both products and the sum are exact.
  const F x = d.tiny ? static_cast<F>((std::uint64_t{1} << K::tiny_shift) + d.m) * K::unit
                     : F(1) + static_cast<F>(d.m) * K::big_step;
  return d.negative ? -x : x;
}

template <class F>
__int128 kahan_units(std::uint64_t seed, index_t i, bool mixed) {
  using K = kahan_format<F>;
  const kahan_draw d = draw<F>(seed, i, mixed);
  const __int128 u = d.tiny ? (__int128{1} << K::tiny_shift) + d.m
                            : (__int128{1} << K::U) + (static_cast<__int128>(d.m) << (K::U - K::big_bits));
  return d.negative ? -u : u;
}

template <class F>
__global__ void kahan_fill(F* out, index_t n, std::uint64_t seed, bool mixed) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x)
    out[i] = kahan_value<F>(seed, i, mixed);
}

struct exact_sums {
  __int128 sum = 0, abs_sum = 0;
};

template <class P, class F>
F reduce_with(const F* in, index_t n) {
  device_buffer<F> out(1);
  out.poison();
  reducer<P, F> r;
  r(in, n, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  return out.read();
}

template <class F>
using kahan_default = reduce_policy<load::vector<4>, block::warp_shuffle, smem::static_array, 256, accum::kahan>;

// |result - exact| in units of 2^-U, as a long double (exact up to its rounding).
template <class F>
long double error_of(F result, __int128 exact) {
  const auto r = static_cast<__int128>(std::ldexp(static_cast<long double>(result), kahan_format<F>::U));
  return std::ldexp(static_cast<long double>(r - exact), -kahan_format<F>::U);
}

template <class F>
void check_kahan_errors(bool mixed) {
  constexpr index_t full = index_t{1} << 28;
  const index_t n = capped(full);
  const std::uint64_t seed = next_seed();
  device_buffer<F> data(static_cast<std::size_t>(n));
  kahan_fill<F><<<4096, 256>>>(data.get(), n, seed, mixed);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const exact_sums exact = host_reduce(
      n, exact_sums{},
      [&](exact_sums a, index_t i) {
        const __int128 u = kahan_units<F>(seed, i, mixed);
        a.sum += u;
        a.abs_sum += u < 0 ? -u : u;
        return a;
      },
      [](exact_sums a, const exact_sums& b) {
        a.sum += b.sum;
        a.abs_sum += b.abs_sum;
        return a;
      });
  constexpr int U = kahan_format<F>::U;
  const long double s = std::ldexp(static_cast<long double>(exact.sum), -U);
  const long double abs_sum = std::ldexp(static_cast<long double>(exact.abs_sum), -U);
  const long double ulp = std::ldexp(1.0L, std::ilogb(static_cast<double>(s)) - (std::is_same_v<F, float> ? 23 : 52));
  const long double u = std::is_same_v<F, float> ? 0x1p-24L : 0x1p-53L;

  const F kahan = reduce_with<kahan_default<F>>(data.get(), n);
  const F native = reduce_with<default_reduce_policy<F>>(data.get(), n);
  const F cub = cub_result<op::sum, F>(data.get(), n);
  const long double e_kahan = std::fabs(error_of(kahan, exact.sum));
  const long double e_native = std::fabs(error_of(native, exact.sum));
  const long double e_cub = std::fabs(error_of(cub, exact.sum));
  const std::string type = std::is_same_v<F, float> ? "float" : "double";  // doctest prints a char* as a pointer
  MESSAGE(type << std::string(mixed ? " mixed-sign" : " same-sign") << ", n = " << n << ", seed " << seed << ": exact sum "
               << static_cast<double>(s) << "; error in ulp of the sum: kahan " << static_cast<double>(e_kahan / ulp)
               << ", native " << static_cast<double>(e_native / ulp) << ", CUB " << static_cast<double>(e_cub / ulp)
               << "; error / (u sum|x|): kahan " << static_cast<double>(e_kahan / (u * abs_sum)) << ", native "
               << static_cast<double>(e_native / (u * abs_sum)));
  CAPTURE(seed);
  if (!mixed) {
    CHECK(e_kahan <= 2 * ulp);
    if (n == full) CHECK(e_native > 2 * ulp);  // the tiny half of the data is lost natively
  } else {
    CHECK(e_kahan <= 2 * u * abs_sum);
  }
}

template <class T>
using kahan_a = reduce_policy<load::unroll<4>, block::sequential_unrolled, smem::padded, 512, accum::kahan, grid::per_tile>;
template <class T>
using kahan_b = reduce_policy<load::vector<1>, block::interleaved_strided, smem::dynamic, 64, accum::kahan>;

}  // namespace

TEST_CASE("accum::kahan: 2^28 same-sign floats within 2 ulp of the exact sum, where native is not") {
  check_kahan_errors<float>(false);
}

TEST_CASE("accum::kahan: 2^28 mixed-sign floats within 2u sum|x|") { check_kahan_errors<float>(true); }

TEST_CASE("accum::kahan: 2^28 doubles, same-sign within 2 ulp and mixed-sign within 2u sum|x|") {
  check_kahan_errors<double>(false);
  check_kahan_errors<double>(true);
}

TEST_CASE("accum::kahan in three compositions on float, double and __half: the host reference and CUB") {
  for (const index_t size : {index_t{0}, index_t{1}, index_t{33}, index_t{257}, index_t{4097}, index_t{65537},
                             (index_t{1} << 20) + 7, (index_t{1} << 24) + 3}) {
    const index_t n = capped(size);
    for_each_type(type_list<float, double, __half>{}, [&](auto t) {
      using T = typename decltype(t)::type;
      const dataset<T> d(n, next_seed());
      const auto truth = host_truth<op::sum>(d);
      check_reduce<kahan_default<T>, op::sum>(d, truth);
      check_reduce<kahan_a<T>, op::sum>(d, truth);
      check_reduce<kahan_b<T>, op::sum>(d, truth);
    });
  }
}

namespace {

template <class T>
std::uint16_t bits16(T x) {
  std::uint16_t b;
  std::memcpy(&b, &x, 2);
  return b;
}
template <class T>
T from_bits16(std::uint16_t b) {
  if constexpr (std::is_same_v<T, __half>) return T(__half_raw{b});
  else return T(__nv_bfloat16_raw{b});
}
template <class T>
constexpr std::uint16_t inf_bits16 = std::is_same_v<T, __half> ? 0x7c00u : 0x7f80u;

// The IEEE 754-2019 minimum or maximum of row[0, c) on the host (-0 < +0, a NaN wins): its bits, or
// -1 for a NaN.
template <class T>
int host_extreme16(const T* row, index_t c, bool maximum) {
  int best = -1;
  float best_value = 0;
  for (index_t j = 0; j < c; ++j) {
    const std::uint16_t b = bits16(row[j]);
    if ((b & 0x7fffu) > inf_bits16<T>) return -1;
    const float v = static_cast<float>(row[j]);
    const bool negative = (b & 0x8000u) != 0, best_negative = (best & 0x8000) != 0;
    const bool better = best < 0 || (maximum ? v > best_value || (v == best_value && best_negative && !negative)
                                             : v < best_value || (v == best_value && !best_negative && negative));
    if (better) {
      best = b;
      best_value = v;
    }
  }
  return best;
}

// Rows of four kinds for 16-bit min / max (on the device: min.NaN / max.NaN, the zero's sign from
// the operands' bits): +0 with some -0; negatives with some -0; positives with +0 and -0; values of
// both signs with one NaN, positive or negative.
template <class T>
std::vector<T> extreme_rows16(index_t rows, index_t cols) {
  const T pos_zero = from_bits16<T>(0x0000u), neg_zero = from_bits16<T>(0x8000u);
  const std::uint16_t nan = std::is_same_v<T, __half> ? 0x7e00u : 0x7fc0u;
  std::vector<T> h(static_cast<std::size_t>(rows * cols));
  for (index_t i = 0; i < rows; ++i) {
    T* row = h.data() + i * cols;
    for (index_t j = 0; j < cols; ++j) {
      const float step = 0.25f * static_cast<float>(1 + j % 5);
      switch (i % 4) {
        case 0: row[j] = j % 7 == 3 ? neg_zero : pos_zero; break;
        case 1: row[j] = j % 11 == 5 ? neg_zero : static_cast<T>(-step); break;
        case 2: row[j] = j % 13 == 1 ? pos_zero : j % 13 == 7 ? neg_zero : static_cast<T>(step); break;
        default: row[j] = static_cast<T>(j % 2 ? step : -step);
      }
    }
    if (i % 4 == 3) row[(cols / 2 + 7 * i) % cols] = from_bits16<T>(i % 8 == 3 ? nan : nan | 0x8000u);
  }
  return h;
}

template <class T>
void check_bits16(const std::vector<int>& want, const T* got, index_t count, const char* what) {
  for (index_t i = 0; i < count; ++i) {
    CAPTURE(what);
    CAPTURE(i);
    const std::uint16_t b = bits16(got[i]);
    if (want[static_cast<std::size_t>(i)] < 0) CHECK((b & 0x7fffu) > inf_bits16<T>);
    else CHECK(b == want[static_cast<std::size_t>(i)]);
  }
}

template <class T, class Op>
void check_extremes16(const std::vector<T>& h, index_t rows, index_t cols, const T* d_in, const int* d_offsets) {
  const bool maximum = std::is_same_v<Op, op::max>;
  std::vector<int> want;
  for (index_t i = 0; i < rows; ++i) want.push_back(host_extreme16(h.data() + i * cols, cols, maximum));
  device_buffer<T> out(static_cast<std::size_t>(rows));
  std::vector<T> got;
  const auto fetch = [&] {
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    got = out.values();
  };
  out.poison();
  reduce_rows<default_rows_policy<T, Op>>(d_in, rows, cols, cols, out.get(), Op{});
  fetch();
  check_bits16(want, got.data(), rows, "reduce_rows");
  out.poison();
  reduce_segments<default_segments_policy<T, Op>>(d_in, rows * cols, d_offsets, rows, out.get(), Op{});
  fetch();
  check_bits16(want, got.data(), rows, "reduce_segments");
  // reduce: one row of each kind alone, then the whole input.
  for (index_t i = 0; i < 4; ++i) {
    out.poison();
    reduce<default_reduce_policy<T, Op>>(d_in + i * cols, cols, out.get(), Op{});
    fetch();
    check_bits16(std::vector<int>{want[static_cast<std::size_t>(i)]}, got.data(), 1, "reduce of one row");
  }
  out.poison();
  reduce<default_reduce_policy<T, Op>>(d_in, rows * cols, out.get(), Op{});
  fetch();
  check_bits16(std::vector<int>{host_extreme16(h.data(), rows * cols, maximum)}, got.data(), 1, "reduce of every row");
}

}  // namespace

TEST_CASE_TEMPLATE("half and bf16 min / max: signed zeros and NaNs of either sign, in reduce, reduce_rows and reduce_segments",
                   T, __half, __nv_bfloat16) {
  const index_t rows = 16;
  // Rows of 8 and 1000 read in 16-byte items; 20000 and 20001 hold whole tiles of reduce_segments,
  // 20001's starting on both sides of a 4-byte boundary.
  for (const index_t cols : {index_t{1}, index_t{2}, index_t{8}, index_t{33}, index_t{1000}, capped(index_t{4099}),
                             capped(index_t{20000}), capped(index_t{20001})}) {
    CAPTURE(cols);
    const std::vector<T> h = extreme_rows16<T>(rows, cols);
    device_buffer<T> in(h.size());
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(in.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    std::vector<int> offsets;
    for (index_t i = 0; i <= rows; ++i) offsets.push_back(static_cast<int>(i * cols));
    device_buffer<int> d_offsets(offsets.size());
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(int), cudaMemcpyHostToDevice));
    check_extremes16<T, op::min>(h, rows, cols, in.get(), d_offsets.get());
    check_extremes16<T, op::max>(h, rows, cols, in.get(), d_offsets.get());
  }
}
