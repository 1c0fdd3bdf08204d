// Test data that both the device and the host can regenerate from (seed, index): inputs of any
// size are filled on the device in one kernel, the host reference recomputes each element without
// copying the input back, and the input can be re-verified on the device after a reduction.
#pragma once
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <tally/types.hpp>

namespace tally::test {

#define TALLY_TEST_CHECK_CUDA(call)                                                                     \
  do {                                                                                                  \
    const cudaError_t status_ = (call);                                                                 \
    if (status_ != cudaSuccess) FAIL(#call << " failed: " << cudaGetErrorString(status_));            \
  } while (0)

__host__ __device__ inline std::uint64_t mix(std::uint64_t seed, std::uint64_t i) {
  std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * (i + 1);  // splitmix64 of (seed, i)
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Element i of the data set `seed`. Floating values are exact multiples of a power of two in
// [-1, 1); integers span a range small enough that arg_min / arg_max meet ties at large n.
template <class T>
__host__ __device__ inline T value_at(std::uint64_t seed, index_t i) {
  const std::uint64_t h = mix(seed, static_cast<std::uint64_t>(i));
  if constexpr (std::is_same_v<T, float>) {
    return static_cast<float>(static_cast<std::int32_t>(h >> 40) - (1 << 23)) * 0x1p-23f;
  } else if constexpr (std::is_same_v<T, double>) {
    return static_cast<double>(static_cast<std::int64_t>(h >> 11) - (std::int64_t{1} << 52)) * 0x1p-52;
  } else if constexpr (std::is_same_v<T, __half>) {
    return __float2half_rn(static_cast<float>(static_cast<int>(h >> 53) - 1024) * 0x1p-10f);
  } else if constexpr (std::is_same_v<T, __nv_bfloat16>) {
    return __float2bfloat16_rn(static_cast<float>(static_cast<int>(h >> 56) - 128) * 0x1p-7f);
  } else if constexpr (std::is_signed_v<T>) {
    // int32: [-2^17, 2^17); int64: [-2^40, 2^40).
    constexpr int bits = sizeof(T) == 4 ? 18 : 41;
    return static_cast<T>(static_cast<std::int64_t>(h >> (64 - bits)) - (std::int64_t{1} << (bits - 1)));
  } else {
    constexpr int bits = sizeof(T) == 4 ? 18 : 41;
    return static_cast<T>(h >> (64 - bits));
  }
}

// Seed of one test case: TALLY_TEST_SEED fixes the first, then each case draws the next.
inline std::uint64_t next_seed() {
  static std::mt19937_64 rng([] {
    const char* s = std::getenv("TALLY_TEST_SEED");
    const std::uint64_t seed = s ? std::strtoull(s, nullptr, 0) : std::random_device{}();
    std::printf("TALLY_TEST_SEED=%llu\n", static_cast<unsigned long long>(seed));
    return seed;
  }());
  return rng();
}

template <class T>
__global__ void fill_kernel(T* out, index_t n, std::uint64_t seed) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x)
    out[i] = value_at<T>(seed, i);
}

template <class T>
__global__ void count_changed_kernel(const T* in, index_t n, std::uint64_t seed, unsigned long long* changed) {
  unsigned long long local = 0;
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x) {
    const T expected = value_at<T>(seed, i);
    const T actual = in[i];
    const auto* a = reinterpret_cast<const unsigned char*>(&actual);
    const auto* e = reinterpret_cast<const unsigned char*>(&expected);
    bool same = true;
    for (unsigned b = 0; b < sizeof(T); ++b) same &= a[b] == e[b];
    local += !same;
  }
  if (local) atomicAdd(changed, local);
}

// The byte device_buffer::poison writes by default.
inline constexpr unsigned char poison_byte = 0xA5;

