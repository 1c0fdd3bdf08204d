// The memory ceiling that every row's pct_ceiling is relative to, measured at start-up in the same
// process, on a buffer of max(1 GiB, 4 x L2) so that it streams from device memory:
//
//   read_GBps  the ceiling: the best read bandwidth (bytes read / time) of a streaming kernel that
//              sums 16-byte vectors, grid-stride over a resident grid, best over loads in flight
//              per thread (1, 2, 4, 8) and block size (256, 512, 1024), each the median of 7 runs.
//              A reduction reads its input once and writes almost nothing, so this is what a
//              perfect reduction approaches.
//   copy_GBps  reported for reference: a device-to-device cudaMemcpyAsync of the same buffer,
//              (bytes read + bytes written) / time, the figure usually quoted as "bandwidth".
#pragma once
#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include "device.hpp"

namespace bench {

struct bandwidth_ceiling {
  double read_GBps = 0;
  std::string read_config;  // the winning configuration: "16B loads x4 in flight, 512 threads, 264 blocks"
  double copy_GBps = 0;
  std::size_t buffer_bytes = 0;
};

bandwidth_ceiling measure_ceiling(const device_info& dev, cudaStream_t stream);

}  // namespace bench
