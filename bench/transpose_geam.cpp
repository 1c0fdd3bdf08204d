#include <memory>
#include <stdexcept>
#include <string>

#include <cublas_v2.h>

#include "transpose_bench.hpp"

namespace bench::transpose {

namespace {

void check_cublas(cublasStatus_t status, const char* call) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw std::runtime_error(std::string(call) + " failed (cuBLAS status " + std::to_string(static_cast<int>(status)) + ")");
}

// cuBLAS is column-major: the row-major rows x cols input is a cols x rows matrix A (lda = cols),
// and the row-major cols x rows output a rows x cols matrix C (ldc = rows); C = 1 * A^T + 0 * C
// (geam's in-place form, B = C, which cuBLAS documents; with beta = 0 it does not read B).
template <class T, class Geam>
method geam_method(const char* type, std::shared_ptr<cublasHandle_t> handle, Geam geam) {
  method m;
  m.type = type;
  m.name = "cublas_geam";
  m.element_bytes = sizeof(T);
  m.run = [handle, geam](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
    if (rows > INT32_MAX || cols > INT32_MAX) throw std::runtime_error("cublas geam: a dimension exceeds int");
    const T one = 1, zero = 0;
    const int m = static_cast<int>(rows), n = static_cast<int>(cols);
    check_cublas(cublasSetStream(*handle, stream), "cublasSetStream");
    check_cublas(geam(*handle, CUBLAS_OP_T, CUBLAS_OP_N, m, n, &one, static_cast<const T*>(in), n, &zero,
                      static_cast<T*>(out), m, static_cast<T*>(out), m),
                 "cublas geam");
  };
  return m;
}

}  // namespace

void add_cublas_geam(method_list& out, cudaStream_t stream) {
  auto handle = std::shared_ptr<cublasHandle_t>(new cublasHandle_t{}, [](cublasHandle_t* h) {
    if (*h != nullptr) cublasDestroy(*h);
    delete h;
  });
  check_cublas(cublasCreate(handle.get()), "cublasCreate");
  check_cublas(cublasSetPointerMode(*handle, CUBLAS_POINTER_MODE_HOST), "cublasSetPointerMode");
  check_cublas(cublasSetStream(*handle, stream), "cublasSetStream");
  out.push_back(geam_method<float>("float", handle, cublasSgeam));
  out.push_back(geam_method<double>("double", handle, cublasDgeam));
}

}  // namespace bench::transpose