// Device memory for count elements; memory is released at scope exit.
template <class T>
class device_buffer {
 public:
  explicit device_buffer(std::size_t count = 1) : count_(count) {
    TALLY_TEST_CHECK_CUDA(cudaMalloc(&ptr_, (count ? count : 1) * sizeof(T)));
  }
  ~device_buffer() { cudaFree(ptr_); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept : ptr_(o.ptr_), count_(o.count_) { o.ptr_ = nullptr; }
  T* get() const { return ptr_; }
  std::size_t size() const { return count_; }
  T read(std::size_t i = 0) const {
    T v;
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(&v, ptr_ + i, sizeof(T), cudaMemcpyDeviceToHost));
    return v;
  }
  // Every element, copied to the host.
  std::vector<T> values() const {
    std::vector<T> out(count_);
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(out.data(), ptr_, out.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }
  // Every byte of the buffer, copied to the host: bit-for-bit comparisons, padding included.
  std::vector<unsigned char> bytes() const {
    std::vector<unsigned char> out(count_ * sizeof(T));
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(out.data(), ptr_, out.size(), cudaMemcpyDeviceToHost));
    return out;
  }
  // Fill every byte with `byte`, e.g. to poison an output before a call. Synchronous: cudaMemset
  // is queued on the legacy default stream, which a cudaStreamNonBlocking stream does not wait for,
  // so a reduction queued there next could otherwise finish before the poison lands on its output.
  void poison(unsigned char byte = poison_byte) const {
    TALLY_TEST_CHECK_CUDA(cudaMemset(ptr_, byte, count_ * sizeof(T)));
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  }
  // True when every byte of v is `byte` (padding included: compare bytes, never a copied value).
  template <class V>
  static bool all_bytes(const V& v, unsigned char byte = poison_byte) {
    const auto* b = reinterpret_cast<const unsigned char*>(&v);
    for (std::size_t k = 0; k < sizeof(V); ++k)
      if (b[k] != byte) return false;
    return true;
  }

 private:
  T* ptr_ = nullptr;
  std::size_t count_;
};

// n random elements (plus `offset` leading elements that are not part of the input, to test
// misaligned starts), filled on the device.
template <class T>
class dataset {
 public:
  dataset(index_t n, std::uint64_t seed, index_t offset = 0)
      : n_(n), seed_(seed), offset_(offset), buffer_(static_cast<std::size_t>(n + offset)) {
    fill_kernel<T><<<1024, 256>>>(buffer_.get(), n + offset, seed);
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  }
  const T* data() const { return buffer_.get() + offset_; }
  index_t size() const { return n_; }
  std::uint64_t seed() const { return seed_; }
  T at(index_t i) const { return value_at<T>(seed_, i + offset_); }
  // Elements of the input that no longer hold their generated value (0 if nothing wrote to it).
  unsigned long long changed() const {
    device_buffer<unsigned long long> count(1);
    TALLY_TEST_CHECK_CUDA(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
    count_changed_kernel<T><<<1024, 256>>>(buffer_.get(), n_ + offset_, seed_, count.get());
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    return count.read();
  }

 private:
  index_t n_;
  std::uint64_t seed_;
  index_t offset_;
  device_buffer<T> buffer_;
};

// TALLY_TEST_MAX_N caps every size a test uses (the sanitizer runs use small sizes).
inline index_t max_test_size() {
  const char* cap = std::getenv("TALLY_TEST_MAX_N");
  return cap ? std::strtoll(cap, nullptr, 0) : INT64_MAX;
}

inline index_t capped(index_t n) { return n < max_test_size() ? n : max_test_size(); }

// Sizes every test walks: around warp and block boundaries, not powers of two, and one above 2^31.
inline std::vector<index_t> test_sizes() {
  std::vector<index_t> kept;
  for (index_t n : {index_t{0}, index_t{1}, index_t{31}, index_t{32}, index_t{33}, index_t{255}, index_t{256},
                    index_t{257}, index_t{1000}, index_t{4095}, index_t{4097}, index_t{65537},
                    (index_t{1} << 20) + 7, (index_t{1} << 24) + 3, (index_t{1} << 31) + 11})
    if (n <= max_test_size()) kept.push_back(n);
  static const bool printed = [&] {
    std::printf("test sizes:");
    for (index_t n : kept) std::printf(" %lld", static_cast<long long>(n));
    std::printf("\n");
    return true;
  }();
  (void)printed;
  return kept;
}

}  // namespace tally::test
