// tally::sort and tally::sort_by_key (lib/tally/sort.cuh) against the host's std::stable_sort in
// key_order, bit for bit (NaN payloads and signed zeros land where stability puts them; values are
// the input positions, so any instability shows), and against cub::DeviceMergeSort with the same
// comparator. Six key types; values of 4 and 8 bytes; sizes 0, 1 and around the tile and its
// multiples; random, sorted, reversed, all equal and few distinct keys; seed 003's four bank-column
// sorts, radix-sorted tiles and two more tile shapes; the input never written; the owning sorter and graph capture;
// argument errors; more than 2^31 keys.
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <vector>

#include <cub/device/device_merge_sort.cuh>

#include <tally/sort.cuh>

#include "support/data.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

enum class pattern { random, sorted, reversed, equal, few };
constexpr pattern patterns[] = {pattern::random, pattern::sorted, pattern::reversed, pattern::equal, pattern::few};

template <class K>
K draw(std::mt19937_64& g) {
  if constexpr (std::is_floating_point_v<K>) {
    switch (g() % 16) {  // the special values, every so often
      case 0: return std::numeric_limits<K>::quiet_NaN();
      case 1: return -std::numeric_limits<K>::quiet_NaN();
      case 2: return K(0);
      case 3: return -K(0);
      case 4: return std::numeric_limits<K>::infinity();
      case 5: return -std::numeric_limits<K>::infinity();
      default: return static_cast<K>(static_cast<double>(static_cast<std::int64_t>(g() % 20001) - 10000) / 8);
    }
  } else {
    return static_cast<K>(g());
  }
}

template <class K>
bool less(K a, K b) { return key_order<K>::less(a, b); }

template <class K>
std::vector<K> make_keys(index_t n, pattern p, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<K> k(static_cast<std::size_t>(n));
  for (K& x : k) x = p == pattern::equal ? K(3) : p == pattern::few ? static_cast<K>(g() % 4) : draw<K>(g);
  if (p == pattern::sorted) std::stable_sort(k.begin(), k.end(), less<K>);
  if (p == pattern::reversed) {
    std::stable_sort(k.begin(), k.end(), less<K>);
    std::reverse(k.begin(), k.end());
  }
  return k;
}

template <class T>
std::vector<std::uint64_t> bits_of(const std::vector<T>& v) {
  std::vector<std::uint64_t> b(v.size(), 0);
  for (std::size_t i = 0; i < v.size(); ++i) std::memcpy(&b[i], &v[i], sizeof(T));
  return b;
}

template <class T>
void expect_same_bits(const std::vector<T>& want, const std::vector<T>& got, const char* what) {
  const auto w = bits_of(want), h = bits_of(got);
  std::size_t first_bad = 0;
  while (first_bad < w.size() && first_bad < h.size() && w[first_bad] == h[first_bad]) ++first_bad;
  INFO(what << ": first difference at " << first_bad << " of " << w.size());
  CHECK(first_bad == w.size());
}

