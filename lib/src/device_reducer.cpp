// tally::device_reducer: one workspace, allocated at construction and large enough for every
// reduction of <tally/tally.hpp>, so that calls never allocate. The calls themselves are stamped
// with the free functions in the per-type source files. Plain C++: no kernel is instantiated here.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <utility>

#include <tally/detail/device_cache.hpp>
#include <tally/tally.hpp>

#include "device_reducer_impl.hpp"

namespace tally {

namespace {

constexpr const char* where = "tally::device_reducer";

template <class... Ts>
std::size_t largest_workspace_bound() {
  return std::max({detail::workspace_bound<Ts>()...});
}

}  // namespace

device_reducer::device_reducer() : impl_(std::make_unique<detail::device_reducer_impl>()) {
  impl_->device = detail::current_device(where);
  detail::naming(where, [this] {
    // Every element type of tally.hpp (each bound covers every operation on that type).
    impl_->bytes = largest_workspace_bound<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t, float, double,
                                           __half, __nv_bfloat16>();
  });
  if (impl_->bytes == 0) return;
  detail::check_cuda(cudaMalloc(&impl_->workspace, impl_->bytes), where, "cudaMalloc(workspace)");
  // reducer::run (reduce.cuh) wants a workspace whose ticket counter is 0 before its first use;
  // every call leaves it 0 again. Zeroing all of it once covers any layout, and waiting for the
  // memset here means that a first call on any stream, blocking or not, finds it done.
  detail::check_cuda(cudaMemsetAsync(impl_->workspace, 0, impl_->bytes, cudaStreamLegacy), where,
                     "cudaMemsetAsync(workspace)");
  detail::check_cuda(cudaStreamSynchronize(cudaStreamLegacy), where, "cudaStreamSynchronize");
}

// Out of line: std::unique_ptr needs the complete impl type to destroy it.
device_reducer::~device_reducer() = default;
device_reducer::device_reducer(device_reducer&& other) noexcept = default;
device_reducer& device_reducer::operator=(device_reducer&& other) noexcept = default;

int device_reducer::device() const noexcept { return impl_ ? impl_->device : -1; }

std::size_t device_reducer::workspace_bytes() const noexcept { return impl_ ? impl_->bytes : 0; }

}  // namespace tally
