// A program with one deliberate bug per compute-sanitizer tool, so that test/sanitize.sh can show
// that each tool, on this machine, reports the kind of error it is run for (a clean report on
// tally's tests then means something). Usage: sanitize_canary memcheck|racecheck|synccheck|initcheck
// Exits 77 without a device; 2 on a bad argument.
#include <cstdio>
#include <cstring>

#include <cuda_runtime_api.h>

namespace {

__global__ void write_past_the_end(int* p, int n) { p[n + threadIdx.x] = 1; }

__global__ void read_uninitialized(const int* p, int* out) { out[threadIdx.x] = p[threadIdx.x] + 1; }

// Each thread writes its slot and, with no barrier between, reads the slot of a thread one warp
// further on: a read-after-write hazard across warps. (A single shared word written and read by the
// same thread is no canary: the compiler forwards the value from a register and never reads it.)
__global__ void shared_race(int* out) {
  __shared__ int s[256];
  s[threadIdx.x] = static_cast<int>(threadIdx.x);
  out[threadIdx.x] = s[(threadIdx.x + 32) % 256];
}

__global__ void bad_warp_mask(int* out) {
  __syncwarp(0x0000ffffu);  // lanes 16-31 call it but are not in the mask
  out[threadIdx.x] = 1;
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("SKIPPED: no CUDA device\n");
    return 77;
  }
  if (argc != 2) {
    std::fprintf(stderr, "usage: sanitize_canary memcheck|racecheck|synccheck|initcheck\n");
    return 2;
  }
  int* a = nullptr;
  int* out = nullptr;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&out, 256 * sizeof(int));
  cudaMemset(out, 0, 256 * sizeof(int));
  const char* tool = argv[1];
  if (std::strcmp(tool, "memcheck") == 0) {
    write_past_the_end<<<1, 32>>>(a, 64);
  } else if (std::strcmp(tool, "initcheck") == 0) {
    read_uninitialized<<<1, 32>>>(a, out);
  } else if (std::strcmp(tool, "racecheck") == 0) {
    shared_race<<<1, 256>>>(out);
  } else if (std::strcmp(tool, "synccheck") == 0) {
    bad_warp_mask<<<1, 32>>>(out);
  } else {
    std::fprintf(stderr, "sanitize_canary: unknown tool %s\n", tool);
    return 2;
  }
  const cudaError_t status = cudaDeviceSynchronize();
  std::printf("sanitize_canary %s: %s\n", tool, cudaGetErrorString(status));
  cudaFree(a);
  cudaFree(out);
  return 0;
}
