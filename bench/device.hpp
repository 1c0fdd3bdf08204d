// The GPU the benchmark runs on, and the one-line answer when there is none.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

namespace bench {

struct device_info {
  int ordinal = 0;
  std::string name;     // as the driver reports it: "NVIDIA H100 80GB HBM3"
  std::string name_id;  // the same, safe in file names: "NVIDIA_H100_80GB_HBM3"
  int cc_major = 0, cc_minor = 0;
  int sm_count = 0;
  std::size_t l2_bytes = 0;
  std::size_t global_bytes = 0;
  int runtime_version = 0, driver_version = 0;
};

// The current device, or nullopt with the reason in `why` when no CUDA device can be used.
std::optional<device_info> probe_device(std::string& why);

// "NVIDIA H100 80GB HBM3" -> "NVIDIA_H100_80GB_HBM3": runs of anything but [A-Za-z0-9.-] become '_'.
std::string sanitise_name(const std::string& name);

}  // namespace bench
