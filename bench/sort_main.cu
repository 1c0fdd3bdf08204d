// tally_bench_sort: tally::sorter (lib/tally/sort.cuh, its default policy) against
// cub::DeviceMergeSort, cub::DeviceRadixSort and thrust::sort, keys only and keys with values, in one
// process on the same input buffers, calls back to back.
//
// Rows are named sort/<job>/<type>/<lib>/<n>:
//   job   keys (keys only) | pairs (keys with values: the index i, uint32 for 4-byte keys, uint64 for
//         8-byte keys) | ladder (seed 003's problem, 128K uint32 keys, sorted by the seed's four
//         bank-column merges, lib = seed_single_thread | seed_atomic_min | seed_tree | seed_hybrid,
//         and by tally_default: the closing ladder table)
//   type  uint32 | int32 | float | uint64 | int64 | double (by default float, uint32, double, uint64)
//   n     2^16, 2^18, ..., 2^28 (--min_log2, --max_log2)
//   lib   copy            cudaMemcpyAsync of the keys (and the values) into the outputs: a floor
//         cub_merge_sort  cub::DeviceMergeSort::StableSortKeysCopy (keys) / SortPairsCopy (pairs) into
//                         separate outputs, comparator tally::key_order<K>::less (tally's order).
//                         CCCL 3.0 has SortPairsCopy but no StableSortPairsCopy; its SortPairsCopy runs
//                         the same DispatchMergeSort as StableSortPairs (it is documented as not
//                         guaranteed stable): the sanity check compares its values bit for bit.
//         cub_radix_sort  cub::DeviceRadixSort::SortKeys / SortPairs, separate input and output
//                         (not the DoubleBuffer overloads), every key bit. Radix sort orders floats
//                         by their bits: NaN and -0 / +0 would land elsewhere than in key_order, but
//                         the data has neither.
//         thrust          thrust::sort (keys) / thrust::stable_sort_by_key (pairs) with
//                         thrust::cuda::par.on(stream) on a copy: the timed call is cudaMemcpyAsync of
//                         the input into the outputs, then the sort in place there, with Thrust's own
//                         temporary cudaMalloc / cudaFree (it dispatches to CUB's radix sort).
//         tally_default   tally::sorter<K> / sorter<K, V>, default policy, reserve(n) in prepare
//   CUB is given num_items as int (32-bit offsets: n < 2^31) and temporary storage allocated once in
//   prepare; tally's workspace is reserved in prepare.
//
// Counters (harness.hpp): GBps = n * (sizeof(K) + sizeof(V)) / time (V: none for keys): each byte
// sorted counted once, though a sort reads and writes it at least once each; pct_ceiling; on
// tally_default rows vs_cub_merge_sort, vs_cub_radix_sort and vs_thrust (that row's median time /
// tally's: > 1 is tally faster). Gkeys/s = n / time is in the closing table (plot.py derives it from
// GBps).
//
// Data: keys from a splitmix64 hash of the index (the same keys for both jobs): integers over their
// full bit range; float / double normal numbers of either sign, every exponent, random mantissa (no
// zero, subnormal, infinity or NaN). Before timing, every (job, type, n) that a row of the run
// belongs to is sorted once by tally_default, cub_merge_sort, cub_radix_sort and thrust; tally's keys
// must be in key_order and every other output (keys, and values for pairs: all four are stable
// there) equal to tally's bit for bit, or the program stops naming the row.
//
// Memory: the harness prepares a row again for every repetition (and the calls per batch are found
// by one more prepared call), and frees it after. The inputs of one (job, type, n) are filled once
// and shared by its rows while they run; moving on to the next (job, type, n) frees them. Outputs,
// CUB's temporary storage and tally's workspace belong to the prepared call, so at most one row's (or,
// for a comparison with a row that a filter left out, two rows') are allocated at a time. A
// (job, type, n) needing more than 90 % of the GPU's memory (5.5 x its data) is left out, with a note.
//
//   tally_bench_sort [--types=float,uint32,...] [--min_log2=16] [--max_log2=28] [--target_ms=X]
//                    [Google Benchmark flags]
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <regex>
#include <set>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <cub/device/device_merge_sort.cuh>
#include <cub/device/device_radix_sort.cuh>
#include <cuda/std/bit>
#include <cuda/version>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <tally/policies/key_order.cuh>
#include <tally/sort.cuh>

#include "ceiling.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "env.hpp"
#include "harness.hpp"
#include "program.hpp"
#include "summary.hpp"
#include "timing.hpp"

