// What the row kernels read and fold: a row is a sequence of items, each a 16-byte chunk of
// V = 16 / sizeof(T) elements (vectorized plans) or one element; the N % V elements after the last
// whole item are read one by one. A transform decides what an element contributes:
//
//   plain_rows   reduce_rows: A[i][j] itself (the operator's lift casts it to the accumulator)
//   dot_rows<T>  matvec: A[i][j] * x[j] in the accumulator type; x is read in items of the same
//                shape as A's, so a vectorized plan needs x 16-byte aligned too
//
// The index an element is lifted with is its column j (arg_min / arg_max report columns).
#pragma once
#include <cstring>
#include <type_traits>

#include <tally/detail/load_evict_first.cuh>
#include <tally/policies/accum.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/op.cuh>

namespace tally::detail {

template <class T, int V>
struct alignas(V == 1 ? alignof(T) : 16) row_item {
  T v[V];
};

struct plain_rows {
  template <class Item> struct no_weights {};
  template <class Item>
  TALLY_DEVICE no_weights<Item> weights(index_t) const { return {}; }
  template <class Acc, class T, class W>
  TALLY_DEVICE const T& apply(const T& a, const W&, int) const { return a; }
};

template <class T>
struct dot_rows {
  const T* x;
  template <class Item>
  TALLY_DEVICE Item weights(index_t item) const { return reinterpret_cast<const Item*>(x)[item]; }
  template <class Acc, class W>
  TALLY_DEVICE Acc apply(const T& a, const W& w, int e) const {
    static_assert(accum::takes_products<Acc>);
    return widen<Acc>(a) * widen<Acc>(w.v[e]);
  }
};

// An item of a row is read once, with the evict-first hint (load_evict_first.cuh): row sums of the
// span kernels read 0.5 - 6 % faster on an H200 with it; matvecs, whose x is read by every row,
// gained on some shapes and lost up to 13 % on others, so they load plainly but for split rows whose
// x fits a quarter of L2 (rows_plan.cuh's stream_a; docs/performance.md).
template <class T>
constexpr bool pairs_of_8_bytes<row_item<T, 2>> = sizeof(T) == 8;  // a row_item of two 8-byte elements

// The transform's weights for item number `item` of every row (matvec: x's item; nothing for plain
// rows). Kernels load them with the rows' items, so that both are in flight together and rows that
// share columns share one load.
template <class Item, class Xform>
TALLY_DEVICE auto item_weights(const Xform& xform, index_t item) {
  return xform.template weights<Item>(item);
}

// acc combined, in element order, with item number `item` of a row (columns item*V ... item*V+V-1),
// given its weights w (item_weights); the second form loads them itself.
template <class Acc, class T, int V, class W, class Xform, class Op, class S>
TALLY_DEVICE S fold_item(S acc, const row_item<T, V>& a, const W& w, index_t item, const Xform& xform, const Op& op) {
  // 16-bit min / max fold an item's elements at once (op.cuh's extreme_run16).
  if constexpr (std::is_same_v<Xform, plain_rows> && is_16bit_floating<T> && has_op_fold_run<Op, Acc, S, T, V>::value) {
    return op.template fold_run<Acc>(acc, a.v);
  } else {
#pragma unroll
    for (int e = 0; e < V; ++e) acc = op(acc, op.template lift<Acc>(xform.template apply<Acc>(a.v[e], w, e), item * V + e));
    return acc;
  }
}
template <class Acc, class T, int V, class Xform, class Op, class S>
TALLY_DEVICE S fold_item(S acc, const row_item<T, V>& a, index_t item, const Xform& xform, const Op& op) {
  return fold_item<Acc>(acc, a, item_weights<row_item<T, V>>(xform, item), item, xform, op);
}

// Everything a row kernel needs to know about one call. items and tail_begin come from the plan.
template <class T, class Out, class Xform>
struct rows_args {
  const T* a;
  index_t m, n, ld;
  Out* out;
  Xform xform;
  index_t items;       // whole items per row
  index_t tail_begin;  // first column after them (n when there is no tail)
};

}  // namespace tally::detail