template <class T>
std::vector<T> read(const device_buffer<T>& d, std::size_t n) {
  std::vector<T> h(n);
  if (n) TALLY_TEST_CHECK_CUDA(cudaMemcpy(h.data(), d.get(), n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
device_buffer<T> upload(const std::vector<T>& h) {
  device_buffer<T> d(h.size());
  if (!h.empty()) TALLY_TEST_CHECK_CUDA(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

// Keys (and values, V = void: none) sorted on the device by policy P and on the host; bit for bit.
template <class K, class V, class P>
void check_sort(index_t n, pattern p) {
  const std::uint64_t seed = next_seed();
  INFO("keys of " << sizeof(K) << " bytes, values of " << detail::value_bytes<V> << ", policy tile "
                  << P::tile_sort::name << " " << P::tile_sort::tile << ", n = " << n << ", pattern " << static_cast<int>(p)
                  << ", seed " << seed);
  const std::vector<K> keys = make_keys<K>(n, p, seed);
  const auto d_keys = upload(keys);
  device_buffer<K> d_out(keys.size());
  d_out.poison();
  if constexpr (std::is_void_v<V>) {
    std::vector<K> want = keys;
    std::stable_sort(want.begin(), want.end(), less<K>);
    tally::sort<P>(d_keys.get(), d_out.get(), n);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    expect_same_bits(want, read(d_out, keys.size()), "keys");
  } else {
    std::vector<V> values(keys.size());
    for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<V>(i);
    std::vector<std::size_t> order(keys.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return less(keys[a], keys[b]); });
    std::vector<K> want_k(keys.size());
    std::vector<V> want_v(keys.size());
    for (std::size_t i = 0; i < order.size(); ++i) {
      want_k[i] = keys[order[i]];
      want_v[i] = values[order[i]];
    }
    const auto d_values = upload(values);
    device_buffer<V> d_vout(values.size());
    d_vout.poison();
    tally::sort_by_key<P>(d_keys.get(), d_values.get(), d_out.get(), d_vout.get(), n);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    expect_same_bits(want_k, read(d_out, keys.size()), "keys");
    expect_same_bits(want_v, read(d_vout, values.size()), "values");
    expect_same_bits(values, read(d_values, values.size()), "values input (never written)");
  }
  expect_same_bits(keys, read(d_keys, keys.size()), "keys input (never written)");
}

template <class P>
std::vector<index_t> sizes() {
  const index_t t = P::tile_sort::tile, m = P::merge_tile;
  std::vector<index_t> s = {0, 1, 2, 31, 33, t - 1, t, t + 1, 2 * t - 1, 2 * t + 1, m + 1, 3 * t + 17, 5 * m - 3, 100003};
  s.push_back(capped(index_t{1} << 20) + 7);
  std::vector<index_t> kept;
  for (index_t n : s)
    if (n <= max_test_size()) kept.push_back(n);
  return kept;
}

template <class K, class V, class P = default_sort_policy<K, V>>
void check_all() {
  for (index_t n : sizes<P>())
    for (pattern p : patterns) check_sort<K, V, P>(n, p);
}

}  // namespace

TEST_CASE("sort: six key types against the host's stable sort, bit for bit") {
  check_all<std::int32_t, void>();
  check_all<std::uint32_t, void>();
  check_all<std::int64_t, void>();
  check_all<std::uint64_t, void>();
  check_all<float, void>();
  check_all<double, void>();
}

TEST_CASE("sort_by_key: 4- and 8-byte keys with 4- and 8-byte values, stable") {
  check_all<float, std::int32_t>();
  check_all<std::uint32_t, std::uint64_t>();
  check_all<double, std::uint32_t>();
  check_all<std::int64_t, double>();
}

TEST_CASE("sort: other tile shapes, and a merge tile of two sorted tiles") {
  using small = merge_sort<tile_sort::registers<64, 8>, 128, 8>;  // tiles of 512, merge tiles of 1024
  using wide = merge_sort<tile_sort::registers<512, 4>, 128, 16>;
  using split_kernel = merge_sort<tile_sort::registers<64, 8>, 128, 8, 1>;  // tile ends from the split kernel
  for (index_t n : sizes<small>())
    for (pattern p : {pattern::random, pattern::few}) {
      check_sort<float, void, small>(n, p);
      check_sort<std::int64_t, std::uint32_t, small>(n, p);
      check_sort<std::uint32_t, void, wide>(n, p);
      check_sort<double, void, split_kernel>(n, p);
      check_sort<std::int32_t, std::uint64_t, split_kernel>(n, p);
    }
}

TEST_CASE("sort: radix-sorted tiles (ranks restored, or keys gathered by position), stable") {
  using radix = merge_sort<tile_sort::radix<128, 8, 4>, 128, 8>;  // tiles of 1024
  for (index_t n : sizes<radix>())
    for (pattern p : patterns) {
      check_sort<std::int32_t, void, radix>(n, p);    // ranks alone, restored
      check_sort<std::uint64_t, void, radix>(n, p);
      check_sort<double, void, radix>(n, p);          // by position: NaN payloads come back
      check_sort<std::int64_t, float, radix>(n, p);   // pairs: by position
    }
}

TEST_CASE("sort: seed 003's bank-column sorts, by each of its four merges, give the same bits") {
  for (index_t n : {index_t{0}, index_t{1}, index_t{1000}, index_t{1023}, index_t{1025}, index_t{5000}}) {
    if (n > max_test_size()) continue;
    for (pattern p : {pattern::random, pattern::few, pattern::reversed}) {
      check_sort<std::uint32_t, void, sort_policies::seed_single_thread>(n, p);
      check_sort<float, void, sort_policies::seed_atomic_min>(n, p);
      check_sort<std::int32_t, void, sort_policies::seed_tree>(n, p);
      check_sort<double, std::int32_t, sort_policies::seed_hybrid>(n, p);
    }
  }
}

namespace {
template <class K>
struct key_less {
  __device__ bool operator()(K a, K b) const { return key_order<K>::less(a, b); }
};

// tally against cub::DeviceMergeSort (stable, the same comparator) on the same device buffers.
template <class K, class V>
void check_against_cub(index_t n) {
  const std::uint64_t seed = next_seed();
  INFO("n = " << n << ", seed " << seed);
  const std::vector<K> keys = make_keys<K>(n, pattern::random, seed);
  std::vector<V> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = static_cast<V>(i);
  const auto d_keys = upload(keys);
  const auto d_values = upload(values);
  device_buffer<K> mine_k(keys.size()), cub_k(keys.size());
  device_buffer<V> mine_v(values.size()), cub_v(values.size());
  tally::sort_by_key(d_keys.get(), d_values.get(), mine_k.get(), mine_v.get(), n);
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(cub_k.get(), d_keys.get(), keys.size() * sizeof(K), cudaMemcpyDeviceToDevice));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(cub_v.get(), d_values.get(), values.size() * sizeof(V), cudaMemcpyDeviceToDevice));
  std::size_t bytes = 0;
  TALLY_TEST_CHECK_CUDA(cub::DeviceMergeSort::StableSortPairs(nullptr, bytes, cub_k.get(), cub_v.get(), n, key_less<K>{}));
  device_buffer<unsigned char> temp(bytes);
  TALLY_TEST_CHECK_CUDA(cub::DeviceMergeSort::StableSortPairs(temp.get(), bytes, cub_k.get(), cub_v.get(), n, key_less<K>{}));
  device_buffer<K> mine_keys_only(keys.size());
  tally::sort(d_keys.get(), mine_keys_only.get(), n);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const auto want_k = read(cub_k, keys.size());
  expect_same_bits(want_k, read(mine_k, keys.size()), "keys against CUB");
  expect_same_bits(read(cub_v, values.size()), read(mine_v, values.size()), "values against CUB");
  expect_same_bits(want_k, read(mine_keys_only, keys.size()), "keys only against CUB");
}
}  // namespace

TEST_CASE("sort: the same bits as cub::DeviceMergeSort with key_order's comparator") {
  for (index_t n : {index_t{1}, index_t{4097}, index_t{300001}, capped(index_t{1} << 22) + 5}) {
    if (n > max_test_size()) continue;
    check_against_cub<float, std::uint32_t>(n);
    check_against_cub<double, std::int64_t>(n);
  }
}

TEST_CASE("sorter: reused without allocation, and captured in a graph") {
  const index_t n = 50000;
  const std::vector<double> keys = make_keys<double>(n, pattern::random, next_seed());
  std::vector<int> values(keys.size());
  std::iota(values.begin(), values.end(), 0);
  std::vector<double> want_k = keys;
  std::stable_sort(want_k.begin(), want_k.end(), less<double>);
  const auto d_keys = upload(keys);
  const auto d_values = upload(values);
  device_buffer<double> d_out(keys.size());
  device_buffer<int> d_vout(values.size());
  sorter<double, int> s;
  s.reserve(n);
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  {
    const captured_graph graph(stream, [&] { s(d_keys.get(), d_values.get(), d_out.get(), d_vout.get(), n, stream); });
    graph.run(2, [&] { expect_same_bits(want_k, read(d_out, keys.size()), "graph replay"); }, d_out);
  }
  d_out.poison();
  s(d_keys.get(), d_values.get(), d_out.get(), d_vout.get(), n / 2, stream);  // a smaller sort reuses it
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  std::vector<double> half(keys.begin(), keys.begin() + n / 2);
  std::stable_sort(half.begin(), half.end(), less<double>);
  expect_same_bits(half, read(d_out, half.size()), "second call");
  cudaStreamDestroy(stream);
}

TEST_CASE("sort: argument errors throw tally::error before anything is queued") {
  device_buffer<int> keys(16), out(16), values(16), vout(16);
  out.poison();
  CHECK_THROWS_AS(tally::sort(keys.get(), out.get(), -1), tally::error);
  CHECK_THROWS_AS(tally::sort(static_cast<const int*>(nullptr), out.get(), 4), tally::error);
  CHECK_THROWS_AS(tally::sort(keys.get(), static_cast<int*>(nullptr), 4), tally::error);
  CHECK_THROWS_AS(tally::sort(keys.get(), keys.get() + 4, 8), tally::error);  // overlaps the keys
  CHECK_THROWS_AS(tally::sort_by_key(keys.get(), static_cast<const int*>(nullptr), out.get(), vout.get(), 4), tally::error);
  CHECK_THROWS_AS(tally::sort_by_key(keys.get(), values.get(), out.get(), values.get(), 4), tally::error);  // values in place
  CHECK_THROWS_AS(tally::sort_by_key(keys.get(), values.get(), out.get(), out.get() + 2, 4), tally::error);  // outputs overlap
  CHECK_NOTHROW(tally::sort(static_cast<const int*>(nullptr), static_cast<int*>(nullptr), 0));           // nothing to do
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const auto bytes = out.bytes();
  CHECK(std::all_of(bytes.begin(), bytes.end(), [](unsigned char b) { return b == poison_byte; }));  // nothing was written
}

namespace {
__global__ void fill_hash(std::uint32_t* keys, index_t n) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x) {
    std::uint64_t z = 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    keys[i] = static_cast<std::uint32_t>((z ^ (z >> 27)) >> 20);
  }
}
// Order (out[i] <= out[i + 1]) and the multiset (sums of x and x^2 mod 2^64) of a sort's output.
__global__ void summarize(const std::uint32_t* keys, index_t n, bool check_order, unsigned long long* acc) {
  unsigned long long s = 0, s2 = 0, bad = 0;
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x) {
    const unsigned long long x = keys[i];
    s += x;
    s2 += x * x;
    if (check_order && i + 1 < n) bad += keys[i + 1] < keys[i];
  }
  atomicAdd(&acc[0], s);
  atomicAdd(&acc[1], s2);
  atomicAdd(&acc[2], bad);
}
}  // namespace

TEST_CASE("sort: more than 2^31 keys") {
  const index_t n = (index_t{1} << 31) + 3;
  if (n > max_test_size()) return;
  device_buffer<std::uint32_t> keys(static_cast<std::size_t>(n)), out(static_cast<std::size_t>(n));
  fill_hash<<<4096, 256>>>(keys.get(), n);
  tally::sort(keys.get(), out.get(), n);
  device_buffer<unsigned long long> in_acc(3), out_acc(3);
  TALLY_TEST_CHECK_CUDA(cudaMemset(in_acc.get(), 0, 3 * sizeof(unsigned long long)));
  TALLY_TEST_CHECK_CUDA(cudaMemset(out_acc.get(), 0, 3 * sizeof(unsigned long long)));
  summarize<<<4096, 256>>>(keys.get(), n, false, in_acc.get());
  summarize<<<4096, 256>>>(out.get(), n, true, out_acc.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const auto a = read(in_acc, 3), b = read(out_acc, 3);
  CHECK(b[2] == 0);     // in order
  CHECK(a[0] == b[0]);  // the same keys
  CHECK(a[1] == b[1]);
}
