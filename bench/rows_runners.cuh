// The row-reduction algorithms tally_bench_rows times, each prepared once per row (workspace,
// output, handles allocated outside the timing) and then called on an input slice:
//
//   tally_rows<P, T>      tally::rows_reducer<P, T> (sum), or its dot() for matvec (x = ones); the
//                         output is T like the baselines' (rows_reducer writes any type its
//                         accumulator converts to; tally.hpp's row_sum / matvec of __half and
//                         __nv_bfloat16 write float instead: M more bytes, not what is timed here)
//   cub_segmented<T>      cub::DeviceSegmentedReduce, segment i = [i * ld, i * ld + N) given by
//                         counting/transform iterators (no offsets array to read), int offsets:
//                         ::Sum for float and double (accumulates in T); for __half and
//                         __nv_bfloat16 ::Reduce with cuda::std::plus<float> and 0.0f, which
//                         accumulates in float and writes T. ::Sum would accumulate in the 16-bit
//                         type itself: once a bf16 running sum reaches 258 in magnitude (bf16's
//                         spacing there is 2, every element is below 1) no element changes it, so
//                         on long rows it returns no row sum at all; a user who wants row sums of
//                         16-bit data (as torch.sum gives them, accumulated in float) has to pass a
//                         float operator.
//   cublas_gemv<T>        float / double: cublasSgemv / cublasDgemv, CUBLAS_OP_T on the column-major
//                         view of the row-major matrix (N x M, lda = ld), x = ones, alpha = 1, beta = 0.
//                         __half / __nv_bfloat16 (cuBLAS has no 16-bit gemv of that name):
//                         cublasGemmEx with one column, C (M x 1) = op(A) x, op = CUBLAS_OP_T on the
//                         same N x M view, A, x and C in CUDA_R_16F / CUDA_R_16BF,
//                         CUBLAS_COMPUTE_32F, float alpha = 1 and beta = 0, CUBLAS_GEMM_DEFAULT:
//                         what PyTorch's torch.mv calls for 16-bit tensors
//   cublas_gemv_batched<T>  __half / __nv_bfloat16 only: cublasHSHgemvStridedBatched /
//                         cublasTSTgemvStridedBatched with one batch, the same transpose, float
//                         alpha / beta and compute, 16-bit A, x and y: cuBLAS's own 16-bit gemv
// Each reads the same input slices and writes M results (T) to its own output.
#pragma once
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include <cublas_v2.h>
#include <cuda/std/functional>
#include <cuda_bf16.h>
#include <cuda_fp16.h>
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

template <class T>
inline constexpr bool is_16bit = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// cuBLAS's name for a 16-bit element type.
template <class T>
constexpr cudaDataType_t cuda_type() {
  return std::is_same_v<T, __half> ? CUDA_R_16F : CUDA_R_16BF;
}

inline void check_cublas(cublasStatus_t s, const char* call) {
  if (s != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(call) + " failed (cublasStatus " + std::to_string(s) + ")");
}

template <class T>
__global__ void fill_ones(T* x, std::int64_t n) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    x[i] = T(1.0f);
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
  static constexpr const char* call = is_16bit<T> ? "cub::DeviceSegmentedReduce::Reduce" : "cub::DeviceSegmentedReduce::Sum";

 public:
  cub_segmented(rows_shape sh, bool, cudaStream_t s) : sh_(sh), stream_(s), out_(static_cast<std::size_t>(sh.m) * sizeof(T)) {
    if (sh.m * sh.n > INT_MAX) throw std::invalid_argument("cub_segmented row: M * N exceeds int offsets");
    check(dispatch(nullptr, temp_bytes_, nullptr), call);  // size query
    temp_ = device_buffer(temp_bytes_);
  }
  void operator()(const T* a) {
    std::size_t bytes = temp_bytes_;
    check(dispatch(temp_.get(), bytes, a), call);
  }
  std::vector<T> result() const { return copy_rows_to_host<T>(out_, sh_.m, stream_); }
  std::string plan(const T*) const { return "cub"; }

 private:
  cudaError_t dispatch(void* temp, std::size_t& bytes, const T* a) const {
    const int ld = static_cast<int>(sh_.n);
    const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), row_start{ld, 0});
    const auto end = thrust::make_transform_iterator(thrust::counting_iterator<int>(0), row_start{ld, ld});
    if constexpr (is_16bit<T>)
      return cub::DeviceSegmentedReduce::Reduce(temp, bytes, a, out_.as<T>(), static_cast<int>(sh_.m), begin, end,
                                                cuda::std::plus<float>{}, 0.0f, stream_);
    else
      return cub::DeviceSegmentedReduce::Sum(temp, bytes, a, out_.as<T>(), static_cast<int>(sh_.m), begin, end, stream_);
  }
  rows_shape sh_;
  cudaStream_t stream_;
  device_buffer out_, temp_;
  std::size_t temp_bytes_ = 0;
};

