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

// Then the default launched with programmatic dependent launch ("_pdl"): whether overlapping the
// launch with the kernel ahead pays for a transpose.
template <class T>
void add_tally_methods(method_list& out, const char* type) {
  add_tally_methods<T>(out, type, tally::transpose_policies::all{});
  out.push_back(tally_method<T, typename tally::default_transpose_policy<T>::template with_launch<tally::launch::pdl>>(type));
}

}  // namespace bench::transpose
