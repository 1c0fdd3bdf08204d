// Load policies: how each thread walks its share of the input and folds it into its own state.
//
// Contract (check_load_policy; docs/policies.md):
//   name                                    static constexpr const char*
//   fixed_order                             static constexpr bool
//   items<T>                                static constexpr int: elements a thread takes per tile
//   consume<Threads>(in, n, acc, lift, op)  acc combined, in an order fixed by (gridDim, blockIdx,
//                                           threadIdx), with lift(in[i], i) for every i this thread owns
// A tile is Threads * items<T> elements; the grid's blocks share the tiles, and any grid size must
// cover any n. consume reads in[0, n) only, never writes it, and uses no shared memory or barrier.
//
// Members, all grid-stride over tiles (block b takes tiles b, b + gridDim.x, ...), 64-bit offsets,
// the k-th item of thread t at offset k * Threads + t (coalesced); full tiles load all their items
// before combining any (loads in flight), the last partial tile is guarded element by element:
//   single     one element per thread per tile
//   unroll<K>  K independent loads in flight (K = 2, 4, 8)
//   vector<V>  V 16-byte loads in flight where the pointer allows it: the unaligned head (fewer
//              than 16 bytes) and the tail are read one element at a time. Types whose size does
//              not divide 16 fall back to unroll<V>.
#pragma once
#include <cstdint>
#include <type_traits>
#include <utility>

#include "config.cuh"
#include "contract.cuh"

namespace tally::load {

namespace detail {

// Grid-stride walk over `count` items of type U in tiles of Threads * K; fold(acc, item, j) takes
// item j. The order of folds is fixed by (gridDim, blockIdx, threadIdx): results are deterministic.
template <int Threads, int K, class U, class S, class Fold>
TALLY_DEVICE S fold_tiles(const U* __restrict__ items, index_t count, S acc, Fold fold) {
  constexpr index_t tile = index_t{Threads} * K;
  const index_t step = index_t{gridDim.x} * tile;
  const int tid = threadIdx.x;
  for (index_t base = index_t{blockIdx.x} * tile; base < count; base += step) {
    if (base + tile <= count) {
      U v[K];
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = items[base + k * Threads + tid];
#pragma unroll
      for (int k = 0; k < K; ++k) acc = fold(acc, v[k], base + k * Threads + tid);
    } else {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const index_t j = base + k * Threads + tid;
        if (j < count) acc = fold(acc, items[j], j);
      }
    }
  }
  return acc;
}

template <class T, class Lift, class Op>
struct fold_element {
  Lift lift;
  Op op;
  template <class S>
  TALLY_DEVICE S operator()(const S& acc, const T& x, index_t i) const { return op(acc, lift(x, i)); }
};

template <class T>
inline constexpr bool vectorizable = sizeof(T) <= 16 && 16 % sizeof(T) == 0;

// Whether Op has append(a, b): a combine for a state b that follows a in index order (every index
// of b above every index of a, a not the identity). Index-carrying operators (arg_min, arg_max)
// have one that skips the index comparison of ties.
template <class Op, class S, class = void>
struct has_append : std::false_type {};
template <class Op, class S>
struct has_append<Op, S, std::void_t<decltype(std::declval<const Op&>().append(std::declval<const S&>(), std::declval<const S&>()))>>
    : std::true_type {};

// Whether Lift folds a run of E consecutive elements into a state in one call, lift.fold_run(acc, v)
// (the element lift of op::sum into binned states).
template <class Lift, class S, class T, int E, class = void>
struct has_fold_run : std::false_type {};
template <class Lift, class S, class T, int E>
struct has_fold_run<Lift, S, T, E,
                    std::void_t<decltype(std::declval<const Lift&>().fold_run(std::declval<const S&>(), std::declval<const T (&)[E]>()))>>
    : std::true_type {};

// Whether Lift lifts a run of E consecutive elements in one call, lift.run(v, first) (the element
// lift of an operator with lift_run: arg_min, arg_max).
template <class Lift, class T, int E, class = void>
struct has_lift_run : std::false_type {};
template <class Lift, class T, int E>
struct has_lift_run<Lift, T, E,
                    std::void_t<decltype(std::declval<const Lift&>().run(std::declval<const T (&)[E]>(), index_t{}))>>
    : std::true_type {};

}  // namespace detail

template <int K>
struct unroll {
  static_assert(K >= 1 && K <= 16, "tally::load::unroll<K>: K must be in [1, 16]");
  static constexpr const char* name = K == 1 ? "single" : K == 2 ? "unroll2" : K == 4 ? "unroll4" : K == 8 ? "unroll8" : "unroll";
  static constexpr bool fixed_order = true;
  template <class T> static constexpr int items = K;

