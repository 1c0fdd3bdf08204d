// <tally/tally.hpp>'s offsets_plan: its special members, where its contents are complete.
#include "offsets_plan.cuh"

namespace tally {

offsets_plan::offsets_plan() noexcept = default;
offsets_plan::~offsets_plan() = default;
offsets_plan::offsets_plan(offsets_plan&& other) noexcept = default;
offsets_plan& offsets_plan::operator=(offsets_plan&& other) noexcept = default;

bool offsets_plan::empty() const noexcept { return impl_ == nullptr; }

index_t offsets_plan::num_segments() const noexcept {
  if (impl_ == nullptr) return 0;
  return std::visit([](const auto& split) { return split.segments(); }, impl_->split);
}

}  // namespace tally
