#include <cstdint>

#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "transpose_bench.hpp"

namespace bench::transpose {

namespace {

__device__ std::uint64_t hash(std::uint64_t i) {
  std::uint64_t z = 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

// Values +-[1, 2) with random mantissas: finite, non-zero, never -0.
template <class T>
__global__ void fill_kernel(T* data, std::int64_t count) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t h = hash(static_cast<std::uint64_t>(i));
    const T magnitude = T(1) + static_cast<T>(h >> 11) * static_cast<T>(0x1p-53);
    data[i] = (h & 1) ? -magnitude : magnitude;
  }
}

template <class W>
__global__ void differences_kernel(const W* a, const W* b, std::int64_t count, unsigned long long* differ) {
  unsigned long long local = 0;
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count;
       i += std::int64_t{gridDim.x} * blockDim.x)
    local += a[i] != b[i];
  if (local) atomicAdd(differ, local);
}

}  // namespace

void fill_finite(void* data, std::int64_t count, std::size_t bytes, cudaStream_t stream) {
  if (bytes == 8)
    fill_kernel<<<4096, 256, 0, stream>>>(static_cast<double*>(data), count);
  else
    fill_kernel<<<4096, 256, 0, stream>>>(static_cast<float*>(data), count);
  BENCH_CHECK(cudaGetLastError());
}

std::int64_t count_differences(const void* a, const void* b, std::int64_t count, std::size_t bytes,
                               cudaStream_t stream) {
  device_buffer differ(sizeof(unsigned long long));
  BENCH_CHECK(cudaMemsetAsync(differ.get(), 0, sizeof(unsigned long long), stream));
  auto* d = differ.as<unsigned long long>();
  if (bytes == 8)
    differences_kernel<<<4096, 256, 0, stream>>>(static_cast<const std::uint64_t*>(a), static_cast<const std::uint64_t*>(b), count, d);
  else if (bytes == 4)
    differences_kernel<<<4096, 256, 0, stream>>>(static_cast<const std::uint32_t*>(a), static_cast<const std::uint32_t*>(b), count, d);
  else
    differences_kernel<<<4096, 256, 0, stream>>>(static_cast<const std::uint16_t*>(a), static_cast<const std::uint16_t*>(b), count, d);
  BENCH_CHECK(cudaGetLastError());
  return static_cast<std::int64_t>(copy_to_host(d, stream));
}

}  // namespace bench::transpose