namespace bench {
namespace {

constexpr double batch_seconds = 1e-3;
constexpr int repetitions = 5;
constexpr std::uint64_t seed = 42;

const std::vector<std::string> all_types = {"uint32", "int32", "float", "uint64", "int64", "double"};
const char* const default_types = "float,uint32,double,uint64";
const std::vector<std::string> jobs = {"keys", "pairs"};
// Baselines first, so that tally_default's comparisons find their medians already measured.
const std::vector<std::string> libs = {"copy", "cub_merge_sort", "cub_radix_sort", "thrust", "tally_default"};
// What tally_default is checked against before timing, and compared with (vs_<lib>).
const std::vector<std::string> baselines = {"cub_merge_sort", "cub_radix_sort", "thrust"};
// Seed 003's ladder: its problem (128K uint32 keys, 512 KB) sorted by its four bank-column merges
// (tally::sort_policies), then by tally's default; job "ladder", each checked against the default.
constexpr std::int64_t ladder_n = 128 * 1024;
const std::vector<std::string> ladder_libs = {"seed_single_thread", "seed_atomic_min", "seed_tree", "seed_hybrid", "tally_default"};

const char* const usage =
    "tally_bench_sort: tally::sorter vs cub::DeviceMergeSort, cub::DeviceRadixSort and thrust::sort, keys and pairs\n"
    "  --types=A,B,...  key types among uint32,int32,float,uint64,int64,double (float,uint32,double,uint64)\n"
    "  --min_log2=K     smallest n = 2^K (16); n goes up by factors of 4\n"
    "  --max_log2=K     largest n at most 2^K (28; at most 30)\n"
    "  --target_ms=X    GPU time one repetition of a row aims at (10)\n"
    "Google Benchmark's flags follow (e.g. --benchmark_filter=pairs/float, --benchmark_out=FILE\n"
    "--benchmark_out_format=json).\n\n";

// Values travelling with keys of type K: the key's size.
template <class K>
using value_of = std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>;

__device__ std::uint64_t splitmix64(std::uint64_t s, std::int64_t i) {
  std::uint64_t z = s + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Integers: all their bits random. float / double: sign and mantissa random, the biased exponent
// uniform over the normal ones (1 .. 254, 1 .. 2046): no zero, subnormal, infinity or NaN.
template <class K>
__device__ K random_key(std::uint64_t z) {
  if constexpr (std::is_same_v<K, float>) {
    const std::uint64_t exponent = 1 + ((z >> 32) & 0xFF) % 254;
    return cuda::std::bit_cast<float>(static_cast<std::uint32_t>(((z >> 63) << 31) | (exponent << 23) | (z & 0x7FFFFF)));
  } else if constexpr (std::is_same_v<K, double>) {
    const std::uint64_t exponent = 1 + ((z >> 52) & 0x7FF) % 2046;
    return cuda::std::bit_cast<double>((z & (std::uint64_t{1} << 63)) | (exponent << 52) | (z & ((std::uint64_t{1} << 52) - 1)));
  } else {
    return cuda::std::bit_cast<K>(static_cast<std::make_unsigned_t<K>>(z));
  }
}

template <class K, class V>
__global__ void fill(K* keys, V* values, std::int64_t n, std::uint64_t s) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    keys[i] = random_key<K>(splitmix64(s, i));
    if (values != nullptr) values[i] = static_cast<V>(i);
  }
}

// found[0] counts the indices noted, found[1] keeps the lowest.
__device__ void note(unsigned long long* found, std::int64_t i) {
  atomicAdd(found, 1ull);
  atomicMin(found + 1, static_cast<unsigned long long>(i));
}

template <class W>
__global__ void count_differences(const W* a, const W* b, std::int64_t n, unsigned long long* found) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    if (a[i] != b[i]) note(found, i);
}

template <class K>
__global__ void count_descents(const K* keys, std::int64_t n, unsigned long long* found) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i + 1 < n; i += std::int64_t{gridDim.x} * blockDim.x)
    if (tally::key_order<K>::less(keys[i + 1], keys[i])) note(found, i + 1);
}

struct differences {
  std::uint64_t count = 0;
  std::int64_t first = -1;
};

