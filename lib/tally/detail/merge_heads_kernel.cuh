// Seed 003's merges: one block, thread l holds the head of list l, and every step the block picks the
// smallest head (the lowest list on a tie: stable), writes it and advances that list. n steps of a
// block-wide choice: a teaching composition, slow by design. How the block picks is the Select policy
// (merge_select below): the seed's merge_array1 (one thread scans the heads), merge_array6 (shared
// atomicMin on the key, then on the thread), merge_array5 (a tree of (key, list) pairs, here any
// block policy) and its hybrid (groups of G on their own slot first).
//
// Select contract: pick<Threads>(rank, has, storage) is called by every thread of the block; rank is
// the key_order rank of the thread's head and `has` whether it has one. It returns, in every thread,
// the lowest thread among those with the smallest rank, or -1 when no thread has a head. Each pick
// begins with a barrier, so it may reuse its storage from the last one.
#pragma once
#include <climits>

#include <tally/policies/block.cuh>
#include <tally/policies/block_atomic.cuh>
#include <tally/policies/config.cuh>
#include <tally/policies/key_order.cuh>

namespace tally::merge_select {

// merge_array1: thread 0 scans the heads in list order (strict <: the lowest list wins a tie).
struct single_thread {
  static constexpr const char* name = "single_thread";
  template <class R, int Threads>
  struct storage {
    R rank[Threads];
    bool has[Threads];
    int winner;
  };
  template <int Threads, class R>
  TALLY_DEVICE static int pick(R rank, bool has, storage<R, Threads>& s) {
    __syncthreads();
    s.rank[threadIdx.x] = rank;
    s.has[threadIdx.x] = has;
    __syncthreads();
    if (threadIdx.x == 0) {
      int w = -1;
      for (int l = 0; l < Threads; ++l)
        if (s.has[l] && (w < 0 || s.rank[l] < s.rank[w])) w = l;
      s.winner = w;
    }
    __syncthreads();
    return s.winner;
  }
};

// merge_array6: every thread with a head folds its rank into one slot with atomicMin (block::atomic's
// shared-memory atomic), then the threads whose head equals the minimum fold their index into
// another: the lowest wins.
struct atomic_min {
  static constexpr const char* name = "atomic_min";
  template <class R, int Threads>
  struct storage {
    R min_rank;
    int min_thread;
  };
  template <int Threads, class R>
  TALLY_DEVICE static int pick(R rank, bool has, storage<R, Threads>& s) {
    __syncthreads();
    if (threadIdx.x == 0) {
      s.min_rank = ~R{0};
      s.min_thread = INT_MAX;
    }
    __syncthreads();
    if (has) block::detail::fold_atomically<op::min>(s.min_rank, rank);
    __syncthreads();
    if (has && rank == s.min_rank) atomicMin(&s.min_thread, static_cast<int>(threadIdx.x));
    __syncthreads();
    return s.min_thread == INT_MAX ? -1 : s.min_thread;
  }
};

// The seed's hybrid: groups of G fold into their own slot first, then the slots into slot 0.
template <int G>
struct hybrid {
  static_assert(G >= 2 && (G & (G - 1)) == 0, "tally::merge_select::hybrid<G>: G is a power of two, at least 2");
  static constexpr const char* name = "hybrid";
  template <class R, int Threads>
  struct storage {
    R min_rank[Threads / G > 0 ? Threads / G : 1];
    int min_thread;
  };
  template <int Threads, class R>
  TALLY_DEVICE static int pick(R rank, bool has, storage<R, Threads>& s) {
    constexpr int groups = Threads / G > 0 ? Threads / G : 1;
    __syncthreads();
    if (threadIdx.x < groups) s.min_rank[threadIdx.x] = ~R{0};
    if (threadIdx.x == 0) s.min_thread = INT_MAX;
    __syncthreads();
    if (has) block::detail::fold_atomically<op::min>(s.min_rank[threadIdx.x / G], rank);
    __syncthreads();
    if (threadIdx.x > 0 && threadIdx.x < groups) block::detail::fold_atomically<op::min>(s.min_rank[0], static_cast<R>(s.min_rank[threadIdx.x]));
    __syncthreads();
    if (has && rank == s.min_rank[0]) atomicMin(&s.min_thread, static_cast<int>(threadIdx.x));
    __syncthreads();
    return s.min_thread == INT_MAX ? -1 : s.min_thread;
  }
};

// merge_array5: the block reduces (rank, thread) pairs to the smallest with Block, any block policy.
template <class Block>
struct tree {
  static constexpr const char* name = "tree";
  template <class R>
  struct head {
    R rank;
    int thread;  // INT_MAX: no head
  };
  struct smaller {
    template <class H>
    TALLY_DEVICE H operator()(const H& a, const H& b) const {
      if (b.thread == INT_MAX) return a;
      if (a.thread == INT_MAX) return b;
      return (b.rank < a.rank || (b.rank == a.rank && b.thread < a.thread)) ? b : a;
    }
  };
  template <class R, int Threads>
  struct storage {
    head<R> slots[Block::template slots<Threads>];
    int winner;
  };
  template <int Threads, class R>
  TALLY_DEVICE static int pick(R rank, bool has, storage<R, Threads>& s) {
    __syncthreads();
    const head<R> mine{rank, has ? static_cast<int>(threadIdx.x) : INT_MAX};
    struct view {
      head<R>* data;
      TALLY_DEVICE head<R>& operator[](int i) const { return data[i]; }
    };
    const head<R> total = Block::template reduce<Threads>(mine, view{s.slots}, smaller{});
    __syncthreads();  // the block policy may leave its slots unordered with this write
    if (threadIdx.x == 0) s.winner = total.thread == INT_MAX ? -1 : total.thread;
    __syncthreads();
    return s.winner;
  }
};

}  // namespace tally::merge_select

namespace tally::detail {

// One block of Threads threads; thread l < lists holds list l. out[offsets[0], offsets[lists]).
template <class Select, int Threads, class K, class Offset>
__global__ void __launch_bounds__(Threads) merge_heads_kernel(const K* __restrict__ in, K* __restrict__ out,
                                                              const Offset* __restrict__ offsets, index_t lists) {
  using R = typename key_order<K>::rank_t;
  __shared__ typename Select::template storage<R, Threads> s;
  const auto l = static_cast<index_t>(threadIdx.x);
  index_t pos = 0, end = 0;
  if (l < lists) {
    pos = static_cast<index_t>(offsets[l]);
    end = static_cast<index_t>(offsets[l + 1]);
  }
  bool has = pos < end;
  K v = has ? in[pos] : K{};
  const index_t first = static_cast<index_t>(offsets[0]), n = static_cast<index_t>(offsets[lists]) - first;
  for (index_t i = 0; i < n; ++i) {
    const int w = Select::template pick<Threads>(has ? key_order<K>::rank(v) : R{0}, has, s);
    if (static_cast<int>(threadIdx.x) == w) {
      out[first + i] = v;
      has = ++pos < end;
      if (has) v = in[pos];
    }
  }
}

}  // namespace tally::detail
