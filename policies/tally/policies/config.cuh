// Host/device markers shared by every policy (and, through types.hpp, the index type).
#pragma once
#include <tally/types.hpp>

#define TALLY_HD __host__ __device__ __forceinline__
#define TALLY_DEVICE __device__ __forceinline__