// Runs launch(found) on the stream after setting the counters (0 found, the lowest at ~0), and
// reads them back; all in the stream's order.
template <class Launch>
differences count_on_device(Launch launch, cudaStream_t stream) {
  device_buffer found(2 * sizeof(unsigned long long));
  BENCH_CHECK(cudaMemsetAsync(found.get(), 0, sizeof(unsigned long long), stream));
  BENCH_CHECK(cudaMemsetAsync(found.as<unsigned long long>() + 1, 0xFF, sizeof(unsigned long long), stream));
  launch(found.as<unsigned long long>());
  BENCH_CHECK(cudaGetLastError());
  unsigned long long out[2] = {0, 0};
  BENCH_CHECK(cudaMemcpyAsync(out, found.get(), sizeof out, cudaMemcpyDeviceToHost, stream));
  BENCH_CHECK(cudaStreamSynchronize(stream));
  return {out[0], out[0] > 0 ? static_cast<std::int64_t>(out[1]) : -1};
}

// Elements of `width` bytes (4 or 8) compared bit for bit.
differences compare_bits(const void* a, const void* b, std::int64_t n, std::size_t width, cudaStream_t stream) {
  return count_on_device(
      [&](unsigned long long* found) {
        if (width == 4)
          count_differences<<<1024, 256, 0, stream>>>(static_cast<const std::uint32_t*>(a), static_cast<const std::uint32_t*>(b), n, found);
        else
          count_differences<<<1024, 256, 0, stream>>>(static_cast<const std::uint64_t*>(a), static_cast<const std::uint64_t*>(b), n, found);
      },
      stream);
}

// CUB merge sort's comparator: tally's order, so that both sorts place equal keys alike.
template <class K>
struct key_less {
  __host__ __device__ bool operator()(K a, K b) const { return tally::key_order<K>::less(a, b); }
};

// The inputs of one (job, type, n): keys, and values for pairs.
struct inputs {
  std::int64_t n = 0;
  device_buffer keys, values;
};

// Holds the inputs of one (job, type, n) at a time: rows of the same group share them; asking for
// another group drops this one (freed once no prepared call holds it) before filling the next.
class input_cache {
 public:
  explicit input_cache(cudaStream_t stream) : stream_(stream) {}

  template <class K>
  std::shared_ptr<const inputs> get(const std::string& group, std::int64_t n, bool pairs) {
    if (current_ && group == group_) return current_;
    current_.reset();
    using V = value_of<K>;
    auto in = std::make_shared<inputs>();
    in->n = n;
    in->keys = device_buffer(static_cast<std::size_t>(n) * sizeof(K));
    if (pairs) in->values = device_buffer(static_cast<std::size_t>(n) * sizeof(V));
    fill<K, V><<<1024, 256, 0, stream_>>>(in->keys.as<K>(), pairs ? in->values.as<V>() : nullptr, n, seed);
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaStreamSynchronize(stream_));
    current_ = std::move(in);
    group_ = group;
    return current_;
  }

 private:
  cudaStream_t stream_;
  std::string group_;
  std::shared_ptr<const inputs> current_;
};

// One prepared sort: call() enqueues it on the stream; the outputs it writes stay valid while call
// (which owns the buffers) lives.
struct prepared {
  std::function<void()> call;
  const void* keys_out = nullptr;
  const void* values_out = nullptr;  // pairs only
};

// What a prepared call owns.
struct call_state {
  std::shared_ptr<const inputs> in;
  device_buffer keys_out, values_out, temp;
  std::shared_ptr<void> sorter;
};

