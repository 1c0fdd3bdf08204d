// tally::merge (lib/tally/merge.cuh) against the host: the concatenated lists stable-sorted by
// key_order, compared bit for bit (so NaN payloads and signed zeros must land where stability puts
// them). Six key types, 32- and 64-bit offsets, 1 to 1000 lists with empty ones and lengths around
// the tile, random / few distinct / all equal keys; the owning merger and graph capture; argument
// errors; more than 2^31 keys.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include <tally/merge.cuh>

#include "support/data.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

enum class keys_kind { random, few, equal };

template <class K>
K draw(std::mt19937_64& g, keys_kind kind) {
  if (kind == keys_kind::equal) return K(3);
  if (kind == keys_kind::few) return static_cast<K>(g() % 4);
  if constexpr (std::is_floating_point_v<K>) {
    switch (g() % 16) {  // the special values, every so often
      case 0: return std::numeric_limits<K>::quiet_NaN();
      case 1: return -std::numeric_limits<K>::quiet_NaN();
      case 2: return K(0);
      case 3: return -K(0);
      case 4: return std::numeric_limits<K>::infinity();
      case 5: return -std::numeric_limits<K>::infinity();
      default: return static_cast<K>(static_cast<double>(static_cast<std::int64_t>(g() % 2001) - 1000) / 8);
    }
  } else {
    return static_cast<K>(g());
  }
}

template <class K>
std::vector<std::uint64_t> bits_of(const std::vector<K>& v) {
  std::vector<std::uint64_t> b(v.size(), 0);
  for (std::size_t i = 0; i < v.size(); ++i) std::memcpy(&b[i], &v[i], sizeof(K));
  return b;
}

// Sorted lists of the given lengths, concatenated; the offsets of each.
template <class K>
void make_lists(const std::vector<index_t>& lengths, keys_kind kind, std::uint64_t seed, std::vector<K>& keys,
                std::vector<index_t>& offsets) {
  std::mt19937_64 g(seed);
  keys.clear();
  offsets.assign(1, 0);
  for (index_t len : lengths) {
    std::vector<K> list(static_cast<std::size_t>(len));
    for (K& k : list) k = draw<K>(g, kind);
    std::stable_sort(list.begin(), list.end(), [](K a, K b) { return key_order<K>::less(a, b); });
    keys.insert(keys.end(), list.begin(), list.end());
    offsets.push_back(static_cast<index_t>(keys.size()));
  }
}

template <class K, class Offset, class P = default_merge_policy>
void check_merge(const std::vector<index_t>& lengths, keys_kind kind) {
  std::vector<K> keys;
  std::vector<index_t> offsets64;
  const std::uint64_t seed = next_seed();
  make_lists(lengths, kind, seed, keys, offsets64);
  const auto n = static_cast<index_t>(keys.size());
  const auto lists = static_cast<index_t>(lengths.size());
  std::vector<Offset> offsets(offsets64.begin(), offsets64.end());
  INFO("policy " << P::name << ", keys of " << sizeof(K) << " bytes, offsets of " << sizeof(Offset) << ", " << lists << " lists, n = " << n
                  << ", kind " << static_cast<int>(kind) << ", seed " << seed);

  std::vector<K> expected = keys;  // in list order: a stable sort keeps the merge's tie rule
  std::stable_sort(expected.begin(), expected.end(), [](K a, K b) { return key_order<K>::less(a, b); });

  device_buffer<K> d_keys(keys.size()), d_out(keys.size());
  device_buffer<Offset> d_offsets(offsets.size());
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d_keys.get(), keys.data(), keys.size() * sizeof(K), cudaMemcpyHostToDevice));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(Offset), cudaMemcpyHostToDevice));
  d_out.poison();
  tally::merge<P>(d_keys.get(), d_offsets.get(), lists, n, d_out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<K> got = d_out.values(), after = d_keys.values();
  const auto want = bits_of(expected), have = bits_of(got);
  std::size_t first_bad = 0;
  while (first_bad < want.size() && want[first_bad] == have[first_bad]) ++first_bad;
  INFO("first difference at " << first_bad);
  CHECK(first_bad == want.size());
  CHECK(bits_of(after) == bits_of(keys));  // the keys are never written
}

