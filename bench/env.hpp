// What every row shares: the device, the stream all work is enqueued on, the measured ceiling and
// the inputs. Built once in main(); rows and algorithms hold references to it.
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "ceiling.hpp"
#include "device.hpp"
#include "device_buffer.hpp"
#include "inputs.hpp"

namespace bench {

class bench_env {
 public:
  explicit bench_env(device_info dev) : device_(std::move(dev)) {}

  const device_info& device() const { return device_; }
  cudaStream_t stream() const { return stream_.get(); }

  const bandwidth_ceiling& ceiling() const { return ceiling_; }
  void set_ceiling(const bandwidth_ceiling& c) { ceiling_ = c; }

  // Allocates and fills the input of one element type for rows of up to max_n elements.
  void make_inputs(element e, std::int64_t max_n) {
    inputs_[e] = std::make_unique<input_slices>(e, max_n, device_.l2_bytes, stream());
  }
  const input_slices& inputs(element e) const {
    const auto it = inputs_.find(e);
    if (it == inputs_.end()) throw std::logic_error(std::string("no input allocated for ") + type_name(e));
    return *it->second;
  }

 private:
  device_info device_;
  owned_stream stream_;
  bandwidth_ceiling ceiling_;
  std::map<element, std::unique_ptr<input_slices>> inputs_;
};

}  // namespace bench