template <class K, bool Pairs>
prepared prepare_call(const std::string& lib, std::shared_ptr<const inputs> in, cudaStream_t stream) {
  using V = value_of<K>;
  using sorter_t = tally::sorter<K, std::conditional_t<Pairs, V, void>>;
  const std::int64_t n = in->n;
  const int items = static_cast<int>(n);  // CUB's num_items
  const std::size_t key_bytes = static_cast<std::size_t>(n) * sizeof(K);
  [[maybe_unused]] const std::size_t value_bytes = static_cast<std::size_t>(n) * sizeof(V);
  auto st = std::make_shared<call_state>();
  st->in = std::move(in);
  st->keys_out = device_buffer(key_bytes);
  if constexpr (Pairs) st->values_out = device_buffer(value_bytes);
  const K* keys = st->in->keys.template as<const K>();
  [[maybe_unused]] const V* values = Pairs ? st->in->values.template as<const V>() : nullptr;
  K* keys_out = st->keys_out.template as<K>();
  [[maybe_unused]] V* values_out = Pairs ? st->values_out.template as<V>() : nullptr;
  std::size_t temp_bytes = 0;

  std::function<void()> call;
  if (lib == "copy") {
    call = [=] {
      BENCH_CHECK(cudaMemcpyAsync(keys_out, keys, key_bytes, cudaMemcpyDeviceToDevice, stream));
      if constexpr (Pairs) BENCH_CHECK(cudaMemcpyAsync(values_out, values, value_bytes, cudaMemcpyDeviceToDevice, stream));
    };
  } else if (lib == "cub_merge_sort") {
    if constexpr (Pairs)
      BENCH_CHECK(cub::DeviceMergeSort::SortPairsCopy(nullptr, temp_bytes, keys, values, keys_out, values_out, items, key_less<K>{}, stream));
    else
      BENCH_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(nullptr, temp_bytes, keys, keys_out, items, key_less<K>{}, stream));
    st->temp = device_buffer(temp_bytes);
    void* temp = st->temp.get();
    call = [=] {
      std::size_t bytes = temp_bytes;
      if constexpr (Pairs)
        BENCH_CHECK(cub::DeviceMergeSort::SortPairsCopy(temp, bytes, keys, values, keys_out, values_out, items, key_less<K>{}, stream));
      else
        BENCH_CHECK(cub::DeviceMergeSort::StableSortKeysCopy(temp, bytes, keys, keys_out, items, key_less<K>{}, stream));
    };
  } else if (lib == "cub_radix_sort") {
    constexpr int end_bit = static_cast<int>(8 * sizeof(K));
    if constexpr (Pairs)
      BENCH_CHECK(cub::DeviceRadixSort::SortPairs(nullptr, temp_bytes, keys, keys_out, values, values_out, items, 0, end_bit, stream));
    else
      BENCH_CHECK(cub::DeviceRadixSort::SortKeys(nullptr, temp_bytes, keys, keys_out, items, 0, end_bit, stream));
    st->temp = device_buffer(temp_bytes);
    void* temp = st->temp.get();
    call = [=] {
      std::size_t bytes = temp_bytes;
      if constexpr (Pairs)
        BENCH_CHECK(cub::DeviceRadixSort::SortPairs(temp, bytes, keys, keys_out, values, values_out, items, 0, end_bit, stream));
      else
        BENCH_CHECK(cub::DeviceRadixSort::SortKeys(temp, bytes, keys, keys_out, items, 0, end_bit, stream));
    };
  } else if (lib == "thrust") {
    call = [=] {
      BENCH_CHECK(cudaMemcpyAsync(keys_out, keys, key_bytes, cudaMemcpyDeviceToDevice, stream));
      if constexpr (Pairs) {
        BENCH_CHECK(cudaMemcpyAsync(values_out, values, value_bytes, cudaMemcpyDeviceToDevice, stream));
        thrust::stable_sort_by_key(thrust::cuda::par.on(stream), keys_out, keys_out + n, values_out);
      } else {
        thrust::sort(thrust::cuda::par.on(stream), keys_out, keys_out + n);
      }
    };
  } else if (lib.rfind("seed_", 0) == 0) {
    if constexpr (std::is_same_v<K, std::uint32_t> && !Pairs) {
      const auto seed_call = [&](auto policy) {
        using seed_sorter = tally::sorter<K, void, decltype(policy)>;
        auto s = std::make_shared<seed_sorter>();
        s->reserve(n);
        st->sorter = s;
        seed_sorter* sorter = s.get();
        return std::function<void()>([=] { (*sorter)(keys, keys_out, n, stream); });
      };
      if (lib == "seed_single_thread") call = seed_call(tally::sort_policies::seed_single_thread{});
      else if (lib == "seed_atomic_min") call = seed_call(tally::sort_policies::seed_atomic_min{});
      else if (lib == "seed_tree") call = seed_call(tally::sort_policies::seed_tree{});
      else if (lib == "seed_hybrid") call = seed_call(tally::sort_policies::seed_hybrid{});
      else throw std::logic_error("tally_bench_sort: no library " + lib);
    } else {
      throw std::logic_error("tally_bench_sort: the seed's ladder sorts uint32 keys only");
    }
  } else if (lib == "tally_default") {
    auto s = std::make_shared<sorter_t>();
    s->reserve(n);
    st->sorter = s;
    sorter_t* sorter = s.get();
    call = [=] {
      if constexpr (Pairs)
        (*sorter)(keys, values, keys_out, values_out, n, stream);
      else
        (*sorter)(keys, keys_out, n, stream);
    };
  } else {
    throw std::logic_error("tally_bench_sort: no library " + lib);
  }
  // The call owns the state (inputs, outputs, temporary storage, sorter) through st.
  return {[st, call] { call(); }, keys_out, Pairs ? static_cast<const void*>(values_out) : nullptr};
}

