// Kernel launch with an optional programmatic dependent launch (PDL): the launch may begin while
// the kernel ahead of it in the stream drains; the kernel calls wait_for_previous_grid() before
// its first global access. tally's kernels do not release it early (griddepcontrol.launch_dependents
// measured slower: docs/performance.md), so it is released as the blocks of the kernel ahead exit.
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

#include <tally/error.hpp>
#include <tally/policies/launch.cuh>
#include <tally/types.hpp>

namespace tally::detail {

using launch::wait_for_previous_grid;

// Whether stream is being captured into a CUDA graph. Captured launches are made without PDL: on
// an H200 (CUDA 13), a graph whose first kernel node was captured with it, launched behind a
// cudaMemsetAsync in the same stream, ran before the memset had finished (test/gpu/pdl_test.cu).
inline bool is_capturing(cudaStream_t stream, const char* where) {
  cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
  check_cuda(cudaStreamIsCapturing(stream, &status), where, "cudaStreamIsCapturing");
  return status != cudaStreamCaptureStatusNone;
}

template <class... Params, class... Args>
cudaError_t launch_kernel(void (*kernel)(Params...), unsigned blocks, unsigned threads, std::size_t smem_bytes,
                          cudaStream_t stream, bool programmatic, Args... args) {
  if (!programmatic) {
    kernel<<<blocks, threads, smem_bytes, stream>>>(args...);
    return cudaGetLastError();
  }
  cudaLaunchConfig_t config{};
  config.gridDim = dim3(blocks);
  config.blockDim = dim3(threads);
  config.dynamicSmemBytes = smem_bytes;
  config.stream = stream;
  cudaLaunchAttribute attribute{};
  attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
  attribute.val.programmaticStreamSerializationAllowed = 1;
  config.attrs = &attribute;
  config.numAttrs = 1;
  return cudaLaunchKernelEx(&config, kernel, static_cast<Params>(args)...);
}

// What tally's entry points queue with: PDL when the policy asks for it (programmatic) and the
// stream is not being captured; a failed launch throws tally::error naming `where`.
template <class... Params, class... Args>
void queue_kernel(void (*kernel)(Params...), index_t blocks, int threads, std::size_t smem_bytes, cudaStream_t stream,
                  bool programmatic, const char* where, Args... args) {
  const bool pdl = programmatic && !is_capturing(stream, where);
  check_cuda(launch_kernel(kernel, static_cast<unsigned>(blocks), static_cast<unsigned>(threads), smem_bytes, stream, pdl,
                           args...),
             where, "kernel launch");
}

}  // namespace tally::detail
