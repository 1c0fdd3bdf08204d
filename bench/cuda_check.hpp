// Every CUDA call of the benchmark goes through BENCH_CHECK: a failure throws, naming the call, and
// main() turns it into one line on stderr and a non-zero exit. A benchmark that ran past a CUDA
// error would report numbers for work that never happened.
#pragma once
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace bench {

inline std::string cuda_error_text(cudaError_t status) {
  return std::string(cudaGetErrorName(status)) + ": " + cudaGetErrorString(status);
}

inline void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(call) + " failed (" + cuda_error_text(status) + ")");
}

}  // namespace bench

#define BENCH_CHECK(call) ::bench::check((call), #call)