std::vector<std::vector<index_t>> layouts(std::uint64_t seed) {
  std::mt19937_64 g(seed);
  constexpr index_t tile = default_merge_policy::tile;
  std::vector<std::vector<index_t>> out;
  out.push_back({});                                    // no keys, one empty list below
  out.push_back({0});
  out.push_back({1});
  out.push_back({tile + 1});                            // one list: a copy
  out.push_back({tile - 1, tile + 1});
  out.push_back({0, 5, 0, 0, 7, 0});                    // empty lists among short ones
  out.push_back({3 * tile, 1, 0, 2 * tile + 17, tile}); // odd count, lengths across tiles
  std::vector<index_t> many(1000);                      // many lists, empty ones too
  for (index_t& l : many) l = static_cast<index_t>(g() % 3 == 0 ? 0 : g() % 300);
  out.push_back(many);
  std::vector<index_t> uneven(7);                       // long and short, a tile apart and not
  for (index_t& l : uneven) l = static_cast<index_t>(g() % (20 * tile));
  out.push_back(uneven);
  out.push_back(std::vector<index_t>(32, 4 * tile));     // the seed's 32 lists, a power of two
  out.push_back({capped(index_t{1} << 20), capped(index_t{1} << 20) / 3}); // large
  return out;
}

}  // namespace

TEST_CASE("merge: K sorted lists give the stable sort of their concatenation, bit for bit") {
  for (const auto& lengths : layouts(next_seed())) {
    index_t total = 0;
    for (index_t l : lengths) total += l;
    if (total > max_test_size()) continue;
    if (lengths.empty()) continue;  // num_lists = 0 with n = 0 is covered by the argument test
    for (keys_kind kind : {keys_kind::random, keys_kind::few, keys_kind::equal}) {
      check_merge<std::int32_t, int>(lengths, kind);
      check_merge<std::uint32_t, index_t>(lengths, kind);
      check_merge<std::int64_t, int>(lengths, kind);
      check_merge<std::uint64_t, index_t>(lengths, kind);
      check_merge<float, int>(lengths, kind);
      check_merge<double, index_t>(lengths, kind);
    }
  }
}

TEST_CASE("merge: seed 003's four merges (one block, a thread a list) give the same bits") {
  std::mt19937_64 g(next_seed());
  std::vector<std::vector<index_t>> layouts_small = {{0}, {7}, {3, 0, 5, 1, 1}, std::vector<index_t>(32, 40)};
  std::vector<index_t> many(1000);  // up to the block's 1024 threads, empty lists among them
  for (index_t& l : many) l = static_cast<index_t>(g() % 3 == 0 ? 0 : g() % 12);
  layouts_small.push_back(many);
  for (const auto& lengths : layouts_small) {
    for (keys_kind kind : {keys_kind::random, keys_kind::few}) {
      check_merge<std::int32_t, int, merge_policies::seed_single_thread>(lengths, kind);
      check_merge<float, index_t, merge_policies::seed_atomic_min>(lengths, kind);
      check_merge<std::uint64_t, int, merge_policies::seed_tree>(lengths, kind);
      check_merge<double, index_t, merge_policies::seed_hybrid>(lengths, kind);
      check_merge<std::int64_t, int, merge_heads<merge_select::tree<block::sequential>, 256>>(
          lengths.size() <= 256 ? lengths : std::vector<index_t>(lengths.begin(), lengths.begin() + 256), kind);
    }
  }
  device_buffer<int> keys(16), out(16);
  device_buffer<int> offsets(1026);
  CHECK_THROWS_AS(tally::merge<merge_policies::seed_atomic_min>(keys.get(), offsets.get(), 1025, 16, out.get()), tally::error);
}

TEST_CASE("merge: key_order places NaNs last and -0 before +0") {
  CHECK(key_order<float>::less(-0.0f, 0.0f));
  CHECK(!key_order<float>::less(0.0f, -0.0f));
  CHECK(key_order<double>::less(std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()));
  CHECK(key_order<double>::less(-std::numeric_limits<double>::infinity(), -1e300));
  CHECK(!key_order<float>::less(std::numeric_limits<float>::quiet_NaN(), -std::numeric_limits<float>::quiet_NaN()));
  CHECK(!key_order<float>::less(-std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()));
  CHECK(key_order<std::int32_t>::less(-1, 0));
  CHECK(key_order<std::int64_t>::less(std::numeric_limits<std::int64_t>::min(), -1));
  CHECK(key_order<std::uint32_t>::less(1u, 0x80000000u));
}

