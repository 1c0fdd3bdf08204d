// Shares of one segment length: a block of the segment kernel (segments_kernel.cuh) whose share holds
// whole segments of a single length L reads them as rows, with no end counting, walk or scan
// (docs/segments.md).
//
// The share runs from merge-path point (i, j) to (i1, j1): segment i is open at its start (it may
// have begun in an earlier share), segments i + 1 .. i1 - 1 begin and end inside it, and segment i1
// is open at its end. When its segments average more than short_mean elements (fewer: a short
// share, segments_short_share.cuh) and those R = i1 - i - 1 segments all have length L (their offsets an
// arithmetic progression: the first Threads of them tested in the same trip to memory as L, so that
// a share of mixed lengths costs one trip, the rest with all of a thread's loads in flight), at
// least a row for every group of lanes, and a row fits a staging buffer, the block copies them into
// shared memory in chunks of whole rows with the Hopper bulk copy (cp.async.bulk: one thread issues
// a chunk, no registers hold it in flight), two chunks in flight in the kernel's two tile arrays.
// Groups of G lanes then take a row each from shared memory: G the power of two at or below L / 4
// (1 to 32, known at compile time), each lane every G-th element, a shuffle joining the group, the
// group's first lane writing the result. While the first chunks load, the whole block folds the
// head (segment i's elements in the share) and the tail (segment i1's) from global memory; they
// become the share's two entries, as the tiles would leave them. The order of combination depends
// on the offsets and the grid alone. Before sm_90 no share is read as rows.
#pragma once
#include <cstdint>

#include <cuda/ptx>

#include <tally/detail/segments_carry.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 900
inline constexpr bool bulk_copies = false;  // cp.async.bulk and mbarrier transaction counts need sm_90
#else
inline constexpr bool bulk_copies = true;
#endif

template <class S>
struct row_share_states {
  S head;  // segment i over the share's elements before segment i + 1
  S tail;  // segment i1 over the share's elements from its start
};

// G lanes a segment of `length` elements: the power of two at or below length / 4, 1 to 32.
TALLY_DEVICE int row_share_lanes(index_t length) {
  int lanes = 1;
  while (lanes < warp_size && 8 * index_t{lanes} <= length) lanes *= 2;
  return lanes;
}

// The length L when segments i + 1 .. i1 - 1 all have it, lie within elements [j, j1) of the share,
// give every group of lanes one at least, and are at most max_length long (a row fits a staging
// buffer); otherwise 0. Called by every thread; the answer is uniform over the block.
template <int Threads, class Off>
TALLY_DEVICE index_t one_length(const Off* offsets, index_t base, index_t i, index_t j, index_t i1, index_t j1,
                                index_t max_length) {
  const index_t rows = i1 - i - 1;
  if (!bulk_copies || rows < 1) return 0;
  // The first round's loads go out with those of the first two offsets: a share of mixed lengths
  // costs one trip to memory. Every segment must lie within the share: with offsets that break the
  // precondition, nothing outside it is read.
  const index_t t = static_cast<index_t>(threadIdx.x);
  const index_t first = static_cast<index_t>(offsets[i + 1]);
  const index_t length = static_cast<index_t>(offsets[i + 2]) - first;
  const bool fits = (i + 1 + t > i1 || static_cast<index_t>(offsets[i + 1 + t]) - first == t * length) &&
                    length > 0 && length <= max_length && rows >= Threads / row_share_lanes(length) &&
                    first - base >= j && static_cast<index_t>(offsets[i1]) - base <= j1;
  if (!__syncthreads_and(fits)) return 0;
  // The rest with all of a thread's loads in flight at once, one barrier.
  bool rest = true;
#pragma unroll 4
  for (index_t s = i + 1 + Threads + t; s <= i1; s += Threads)
    rest &= static_cast<index_t>(offsets[s]) - first == (s - i - 1) * length;
  return __syncthreads_and(rest) ? length : 0;
}

// op over elements [from, to) of a segment that begins at element `start`, folded by the whole
// block; every thread gets the state. Called by every thread.
template <int Threads, class K>
TALLY_DEVICE typename K::state fold_by_block(const typename K::args& p, const typename K::op& op, index_t from,
                                             index_t to, index_t start, carry_slot<typename K::state>* slots) {
  using Acc = typename K::acc;
  auto acc = op.template identity<Acc>();
  if (from >= to) return acc;  // uniform
#pragma unroll 1  // a few elements a thread: the head and tail are shorter than a segment
  for (index_t q = from + static_cast<index_t>(threadIdx.x); q < to; q += Threads)
    acc = op(acc, op.template lift<Acc>(p.elements.finish(p.elements.at(q)[0], q), q - start));
  __syncthreads();  // slots may still be read by an earlier scan
  return block_carry<Threads>(false, acc, op.template identity<Acc>(), op, slots).total;
}