std::string row_name(const std::string& job, const std::string& type, const std::string& lib, std::int64_t n) {
  return "sort/" + job + "/" + type + "/" + lib + "/" + std::to_string(n);
}

struct row {
  std::string job, type, lib;
  std::int64_t n = 0;
  std::size_t key_size = 0, value_size = 0;  // value_size: 0 for keys only
  std::function<prepared()> prepare;
  std::function<differences(const void* keys)> descents;  // keys out of key_order in a sorted output
  std::string label;
  std::string name() const { return row_name(job, type, lib, n); }
  std::string group() const { return job + "/" + type + "/" + std::to_string(n); }
  double bytes() const { return static_cast<double>(n) * static_cast<double>(key_size + value_size); }
};

template <class K, bool Pairs>
std::string label_of(const std::string& lib) {
  if (lib == "copy") return Pairs ? "cudaMemcpyAsync of the keys and of the values (floor)" : "cudaMemcpyAsync of the keys (floor)";
  if (lib == "cub_merge_sort")
    return Pairs ? "DeviceMergeSort::SortPairsCopy, key_order comparator" : "DeviceMergeSort::StableSortKeysCopy, key_order comparator";
  if (lib == "cub_radix_sort") return Pairs ? "DeviceRadixSort::SortPairs, all key bits" : "DeviceRadixSort::SortKeys, all key bits";
  if (lib == "thrust")
    return std::string(Pairs ? "thrust::stable_sort_by_key" : "thrust::sort") +
           " on a copy: includes cudaMemcpyAsync of the input and Thrust's cudaMalloc / cudaFree";
  if (lib.rfind("seed_", 0) == 0)
    return "tally::sort_policies::" + lib + ": 32 bank columns of 32 keys a block, radix-sorted a thread a column, merged by the seed's " +
           (lib == "seed_single_thread" ? "merge_array1" : lib == "seed_atomic_min" ? "merge_array6" : lib == "seed_tree" ? "merge_array5" : "hybrid") +
           ", then merge passes of 2048";
  using P = tally::default_sort_policy<K, std::conditional_t<Pairs, value_of<K>, void>>;
  return std::string("default policy: tile sort ") + P::tile_sort::name + " of " + std::to_string(P::tile_sort::tile) +
         " keys, merge tiles of " + std::to_string(P::merge_tile);
}

// The rows of one (job, type, n); false (and no rows) where its buffers would not fit.
template <class K>
bool add_group(std::vector<row>& rows, const std::string& type, bool pairs, std::int64_t n, std::size_t memory,
               input_cache& cache, cudaStream_t stream, bool ladder) {
  const std::size_t value_size = pairs ? sizeof(value_of<K>) : 0;
  // Inputs, and during the sanity check tally's output and workspace next to another row's output
  // and temporary storage: 5 x the data and some.
  if (5.5 * static_cast<double>(n) * static_cast<double>(sizeof(K) + value_size) > 0.9 * static_cast<double>(memory)) return false;
  const std::string job = ladder ? "ladder" : pairs ? "pairs" : "keys";
  const std::string group = job + "/" + type + "/" + std::to_string(n);
  for (const std::string& lib : ladder ? ladder_libs : libs) {
    row r;
    r.job = job;
    r.type = type;
    r.lib = lib;
    r.n = n;
    r.key_size = sizeof(K);
    r.value_size = value_size;
    r.label = pairs ? label_of<K, true>(lib) : label_of<K, false>(lib);
    r.prepare = [&cache, group, n, pairs, lib, stream] {
      auto in = cache.get<K>(group, n, pairs);
      return pairs ? prepare_call<K, true>(lib, std::move(in), stream) : prepare_call<K, false>(lib, std::move(in), stream);
    };
    r.descents = [n, stream](const void* keys) {
      return count_on_device(
          [&](unsigned long long* found) { count_descents<<<1024, 256, 0, stream>>>(static_cast<const K*>(keys), n, found); }, stream);
    };
    rows.push_back(std::move(r));
  }
  return true;
}

template <class K>
bool add_rows(std::vector<row>& rows, const std::string& type, bool pairs, std::int64_t n, std::size_t memory,
              input_cache& cache, cudaStream_t stream) {
  return add_group<K>(rows, type, pairs, n, memory, cache, stream, false);
}

