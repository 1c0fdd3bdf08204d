// The kernel every reduce_policy composes into: load -> block -> finish.
//
//   pass 1 (many blocks): in[0, n) -> one partial state per block
//   pass 2 (one block):   partials -> the caller's output
// A grid of one block does both at once. With a grid policy that finishes in the last block, the
// block that completes last runs pass 2 inside the same launch. The same kernel template serves
// every case; only the input type, the lift and the finish differ.
#pragma once
#include <type_traits>
#include <utility>

#include <tally/policies/config.cuh>
#include <tally/policies/load.cuh>
#include <tally/detail/launch.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/detail/last_block.cuh>

namespace tally::detail {

// Pass 1 lift: element -> state.
template <class Op, class Acc>
struct lift_element {
  Op op;
  template <class T>
  TALLY_DEVICE auto operator()(const T& x, index_t i) const { return op.template lift<Acc>(x, i); }
  // E consecutive elements at once, where the operator can (lift_run: arg_min, arg_max).
  // (O = Op makes the member lookup depend on this template, so that it is SFINAE, not an error.)
  template <class T, int E, class O = Op>
  TALLY_DEVICE auto run(const T (&v)[E], index_t first) const
      -> decltype(std::declval<const O&>().template lift_run<Acc>(v, first)) {
    return static_cast<const O&>(op).template lift_run<Acc>(v, first);
  }
  // E consecutive elements folded into acc at once, where the operator can (fold_run: op::sum
  // into binned states).
  template <class S, class T, int E, class O = Op>
  TALLY_DEVICE auto fold_run(const S& acc, const T (&v)[E]) const
      -> decltype(std::declval<const O&>().template fold_run<Acc>(acc, v)) {
    return static_cast<const O&>(op).template fold_run<Acc>(acc, v);
  }
};

// Pass 2 lift: partials already are states.
struct lift_state {
  template <class S>
  TALLY_DEVICE S operator()(const S& s, index_t) const { return s; }
};

// Finishes: called by every thread of the block with the block total (valid in thread 0).
template <class S>
struct write_partial {
  S* partials;
  template <class P, class Acc, class Op, class View>
  TALLY_DEVICE void finish(const S& total, View, Op) const {
    if (threadIdx.x == 0) store_words(partials + blockIdx.x, total);
  }
};

template <class Out>
struct write_result {
  Out* out;
  template <class P, class Acc, class Op, class S, class View>
  TALLY_DEVICE void finish(const S& total, View, Op op) const {
    if (threadIdx.x == 0) store_words(out, op.template finalize<Out>(total));
  }
};

// Single launch: each block writes its partial and takes a ticket; the block holding the last
// ticket combines all partials in a fixed order (thread t folds partials t, t + B, ..., then the
// block policy), exactly as the second launch would, so results are bit-identical to two passes.
// It then resets the ticket to 0 for the next call.
template <class S, class Out>
struct last_block_combines {
  S* partials;
  unsigned* ticket;
  Out* out;
  template <class P, class Acc, class Op, class View>
  TALLY_DEVICE void finish(const S& total, View smem, Op op) const {
    __shared__ bool last;
    if (threadIdx.x == 0) {
      store_words(partials + blockIdx.x, total);
      last = take_last_ticket(ticket, gridDim.x);
    }
    __syncthreads();
    if (!last) return;  // uniform across the block
    S v = fold_partials<P::threads>(partials, gridDim.x, op.template identity<Acc>(), op);
    v = P::block::template reduce<P::threads>(v, smem, op);
    if (threadIdx.x == 0) {
      store_words(out, op.template finalize<Out>(v));
      *ticket = 0;
    }
  }
};

template <class P, class Load, class Acc, class In, class Op, class Lift, class Finish>
__global__ void __launch_bounds__(P::threads) reduce_kernel(const In* __restrict__ in, index_t n, Op op, Lift lift,
                                                            Finish finish) {
  using S = typename Op::template state<Acc>;
  if constexpr (P::launch::programmatic) wait_for_previous_grid();  // before any global access
  S acc = Load::template consume<P::threads>(in, n, op.template identity<Acc>(), lift, op);
  auto smem = P::smem::template acquire<S, P::smem_slots>();
  acc = P::block::template reduce<P::threads>(acc, smem, op);
  finish.template finish<P, Acc>(acc, smem, op);  // a finish that reuses smem has a barrier first
}

}  // namespace tally::detail