// Staging for the rows: the kernel's two tile arrays, a buffer each of `bytes` bytes (16-byte
// aligned), chunk c in buffer c % 2, and one mbarrier a buffer, which counts the bytes of its bulk
// copy.
struct row_staging {
  unsigned char* even;  // chunks 0, 2, 4, ...
  unsigned char* odd;   // chunks 1, 3, 5, ...
  int bytes;            // a buffer
  std::uint64_t* barrier;  // two: even, odd
  TALLY_DEVICE unsigned char* buffer(index_t chunk) const { return chunk & 1 ? odd : even; }
  // By thread 0 before the first chunk: each barrier awaits one arrival (the bulk copy's issuer).
  TALLY_DEVICE void init_barriers() const {
    if constexpr (bulk_copies) {
      cuda::ptx::mbarrier_init(barrier, 1);
      cuda::ptx::mbarrier_init(barrier + 1, 1);
      cuda::ptx::fence_mbarrier_init(cuda::ptx::sem_release, cuda::ptx::scope_cluster);
    }
  }
  // Until chunk `chunk`'s bulk copy has landed in its buffer.
  TALLY_DEVICE void wait(index_t chunk) const {
    if constexpr (bulk_copies) {
      const auto parity = static_cast<std::uint32_t>((chunk >> 1) & 1);
      while (!cuda::ptx::mbarrier_try_wait_parity(barrier + (chunk & 1), parity)) {
      }
    }
  }
};

// A chunk of `count` elements from `src` starts in its buffer at the same offset mod 16 as in
// global memory, so that its 16-byte-aligned interior can be bulk-copied: a buffer holds
// bytes - staging_slack bytes of elements.
inline constexpr int staging_slack = 16;

// Queues the copy of elements [0, count) of src into buf: thread 0 issues the bulk copy of the
// 16-byte-aligned interior (completing on `barrier`), and the threads copy the few elements at
// either end. Called by every thread.
template <class E>
TALLY_DEVICE void stage_chunk(const E* src, int count, unsigned char* buf, std::uint64_t* barrier) {
  const auto a = reinterpret_cast<std::uintptr_t>(src);
  const std::uintptr_t e = a + static_cast<std::uintptr_t>(count) * sizeof(E);
  const std::uintptr_t a16 = (a + 15) & ~std::uintptr_t{15}, e16 = e & ~std::uintptr_t{15};
  E* const dst = reinterpret_cast<E*>(buf + (a & 15));
  const int head = e16 > a16 ? static_cast<int>((a16 - a) / sizeof(E)) : count;  // elements before the interior
  const int tail = e16 > a16 ? static_cast<int>((e16 - a) / sizeof(E)) : count;  // first element after it
  if constexpr (bulk_copies) {
    if (threadIdx.x == 0) {
      const auto bytes = static_cast<std::uint32_t>(e16 > a16 ? e16 - a16 : 0);
      cuda::ptx::mbarrier_arrive_expect_tx(cuda::ptx::sem_release, cuda::ptx::scope_cta, cuda::ptx::space_shared,
                                           barrier, bytes);
      if (bytes > 0) {
        // Read once: the copy's lines leave L2 first (evict_first), as the tiles' loads do.
        std::uint64_t policy;
        asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(policy));
        asm volatile(
            "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.L2::cache_hint [%0], [%1], %2, [%3], %4;" ::"r"(
                static_cast<unsigned>(__cvta_generic_to_shared(dst + head))),
            "l"(src + head), "r"(bytes), "r"(static_cast<unsigned>(__cvta_generic_to_shared(barrier))), "l"(policy)
            : "memory");
      }
    }
  }
  const int t = static_cast<int>(threadIdx.x);
  if (t < head) dst[t] = src[t];
  if (tail + t < count) dst[tail + t] = src[tail + t];
}

