// tally through its device-wide API: a tally::reducer owns its workspace, reserved here for n, so
// a timed call allocates nothing; what is timed is exactly what a user's r(d_in, n, d_out, stream)
// costs, argument checks included.
#pragma once
#include <cstdint>

#include <tally/reduce.cuh>

#include "algorithm.hpp"
#include "device_buffer.hpp"

namespace bench {

template <class P, class T, class Op>
class tally_runner {
  using out_type = typename Op::template state<T>;  // T, or tally::arg<T> for arg_min

 public:
  tally_runner(std::int64_t n, cudaStream_t s) : n_(n), stream_(s), out_(sizeof(out_type)) { reducer_.reserve(n); }

  void operator()(const T* in) { reducer_(in, n_, out_.as<out_type>(), stream_); }

  host_result result() const {
    const out_type r = copy_to_host(out_.as<const out_type>(), stream_);
    if constexpr (tally::is_arg<out_type>::value)
      return {static_cast<double>(r.value), r.index};
    else
      return {static_cast<double>(r), -1};
  }

 private:
  std::int64_t n_;
  cudaStream_t stream_;
  device_buffer out_;
  tally::reducer<P, T, Op> reducer_;
};

}  // namespace bench
