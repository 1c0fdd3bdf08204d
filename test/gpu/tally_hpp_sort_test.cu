// The sorts and merges of <tally/tally.hpp> (libtally) against the templates they wrap
// (tally::sort / sort_by_key / merge of <tally/sort.cuh> and <tally/merge.cuh>, instantiated here
// with the same default policies) and against the host's std::stable_sort by key_order, bit for bit:
// six key types (floats with NaNs of both signs, +-0 and +-infinity), values of 4 and 8 bytes (the
// library's std::uint32_t / std::uint64_t, and other types through tally.hpp's template), 32- and
// 64-bit offsets; n = 0 and sizes that are not powers of two, across the default tiles; the input
// never written. (tally_h_test.cu checks the C functions against these; the host test
// tally_hpp_errors_test.cpp checks the argument errors.)
#include <algorithm>
#include <cstring>
#include <limits>
#include <numeric>
#include <random>
#include <type_traits>
#include <vector>

#include <tally/merge.cuh>
#include <tally/sort.cuh>
#include <tally/tally.hpp>

#include "support/data.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// Keys with the special values every so often (floating), or any bits (integers); a few distinct
// values too, so that ties (and stability) are common.
template <class K>
K draw(std::mt19937_64& g, bool few) {
  if (few) return static_cast<K>(g() % 5);
  if constexpr (std::is_floating_point_v<K>) {
    switch (g() % 16) {
      case 0: return std::numeric_limits<K>::quiet_NaN();
      case 1: return -std::numeric_limits<K>::quiet_NaN();
      case 2: {  // a NaN with another payload: every NaN is equal to every other, so its place is its input order
        K nan = std::numeric_limits<K>::quiet_NaN();
        unsigned char b[sizeof(K)];
        std::memcpy(b, &nan, sizeof(K));
        b[0] ^= 0x5;
        std::memcpy(&nan, b, sizeof(K));
        return nan;
      }
      case 3: return K(0);
      case 4: return -K(0);
      case 5: return std::numeric_limits<K>::infinity();
      case 6: return -std::numeric_limits<K>::infinity();
      default: return static_cast<K>(static_cast<double>(static_cast<std::int64_t>(g() % 20001) - 10000) / 8);
    }
  } else {
    return static_cast<K>(g());
  }
}

template <class K>
std::vector<K> make_keys(index_t n, std::uint64_t seed, bool few = false) {
  std::mt19937_64 g(seed);
  std::vector<K> k(static_cast<std::size_t>(n));
  for (K& x : k) x = draw<K>(g, few);
  return k;
}

template <class K>
bool less(K a, K b) {
  return key_order<K>::less(a, b);
}

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> b(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(b.data(), v.data(), b.size());
  return b;
}

