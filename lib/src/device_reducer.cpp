// tally::device_reducer: one workspace, allocated at construction and large enough for every
// call of <tally/tally.hpp>, so that calls never allocate. The calls themselves are stamped
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

// Every device-wide reduction on the types Ts, every row reduction on the types Rs, every matvec on
// the types Ms, every segmented reduction on the types Ss and every csr_matvec on the types Cs.
template <class... Ts, class... Rs, class... Ms, class... Ss, class... Cs>
std::size_t largest_workspace_bound(detail::type_list<Ts...>, detail::type_list<Rs...>, detail::type_list<Ms...>,
                                    detail::type_list<Ss...>, detail::type_list<Cs...>) {
  return std::max({detail::workspace_bound<Ts>()..., detail::rows_workspace_bound<Rs>()...,
                   detail::matvec_workspace_bound<Ms>()..., detail::segments_workspace_bound<Ss>()...,
                   detail::csr_workspace_bound<Cs>()...});
}

}  // namespace

device_reducer::device_reducer() : impl_(std::make_unique<detail::device_reducer_impl>(where)) {
  detail::naming(where, [this] {
    // Every element type of tally.hpp (each bound covers every operation on that type); the row
    // reductions and the segmented reductions have the same ones.
    using rows_and_segments = detail::type_list<std::int32_t, std::int64_t, float, double, __half, __nv_bfloat16>;
    impl_->bytes = largest_workspace_bound(
        detail::type_list<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t, float, double, __half, __nv_bfloat16>{},
        rows_and_segments{}, detail::type_list<float, double, __half, __nv_bfloat16>{}, rows_and_segments{},
        detail::type_list<float, double>{});
  });
  // Zeroed once, and waited for, so a first call on any stream finds its ticket at 0; every call
  // leaves it 0 again.
  impl_->workspace.reserve(impl_->bytes);
}

// Out of line: std::unique_ptr needs the complete impl type to destroy it.
device_reducer::~device_reducer() = default;
device_reducer::device_reducer(device_reducer&& other) noexcept = default;
device_reducer& device_reducer::operator=(device_reducer&& other) noexcept = default;

int device_reducer::device() const noexcept { return impl_ ? impl_->workspace.device() : -1; }

std::size_t device_reducer::workspace_bytes() const noexcept { return impl_ ? impl_->bytes : 0; }

}  // namespace tally
