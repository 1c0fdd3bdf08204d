// What a row strategy's launch receives: the types of the call (rows_types, which the row kernels take
// as their first template argument) and the call itself (rows_call: arguments, operator, workspace,
// stream), with the few helpers every strategy's launch uses.
#pragma once
#include <cstddef>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <tally/detail/launch.cuh>
#include <tally/detail/rows_items.cuh>
#include <tally/policies/load.cuh>
#include <tally/rows_plan.cuh>

namespace tally::detail {

template <class Launch, class Acc, class T, class Out, class Op, class Xform>
struct rows_types {
  using launch = Launch;  // launch policy (launch.cuh)
  using acc = Acc;        // accumulator type
  using input = T;        // element type
  using out = Out;        // result type
  using op = Op;
  using xform = Xform;    // plain_rows or dot_rows<T> (rows_items.cuh)
  using state = typename Op::template state<Acc>;
  using args = rows_args<T, Out, Xform>;
  // Elements per 16-byte item where T allows vectors, else 1.
  static constexpr int vector_elems = load::detail::vectorizable<T> ? static_cast<int>(16 / sizeof(T)) : 1;
};

template <class K>
struct rows_call {
  using types = K;
  typename K::args args;
  typename K::op op;
  void* workspace;
  cudaStream_t stream;
  bool programmatic;  // the launch policy asks for PDL and the device has it
  const char* where;

  // Queues kernel(args, op, extra...) with the plan's grid and block.
  template <class... Params, class... Extra>
  void queue(void (*kernel)(Params...), const rows_plan& p, std::size_t dynamic_smem, Extra... extra) const {
    queue_kernel(kernel, p.blocks, p.threads, dynamic_smem, stream, programmatic, where, args, op, extra...);
  }

  // f(std::integral_constant<int, V>{}) with V the plan's elements per item: the kernels are templates on it.
  template <class F>
  void with_item_elems(const rows_plan& p, F f) const {
    if (p.vectorized) {
      if constexpr (K::vector_elems > 1) f(std::integral_constant<int, K::vector_elems>{});
    } else {
      f(std::integral_constant<int, 1>{});
    }
  }

  // The plan's tickets and partials in the workspace (null when it has none).
  unsigned* tickets(const rows_plan& p) const { return p.tickets > 0 ? static_cast<unsigned*>(workspace) : nullptr; }
  typename K::state* partials(const rows_plan& p) const {
    return p.partials > 0 ? reinterpret_cast<typename K::state*>(static_cast<unsigned char*>(workspace) + p.partials_offset())
                          : nullptr;
  }
};

}  // namespace tally::detail
