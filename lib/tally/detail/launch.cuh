// Kernel launch with an optional programmatic dependent launch (PDL): the launch may begin while
// the previous kernel in the stream drains; the kernel brackets its global accesses with
// wait_for_previous_grid() / allow_next_grid().
#pragma once
#include <cstddef>

#include <cuda_runtime_api.h>

#include <tally/error.hpp>

namespace tally::detail {

// Blocks until the kernel this launch depends on has completed and its writes are visible
// (griddepcontrol.wait). A no-op without a programmatic launch and before sm_90.
__device__ __forceinline__ void wait_for_previous_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;" ::: "memory");
#endif
}

// Lets the next programmatically launched kernel in the stream start being scheduled.
__device__ __forceinline__ void allow_next_grid() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
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

}  // namespace tally::detail
