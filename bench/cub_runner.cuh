// cub::DeviceReduce with its temporary storage allocated once per row, as a CUB user who cares
// about speed writes it. Sum and Min take an int count (CUB's 32-bit offset path, what callers use
// for n < 2^31); ArgMin is the two-output API that takes an int64 count.
#pragma once
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/cstdint>
#include <tally/policies/op.cuh>

#include "algorithm.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"

namespace bench {

template <class T, class Op>
class cub_runner {
  static constexpr bool is_arg = std::is_same_v<Op, tally::op::arg_min>;
  static_assert(is_arg || std::is_same_v<Op, tally::op::sum> || std::is_same_v<Op, tally::op::min>,
                "cub_runner: sum, min or arg_min");
  static constexpr const char* api = is_arg ? "cub::DeviceReduce::ArgMin"
                                     : std::is_same_v<Op, tally::op::sum> ? "cub::DeviceReduce::Sum"
                                                                          : "cub::DeviceReduce::Min";

 public:
  cub_runner(std::int64_t n, cudaStream_t s) : n_(n), stream_(s), value_(sizeof(T)), index_(sizeof(std::int64_t)) {
    if (n > INT_MAX) throw std::invalid_argument(std::string(api) + " row: n = " + std::to_string(n) + " exceeds int");
    check(dispatch(nullptr, temp_bytes_, nullptr), api);  // size query
    temp_ = device_buffer(temp_bytes_);
  }

  void operator()(const T* in) {
    std::size_t bytes = temp_bytes_;
    check(dispatch(temp_.get(), bytes, in), api);
  }

  host_result result() const {
    const T value = copy_to_host(value_.as<const T>(), stream_);
    return {static_cast<double>(value), is_arg ? copy_to_host(index_.as<const std::int64_t>(), stream_) : -1};
  }

 private:
  cudaError_t dispatch(void* temp, std::size_t& bytes, const T* in) const {
    if constexpr (is_arg)
      return cub::DeviceReduce::ArgMin(temp, bytes, in, value_.as<T>(), index_.as<::cuda::std::int64_t>(),
                                       ::cuda::std::int64_t{n_}, stream_);
    else if constexpr (std::is_same_v<Op, tally::op::sum>)
      return cub::DeviceReduce::Sum(temp, bytes, in, value_.as<T>(), static_cast<int>(n_), stream_);
    else
      return cub::DeviceReduce::Min(temp, bytes, in, value_.as<T>(), static_cast<int>(n_), stream_);
  }

  std::int64_t n_;
  cudaStream_t stream_;
  device_buffer value_, index_, temp_;
  std::size_t temp_bytes_ = 0;
};

}  // namespace bench