template <class T>
device_buffer<T> upload(const std::vector<T>& h) {
  device_buffer<T> d(h.size());
  if (!h.empty()) TALLY_TEST_CHECK_CUDA(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

// The first byte at which got differs from want (their size if none): where a mismatch starts.
std::size_t first_difference(const std::vector<unsigned char>& want, const std::vector<unsigned char>& got) {
  std::size_t i = 0;
  while (i < want.size() && i < got.size() && want[i] == got[i]) ++i;
  return i == want.size() && want.size() == got.size() ? want.size() : i;
}

#define EXPECT_SAME_BYTES(want, got, what)                                                      \
  do {                                                                                           \
    const auto want_ = (want);                                                                   \
    const auto got_ = (got);                                                                     \
    INFO(what << ": first difference at byte " << first_difference(want_, got_) << " of " << want_.size()); \
    CHECK(first_difference(want_, got_) == want_.size());                                        \
  } while (0)

// n = 0, 1, short, around the default tiles (8192 keys of 4 bytes, 4096 of 8 with keys alone; 8192
// and 2048 with values) and merge tiles (4096, 2048), several merge passes, and over 2^20.
std::vector<index_t> sort_sizes() {
  std::vector<index_t> kept;
  for (index_t n : {index_t{0}, index_t{1}, index_t{2}, index_t{1000}, index_t{2049}, index_t{4095}, index_t{4097},
                    index_t{8191}, index_t{8193}, index_t{3 * 8192 + 17}, index_t{100003}, (index_t{1} << 20) + 7})
    if (n <= max_test_size()) kept.push_back(n);
  return kept;
}

// The value i of a sort_by_key input: distinct, so that any instability shows.
template <class V>
V value_at_index(std::size_t i) {
  const std::uint64_t bits = 0x9E3779B97F4A7C15ull * (i + 1);
  V v;
  std::memcpy(&v, &bits, sizeof(V));
  return v;
}

// A value type of the user's, 8 bytes aligned to 4: goes through tally.hpp's template.
struct two_floats {
  float x, y;
};

// sort_by_key with values V: libtally's (V = std::uint32_t / std::uint64_t) and the template, with
// the host's stable sort; then the same values as another type of their size through tally.hpp's
// template (Other), which must give the same bytes.
template <class K, class V, class Other>
void check_pairs(const std::vector<K>& keys, const device_buffer<K>& d_keys, index_t n) {
  INFO("values of " << sizeof(V) << " bytes");
  std::vector<V> values(keys.size());
  for (std::size_t i = 0; i < values.size(); ++i) values[i] = value_at_index<V>(i);
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
  const std::size_t count = keys.size();
  device_buffer<K> lib_k(count), tmpl_k(count), other_k(count);
  device_buffer<V> lib_v(count), tmpl_v(count);
  device_buffer<Other> other_v(count);
  for (const auto* b : {&lib_k, &tmpl_k, &other_k}) b->poison();
  lib_v.poison();
  tmpl_v.poison();
  other_v.poison();
  tally::sort_by_key(d_keys.get(), d_values.get(), lib_k.get(), lib_v.get(), n);  // libtally
  tally::sort_by_key<default_sort_policy<K, V>>(d_keys.get(), d_values.get(), tmpl_k.get(), tmpl_v.get(), n);
  tally::sort_by_key(d_keys.get(), reinterpret_cast<const Other*>(d_values.get()), other_k.get(), other_v.get(), n);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_SAME_BYTES(tmpl_k.bytes(), lib_k.bytes(), "keys: libtally against the template");
  EXPECT_SAME_BYTES(tmpl_v.bytes(), lib_v.bytes(), "values: libtally against the template");
  EXPECT_SAME_BYTES(bytes_of(want_k), lib_k.bytes(), "keys against the host's stable sort");
  EXPECT_SAME_BYTES(bytes_of(want_v), lib_v.bytes(), "values against the host's stable sort");
  EXPECT_SAME_BYTES(lib_k.bytes(), other_k.bytes(), "keys with the values as another type");
  EXPECT_SAME_BYTES(lib_v.bytes(), other_v.bytes(), "values as another type of their size");
  EXPECT_SAME_BYTES(bytes_of(values), d_values.bytes(), "values input (never written)");
}

template <class K>
void check_sorts_on(const char* type) {
  for (const index_t n : sort_sizes()) {
    for (const bool few : {false, true}) {
      if (few && n < 1000) continue;
      const std::uint64_t seed = next_seed();
      INFO("keys " << type << ", n = " << n << (few ? ", few distinct keys" : "") << ", seed " << seed);
      const std::vector<K> keys = make_keys<K>(n, seed, few);
      const auto d_keys = upload(keys);
      std::vector<K> want = keys;
      std::stable_sort(want.begin(), want.end(), less<K>);
      device_buffer<K> lib(keys.size()), tmpl(keys.size());
      lib.poison();
      tmpl.poison();
      tally::sort(d_keys.get(), lib.get(), n);  // libtally
      tally::sort<default_sort_policy<K>>(d_keys.get(), tmpl.get(), n);
      TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
      EXPECT_SAME_BYTES(tmpl.bytes(), lib.bytes(), "sort: libtally against the template");
      EXPECT_SAME_BYTES(bytes_of(want), lib.bytes(), "sort against the host's stable sort");
      check_pairs<K, std::uint32_t, std::conditional_t<std::is_same_v<K, float>, std::int32_t, float>>(keys, d_keys, n);
      check_pairs<K, std::uint64_t, std::conditional_t<sizeof(K) == 8, two_floats, double>>(keys, d_keys, n);
      EXPECT_SAME_BYTES(bytes_of(keys), d_keys.bytes(), "keys input (never written)");
    }
  }
  // Nothing to do: null pointers with n = 0 queue nothing and throw nothing.
  CHECK_NOTHROW(tally::sort(static_cast<const K*>(nullptr), static_cast<K*>(nullptr), 0));
  CHECK_NOTHROW(tally::sort_by_key(static_cast<const K*>(nullptr), static_cast<const std::uint64_t*>(nullptr),
                                   static_cast<K*>(nullptr), static_cast<std::uint64_t*>(nullptr), 0));
}

// Sorted lists of the given lengths, concatenated, and their num_lists + 1 offsets.
template <class K>
void make_lists(const std::vector<index_t>& lengths, std::uint64_t seed, bool few, std::vector<K>& keys,
                std::vector<index_t>& offsets) {
  std::mt19937_64 g(seed);
  keys.clear();
  offsets.assign(1, 0);
  for (const index_t len : lengths) {
    std::vector<K> list(static_cast<std::size_t>(len));
    for (K& k : list) k = draw<K>(g, few);
    std::stable_sort(list.begin(), list.end(), less<K>);
    keys.insert(keys.end(), list.begin(), list.end());
    offsets.push_back(static_cast<index_t>(keys.size()));
  }
}

// List layouts: no keys (one empty list), one list, empty lists among short ones, an odd number of
// lists across tiles, many lists, and a large pair.
std::vector<std::vector<index_t>> list_layouts(std::uint64_t seed) {
  std::mt19937_64 g(seed);
  constexpr index_t tile = default_merge_policy::tile;
  std::vector<std::vector<index_t>> out = {{0}, {1}, {tile + 1}, {0, 5, 0, 0, 7, 0}, {3 * tile, 1, 0, 2 * tile + 17, tile}};
  std::vector<index_t> many(333);
  for (index_t& l : many) l = static_cast<index_t>(g() % 3 == 0 ? 0 : g() % 300);
  out.push_back(many);
  out.push_back({capped((index_t{1} << 20) + 7), capped(100003)});
  return out;
}

template <class K, class Offset>
void check_merges_on(const char* type) {
  for (const auto& lengths : list_layouts(next_seed())) {
    index_t total = 0;
    for (const index_t l : lengths) total += l;
    if (total > max_test_size()) continue;
    for (const bool few : {false, true}) {
      const std::uint64_t seed = next_seed();
      std::vector<K> keys;
      std::vector<index_t> offsets64;
      make_lists<K>(lengths, seed, few, keys, offsets64);
      const std::vector<Offset> offsets(offsets64.begin(), offsets64.end());
      const auto n = static_cast<index_t>(keys.size());
      const auto lists = static_cast<index_t>(lengths.size());
      INFO("keys " << type << ", offsets of " << sizeof(Offset) << " bytes, " << lists << " lists, n = " << n
                   << (few ? ", few distinct keys" : "") << ", seed " << seed);
      std::vector<K> want = keys;  // in list order: a stable sort keeps the merge's tie rule
      std::stable_sort(want.begin(), want.end(), less<K>);
      const auto d_keys = upload(keys);
      const auto d_offsets = upload(offsets);
      device_buffer<K> lib(keys.size()), tmpl(keys.size());
      lib.poison();
      tmpl.poison();
      tally::merge(d_keys.get(), d_offsets.get(), lists, n, lib.get());  // libtally
      tally::merge<default_merge_policy>(d_keys.get(), d_offsets.get(), lists, n, tmpl.get());
      TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
      EXPECT_SAME_BYTES(tmpl.bytes(), lib.bytes(), "merge: libtally against the template");
      EXPECT_SAME_BYTES(bytes_of(want), lib.bytes(), "merge against the host's stable sort");
      EXPECT_SAME_BYTES(bytes_of(keys), d_keys.bytes(), "keys input (never written)");
    }
  }
  // No lists and no keys: nothing to do, null pointers and all.
  CHECK_NOTHROW(tally::merge(static_cast<const K*>(nullptr), static_cast<const Offset*>(nullptr), 0, 0, static_cast<K*>(nullptr)));
}

}  // namespace

TEST_CASE("tally.hpp sort, sort_by_key: six key types, 4- and 8-byte values, equal the templates and the host, bit for bit") {
  check_sorts_on<std::int32_t>("int32");
  check_sorts_on<std::int64_t>("int64");
  check_sorts_on<std::uint32_t>("uint32");
  check_sorts_on<std::uint64_t>("uint64");
  check_sorts_on<float>("float");
  check_sorts_on<double>("double");
}

TEST_CASE("tally.hpp merge: six key types, 32- and 64-bit offsets, equal the template and the host, bit for bit") {
  check_merges_on<std::int32_t, std::int32_t>("int32");
  check_merges_on<std::int32_t, std::int64_t>("int32");
  check_merges_on<std::int64_t, std::int32_t>("int64");
  check_merges_on<std::int64_t, std::int64_t>("int64");
  check_merges_on<std::uint32_t, std::int32_t>("uint32");
  check_merges_on<std::uint32_t, std::int64_t>("uint32");
  check_merges_on<std::uint64_t, std::int32_t>("uint64");
  check_merges_on<std::uint64_t, std::int64_t>("uint64");
  check_merges_on<float, std::int32_t>("float");
  check_merges_on<float, std::int64_t>("float");
  check_merges_on<double, std::int32_t>("double");
  check_merges_on<double, std::int64_t>("double");
}

TEST_CASE("tally.hpp sorts and merges: on a stream, the same bits as on the default stream") {
  cudaStream_t s;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  const index_t n = capped(300007), m = n / 3;
  const std::vector<double> keys = make_keys<double>(n, next_seed());
  const auto d_keys = upload(keys);
  const auto d_offsets = upload(std::vector<std::int64_t>{0, m, n});
  device_buffer<double> on_default(keys.size()), on_stream(keys.size()), halves(keys.size()), merged(keys.size());
  on_stream.poison();
  merged.poison();
  tally::sort(d_keys.get(), on_default.get(), n);
  tally::sort(d_keys.get(), on_stream.get(), n, s);
  // Each part sorted, then the two sorted lists merged, on the stream: the whole sort again.
  tally::sort(d_keys.get(), halves.get(), m, s);
  tally::sort(d_keys.get() + m, halves.get() + m, n - m, s);
  tally::merge(halves.get(), d_offsets.get(), 2, n, merged.get(), s);
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(s));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  EXPECT_SAME_BYTES(on_default.bytes(), on_stream.bytes(), "sort on a stream");
  EXPECT_SAME_BYTES(on_default.bytes(), merged.bytes(), "two sorted parts merged");
  cudaStreamDestroy(s);
}