// What the cuBLAS rows share: a handle on the stream, the output and x = ones.
template <class T>
class cublas_row {
 public:
  cublas_row(const cublas_row&) = delete;
  cublas_row& operator=(const cublas_row&) = delete;
  std::vector<T> result() const { return copy_rows_to_host<T>(out_, sh_.m, stream_); }
  std::string plan(const T*) const { return "cublas"; }

 protected:
  cublas_row(rows_shape sh, cudaStream_t s, const char* row)
      : sh_(sh), stream_(s), out_(static_cast<std::size_t>(sh.m) * sizeof(T)), x_(make_ones<T>(sh.n, s)) {
    if (sh.m > INT_MAX || sh.n > INT_MAX) throw std::invalid_argument(std::string(row) + " row: M or N exceeds int");
    check_cublas(cublasCreate(&handle_), "cublasCreate");
    check_cublas(cublasSetStream(handle_, s), "cublasSetStream");
  }
  ~cublas_row() { cublasDestroy(handle_); }

  rows_shape sh_;
  cudaStream_t stream_;
  device_buffer out_, x_;
  cublasHandle_t handle_ = nullptr;
};

template <class T>
class cublas_gemv : public cublas_row<T> {
 public:
  cublas_gemv(rows_shape sh, bool, cudaStream_t s) : cublas_row<T>(sh, s, "cublas_gemv") {}
  void operator()(const T* a) {
    const int n = static_cast<int>(this->sh_.n), m = static_cast<int>(this->sh_.m);
    const T* x = this->x_.template as<const T>();
    T* y = this->out_.template as<T>();
    // Row-major M x N (ld = N) is column-major N x M: y = A x is op(B) = B^T with B = (N x M).
    if constexpr (is_16bit<T>) {
      // C (M x 1, ldc = M) = B^T (M x N) x (N x 1, ldb = N), float compute.
      const float one = 1, zero = 0;
      check_cublas(cublasGemmEx(this->handle_, CUBLAS_OP_T, CUBLAS_OP_N, m, 1, n, &one, a, cuda_type<T>(), n, x, cuda_type<T>(),
                                n, &zero, y, cuda_type<T>(), m, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                   "cublasGemmEx");
    } else if constexpr (std::is_same_v<T, float>) {
      const T one = 1, zero = 0;
      check_cublas(cublasSgemv(this->handle_, CUBLAS_OP_T, n, m, &one, a, n, x, 1, &zero, y, 1), "cublasSgemv");
    } else {
      const T one = 1, zero = 0;
      check_cublas(cublasDgemv(this->handle_, CUBLAS_OP_T, n, m, &one, a, n, x, 1, &zero, y, 1), "cublasDgemv");
    }
  }
};

// cuBLAS's 16-bit gemv: the strided-batched call with one batch (plain pointers, no device array
// of pointers to keep per input slice).
template <class T>
class cublas_gemv_batched : public cublas_row<T> {
  static_assert(is_16bit<T>, "cublas_gemv_batched: __half or __nv_bfloat16");

 public:
  cublas_gemv_batched(rows_shape sh, bool, cudaStream_t s) : cublas_row<T>(sh, s, "cublas_gemv_batched") {}
  void operator()(const T* a) {
    const float one = 1, zero = 0;
    const int n = static_cast<int>(this->sh_.n), m = static_cast<int>(this->sh_.m);
    const long long stride_a = static_cast<long long>(this->sh_.m) * this->sh_.n;
    const T* x = this->x_.template as<const T>();
    T* y = this->out_.template as<T>();
    // The same transpose as cublas_gemv: B = (N x M, lda = N), y = B^T x.
    if constexpr (std::is_same_v<T, __half>)
      check_cublas(cublasHSHgemvStridedBatched(this->handle_, CUBLAS_OP_T, n, m, &one, a, n, stride_a, x, 1, n, &zero, y, 1, m, 1),
                   "cublasHSHgemvStridedBatched");
    else
      check_cublas(cublasTSTgemvStridedBatched(this->handle_, CUBLAS_OP_T, n, m, &one, a, n, stride_a, x, 1, n, &zero, y, 1, m, 1),
                   "cublasTSTgemvStridedBatched");
  }
};

}  // namespace bench