// Rows [0, rows) of `length` elements from element `first` on, the results of segments
// first_segment + r, through the staging buffers: chunks of whole rows, two in flight. In a
// chunk, group g of the block (Lanes lanes) takes rows g, g + groups, ...; lane l folds elements
// l, l + Lanes, ... of the row, four loads of shared memory a round, and a shuffle joins the group.
// meanwhile() runs while the first chunks load. Called by every thread.
template <int Lanes, int Threads, class K, class Work>
TALLY_DEVICE void read_rows(const typename K::args& p, const typename K::op& op, index_t first_segment, index_t first,
                            index_t rows, int length, const row_staging& staging, Work meanwhile) {
  using E = typename K::element;
  using S = typename K::state;
  using Acc = typename K::acc;
  constexpr int groups = Threads / Lanes;
  const int t = static_cast<int>(threadIdx.x);
  const int chunk_rows = (staging.bytes - staging_slack) / (length * static_cast<int>(sizeof(E)));
  const index_t chunks = rows / chunk_rows + (rows % chunk_rows != 0);
  const auto rows_of = [&](index_t c) {  // rows in chunk c
    const index_t left = rows - c * chunk_rows;
    return static_cast<int>(left < chunk_rows ? left : chunk_rows);
  };
  const auto src = [&](index_t c) { return p.elements.in + first + c * chunk_rows * length; };  // chunk c
  const auto stage = [&](index_t c) {
    stage_chunk(src(c), rows_of(c) * length, staging.buffer(c), staging.barrier + (c & 1));
  };
  if (t == 0) staging.init_barriers();
  __syncthreads();
  stage(0);
  if (chunks > 1) stage(1);
  meanwhile();

  const int group = t / Lanes;
  const int lane = t % Lanes;
  const int warp_first = (t / warp_size) * (warp_size / Lanes);  // this warp's first group
  for (index_t c = 0; c < chunks; ++c) {
    staging.wait(c);
    __syncthreads();  // the chunk's end elements, copied by the threads, are visible
    const index_t r0 = c * chunk_rows;
    const int chunk = rows_of(c);
    // The chunk sits in its buffer at its source's offset mod 16 (stage_chunk).
    const auto phase = reinterpret_cast<std::uintptr_t>(src(c)) & 15;
    const E* const rows_in = reinterpret_cast<const E*>(staging.buffer(c) + phase);
    for (int w0 = warp_first; w0 < chunk; w0 += groups) {  // warp-uniform, so that every lane meets the shuffles
      const int r = w0 + (group - warp_first);
      S acc = op.template identity<Acc>();
      if (r < chunk) {
        const E* const row = rows_in + r * length;
        int k = lane;
        for (; k + 3 * Lanes < length; k += 4 * Lanes) {
          const E x0 = row[k], x1 = row[k + Lanes], x2 = row[k + 2 * Lanes], x3 = row[k + 3 * Lanes];
          acc = op(acc, op.template lift<Acc>(x0, index_t{k}));
          acc = op(acc, op.template lift<Acc>(x1, index_t{k + Lanes}));
          acc = op(acc, op.template lift<Acc>(x2, index_t{k + 2 * Lanes}));
          acc = op(acc, op.template lift<Acc>(x3, index_t{k + 3 * Lanes}));
        }
        for (; k < length; k += Lanes) acc = op(acc, op.template lift<Acc>(row[k], index_t{k}));
      }
      acc = warp_reduce<Lanes>(acc, op);
      if (lane == 0 && r < chunk)
        store_words(p.out + (first_segment + r0 + r), op.template finalize<typename K::out>(acc));
    }
    // Every thread is done with the buffer before it is refilled, and the end elements the threads
    // wrote into it (generic proxy) are ordered before the bulk copy's writes (async proxy).
    if constexpr (bulk_copies) cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    __syncthreads();
    if (c + 2 < chunks) stage(c + 2);
  }
}

// Reads the share's whole segments, all of `length` elements (one_length), as rows, and folds its
// head and tail. Called by every thread.
template <int Threads, class K>
TALLY_DEVICE row_share_states<typename K::state> row_share(const typename K::args& p, const typename K::op& op,
                                                          index_t base, index_t i, index_t j, index_t i1, index_t j1,
                                                          index_t length, const row_staging& staging,
                                                          carry_slot<typename K::state>* slots) {
  using S = typename K::state;
  const index_t rows = i1 - i - 1;
  const index_t first = static_cast<index_t>(p.offsets[i + 1]);
  const index_t tail_start = first + rows * length;
  row_share_states<S> r{op.template identity<typename K::acc>(), op.template identity<typename K::acc>()};
  const auto head_and_tail = [&] {
    r.head = fold_by_block<Threads, K>(p, op, base + j, first, static_cast<index_t>(p.offsets[i]), slots);
    r.tail = fold_by_block<Threads, K>(p, op, tail_start, base + j1, tail_start, slots);
  };
  const int l = static_cast<int>(length);
  switch (row_share_lanes(length)) {  // the group's lanes known at compile time: unrolled shuffles
    case 1: read_rows<1, Threads, K>(p, op, i + 1, first, rows, l, staging, head_and_tail); break;
    case 2: read_rows<2, Threads, K>(p, op, i + 1, first, rows, l, staging, head_and_tail); break;
    case 4: read_rows<4, Threads, K>(p, op, i + 1, first, rows, l, staging, head_and_tail); break;
    case 8: read_rows<8, Threads, K>(p, op, i + 1, first, rows, l, staging, head_and_tail); break;
    case 16: read_rows<16, Threads, K>(p, op, i + 1, first, rows, l, staging, head_and_tail); break;
    default: read_rows<32, Threads, K>(p, op, i + 1, first, rows, l, staging, head_and_tail); break;
  }
  return r;
}

}  // namespace tally::detail
