// The row-reduction algorithms tally_bench_rows times, each prepared once per row (workspace,
// output, handles allocated outside the timing) and then called on an input slice:
//
//   tally_rows<P, T>      tally::rows_reducer<P, T> (sum), or its dot() for matvec (x = ones)
//   cub_segmented<T>      cub::DeviceSegmentedReduce::Sum, segment i = [i * ld, i * ld + N) given by
//                         counting/transform iterators (no offsets array to read), int offsets
//   cublas_gemv<T>        cublasSgemv / cublasDgemv, CUBLAS_OP_T on the column-major view of the
//                         row-major matrix (N x M, lda = ld), x = ones, alpha = 1, beta = 0
// Each reads the same input slices and writes M results (T) to its own output.
#pragma once
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>
#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <tally/matvec.cuh>
#include <tally/reduce_rows.cuh>

#include "cuda_check.hpp"
#include "device_buffer.hpp"

namespace bench {

struct rows_shape {
  std::int64_t m, n;  // ld = n in the benchmark
};

inline void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(call) + " failed (cublasStatus " + std::to_string(s) + ")");
}

template <class T>
__global__ void fill_ones(T* x, std::int64_t n) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    x[i] = T(1);
}

// x = ones, shared by matvec and gemv rows.
template <class T>
device_buffer make_ones(std::int64_t n, cudaStream_t s) {
  device_buffer x(static_cast<std::size_t>(n) * sizeof(T));
  fill_ones<T><<<1024, 256, 0, s>>>(x.as<T>(), n);
  BENCH_CHECK(cudaGetLastError());
  BENCH_CHECK(cudaStreamSynchronize(s));
  return x;
}

template <class T>
std::vector<T> copy_rows_to_host(const device_buffer& out, std::int64_t m, cudaStream_t s) {
  std::vector<T> h(static_cast<std::size_t>(m));
  BENCH_CHECK(cudaStreamSynchronize(s));
  BENCH_CHECK(cudaMemcpy(h.data(), out.get(), h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class P, class T>
class tally_rows {
 public:
  tally_rows(rows_shape sh, bool dot, cudaStream_t s)
      : sh_(sh), dot_(dot), stream_(s), out_(static_cast<std::size_t>(sh.m) * sizeof(T)) {
    if (dot_) x_ = make_ones<T>(sh.n, s);
    reducer_.reserve(sh.m, sh.n, sh.n);
  }
  void operator()(const T* a) {
    if (dot_) reducer_.dot(a, sh_.m, sh_.n, sh_.n, x_.as<const T>(), out_.as<T>(), stream_);
    else reducer_(a, sh_.m, sh_.n, sh_.n, out_.as<T>(), stream_);
  }
  std::vector<T> result() const { return copy_rows_to_host<T>(out_, sh_.m, stream_); }
  std::string plan(const T* a) const {
    return reducer_.plan(a, sh_.m, sh_.n, sh_.n, dot_ ? x_.as<const T>() : nullptr).strategy();
  }

 private:
  rows_shape sh_;
  bool dot_;
  cudaStream_t stream_;
  device_buffer out_, x_;
  tally::rows_reducer<P, T, tally::op::sum> reducer_;
};

struct row_start {
  int ld, shift;
  __host__ __device__ int operator()(int i) const { return i * ld + shift; }
};

template <class T>
class cub_segmented {
 public:
  cub_segmented(rows_shape sh, bool, cudaStream_t s) : sh_(sh), stream_(s), out_(static_cast<std::size_t>(sh.m) * sizeof(T)) {
    if (sh.m * sh.n > INT_MAX) throw std::invalid_argument("cub_segmented row: M * N exceeds int offsets");
    check(dispatch(nullptr, temp_bytes_, nullptr), "cub::DeviceSegmentedReduce::Sum");  // size query
    temp_ = device_buffer(temp_bytes_);
  }
  void operator()(const T* a) {
    std::size_t bytes = temp_bytes_;
    check(dispatch(temp_.get(), bytes, a), "cub::DeviceSegmentedReduce::Sum");
  }
  std::vector<T> result() const { return copy_rows_to_host<T>(out_, sh_.m, stream_); }
  std::string plan(const T*) const { return "cub"; }

 private:
  cudaError_t dispatch(void* temp, std::size_t& bytes, const T* a) const {
    const int ld = static_cast<int>(sh_.n);
    const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), row_start{ld, 0});
    const auto end = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), row_start{ld, ld});
    return cub::DeviceSegmentedReduce::Sum(temp, bytes, a, out_.as<T>(), static_cast<int>(sh_.m), begin, end, stream_);
  }
  rows_shape sh_;
  cudaStream_t stream_;
  device_buffer out_, temp_;
  std::size_t temp_bytes_ = 0;
};

template <class T>
class cublas_gemv {
 public:
  cublas_gemv(rows_shape sh, bool, cudaStream_t s)
      : sh_(sh), stream_(s), out_(static_cast<std::size_t>(sh.m) * sizeof(T)), x_(make_ones<T>(sh.n, s)) {
    if (sh.m > INT_MAX || sh.n > INT_MAX) throw std::invalid_argument("cublas_gemv row: M or N exceeds int");
    check_cublas(cublasCreate(&handle_), "cublasCreate");
    check_cublas(cublasSetStream(handle_, s), "cublasSetStream");
  }
  ~cublas_gemv() { cublasDestroy(handle_); }
  cublas_gemv(const cublas_gemv&) = delete;
  cublas_gemv& operator=(const cublas_gemv&) = delete;
  void operator()(const T* a) {
    const T one = 1, zero = 0;
    const int n = static_cast<int>(sh_.n), m = static_cast<int>(sh_.m);
    // Row-major M x N (ld = N) is column-major N x M: y = A x is op(B) = B^T with B = (N x M).
    if constexpr (std::is_same_v<T, float>)
      check_cublas(cublasSgemv(handle_, CUBLAS_OP_T, n, m, &one, a, n, x_.as<const T>(), 1, &zero, out_.as<T>(), 1), "cublasSgemv");
    else
      check_cublas(cublasDgemv(handle_, CUBLAS_OP_T, n, m, &one, a, n, x_.as<const T>(), 1, &zero, out_.as<T>(), 1), "cublasDgemv");
  }
  std::vector<T> result() const { return copy_rows_to_host<T>(out_, sh_.m, stream_); }
  std::string plan(const T*) const { return "cublas"; }

 private:
  rows_shape sh_;
  cudaStream_t stream_;
  device_buffer out_, x_;
  cublasHandle_t handle_ = nullptr;
};

}  // namespace bench
