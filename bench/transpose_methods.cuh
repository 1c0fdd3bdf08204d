// The tally compositions the transpose benchmark times, as type-erased methods. Included by one
// translation unit per element type.
#pragma once
#include <tally/transpose.cuh>

#include "transpose_bench.hpp"

namespace bench::transpose {

template <class T, class P>
method tally_method(const char* type) {
  method m;
  m.type = type;
  m.name = P::name();
  m.element_bytes = sizeof(T);
  m.is_tally = true;
  m.is_default = std::is_same_v<P, tally::default_transpose_policy<T>>;
  m.run = [](const void* in, void* out, std::int64_t rows, std::int64_t cols, cudaStream_t stream) {
    tally::transpose<P>(static_cast<const T*>(in), static_cast<T*>(out), rows, cols, stream);
  };
  return m;
}

// Every named composition (tally::transpose_policies::all): the classical layouts with four elements a thread
// (32 x 8 threads), then the candidates with more bytes in flight (see tally/transpose_policy.cuh).
template <class T, class... Ps>
void add_tally_methods(method_list& out, const char* type, tally::policy_list<Ps...>) {
  (out.push_back(tally_method<T, Ps>(type)), ...);
}

// Then the default, where it is not one of them (it launches with PDL, "_pdl": the same composition
// launched plainly is in the list, so a run shows what PDL brings).
template <class T, class... Ps>
constexpr bool listed(tally::policy_list<Ps...>) {
  return (std::is_same_v<tally::default_transpose_policy<T>, Ps> || ...);
}

template <class T>
void add_tally_methods(method_list& out, const char* type) {
  add_tally_methods<T>(out, type, tally::transpose_policies::all{});
  if constexpr (!listed<T>(tally::transpose_policies::all{}))
    out.push_back(tally_method<T, tally::default_transpose_policy<T>>(type));
}

}  // namespace bench::transpose
