// span_fold: a stretch of one segment, far from its ends, read as a stream. Where a block's share
// begins or ends with span_tiles tiles or more of one segment (a long segment's edge, or the whole
// share inside one segment), the kernel hands that stretch to span_fold: the block bulk-copies it
// into shared memory in chunks of a tile array (no registers hold a load), and each thread folds
// 16-byte words of each chunk, with no end counting, walk or barrier but one a chunk.
#pragma once
#include <cstdint>

#include <cuda/ptx>

#include <tally/detail/segments_merge_path.cuh>
#include <tally/detail/segments_row_share.cuh>

namespace tally::detail {

// Whether an element source is read in spans: plain 16-bit elements. (4-byte elements' tiles stream
// as fast as spans do at 4 blocks an SM; 16-bit tiles are bound by their instructions: docs/segments.md.)
template <class Elements, class E>
inline constexpr bool reads_spans =
    bulk_copies && !Elements::gathered && !Elements::gathers_x && sizeof(E) == 2 && alignof(E) == sizeof(E);

// A stretch this many tiles long at least is read as a span.
inline constexpr int span_tiles = 4;

// Chunks in flight a block. One paces a span like a tile: the shares, cut on the tiles' cost,
// still finish together (two read long segments faster but cost the power law 7.7 %, H200).
inline constexpr int span_depth = 1;

// This thread's fold of elements [from, to) (indices from `base`) of the segment that begins at
// `begin`. Called by every thread.
template <int Threads, class K>
TALLY_DEVICE typename K::state span_fold(const typename K::args& p, const typename K::op& op, index_t base,
                                         index_t begin, index_t from, index_t to, const row_staging& staging) {
  using E = typename K::element;
  using Acc = typename K::acc;
  constexpr int per = 16 / static_cast<int>(sizeof(E));  // elements a word
  struct alignas(16) word {
    E e[per];
  };
  const int t = static_cast<int>(threadIdx.x);
  const E* const src = p.elements.in + base + from;
  const index_t count = to - from;
  const int chunk = (staging.bytes - staging_slack) / static_cast<int>(sizeof(E)) / per * per;  // elements a chunk
  const index_t chunks = count / chunk + (count % chunk != 0);
  const auto size_of = [&](index_t c) { return static_cast<int>(lesser(index_t{chunk}, count - c * chunk)); };
  const auto stage = [&](index_t c) {
    stage_chunk(src + c * chunk, size_of(c), staging.buffer(c), staging.barrier + (c & 1));
  };
  auto acc = op.template identity<Acc>();
  const auto take = [&](const E& x, index_t e) { acc = op(acc, op.template lift<Acc>(x, e)); };
  if constexpr (bulk_copies) {
    if (t == 0) staging.init_barriers();
    // The tiles' writes to the buffers (generic proxy) before the bulk copies' (async proxy).
    cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
  }
  __syncthreads();
  stage(0);
  if (span_depth > 1 && chunks > 1) stage(1);
  for (index_t c = 0; c < chunks; ++c) {
    staging.wait(c);
    __syncthreads();  // the chunk's end elements, copied by the threads, are visible
    // The chunk sits in its buffer at its source's offset mod 16 (stage_chunk): its first `head`
    // elements come before a 16-byte boundary, then `words` whole words.
    const auto phase = static_cast<int>(reinterpret_cast<std::uintptr_t>(src + c * chunk) & 15);
    const E* const in = reinterpret_cast<const E*>(staging.buffer(c) + phase);
    const int len = size_of(c);
    const int head = static_cast<int>(lesser((16 - phase) % 16 / static_cast<int>(sizeof(E)), len));
    const int words = (len - head) / per;
    const index_t e0 = from + c * chunk - begin;  // in[0]'s index in its segment
    if (t < head) take(in[t], e0 + t);
    const word* const w = reinterpret_cast<const word*>(in + head);
#pragma unroll 1
    for (int q = t; q < words; q += Threads) {
      const word x = w[q];
#pragma unroll
      for (int k = 0; k < per; ++k) take(x.e[k], e0 + head + q * per + k);
    }
    const int tail = head + words * per;
    if (tail + t < len) take(in[tail + t], e0 + tail + t);
    // Every thread is done with the buffer before it is refilled; the threads' end elements
    // (generic proxy) before the next bulk copy's writes (async proxy).
    if constexpr (bulk_copies) cuda::ptx::fence_proxy_async(cuda::ptx::space_shared);
    __syncthreads();
    if (c + span_depth < chunks) stage(c + span_depth);
  }
  return acc;
}

}  // namespace tally::detail
