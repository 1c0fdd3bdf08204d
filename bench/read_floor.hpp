// The floor under any one-launch reduction: a kernel that reads the n elements once and does
// nothing else (no block reduction, no partials, no last-block combine), launched the way
// tally_default is (resident grid, 256 threads, four 16-byte loads in flight a thread, programmatic
// dependent launch with griddepcontrol.wait before the first load). Its rows ("read_floor", sum
// only) say how fast a call of n elements could be at best in each timing mode, so a target ratio
// to CUB can be checked against what is physically left: CUB's time / read_floor's time is the
// most a one-launch reduction could reach.
#pragma once
#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "algorithm.hpp"
#include "device_buffer.hpp"

namespace bench {

class read_floor {
 public:
  read_floor(std::size_t bytes, cudaStream_t stream);  // sizes the grid (occupancy x SMs), outside timing
  void operator()(const void* in);                      // one launch reading `bytes` from in (16-byte
                                                        // vectors: up to 15 tail bytes unread)

 private:
  std::size_t bytes_;
  cudaStream_t stream_;
  unsigned blocks_ = 1;
  device_buffer sink_;
};

// The runner interface of catalog.cuh (make_algorithm): n elements of T.
template <class T>
class read_floor_runner {
 public:
  read_floor_runner(std::int64_t n, cudaStream_t s) : floor_(static_cast<std::size_t>(n) * sizeof(T), s) {}
  void operator()(const T* in) { floor_(in); }
  host_result result() const { return {}; }  // reduces nothing: the sanity check skips it

 private:
  read_floor floor_;
};

}  // namespace bench
