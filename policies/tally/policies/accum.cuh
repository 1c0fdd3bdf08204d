// Accumulator policies: which type a reduction accumulates in, given the input type T.
//
//   native  accumulate in T itself (CUB's behaviour; integer sums wrap on overflow)
//   wide    a wider type: int32 -> int64, uint32 -> uint64, __half / __nv_bfloat16 -> float,
//           float -> double; other types accumulate natively
#pragma once
#include <cstdint>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

namespace tally::accum {

namespace detail {
template <class T> struct widen { using type = T; };
template <> struct widen<std::int32_t> { using type = std::int64_t; };
template <> struct widen<std::uint32_t> { using type = std::uint64_t; };
template <> struct widen<__half> { using type = float; };
template <> struct widen<__nv_bfloat16> { using type = float; };
template <> struct widen<float> { using type = double; };
}  // namespace detail

struct native {
  template <class T> using type = T;
  static constexpr const char* name = "native";
};

struct wide {
  template <class T> using type = typename detail::widen<T>::type;
  static constexpr const char* name = "wide";
};

}  // namespace tally::accum
