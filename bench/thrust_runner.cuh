// Thrust as its users call it, on the benchmark stream through thrust::cuda::par.on(stream).
// Every call returns its result to the host, so each includes a device->host copy and a wait for
// the stream, plus Thrust's own temporary allocation (cudaMalloc / cudaFree with the plain par
// policy). back_to_back therefore cannot overlap calls for Thrust: its two modes differ only by
// the event overhead.
//   sum      thrust::reduce(policy, first, last)
//   min      thrust::reduce(policy, first, last, numeric_limits<T>::max(), thrust::minimum<T>())
//   arg_min  thrust::min_element(policy, first, last): an iterator (the index) comes back
#pragma once
#include <cstdint>
#include <type_traits>

#include <cuda/std/limits>
#include <tally/policies/op.cuh>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/reduce.h>

#include "algorithm.hpp"
#include "device_buffer.hpp"

namespace bench {

template <class T, class Op>
class thrust_runner {
 public:
  thrust_runner(std::int64_t n, cudaStream_t s) : n_(n), stream_(s) {}

  void operator()(const T* in) {
    const auto policy = thrust::cuda::par.on(stream_);
    if constexpr (std::is_same_v<Op, tally::op::sum>) {
      value_ = thrust::reduce(policy, in, in + n_);
    } else if constexpr (std::is_same_v<Op, tally::op::min>) {
      value_ = thrust::reduce(policy, in, in + n_, ::cuda::std::numeric_limits<T>::max(), thrust::minimum<T>());
    } else {
      static_assert(std::is_same_v<Op, tally::op::arg_min>, "thrust_runner: sum, min or arg_min");
      position_ = thrust::min_element(policy, in, in + n_);
      index_ = position_ - in;
    }
  }

  host_result result() const {
    if constexpr (std::is_same_v<Op, tally::op::arg_min>)
      return {static_cast<double>(copy_to_host(position_, stream_)), index_};
    else
      return {static_cast<double>(value_), -1};
  }

 private:
  std::int64_t n_;
  cudaStream_t stream_;
  T value_{};
  const T* position_ = nullptr;
  std::int64_t index_ = -1;
};

}  // namespace bench