  template <int Threads, class T, class S, class Lift, class Op>
  TALLY_DEVICE static S consume(const T* __restrict__ in, index_t n, S acc, Lift lift, Op op) {
    return detail::fold_tiles<Threads, K>(in, n, acc, detail::fold_element<T, Lift, Op>{lift, op});
  }
};

using single = unroll<1>;

template <int V = 2>
struct vector {
  static_assert(V >= 1 && V <= 8, "tally::load::vector<V>: V (16-byte loads in flight) must be in [1, 8]");
  static constexpr const char* name = V == 1 ? "vector1" : V == 2 ? "vector2" : V == 4 ? "vector4" : "vector";
  static constexpr bool fixed_order = true;

  template <class T>
  static constexpr int lanes = detail::vectorizable<T> ? static_cast<int>(16 / sizeof(T)) : 1;  // elements per 16 bytes
  template <class T> static constexpr int items = V * lanes<T>;

  template <class T>
  struct alignas(16) chunk {
    T v[lanes<T>];
  };

  template <int Threads, class T, class S, class Lift, class Op>
  TALLY_DEVICE static S consume(const T* __restrict__ in, index_t n, S acc, Lift lift, Op op) {
    if constexpr (!detail::vectorizable<T>) {
      return unroll<V>::template consume<Threads>(in, n, acc, lift, op);
    } else {
      constexpr int E = lanes<T>;
      const detail::fold_element<T, Lift, Op> fold{lift, op};
      const index_t gtid = index_t{blockIdx.x} * Threads + threadIdx.x;
      // Elements before the first 16-byte boundary (in is at least sizeof(T)-aligned).
      const auto misalign = static_cast<index_t>(reinterpret_cast<std::uintptr_t>(in) % 16);
      const index_t to_boundary = misalign == 0 ? 0 : (16 - misalign) / index_t{sizeof(T)};
      const index_t head = to_boundary < n ? to_boundary : n;
      const index_t chunks = (n - head) / E;
      const index_t tail = head + chunks * E;

      if (gtid < head) acc = fold(acc, in[gtid], gtid);
      acc = detail::fold_tiles<Threads, V>(
          reinterpret_cast<const chunk<T>*>(in + head), chunks, acc,
          [&](const S& a, const chunk<T>& c, index_t j) {
            const index_t first = head + j * E;
            if constexpr (detail::has_lift_run<Lift, T, E>::value) {
              return op(a, lift.run(c.v, first));  // the chunk lifted as one state, then combined
            } else if constexpr (detail::has_append<Op, S>::value) {
              // The chunk's elements first (consecutive indices: append needs no index comparison),
              // then the chunk against the running state: a fixed order, the same result.
              S r = lift(c.v[0], first);
#pragma unroll
              for (int e = 1; e < E; ++e) r = op.append(r, lift(c.v[e], first + e));
              return op(a, r);
            } else if constexpr (detail::has_fold_run<Lift, S, T, E>::value) {
              return lift.fold_run(a, c.v);  // the chunk folded with one check
            } else {
              S r = a;
#pragma unroll
              for (int e = 0; e < E; ++e) r = fold(r, c.v[e], first + e);
              return r;
            }
          });
      if (tail + gtid < n) acc = fold(acc, in[tail + gtid], tail + gtid);
      return acc;
    }
  }
};

namespace detail {
// Probed with an element type of the checks' own (probe_state): see block.cuh's slots_member for why.
template <class L> using items_member = std::enable_if_t<std::is_convertible_v<decltype(L::template items<tally::detail::probe_state>), int>>;
template <class L>
using consume_member = std::enable_if_t<std::is_convertible_v<
    decltype(L::template consume<256>(std::declval<const float*>(), index_t{}, int{}, tally::detail::probe_lift{},
                                      tally::detail::probe_op{})),
    int>>;
}  // namespace detail

template <class L>
constexpr bool check_load_policy() {
  using tally::detail::is_detected;
  static_assert(is_detected<tally::detail::name_member, L>, "tally load policy: missing 'static constexpr const char* name'");
  static_assert(is_detected<tally::detail::fixed_order_member, L>,
                "tally load policy: missing 'static constexpr bool fixed_order' (whether its order of combination is fixed)");
  static_assert(is_detected<detail::items_member, L>,
                "tally load policy: missing 'template <class T> static constexpr int items' (elements a thread takes per tile)");
  static_assert(is_detected<detail::consume_member, L>,
                "tally load policy: missing 'template <int Threads, class T, class S, class Lift, class Op> static S "
                "consume(const T* in, index_t n, S acc, Lift lift, Op op)'");
  return true;
}

}  // namespace tally::load
