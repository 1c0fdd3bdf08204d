// The kernel every reduce_policy composes into: load -> block -> store.
//
//   pass 1 (many blocks): in[0, n) -> one partial state per block
//   pass 2 (one block):   partials -> the caller's output
// A grid of one block does both at once. The same kernel template serves both passes; only the
// input type, the lift and the store differ.
#pragma once
#include <tally/policies/config.cuh>

namespace tally::detail {

// Pass 1 lift: element -> state.
template <class Op, class Acc>
struct lift_element {
  Op op;
  template <class T>
  TALLY_DEVICE auto operator()(const T& x, index_t i) const { return op.template lift<Acc>(x, i); }
};

// Pass 2 lift: partials already are states.
struct lift_state {
  template <class S>
  TALLY_DEVICE S operator()(const S& s, index_t) const { return s; }
};

template <class S>
struct store_partial {
  S* partials;
  TALLY_DEVICE void operator()(const S& s) const { partials[blockIdx.x] = s; }
};

template <class Out, class Op>
struct store_result {
  Out* out;
  Op op;
  template <class S>
  TALLY_DEVICE void operator()(const S& s) const { *out = op.template finalize<Out>(s); }
};

template <class P, class Load, class Acc, class In, class Op, class Lift, class Store>
__global__ void __launch_bounds__(P::threads) reduce_kernel(const In* __restrict__ in, index_t n, Op op, Lift lift,
                                                            Store store) {
  using S = typename Op::template state<Acc>;
  S acc = Load::template consume<P::threads>(in, n, op.template identity<Acc>(), lift, op);
  auto smem = P::smem::template acquire<S, P::smem_slots>();
  acc = P::block::template reduce<P::threads>(acc, smem, op);
  if (threadIdx.x == 0) store(acc);
}

}  // namespace tally::detail
