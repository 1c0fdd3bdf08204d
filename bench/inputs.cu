#include "inputs.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace bench {

namespace {

constexpr std::size_t slice_alignment = 256;

__device__ std::uint64_t splitmix64(std::uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Sign from the top bit, magnitude from the others: never zero by construction.
template <class T> __device__ T value_from(std::uint64_t h);
template <> __device__ int value_from<int>(std::uint64_t h) {
  const int magnitude = 1 + static_cast<int>((h & 0xFFFFFFFFull) % 1000);
  return (h >> 63) ? -magnitude : magnitude;
}
template <> __device__ float value_from<float>(std::uint64_t h) {
  const float magnitude = 0.5f + static_cast<float>(h & 0xFFFFFFull) * 0x1p-25f;  // [0.5, 1)
  return (h >> 63) ? -magnitude : magnitude;
}
template <> __device__ double value_from<double>(std::uint64_t h) {
  const double magnitude = 0.5 + static_cast<double>(h & 0xFFFFFFFFFFFFFull) * 0x1p-53;  // [0.5, 1)
  return (h >> 63) ? -magnitude : magnitude;
}

template <> __device__ __half value_from<__half>(std::uint64_t h) {
  const float magnitude = 0.5f + static_cast<float>(h & 0x3FFull) * 0x1p-11f;  // [0.5, 1), exact in half
  return __float2half_rn((h >> 63) ? -magnitude : magnitude);
}
template <> __device__ __nv_bfloat16 value_from<__nv_bfloat16>(std::uint64_t h) {
  const float magnitude = 0.5f + static_cast<float>(h & 0x7Full) * 0x1p-8f;  // [0.5, 1), exact in bf16
  return __float2bfloat16_rn((h >> 63) ? -magnitude : magnitude);
}

template <class T>
__global__ void fill_random(T* out, std::int64_t count, std::uint64_t seed) {
  const std::int64_t stride = std::int64_t{gridDim.x} * blockDim.x;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count; i += stride)
    out[i] = value_from<T>(splitmix64(seed ^ static_cast<std::uint64_t>(i)));
}

template <class T>
void fill(void* data, std::size_t bytes, std::uint64_t seed, cudaStream_t s) {
  fill_random<T><<<4096, 256, 0, s>>>(static_cast<T*>(data), static_cast<std::int64_t>(bytes / sizeof(T)), seed);
  BENCH_CHECK(cudaGetLastError());
}

std::size_t round_up(std::size_t x, std::size_t to) { return (x + to - 1) / to * to; }

}  // namespace

const char* type_name(element e) {
  switch (e) {
    case element::float32: return "float";
    case element::int32: return "int32";
    case element::float64: return "double";
    case element::float16: return "half";
    case element::bfloat16: return "bf16";
  }
  return "?";
}

std::size_t size_of(element e) {
  switch (e) {
    case element::float64: return 8;
    case element::float16:
    case element::bfloat16: return 2;
    case element::float32:
    case element::int32: return 4;
  }
  return 4;
}

input_slices::input_slices(element e, std::int64_t max_n, std::size_t l2_bytes, cudaStream_t s)
    : element_(e), rotation_bytes_(4 * l2_bytes) {
  if (max_n < 1) throw std::invalid_argument("input_slices: max_n = " + std::to_string(max_n));
  // A slice smaller than the rotation needs at most 2 x rotation bytes for its k slices.
  const std::size_t bytes = std::max(round_up(static_cast<std::size_t>(max_n) * size_of(e), slice_alignment),
                                     2 * round_up(rotation_bytes_, slice_alignment));
  data_ = device_buffer(bytes);
  const std::uint64_t seed = 0x7A11C0DEull + static_cast<std::uint64_t>(e);
  switch (e) {
    case element::float32: fill<float>(data_.get(), bytes, seed, s); break;
    case element::int32: fill<int>(data_.get(), bytes, seed, s); break;
    case element::float64: fill<double>(data_.get(), bytes, seed, s); break;
    case element::float16: fill<__half>(data_.get(), bytes, seed, s); break;
    case element::bfloat16: fill<__nv_bfloat16>(data_.get(), bytes, seed, s); break;
  }
  BENCH_CHECK(cudaStreamSynchronize(s));
}

std::size_t input_slices::stride(std::int64_t n) const {
  return round_up(static_cast<std::size_t>(n) * size_of(element_), slice_alignment);
}

std::int64_t input_slices::slices(std::int64_t n) const {
  const std::size_t step = stride(n);
  if (n < 0 || step > data_.bytes())
    throw std::out_of_range(std::string("input_slices: n = ") + std::to_string(n) + " " + type_name(element_) +
                            " elements is beyond the allocated input");
  const std::size_t wanted = (rotation_bytes_ + step - 1) / step;
  const std::size_t room = data_.bytes() / step;
  return static_cast<std::int64_t>(std::max<std::size_t>(1, std::min(wanted, room)));
}

}  // namespace bench