using adder = bool (*)(std::vector<row>&, const std::string&, bool, std::int64_t, std::size_t, input_cache&, cudaStream_t);
const std::map<std::string, adder>& adders() {
  static const std::map<std::string, adder> m = {
      {"uint32", &add_rows<std::uint32_t>}, {"int32", &add_rows<std::int32_t>}, {"float", &add_rows<float>},
      {"uint64", &add_rows<std::uint64_t>}, {"int64", &add_rows<std::int64_t>}, {"double", &add_rows<double>}};
  return m;
}

// Before timing, one (job, type, n): tally_default's keys in key_order, and every other sort's
// output equal to tally's bit for bit (keys; values for pairs). Returns the rows that agreed.
int sanity_check(const std::vector<const row*>& group, cudaStream_t stream) {
  const auto by_lib = [&](const std::string& lib) -> const row& {
    for (const row* r : group)
      if (r->lib == lib) return *r;
    throw std::logic_error("tally_bench_sort: no " + lib + " row in a group");
  };
  const row& t = by_lib("tally_default");
  const prepared want = t.prepare();
  want.call();
  BENCH_CHECK(cudaGetLastError());
  const differences d = t.descents(want.keys_out);
  if (d.count > 0)
    throw std::runtime_error("sanity check: " + t.name() + " is not in key_order: " + std::to_string(d.count) +
                             " keys below the one before (first at " + std::to_string(d.first) + ")");
  int agreed = 0;
  for (const row* other : group) {
    if (other->lib == "tally_default" || other->lib == "copy") continue;
    const row& r = *other;
    const prepared got = r.prepare();
    got.call();
    BENCH_CHECK(cudaGetLastError());
    const auto check = [&](const char* what, const void* a, const void* b, std::size_t width) {
      const differences x = compare_bits(a, b, r.n, width, stream);
      if (x.count > 0)
        throw std::runtime_error("sanity check: " + r.name() + " differs from " + t.name() + " in " + std::to_string(x.count) +
                                 " " + what + " of " + std::to_string(r.n) + " (first at " + std::to_string(x.first) + ")");
    };
    check("keys", got.keys_out, want.keys_out, r.key_size);
    if (r.value_size > 0) check("values", got.values_out, want.values_out, r.value_size);
    ++agreed;
  }
  return agreed;
}

int log2_flag(const std::string& arg) {
  int v = -1;
  try {
    std::size_t used = 0;
    const std::string s = arg.substr(arg.find('=') + 1);
    v = std::stoi(s, &used);
    if (used != s.size()) v = -1;
  } catch (const std::exception&) {
  }
  if (v < 1 || v > 30) throw std::invalid_argument("bad " + arg + " (an integer in [1, 30])");
  return v;
}

std::vector<std::string> types_flag(const std::string& arg) {
  std::vector<std::string> out;
  const std::string list = arg.substr(arg.find('=') + 1);
  std::size_t at = 0;
  while (at <= list.size()) {
    const std::size_t comma = std::min(list.find(',', at), list.size());
    const std::string t = list.substr(at, comma - at);
    if (std::find(all_types.begin(), all_types.end(), t) == all_types.end())
      throw std::invalid_argument("bad " + arg + " ('" + t + "': the types are uint32,int32,float,uint64,int64,double)");
    if (std::find(out.begin(), out.end(), t) == out.end()) out.push_back(t);
    at = comma + 1;
  }
  return out;
}

