// What a <tally/tally.hpp> offsets_plan holds: the template's plan (segments_plan of
// <tally/reduce_segments.cuh>) over 32- or 64-bit offsets, and the maker whose calls it serves
// ("tally::plan_segment_sum<float>"); and the library's way in (offsets_plan_access).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>

#include <tally/reduce_segments.cuh>
#include <tally/tally.hpp>

namespace tally::detail {

// The template's plan over either offsets type.
using offsets_split = std::variant<segments_plan<std::int32_t>, segments_plan<std::int64_t>>;

struct offsets_plan_impl {
  std::string made_by;
  offsets_split split;
};

// The names the plans' makers take in messages.
template <class T>
inline constexpr const char* element_name = nullptr;
template <> inline constexpr const char* element_name<std::int32_t> = "std::int32_t";
template <> inline constexpr const char* element_name<std::int64_t> = "std::int64_t";
template <> inline constexpr const char* element_name<float> = "float";
template <> inline constexpr const char* element_name<double> = "double";
template <> inline constexpr const char* element_name<__half> = "__half";
template <> inline constexpr const char* element_name<__nv_bfloat16> = "__nv_bfloat16";

// The makers' names ("tally::plan_segment_sum<float>"), made once: every planned call compares one.
template <class T>
const std::string& sum_plan_maker() {
  static const std::string name = std::string("tally::plan_segment_sum<") + element_name<T> + ">";
  return name;
}
template <class T>
const std::string& csr_plan_maker() {
  static const std::string name = std::string("tally::plan_csr_matvec<") + element_name<T> + ">";
  return name;
}

struct offsets_plan_access {
  static offsets_plan make(std::string made_by, offsets_split split) {
    offsets_plan plan;
    plan.impl_.reset(new offsets_plan_impl{std::move(made_by), std::move(split)});
    return plan;
  }

  // The split of a plan that `maker` made, for the call `where`; throws naming the problem (an
  // empty plan, or one of another maker) before any CUDA call.
  static const offsets_split& split_for(const offsets_plan& plan, const std::string& maker, const char* where) {
    if (plan.impl_ == nullptr) throw error(std::string(where) + ": the plan is empty (default-constructed or moved from)");
    if (plan.impl_->made_by != maker)
      throw error(std::string(where) + ": a plan made by " + plan.impl_->made_by + " cannot serve this call, which takes one made by " +
                  maker);
    return plan.impl_->split;
  }
};

}  // namespace tally::detail
