// The input every row reads, and how rows avoid being served from L2.
//
// One device allocation per element type, filled once on the device with hash-generated values that
// are never zero: int32 +-[1, 1000] and float / double / half / bf16 +-[0.5, 1) (every value exact in
// its type: 10 random mantissa bits for half, 7 for bf16), signs random, so sums stay far from int32
// overflow and from float's loss of all precision. It is cut into slices of n elements (each starting on a 256-byte boundary, so every
// library sees an aligned input), and call i of a row reads slice i mod k. k is the smallest number
// of slices that spans 4 x L2 (cudaDeviceProp::l2CacheSize), so between two reads of a slice at
// least 4 x L2 bytes of other input pass through the cache: at every n the rows measure input
// coming from device memory, never a warm L2. (k = 1 once one slice alone is 4 x L2 or larger.)
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include "device_buffer.hpp"

namespace bench {

enum class element { float32, int32, float64, float16, bfloat16 };

template <class T> inline constexpr element element_of = element::float32;
template <> inline constexpr element element_of<int> = element::int32;
template <> inline constexpr element element_of<double> = element::float64;
template <> inline constexpr element element_of<__half> = element::float16;
template <> inline constexpr element element_of<__nv_bfloat16> = element::bfloat16;

const char* type_name(element e);  // "float", "int32", "double", "half", "bf16"
std::size_t size_of(element e);

class input_slices {
 public:
  // Room for one slice of max_n elements and for the rotation of smaller ones; filled before return.
  input_slices(element e, std::int64_t max_n, std::size_t l2_bytes, cudaStream_t s);

  template <class T>
  const T* slice(std::int64_t n, std::int64_t call) const {
    return reinterpret_cast<const T*>(data_.as<const char>() + static_cast<std::size_t>(call % slices(n)) * stride(n));
  }
  std::int64_t slices(std::int64_t n) const;  // k: how many distinct slices a row at n rotates over
  std::size_t stride(std::int64_t n) const;   // bytes from one slice to the next
  std::size_t rotation_bytes() const { return rotation_bytes_; }

 private:
  element element_;
  std::size_t rotation_bytes_;
  device_buffer data_;
};

}  // namespace bench
