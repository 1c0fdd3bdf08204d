// A user's element type aligned below its size: two floats (8 bytes, 4-byte aligned) on the device
// 4 bytes past cudaMalloc's alignment, so that no element sits on an 8-byte boundary, reduced by an
// operator of the user's own that lifts an element to the sum of its two floats. The kernels' word
// loads must not take an element's size for its alignment (detail/load_evict_first.cuh).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include <tally/policies/op.cuh>

#include "data.cuh"

namespace tally::test {

struct two_floats {
  float a, b;
};

// Sums of the elements' two floats, by functors of the user's own (a function returning a
// __device__ lambda cannot deduce its type).
struct add_floats {
  __host__ __device__ float operator()(float p, float q) const { return p + q; }
};
struct lift_two_floats {
  __host__ __device__ float operator()(two_floats x, index_t) const { return x.a + x.b; }
};
inline op::custom_state<add_floats, float, lift_two_floats> two_floats_sum() {
  return op::make_op(add_floats{}, 0.0f, lift_two_floats{});
}

// count elements of small integers, so that every sum is exact in float whatever the order.
class misaligned_two_floats {
 public:
  misaligned_two_floats(index_t count, std::uint64_t seed)
      : host_(2 * static_cast<std::size_t>(count)), raw_(2 * static_cast<std::size_t>(count) + 1) {
    std::mt19937_64 g(seed);
    for (auto& v : host_) v = static_cast<float>(g() % 16);
    TALLY_TEST_CHECK_CUDA(
        cudaMemcpy(raw_.get() + 1, host_.data(), host_.size() * sizeof(float), cudaMemcpyHostToDevice));
  }
  const two_floats* data() const { return reinterpret_cast<const two_floats*>(raw_.get() + 1); }
  // Element j's sum, as the operator's lift takes it.
  double element(index_t j) const {
    return static_cast<double>(host_[2 * static_cast<std::size_t>(j)]) + host_[2 * static_cast<std::size_t>(j) + 1];
  }

 private:
  std::vector<float> host_;
  device_buffer<float> raw_;
};

}  // namespace tally::test
