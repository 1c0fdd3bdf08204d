// tally_bench_transpose: tally::transpose's compositions against cuBLAS geam and a device-to-device
// copy of the same bytes, in one process, on the same buffers (transpose_main.cpp).
//
// A method is one way of producing the transpose of a rows x cols row-major matrix (or, for the
// copy, of moving the same bytes); the per-type translation units build the tally ones with nvcc,
// everything else sees only this type-erased form.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

namespace bench::transpose {

struct method {
  std::string type;  // "float", "double"
  std::string name;  // "copy", "cublas_geam", or a transpose_policy's name ("swizzled_64x64_256t_v16")
  std::size_t element_bytes = 0;
  bool is_tally = false;
  bool is_default = false;  // tally's default_transpose_policy for this type
  // Enqueues one transpose (or copy) of in (rows x cols) into out on stream.
  std::function<void(const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream)> run;
};

using method_list = std::vector<method>;

// One translation unit each (transpose_float.cu, transpose_double.cu): every named composition.
void add_tally_float(method_list&);
void add_tally_double(method_list&);
// transpose_geam.cpp: cublas{S,D}geam (C = A^T) for float and double, on one handle made here.
void add_cublas_geam(method_list&, cudaStream_t stream);

// transpose_support.cu: fills `count` elements of `bytes` bytes each with finite, non-zero values
// (no -0, no NaN: geam's alpha * A + 0 * C reproduces them bit for bit), and counts the 2-, 4- or
// 8-byte words in which two buffers differ.
void fill_finite(void* data, std::int64_t count, std::size_t bytes, cudaStream_t stream);
std::int64_t count_differences(const void* a, const void* b, std::int64_t count, std::size_t bytes, cudaStream_t stream);

}  // namespace bench::transpose
