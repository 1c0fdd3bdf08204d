// Host/device markers shared by every policy (and, through types.hpp, the index type).
#pragma once
#include <tally/types.hpp>

#define TALLY_HD __host__ __device__ __forceinline__
#define TALLY_DEVICE __device__ __forceinline__

// `#pragma unroll` in host-device code, for the device pass only: the host compiler, which also
// compiles those functions (for the host tests), does not know the pragma.
#ifdef __CUDA_ARCH__
#define TALLY_UNROLL _Pragma("unroll")
#else
#define TALLY_UNROLL
#endif
