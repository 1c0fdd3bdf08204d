// Per-device facts a launch needs, read once per device and process and then reused, so that a
// reduce call makes no attribute query in its hot path.
#pragma once
#include <atomic>
#include <string>

#include <cuda_runtime_api.h>

#include <tally/error.hpp>

namespace tally::detail {

inline constexpr int max_devices = 64;

inline int current_device(const char* where) {
  int device = 0;
  check_cuda(cudaGetDevice(&device), where, "cudaGetDevice");
  if (device < 0 || device >= max_devices)
    throw error(std::string(where) + ": device ordinal " + std::to_string(device) + " is beyond tally's limit of " +
                std::to_string(max_devices));
  return device;
}

// Value cached per device; compute(device) runs at most a few times (racing first callers agree).
template <class Compute>
int cached_per_device(std::atomic<int> (&cache)[max_devices], int device, Compute compute) {
  int v = cache[device].load(std::memory_order_relaxed);
  if (v <= 0) {
    v = compute(device);
    cache[device].store(v, std::memory_order_relaxed);
  }
  return v;
}

// A device attribute, cached per device (one cache an attribute).
template <cudaDeviceAttr Attr>
int device_attribute(int device, const char* where) {
  static std::atomic<int> cache[max_devices] = {};
  return cached_per_device(cache, device, [where](int d) {
    int v = 0;
    check_cuda(cudaDeviceGetAttribute(&v, Attr, d), where, "cudaDeviceGetAttribute");
    return v;
  });
}

inline int sm_count(int device, const char* where) {
  return device_attribute<cudaDevAttrMultiProcessorCount>(device, where);
}
inline int l2_bytes(int device, const char* where) { return device_attribute<cudaDevAttrL2CacheSize>(device, where); }
inline int max_threads_per_sm(int device, const char* where) {
  return device_attribute<cudaDevAttrMaxThreadsPerMultiProcessor>(device, where);
}
inline int compute_capability_major(int device, const char* where) {
  return device_attribute<cudaDevAttrComputeCapabilityMajor>(device, where);
}

// Whether a launch policy that asks for PDL (`asks`) gets it on `device`: compute capability 9.0 and up.
inline bool programmatic_launch(bool asks, int device, const char* where) {
  return asks && compute_capability_major(device, where) >= 9;
}

}  // namespace tally::detail
