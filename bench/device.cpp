#include "device.hpp"

#include <cctype>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace bench {

std::string sanitise_name(const std::string& name) {
  std::string out;
  for (const char c : name) {
    const bool keep = std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-';
    if (keep)
      out += c;
    else if (!out.empty() && out.back() != '_')
      out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "unknown_gpu" : out;
}

std::optional<device_info> probe_device(std::string& why) {
  int count = 0;
  if (const cudaError_t status = cudaGetDeviceCount(&count); status != cudaSuccess) {
    why = "cudaGetDeviceCount: " + cuda_error_text(status);
    return std::nullopt;
  }
  if (count == 0) {
    why = "cudaGetDeviceCount found 0 devices";
    return std::nullopt;
  }
  device_info d;
  BENCH_CHECK(cudaGetDevice(&d.ordinal));
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, d.ordinal));
  d.name = prop.name;
  d.name_id = sanitise_name(prop.name);
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.l2_bytes = static_cast<std::size_t>(prop.l2CacheSize);
  d.global_bytes = prop.totalGlobalMem;
  BENCH_CHECK(cudaRuntimeGetVersion(&d.runtime_version));
  BENCH_CHECK(cudaDriverGetVersion(&d.driver_version));
  return d;
}

}  // namespace bench
