// Owning handles for the CUDA objects the benchmark holds: device memory and a stream.
#pragma once
#include <cstddef>
#include <utility>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace bench {

class device_buffer {
 public:
  device_buffer() = default;
  // At least one byte, so that a library asked for "0 bytes of workspace" still gets a non-null
  // pointer (CUB reads a null workspace as a size query).
  explicit device_buffer(std::size_t bytes) : bytes_(bytes) { BENCH_CHECK(cudaMalloc(&data_, bytes > 0 ? bytes : 1)); }
  ~device_buffer() {
    if (data_ != nullptr) cudaFree(data_);
  }
  device_buffer(device_buffer&& o) noexcept : data_(std::exchange(o.data_, nullptr)), bytes_(std::exchange(o.bytes_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(bytes_, o.bytes_);
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;

  void* get() const { return data_; }
  template <class T> T* as() const { return static_cast<T*>(data_); }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

class owned_stream {
 public:
  owned_stream() { BENCH_CHECK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }
  ~owned_stream() { cudaStreamDestroy(s_); }
  owned_stream(const owned_stream&) = delete;
  owned_stream& operator=(const owned_stream&) = delete;
  cudaStream_t get() const { return s_; }

 private:
  cudaStream_t s_ = nullptr;
};

// Waits for `s` and copies one T from device memory (for the sanity check; never timed).
template <class T>
T copy_to_host(const T* device_value, cudaStream_t s) {
  T v{};
  BENCH_CHECK(cudaStreamSynchronize(s));
  BENCH_CHECK(cudaMemcpy(&v, device_value, sizeof(T), cudaMemcpyDeviceToHost));
  return v;
}

}  // namespace bench