int run(int argc, char** argv) {
  command_line cl(argc, argv, {"--target_ms=", "--types=", "--min_log2=", "--max_log2="}, usage);
  double target_ms = 10;
  int min_log2 = 16, max_log2 = 28;
  std::vector<std::string> types = types_flag(std::string("--types=") + default_types);
  for (const std::string& a : cl.own()) {
    if (a.rfind("--target_ms=", 0) == 0) target_ms = positive_flag(a, "milliseconds");
    else if (a.rfind("--types=", 0) == 0) types = types_flag(a);
    else if (a.rfind("--min_log2=", 0) == 0) min_log2 = log2_flag(a);
    else max_log2 = log2_flag(a);
  }
  if (min_log2 > max_log2)
    throw std::invalid_argument("--min_log2=" + std::to_string(min_log2) + " is above --max_log2=" + std::to_string(max_log2));
  if (!cl.start_benchmark(repetitions)) return 1;

  bench_env env(require_device());
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));
  const cudaStream_t stream = env.stream();

  input_cache cache(stream);
  std::vector<row> rows;
  std::vector<std::string> skipped;
  add_group<std::uint32_t>(rows, "uint32", false, ladder_n, env.device().global_bytes, cache, stream, true);
  for (const std::string& job : jobs)
    for (const std::string& type : types)
      for (int lg = min_log2; lg <= max_log2; lg += 2) {
        const std::int64_t n = std::int64_t{1} << lg;
        if (!adders().at(type)(rows, type, job == "pairs", n, env.device().global_bytes, cache, stream))
          skipped.push_back(job + "/" + type + "/" + size_label(n));
      }
  if (!skipped.empty()) {
    std::string list;
    for (const std::string& s : skipped) list += (list.empty() ? "" : ", ") + s;
    std::printf("tally_bench_sort: left out (more than 90 %% of the GPU's memory): %s\n", list.c_str());
    add_context("skipped", "more than 90 % of the GPU's memory: " + list);
  }

  // Rows the filter keeps, and the baselines of the tally_default rows it keeps.
  const std::string filter = cl.benchmark_flag("benchmark_filter").value_or("");
  const std::regex keep_re(filter.empty() || filter[0] == '-' ? std::string(".") : filter);
  std::set<std::string> kept, kept_groups;
  for (const row& r : rows)
    if (std::regex_search(r.name(), keep_re)) {
      kept.insert(r.name());
      kept_groups.insert(r.group());
      if (r.lib == "tally_default" && r.job != "ladder")
        for (const std::string& lib : baselines) kept.insert(row_name(r.job, r.type, lib, r.n));
    }

  // Group by group (rows are in group order): the sanity check, then one probe call a row for its
  // calls per batch; the group's inputs are freed when the next group's are made.
  std::vector<timed_row> timed;
  int agreed = 0, checked = 0;
  for (std::size_t i = 0; i < rows.size();) {
    std::vector<const row*> group;
    for (std::size_t j = i; j < rows.size() && rows[j].group() == rows[i].group(); ++j) group.push_back(&rows[j]);
    i += group.size();
    if (kept_groups.count(group.front()->group()) == 0) continue;
    agreed += sanity_check(group, stream);
    ++checked;
    for (const row* a : group) {
      if (kept.count(a->name()) == 0) continue;
      std::function<launcher()> prepare = [p = a->prepare] {
        prepared c = p();
        return launcher([c](std::int64_t) { c.call(); });
      };
      double call = 0;
      {
        timed_call probe(prepare(), 1, stream);
        call = std::max(probe.measure(), 1e-6);
      }
      const int calls = std::clamp(static_cast<int>(std::lround(batch_seconds / call)), 1, 200);
      const std::int64_t batches = std::clamp<std::int64_t>(std::llround(target_ms * 1e-3 / (call * calls)), 3, 100);
      timed_row t{a->name(), prepare, calls, batches, a->bytes(), {}, {}};
      const std::string label = a->label;
      t.label = [label] { return label; };
      if (a->lib == "tally_default" && a->job != "ladder")
        for (const std::string& lib : baselines) t.compare.push_back({"vs_" + lib, {row_name(a->job, a->type, lib, a->n)}});
      timed.push_back(std::move(t));
    }
  }
  std::printf("tally_bench_sort: sanity check: %d rows agree bit for bit with tally_default (keys, and values for pairs) "
              "over %d (job, type, n); tally_default's keys are in key_order\n",
              agreed, checked);

  add_context("rows", "sort/<job>/<type>/<lib>/<n>; job keys (keys only) or pairs (values: the index, uint32 for 4-byte keys, "
                      "uint64 for 8-byte keys)");
  add_context("GBps_definition", "n * (sizeof(K) + sizeof(V)) / time per call (V: none for keys), 1e9 bytes per GB: each byte sorted "
                                 "counted once, though every sort reads it and writes it at least once (a copy row's GBps is about "
                                 "half of ceiling_copy_rw_GBps)");
  add_context("Gkeys_definition", "Gkeys/s = n / time per call / 1e9 (the closing table; plot.py: GBps / (sizeof(K) + sizeof(V)))");
  add_context("vs_definition", "on tally_default rows, vs_cub_merge_sort, vs_cub_radix_sort, vs_thrust: that row's median time / "
                               "this row's (> 1: tally faster)");
  add_context("lib_tally_default", "tally::sorter<K> / sorter<K, V>, default policy, reserve(n) in prepare, s(keys, keys_out, n, stream) "
                                   "/ s(keys, values, keys_out, values_out, n, stream)");
  add_context("lib_cub_merge_sort", "CCCL " + std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
                                        std::to_string(CCCL_PATCH_VERSION) +
                                        ": cub::DeviceMergeSort::StableSortKeysCopy (keys), SortPairsCopy (pairs: no stable "
                                        "Copy variant; it runs the same DispatchMergeSort as StableSortPairs and the sanity check "
                                        "compares its values bit for bit), comparator tally::key_order<K>::less, int num_items, "
                                        "temporary storage allocated in prepare");
  add_context("lib_cub_radix_sort", "cub::DeviceRadixSort::SortKeys / SortPairs, separate input and output (not DoubleBuffer), bits 0 .. "
                                    "8 * sizeof(K), int num_items, temporary storage allocated in prepare; orders floats by their bits "
                                    "(NaN, -0 / +0 unlike key_order: the data has none)");
  add_context("lib_thrust", "thrust::sort (keys) / thrust::stable_sort_by_key (pairs), thrust::cuda::par.on(stream), on a copy: each "
                            "call is cudaMemcpyAsync of the input to the outputs and the sort there, with Thrust's temporary "
                            "cudaMalloc / cudaFree");
  add_context("lib_copy", "cudaMemcpyAsync device to device of the keys (and of the values): a floor");
  add_context("data", "keys: splitmix64 of the index (seed 42), integers over every bit, float / double normal numbers of either "
                      "sign and every exponent (no zero, subnormal, infinity, NaN); values: the index. Every call reads the same input");
  add_context("sanity", "before timing: tally_default's keys in key_order; cub_merge_sort, cub_radix_sort and thrust equal to it bit "
                        "for bit (keys and values)");
  add_context("memory", "each repetition prepares its row again and frees it after; the inputs of one (job, type, n) are shared by its "
                        "rows and freed before the next (job, type, n)'s are made");
  add_context("timing", "CUDA events around a batch of back-to-back calls (about 1 ms, at least one call), median of 5 repetitions");

  const results store = run_rows(timed, env, cl.benchmark_args());

  std::printf("\nSeed 003's ladder on %s: %lld uint32 keys (time per call in us; step: the rung before's time / this one's; "
              "cumulative: the first rung's / this one's)\n| rung | us | step | cumulative |\n|---|---|---|---|\n",
              env.device().name.c_str(), static_cast<long long>(ladder_n));
  {
    std::optional<double> first, before;
    for (const std::string& lib : ladder_libs) {
      const auto t = store.median(row_name("ladder", "uint32", lib, ladder_n));
      if (!t) continue;
      if (!first) first = t;
      std::printf("| %s | %s | %s | %s |\n", lib.c_str(), cell(std::optional<double>(*t * 1e6), 9, 1).c_str(),
                  cell(before ? ratio(before, t) : std::nullopt, 6, 2).c_str(), cell(ratio(first, t), 7, 1).c_str());
      before = t;
    }
  }
  std::printf("\nSorts on %s (Gkeys/s = n / time, back to back; tally / X = X's time / tally's)\n", env.device().name.c_str());
  std::printf("| job | type | n | tally_default | cub_merge_sort | cub_radix_sort | thrust | copy | tally / merge sort | tally / radix sort |\n"
              "|---|---|---|---|---|---|---|---|---|---|\n");
  for (const row& a : rows) {
    if (a.lib != "tally_default" || a.job == "ladder" || kept_groups.count(a.group()) == 0) continue;
    const auto seconds = [&](const std::string& lib) { return store.median(row_name(a.job, a.type, lib, a.n)); };
    const auto gkeys = [&](const std::string& lib) { return gbps(seconds(lib), static_cast<double>(a.n)); };
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |\n", a.job.c_str(), a.type.c_str(), size_label(a.n).c_str(),
                cell(gkeys("tally_default"), 6, 3).c_str(), cell(gkeys("cub_merge_sort"), 6, 3).c_str(),
                cell(gkeys("cub_radix_sort"), 6, 3).c_str(), cell(gkeys("thrust"), 6, 3).c_str(), cell(gkeys("copy"), 6, 2).c_str(),
                cell(ratio(seconds("cub_merge_sort"), seconds("tally_default")), 5, 2).c_str(),
                cell(ratio(seconds("cub_radix_sort"), seconds("tally_default")), 5, 2).c_str());
  }
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::guarded_main("tally_bench_sort", bench::run, argc, argv); }
