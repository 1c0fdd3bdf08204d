// tally's one error convention: every bad argument and every CUDA failure throws tally::error,
// whose message names the function, the argument or the CUDA call, and the CUDA error if any.
// Plain C++ (no CUDA syntax), shared by the template headers and <tally/tally.hpp>.
#pragma once
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace tally {

class error : public std::runtime_error {
 public:
  explicit error(const std::string& what, cudaError_t code = cudaSuccess)
      : std::runtime_error(what), code_(code) {}
  // The CUDA error behind this one, or cudaSuccess for an invalid argument.
  cudaError_t code() const noexcept { return code_; }

 private:
  cudaError_t code_;
};

namespace detail {

inline void check_cuda(cudaError_t status, const char* where, const char* call) {
  if (status == cudaSuccess) return;
  throw error(std::string(where) + ": " + call + " failed: " + cudaGetErrorName(status) + " (" +
                  cudaGetErrorString(status) + ")",
              status);
}

}  // namespace detail
}  // namespace tally
