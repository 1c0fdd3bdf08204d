// accum::reproducible on the GPU: every composition, grid, alignment offset and split of the input
// gives the bits of the host's fold of the same multiset (binned.cuh runs on the host too;
// test/host/binned_test.cu checks it against the exact sum), and a committed digest of fixed inputs
// pins those bits across GPUs and versions. reproducible_algorithms_test.cu: rows and segments.
#include <doctest/doctest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "support/reproducible.cuh"

namespace {

using namespace tally;
using namespace tally::test::repro;  // with the test data names (support/reproducible.cuh)

__global__ void fill_periodic(float* out, index_t n, index_t period, kind k, std::uint64_t seed) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x)
    out[i] = element<float>(k, seed, i % period);
}

// Every composition, at several offsets from a 16-byte boundary, equals the host's bits.
template <class T>
void check_compositions() {
  const index_t sizes[] = {0, 1, 63, 64, 65, 255, 256, 257, 1000, 4097, 65537, (1 << 20) + 3};
  const int offsets[] = {0, 1, 3};
  device_array<T> d(static_cast<std::size_t>((1 << 20) + 16));
  int cases = 0;
  for (kind k : all_kinds) {
    const std::uint64_t seed = tally::test::next_seed();
    const std::vector<T> h = host_data<T>(k, seed, (1 << 20) + 16);
    upload(d.p, h);
    for (index_t n : sizes) {
      if (n > tally::test::max_test_size()) continue;  // TALLY_TEST_MAX_N: the sanitizer runs
      for (int off : offsets) {
        const auto want = bits(host_fold(h.data() + off, n).value());
        const T* in = d.p + off;
        INFO("kind " << static_cast<int>(k) << " n " << n << " offset " << off << " seed " << seed);
        CHECK(bits(device_reduce<comp_default<T>, T, value_t<T>>(in, n)) == want);
        CHECK(bits(device_reduce<comp_d, T, value_t<T>>(in, n)) == want);
        cases += 2;
        if constexpr (sizeof(T) >= 4) {  // 16-bit inputs share the float path: two compositions suffice
          CHECK(bits(device_reduce<comp_b, T, value_t<T>>(in, n)) == want);
          CHECK(bits(device_reduce<comp_c, T, value_t<T>>(in, n)) == want);
          CHECK(bits(device_reduce<comp_e, T, value_t<T>>(in, n)) == want);
          cases += 3;
        }
      }
    }
  }
  MESSAGE(cases << " reductions bit-identical to the host fold");
}

TEST_CASE("reproducible: five compositions (two for 16-bit inputs) x forced grids x offsets x data kinds give the host's bits") {
  check_compositions<float>();
  check_compositions<double>();
  check_compositions<__half>();
  check_compositions<__nv_bfloat16>();
}

// The input cut at random points into parts, each reduced to its state by a random composition,
// the states merged in random order on the host: the bits of the whole.
template <class T>
void check_splits(int trials) {
  std::mt19937_64 rng(tally::test::next_seed());
  const index_t n = std::min<index_t>(3 << 20, tally::test::max_test_size());
  device_array<T> d(static_cast<std::size_t>(n));
  for (int t = 0; t < trials; ++t) {
    const kind k = all_kinds[rng() % 6];  // specials aside: their flags merge trivially
    const std::uint64_t seed = rng();
    fill<T><<<264, 256>>>(d.p, n, k, seed);
    const value_t<T> whole = device_reduce<comp_default<T>, T, value_t<T>>(d.p, n);
    const std::size_t parts = 2 + rng() % 15;
    std::vector<index_t> cut{0, n};
    for (std::size_t p = 1; p < parts; ++p) cut.push_back(static_cast<index_t>(rng() % static_cast<std::uint64_t>(n + 1)));
    std::sort(cut.begin(), cut.end());
    std::vector<state_t<T>> states;
    for (std::size_t p = 0; p + 1 < cut.size(); ++p) {
      const T* in = d.p + cut[p];
      const index_t m = cut[p + 1] - cut[p];
      switch (rng() % 3) {
        case 0: states.push_back(device_reduce<comp_default<T>, T, state_t<T>>(in, m)); break;
        case 1: states.push_back(device_reduce<comp_b, T, state_t<T>>(in, m)); break;
        default: states.push_back(device_reduce<comp_d, T, state_t<T>>(in, m)); break;
      }
    }
    std::shuffle(states.begin(), states.end(), rng);
    state_t<T> merged = state_t<T>::empty();
    for (const auto& s : states) merged = merged + s;
    INFO("trial " << t << " kind " << static_cast<int>(k) << " parts " << parts);
    CHECK(bits(merged.value()) == bits(whole));
  }
}

TEST_CASE("reproducible: random splits into parts whose states merge in random order") {
  const int trials = tally::test::max_test_size() < (3 << 20) ? 4 : 40;
  check_splits<float>(trials);
  check_splits<double>(trials);
}

TEST_CASE("reproducible: the digest of fixed inputs matches the committed one") {
  if (tally::test::max_test_size() < tally::test::digest_sizes[4]) return;  // fixed sizes: not under TALLY_TEST_MAX_N
  const index_t max_n = tally::test::digest_sizes[sizeof tally::test::digest_sizes / sizeof(index_t) - 1];
  device_array<char> d(static_cast<std::size_t>(max_n) * sizeof(double));
  const std::uint64_t device = tally::test::reproducible_digest([&](auto tag, tally::test::kind k, std::uint64_t seed, index_t n) {
    using T = decltype(tag);
    T* p = reinterpret_cast<T*>(d.p);
    fill<T><<<264, 256>>>(p, n, k, seed);
    return device_reduce<comp_default<T>, T, value_t<T>>(p, n);
  });
  MESSAGE("digest on this GPU 0x" << std::hex << device << ", committed 0x" << tally::test::committed_digest);
  CHECK(device == tally::test::committed_digest);
}

TEST_CASE("reproducible: beyond 2^31 elements") {
  // 2^31 + 7 floats of a period-1000 pattern: the host folds one period and merges exactly.
  const index_t n = (index_t{1} << 31) + 7, period = 1000;
  if (n > tally::test::max_test_size()) return;
  const std::vector<float> pattern = host_data<float>(kind::wide, 77, period);
  device_array<float> d(static_cast<std::size_t>(n));
  fill_periodic<<<1024, 256>>>(d.p, n, period, kind::wide, 77);
  // Host: period folded once, doubled and added exactly.
  const auto one = host_fold(pattern.data(), period);
  state_t<float> total = state_t<float>::empty(), power = one;
  for (index_t reps = n / period; reps; reps >>= 1, power = power + power)
    if (reps & 1) total = total + power;
  total = total + host_fold(pattern.data(), n % period);
  CHECK(bits(device_reduce<comp_default<float>, float, float>(d.p, n)) == bits(total.value()));
}

}  // namespace
