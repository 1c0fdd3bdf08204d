// Test data for reproducible sums that the host and the device both generate from (kind, seed,
// index), the host's fold of it (binned.cuh runs on the host), and the committed digest of the sums
// of fixed inputs: the host test (test/host/binned_test.cu) checks the host fold against it, the GPU
// test (test/gpu/reproducible_test.cu) each GPU's reduce. Compiled by nvcc.
#pragma once
#include <cmath>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tally/policies/accum.cuh>
#include <tally/policies/binned.cuh>
#include <tally/types.hpp>

namespace tally::test {

__host__ __device__ inline std::uint64_t splitmix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Data kinds: what callers sum, and the adversarial kinds (every exponent, subnormals, cancellation
// far below the largest values, infinities and NaN).
enum class kind { unit, mixed, wide, full_range, subnormal, far_cancelling, specials };
const kind all_kinds[] = {kind::unit, kind::mixed, kind::wide, kind::full_range, kind::subnormal, kind::far_cancelling, kind::specials};

template <class T>
__host__ __device__ T element(kind k, std::uint64_t seed, index_t i) {
  using F = std::conditional_t<std::is_same_v<T, double>, double, float>;
  constexpr bool wide_type = std::is_same_v<T, double> || std::is_same_v<T, float>;
  const std::uint64_t h = splitmix(seed, static_cast<std::uint64_t>(i));
  const double frac = 1.0 + static_cast<double>(h & ((std::uint64_t{1} << 52) - 1)) * 0x1p-52;
  const double sign = (h >> 63) ? -1.0 : 1.0;
  const int r = static_cast<int>((h >> 52) & 0x7ff);
  // The exponent ranges of T (__half: -24 .. 15; bf16 shares float's).
  const int max_e = std::is_same_v<T, double> ? 1023 : std::is_same_v<T, __half> ? 15 : 127;
  const int min_e = std::is_same_v<T, double> ? -1074 : std::is_same_v<T, __half> ? -24 : -149;
  double v = 0;
  switch (k) {
    case kind::unit: v = ldexp(frac, -(r % 12)); break;
    case kind::mixed: v = sign * ldexp(frac, -(r % 12)); break;
    case kind::wide: v = sign * ldexp(frac, r % 30 - 15); break;
    case kind::full_range: v = sign * ldexp(frac, min_e + r % (max_e - min_e)); break;
    case kind::subnormal: v = sign * ldexp(static_cast<double>(h % 4096), min_e); break;
    case kind::far_cancelling: {
      const std::uint64_t hp = splitmix(seed, static_cast<std::uint64_t>(i & ~index_t{1}));  // the pair's value
      const double big = ldexp(1.0 + static_cast<double>(hp & 0xfffff) * 0x1p-20, wide_type ? max_e - 10 : max_e - 1);
      v = (i % 16 == 2) ? sign * frac : (i & 1) ? -big : big;
      break;
    }
    case kind::specials: {
      const int s = static_cast<int>(h % 64);
      v = s == 0 ? sign * static_cast<double>(INFINITY) : s == 1 ? static_cast<double>(NAN) : sign * frac;
      break;
    }
  }
  return static_cast<T>(static_cast<F>(v));
}

template <class T> using state_t = accum::reproducible::type<T>;
template <class T> using value_t = accum::value_t<state_t<T>>;

template <class T>
std::vector<T> host_data(kind k, std::uint64_t seed, index_t n) {
  std::vector<T> v(static_cast<std::size_t>(n));
  for (index_t i = 0; i < n; ++i) v[static_cast<std::size_t>(i)] = element<T>(k, seed, i);
  return v;
}

template <class T>
state_t<T> host_fold(const T* x, index_t n) {
  state_t<T> s = state_t<T>::empty();
  for (index_t i = 0; i < n; ++i) s = s + state_t<T>(x[i]);
  return s;
}

template <class V>
std::uint64_t bits(V v) {
  std::uint64_t b = 0;
  std::memcpy(&b, &v, sizeof v);
  return b;
}

// The digest: FNV-1a over the bits of sum(T, kind, seed, n) for every type, kind and size below,
// seeds 1, 2, ... in that order.
inline constexpr index_t digest_sizes[] = {1, 1000, 65537, 1 << 20, (1 << 22) + 5};
inline constexpr std::uint64_t committed_digest = 0xe63cafe0de08ea32ull;

template <class Sum>
std::uint64_t reproducible_digest(Sum sum) {
  std::uint64_t h = 0xcbf29ce484222325ull, seed = 1;
  auto one_type = [&](auto tag) {
    for (kind k : all_kinds) {
      for (index_t n : digest_sizes) {
        const std::uint64_t b = bits(sum(tag, k, seed++, n));
        for (unsigned i = 0; i < 8; ++i) h = (h ^ ((b >> (8 * i)) & 0xff)) * 0x100000001b3ull;
      }
    }
  };
  one_type(float{});
  one_type(double{});
  one_type(__half{});
  one_type(__nv_bfloat16{});
  return h;
}

// The digest of the host fold.
inline std::uint64_t host_digest() {
  return reproducible_digest([](auto tag, kind k, std::uint64_t seed, index_t n) {
    using T = decltype(tag);
    const std::vector<T> x = host_data<T>(k, seed, n);
    return host_fold(x.data(), n).value();
  });
}

}  // namespace tally::test