TEST_CASE("merger: reused without allocation, and captured in a graph") {
  std::vector<float> keys;
  std::vector<index_t> offsets;
  make_lists<float>({1000, 0, 3000, 17}, keys_kind::random, next_seed(), keys, offsets);
  const auto n = static_cast<index_t>(keys.size());
  std::vector<float> expected = keys;
  std::stable_sort(expected.begin(), expected.end(), [](float a, float b) { return key_order<float>::less(a, b); });
  device_buffer<float> d_keys(keys.size()), d_out(keys.size());
  device_buffer<index_t> d_offsets(offsets.size());
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d_keys.get(), keys.data(), keys.size() * sizeof(float), cudaMemcpyHostToDevice));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d_offsets.get(), offsets.data(), offsets.size() * sizeof(index_t), cudaMemcpyHostToDevice));
  merger<float> m;
  m.reserve(n);
  cudaStream_t s;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {
    const captured_graph graph(s, [&] { m(d_keys.get(), d_offsets.get(), 4, n, d_out.get(), s); });
    graph.run(
        2,
        [&] {
          const std::vector<float> got = d_out.values();
          CHECK(bits_of(got) == bits_of(expected));
        },
        d_out);
  }
  cudaStreamDestroy(s);
}

TEST_CASE("merge: argument errors throw tally::error before anything is queued") {
  device_buffer<int> keys(16), out(16);
  device_buffer<int> offsets(3);
  CHECK_THROWS_AS(tally::merge(keys.get(), offsets.get(), 2, -1, out.get()), tally::error);
  CHECK_THROWS_AS(tally::merge(keys.get(), offsets.get(), -1, 4, out.get()), tally::error);
  CHECK_THROWS_AS(tally::merge(keys.get(), offsets.get(), 0, 4, out.get()), tally::error);
  CHECK_THROWS_AS(tally::merge(keys.get(), static_cast<const int*>(nullptr), 2, 4, out.get()), tally::error);
  CHECK_THROWS_AS(tally::merge(static_cast<const int*>(nullptr), offsets.get(), 2, 4, out.get()), tally::error);
  CHECK_THROWS_AS(tally::merge(keys.get(), offsets.get(), 2, 8, keys.get() + 4), tally::error);  // overlaps the keys
  CHECK_NOTHROW(tally::merge(keys.get(), offsets.get(), 0, 0, out.get()));                       // nothing to do
}

namespace {
// Two lists of the even and the odd numbers below n: the merge is 0, 1, 2, ... n - 1.
__global__ void fill_parity(std::uint32_t* keys, index_t n) {
  const index_t half = (n + 1) / 2;
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x)
    keys[i] = static_cast<std::uint32_t>(i < half ? 2 * i : 2 * (i - half) + 1);
}
__global__ void count_misplaced(const std::uint32_t* out, index_t n, unsigned long long* bad) {
  unsigned long long local = 0;
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x)
    local += out[i] != static_cast<std::uint32_t>(i);
  if (local) atomicAdd(bad, local);
}
}  // namespace

TEST_CASE("merge: more than 2^31 keys") {
  const index_t n = (index_t{1} << 31) + 3;
  if (n > max_test_size()) return;
  device_buffer<std::uint32_t> keys(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  device_buffer<index_t> offsets(3);
  const index_t host_offsets[3] = {0, (n + 1) / 2, n};
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(offsets.get(), host_offsets, sizeof host_offsets, cudaMemcpyHostToDevice));
  fill_parity<<<1024, 256>>>(keys.get(), n);
  tally::merge(keys.get(), offsets.get(), 2, n, out.get());
  device_buffer<unsigned long long> bad(1);
  TALLY_TEST_CHECK_CUDA(cudaMemset(bad.get(), 0, sizeof(unsigned long long)));
  count_misplaced<<<1024, 256>>>(out.get(), n, bad.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(bad.read() == 0);
}
