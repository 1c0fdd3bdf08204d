// The segment kernel: merge path over segment ends and elements, one launch (docs/segments.md).
//
// The merged sequence. End s (segment s's end, e_s = offsets[s + 1] - offsets[0]) comes before
// element j iff e_s <= j, so end s sits at item s + e_s, and the first d items hold the ends s with
// s + e_s < d: a prefix of the ends, since s + e_s grows with s. Nothing is planned on the host:
// every block reads offsets[0] and offsets[S], so n stays on the device.
//
// Shares. Block b of G takes an equal share of the cost S * W + n (an end weighs W elements, the
// element source's end_weight: it closes a segment and writes a result), so that a block of short
// segments and a block inside a long one take about the same time. split_share finds where the
// share starts and ends (two searches over the offsets, side by side): points (i, j) of the merge
// path, i ends and j elements. A share of short segments (averaging 6 elements or fewer) is read a
// segment a thread (segments_short_share.cuh, with ShortShares), and a share of longer ones whose
// whole segments all have one length as rows (segments_row_share.cuh, with RowShares; staged in the
// tile arrays). Any other share the block walks from one point to the other in tiles of
// D = Threads * Items items:
//   1. every thread loads its Items elements of the tile's candidates (coalesced, all in flight; the
//      next tile's while this one is walked: CSR's columns, whose values and x gathers go out when
//      the tile starts, segments_items.cuh, except for the products the tile before staged and did
//      not use, which it takes from shared memory; CSR's warps load whole 128-byte lines, the tile
//      shortened to start its loads on one; a whole tile loads without a compare a load) and the
//      block counts the tile's ends k from the end_rounds * Threads candidates prefetched with the
//      elements: the first Threads with one barrier, the rest with a second only where all of those
//      lie inside; m = D - k elements remain;
//   2. k == 0: the tile lies inside one segment, and each thread folds its registers into its part of
//      the run of such tiles, which one block scan joins when the run ends (CSR: a scan each tile);
//      otherwise elements and ends go to shared memory, and
//      - a tile of short segments (group_lanes: two ends a thread or more) gives each segment a group
//        of G lanes: each lane folds every G-th element of it, a shuffle joins the group, and lane 0
//        writes the result (the first segment joined with the carry; the open tail becomes the next
//        carry);
//      - any other tile is walked: thread t takes element positions [t * Items, (t + 1) * Items),
//        has the ends among them as a bit mask (each end sets its bit in its thread's word with a
//        shared atomic; where the fold needs an element's index in its segment, a binary search
//        finds the thread's first end and a loop the rest), and folds its elements with no branch:
//        an end restarts the fold, and the state it closes waits in its position's slot of the
//        tile's elements (the thread has read that element already). A warp with no end among its
//        positions just folds. (A slot holds the larger of an element and a state: 16-bit
//        elements take 4 bytes for their float states.) Arg states, too large for the slots, and
//        the begin / end form, which reads the input, walk with branches and write each segment as
//        it closes;
//   3. after a walk, a segmented scan over the threads (block_carry) gives each thread the state of
//      its first segment before its own elements, and the state open at the tile's end, which the
//      next tile starts from. Each thread writes its first close; the block writes the others from
//      their slots together (and, where several ends share a position, the empty segments).
// In the begin / end form a share of few, long pieces skips the tiles: the block's warps fold it
// segment by segment, coalesced (segments_warp_share.cuh).
// The share's first segment may have begun in an earlier block and the last may end in a later one:
// the block leaves both states as entries (segments_items.cuh). The block that takes the last ticket
// folds the 2G entries in block order (each thread a run of entries, then the same segmented scan)
// and writes the segments that crossed a share's edge. The order of every combination depends on the
// offsets and G alone, so results are bit-identical run to run.
//
// Barriers: the tile loop, the end count and the searches depend on values uniform over the block,
// so every thread meets every barrier. Offsets that break the precondition (decreasing, or past the
// elements) give meaningless results but no access out of bounds: every element index is clamped to
// [0, n), every segment index to [0, S), and every tile makes progress.
#pragma once
#include <climits>
#include <cstring>
#include <type_traits>

#include <tally/detail/last_block.cuh>
#include <tally/detail/launch.cuh>
#include <tally/detail/segments_carry.cuh>
#include <tally/detail/segments_items.cuh>
#include <tally/detail/segments_merge_path.cuh>
#include <tally/detail/segments_row_share.cuh>
#include <tally/detail/segments_short_share.cuh>
#include <tally/detail/segments_span.cuh>
#include <tally/detail/segments_warp_share.cuh>
#include <tally/detail/state_words.cuh>
#include <tally/policies/warp.cuh>

namespace tally::detail {

// Tiles of short segments (docs/segments.md): G lanes a segment, G the power of two at or below the
// tile's mean length / GroupItems, when the tile holds an end in every Items / 2 items or more (two
// ends a thread in a whole tile; so a mean length below 16 and G at most 8) and a segment a warp at
// least, and no segment is longer than group_rounds * G elements, so that no group holds the block
// for long. With fewer ends the walk is faster. 0: walk the tile. Called by every thread after the
// tile's ends are in shared memory; the answer is uniform.
inline constexpr int group_rounds = 16;

// Whether a tile of k ends and m elements may take lane groups (group_lanes' first test).
template <int Threads, int Items, int GroupItems>
TALLY_DEVICE bool may_take_groups(int k, int m) {
  const bool short_segments = Items * k >= 2 * (k + m);  // an end in every Items / 2 items
  return GroupItems != 0 && k >= Threads / warp_size && short_segments;
}

template <int Threads, int Items, int GroupItems>
TALLY_DEVICE int group_lanes(const int* ends, int k, int m) {
  if constexpr (GroupItems == 0) {
    return 0;
  } else {
    if (!may_take_groups<Threads, Items, GroupItems>(k, m)) return 0;  // uniform
    int g = 1;
    while (g < warp_size && 2 * g * GroupItems <= m / k) g *= 2;
    bool too_long = false;
    for (int r = static_cast<int>(threadIdx.x); r <= k; r += Threads) {  // the closed segments and the open tail
      const int b = r == 0 ? 0 : ends[r - 1];
      const int e = r < k ? ends[r] : m;
      too_long = too_long || e - b > group_rounds * g;
    }
    return __syncthreads_or(too_long) ? 0 : g;
  }
}

// The low or high 16-bit element of a pair loaded as one word (little-endian: the low half comes first).
template <class Raw>
TALLY_DEVICE Raw pair_half(unsigned word, bool high) {
  const auto bits = static_cast<unsigned short>(high ? word >> 16 : word);
  Raw x;
  memcpy(&x, &bits, sizeof(x));
  return x;
}

// Blocks an SM the kernel asks registers for, so that the lane groups' and row shares' code does not
// cost a block: 64 registers a thread where elements and states fit 4 bytes (80 without the bound),
// 85 for 4-byte elements with states of up to 16 bytes (arg_min / arg_max: 91 without), 128 for
// 8-byte elements (2 blocks of 256: up to 164 without); 80 for CSR products (3 blocks of 256: a third
// block keeps more x gathers in flight, and float's prefetched columns spill at 64, docs/segments.md);
// none for binned sums, which would spill.
template <class K, int Threads>
inline constexpr int segments_min_blocks =
    sizeof(typename K::state) > 16    ? 1
    : K::elements::gathers_x          ? 65536 / (Threads * 80)
    : sizeof(typename K::element) > 4 ? 65536 / (Threads * 128)
    : sizeof(typename K::state) <= 4  ? 65536 / (Threads * 64)
                                      : 65536 / (Threads * 85);

// K: the call's types (segments_items.cuh).
// Split: how the block finds its share (split_mode). A plan (segments_plan) holds the grid's points
// (points[b] to points[b + 1] for block b) and, after them, each share's path: a byte, bit 0 its
// segments' mean fits a short share, bit 1 it is read as one (the planning launch writes them).
template <class K, int Threads, int Items, int GroupItems, bool RowShares, bool ShortShares,
          split_mode Split = split_mode::search>
__global__ void __launch_bounds__(Threads, (segments_min_blocks<K, Threads>))
    segments_kernel(const typename K::args p, const typename K::op op, segment_entry<typename K::state>* entries,
                    unsigned* ticket, merge_point* plan) {
  if constexpr (K::launch::programmatic) wait_for_previous_grid();  // before any global access
  using E = typename K::element;
  using S = typename K::state;
  using Acc = typename K::acc;
  using Out = typename K::out;
  using Off = typename K::offset;
  using UOff = std::make_unsigned_t<Off>;
  constexpr int D = Threads * Items;
  // Each element position of a tile has a slot in shared memory: its element, and in the walk the
  // state of the segment that closes there (below), where the state fits in 40 KB with the ends
  // (16-bit elements take 4-byte slots for their float states; arg states do not fit).
  constexpr std::size_t state_slot = sizeof(S) > sizeof(E) ? sizeof(S) : sizeof(E);
  constexpr bool staged_walk = !K::elements::gathered && std::is_trivially_copyable_v<S> && state_slot % alignof(S) == 0 &&
                               state_slot * D + sizeof(int) * (D + 1) <= 40 * 1024;
  constexpr std::size_t slot = staged_walk ? state_slot : sizeof(E);
  static_assert(sizeof(E) * D + sizeof(int) * D <= 40 * 1024,
                "tally segments_policy: a tile of Threads * Items elements and ends must fit in 40 KB of shared memory");
  // Raw bytes: E and S need not be default-constructible to live in shared memory.
  __shared__ __align__(16) unsigned char element_bytes[slot * D];
  __shared__ __align__(16) unsigned char slot_bytes[sizeof(carry_slot<S>) * (Threads / warp_size)];
  __shared__ __align__(16) unsigned char head_bytes[sizeof(S)];
  __shared__ __align__(16) int ends[D + 1];  // end i + r of the tile at r: its element position (then INT_MAX)
  __shared__ int round_counts[Threads / warp_size];
  // Each thread's part of a run of tiles without an end (below). Not in CSR products, which ran no
  // faster with runs (docs/segments.md).
  constexpr bool runs = !K::elements::gathers_x;
  __shared__ __align__(16) unsigned char run_bytes[runs ? sizeof(S) * Threads : 1];
  S* const run_parts = reinterpret_cast<S*>(run_bytes);
  __shared__ bool last;
  E* const elements = reinterpret_cast<E*>(element_bytes);
  const auto element = [&](int pos) -> E& {
    if constexpr (slot == sizeof(E)) return elements[pos];
    else return *reinterpret_cast<E*>(element_bytes + pos * slot);
  };
  carry_slot<S>* slots = reinterpret_cast<carry_slot<S>*>(slot_bytes);
  S& head_state = *reinterpret_cast<S*>(head_bytes);
  const int t = static_cast<int>(threadIdx.x);
  // The staged walk's ends by thread (where the fold does not need an element's index in its
  // segment, so that a thread without an end needs no search for the last end before it): each end
  // sets its bit in its thread's word and offers its number as the thread's first end; the thread
  // reads and clears both. One word more: offsets that break the precondition may place an end at z.
  // Not in CSR products of 8-byte values over 64-bit row offsets: there the marks made ptxas spill
  // and cost the product 4 - 9 % (docs/segments.md).
  constexpr bool marks = staged_walk && std::is_base_of_v<value_state, typename K::op> &&
                         !(K::elements::gathers_x && sizeof(E) > 4 && sizeof(Off) > 4);
  __shared__ unsigned end_bits[marks ? Threads + 1 : 1];
  __shared__ int first_end[marks ? Threads + 1 : 1];
  const auto mark_ends = [&](int k) {  // after the count's barrier; read after the next one
    for (int r = t; r < k; r += Threads) {
      const int e = ends[r];
      const int o = e / Items;
      atomicOr(&end_bits[o], 1u << (e - o * Items));
      atomicMin(&first_end[o], r);
    }
  };
  if constexpr (marks) {
    end_bits[t] = 0;
    first_end[t] = INT_MAX;
    if (t == 0) {
      end_bits[Threads] = 0;
      first_end[Threads] = INT_MAX;
    }
  }

  constexpr index_t W = K::elements::end_weight;
  const cost_line line = cost_line_of<W>(p.offsets, p.segments, gridDim.x);
  const index_t base = line.base, n = line.n;
  index_t i, j, i1, j1;
  if constexpr (Split != split_mode::search) {
    planned_share(plan, p.segments, n, i, j, i1, j1);
  } else {
    const index_t c0 = line.start(blockIdx.x);
    split_share<Threads, W>(p.offsets, p.segments, base, n, c0, lesser(c0 + line.share, line.cost), i, j, i1, j1);
  }
  const index_t d0 = i + j;  // the share in merged items: its tiles count one an item
  const index_t d1 = i1 + j1 > d0 ? i1 + j1 : d0;
  index_t tiles_end = d1;  // where the share's tiles end (before a span of its last segment)

  const index_t head = i;
  bool head_open = true;  // the head segment has not closed in this share
  index_t begin = lesser(greater(static_cast<index_t>(p.offsets[i]) - base, 0), n);  // of segment i, the open one
  S carry = op.template identity<Acc>();  // the open segment's state over the share so far

  // The next tile's elements and first prefetched_rounds * Threads end candidates, loaded into
  // registers while this tile is walked. The offsets stay raw until the tile starts: arithmetic on
  // them here would wait for the load.
  constexpr int prefetched_rounds = K::elements::end_rounds;
  using Raw = typename K::elements::raw;
  // CSR: a warp's loads of a tile's columns (and values) start on a 128-byte line, 32 elements, so
  // that each warp-wide load is one L2 request instead of two (the L2's tag requests bound CSR:
  // docs/segments.md). Thread t's load q is tile position t + q * Threads - shift, shift being the
  // tile start's element index modulo 32 (from the columns' address), and the tile holds D - shift
  // items at most. Only q = 0 can fall before the tile.
  constexpr bool aligned_loads = K::elements::gathers_x;
  // 16-bit elements (reduce_segments over offsets, an even Items) load in pairs, 4 bytes a load: thread
  // t's pair r holds tile positions V * (t + r * Threads) - shift and the next, shift being the tile
  // start's parity in the input (a 4-byte boundary), so that 16-bit tiles issue float's loads for
  // their bytes. A pair not whole in the tile (cut by its end, or thread 0's first where shift is 1)
  // loads its one element. V = 1: every other element source and Items, and 2-byte elements aligned
  // to 1 byte (a user's struct), whose pairs need not sit on a 4-byte boundary.
  constexpr int V = !K::elements::gathered && !K::elements::gathers_x && sizeof(Raw) == 2 && alignof(Raw) == 2 && Items % 2 == 0 ? 2 : 1;
  // A pair stays one 4-byte word until its tile starts: taking its halves apart here would wait for
  // the load, a tile early (measured: 0.37 - 0.46 of the 2-byte loads on long half sums, H200).
  using Loaded = std::conditional_t<V == 2, unsigned, Raw>;
  Loaded next[Items / V];
  int next_shift = 0;
  Off next_ends[prefetched_rounds];
  // CSR: a tile finishes (gathers) all its candidates, but its k ends leave the last of them to the
  // next tile. Those products stay staged in shared memory (at positions kept_at + 1 ... kept_at +
  // kept - 1; position kept_at itself may hold a closed state after the walk), and the next tile
  // takes them from there instead of loading their values and gathering x again, so that every
  // non-zero costs one gather (L2 requests: docs/segments.md). Their columns are still fetched.
  constexpr bool keeps = K::elements::gathers_x;
  int kept = 0, kept_at = 0;
  const auto fetch = [&](index_t fi, index_t fj, index_t fd) {
    if constexpr (aligned_loads) next_shift = p.elements.line_shift(base + fj);
    if constexpr (V == 2) next_shift = static_cast<int>(reinterpret_cast<std::uintptr_t>(p.elements.in + (base + fj)) / 2 % 2);
    const int fz = static_cast<int>(lesser(D - next_shift, tiles_end - fd));
    const int favail = static_cast<int>(lesser(fz, n - fj));
    // A whole tile (uniform; every tile of a long segment): no load reaches past it, so none compares.
    // (Not in CSR products here or below: float's power-law rows lost 6 - 7 %, H200.)
    const bool whole = !K::elements::gathers_x && favail == D - next_shift;
    // Every register is written, past the tile's end too, so that a tile's values die once folded
    // (kept for a conditional load, they live across the whole tile and spill).
    if constexpr (V == 2) {
      const Raw* const tile = p.elements.in + (base + fj);  // element position 0 of the tile
      const unsigned* const pairs = reinterpret_cast<const unsigned*>(tile - next_shift) + t;
      const unsigned short* const halves = reinterpret_cast<const unsigned short*>(tile);
      if (whole) {
        // Every pair whole but thread 0's first where shift is 1, which loads its one element (the
        // pair's other half lies before the tile, maybe before the input).
        next[0] = t == 0 && next_shift != 0 ? load_evict_first(halves) : load_evict_first(pairs);
#pragma unroll
        for (int r = 1; r < Items / 2; ++r) next[r] = load_evict_first(pairs + r * Threads);
      } else {
#pragma unroll
        for (int r = 0; r < Items / 2; ++r) {
          // The pair's first tile position; below 0 only for thread 0's first pair where shift is 1.
          // A pair not whole in the tile loads its one element into the word's low half (the tile
          // start reads it there, pair_half).
          const int x = 2 * (t + r * Threads) - next_shift;
          unsigned word = 0;
          if (x >= 0 && x + 1 < favail) word = load_evict_first(pairs + r * Threads);
          else if (x < 0) word = favail > 0 ? load_evict_first(halves) : 0;
          else if (x < favail) word = load_evict_first(halves + x);
          next[r] = word;
        }
      }
    } else if constexpr (!K::elements::gathered) {
      const auto src = p.elements.at(base + fj - next_shift + t);
      if (whole) {
#pragma unroll
        for (int q = 0; q < Items; ++q) next[q] = src[q * Threads];
      } else {
#pragma unroll
        for (int q = 0; q < Items; ++q) {
          const int x = t + q * Threads - next_shift;  // its tile position
          next[q] = (q > 0 || x >= 0) && x < favail ? src[q * Threads] : Raw{};
        }
      }
    }
    const int fc = static_cast<int>(lesser(fz, p.segments - fi));  // candidates that exist
    const Off* const fo = p.offsets + fi + 1 + t;
#pragma unroll
    for (int round = 0; round < prefetched_rounds; ++round)
      next_ends[round] = round * Threads + t < fc ? fo[round * Threads] : Off{};
  };

  // A share of whole segments of one length is read as rows (segments_row_share.cuh), staged in the
  // tile arrays; any other share in tiles.
  constexpr bool row_shares = RowShares && K::elements::row_shares;
  constexpr int staging_bytes = (sizeof(element_bytes) < sizeof(ends) ? sizeof(element_bytes) : sizeof(ends)) & ~15;
  // A share of short segments is read a segment a thread (segments_short_share.cuh). One whose
  // segments average short_mean elements or fewer goes straight to that test, without the one-length
  // test's trip to memory.
  constexpr bool short_shares = ShortShares && K::elements::short_shares;
  constexpr bool planned_path = short_shares && Split == split_mode::planned;
  const auto paths = [&] { return reinterpret_cast<unsigned char*>(plan + gridDim.x + 1); };  // a plan's
  const unsigned char path = planned_path ? paths()[blockIdx.x] : 0;
  const bool short_mean = short_shares && (planned_path ? (path & 1) != 0 : short_mean_fits(p.segments, i, j, i1, j1));
  index_t length = 0;
  if constexpr (row_shares)
    if (!short_mean)
      length = one_length<Threads>(p.offsets, base, i, j, i1, j1, (staging_bytes - staging_slack) / index_t{sizeof(E)});
  // A share of few ends for its elements, in the begin / end form, is folded by warps
  // (segments_warp_share.cuh): its tiles' walk reads each thread's consecutive elements from the
  // input. (The offsets form's tiles load theirs a tile ahead, and were faster.)
  constexpr bool warp_shares = K::elements::gathered;
  bool by_warps = false;
  if constexpr (warp_shares) by_warps = length == 0 && warp_share_fits<Threads, E, S>(p.offsets, base, i, j, i1, j1);
  bool by_threads = false;
  typename short_segments<Off>::raw short_first[short_first_batches];  // the short share's first offsets
  if constexpr (planned_path) {
    by_threads = (path & 2) != 0;
    if (by_threads) short_share_first<Threads>(p.offsets, p.segments, base, i, j, i1, j1, short_first);
  } else if constexpr (short_shares) {
    by_threads = short_mean && short_share_fits<Threads>(p.offsets, p.segments, base, i, j, i1, j1, short_first);
  }
  if constexpr (Split == split_mode::planning) {
    if (t == 0) paths()[blockIdx.x] = static_cast<unsigned char>((short_mean ? 1 : 0) | (by_threads ? 2 : 0));
    return;
  }
  if (length > 0) {
    if constexpr (row_shares) {
      __shared__ std::uint64_t row_barriers[2];
      const row_staging staging{element_bytes, reinterpret_cast<unsigned char*>(ends), staging_bytes, row_barriers};
      const row_share_states<S> r = row_share<Threads, K>(p, op, base, i, j, i1, j1, length, staging, slots);
      if (t == 0) head_state = r.head;
      head_open = false;
      carry = r.tail;
      i = i1;
    }
  } else if (by_threads) {
    if constexpr (short_shares) {
      const short_share_states<S> r = short_share<Threads, K>(p, op, base, begin, i, j, i1, j1, short_first, slots);
      if (t == 0) head_state = r.head;
      head_open = i == i1;
      carry = r.tail;
      i = i1;
    }
  } else if (by_warps) {
    if constexpr (warp_shares) {
      carry = warp_share<Threads, K>(p, op, base, n, i, j, i1, j1, slots, &head_state);
      head_open = i1 == i;
      i = i1;
    }
  } else {
    // A long stretch of segment i at the share's start, or of segment i1 at its end (all of the share
    // where it lies inside one segment), is read as a span (segments_span.cuh); the tiles take the
    // rest, from the first end to the last.
    constexpr bool spans = reads_spans<typename K::elements, E>;
    __shared__ std::uint64_t span_barriers[2];
    const row_staging staging{element_bytes, reinterpret_cast<unsigned char*>(ends), staging_bytes, span_barriers};
    index_t tiles_begin = d0;
    index_t span_from = j1;  // the last segment's span, if any: [span_from, j1)
    if constexpr (spans) {
      // Clamped into the share: offsets that break the precondition read nothing outside it.
      const auto within = [&](index_t x, index_t lo) { return lesser(greater(x, lo), j1); };
      const index_t first_end = i < i1 ? within(static_cast<index_t>(p.offsets[i + 1]) - base, j) : j1;
      const index_t last_start = i < i1 ? within(static_cast<index_t>(p.offsets[i1]) - base, first_end) : j1;
      constexpr index_t span_min = index_t{span_tiles} * D;
      if (first_end - j >= span_min) {
        carry = block_carry<Threads>(false, span_fold<Threads, K>(p, op, base, begin, j, first_end, staging), carry, op, slots).total;
        tiles_begin = i + first_end;
        j = first_end;
      }
      if (j1 - last_start >= span_min) {
        span_from = last_start;
        tiles_end = i1 + last_start;
      }
    }
    if (tiles_begin < tiles_end) fetch(i, j, tiles_begin);
    // A run of tiles without an end: each thread's part of the open segment over them, joined into
    // carry by one scan when the run ends, where a scan each tile cost long segments up to 22 % in
    // float sums and 31 % in half max (H200, docs/segments.md). The parts wait in shared memory: in a
    // register, ptxas spilled.
    bool in_run = false;
    const auto end_run = [&] {
      if (runs && in_run) {
        carry = block_carry<Threads>(false, run_parts[t], carry, op, slots).total;
        in_run = false;
      }
    };

    for (index_t d = tiles_begin; d < tiles_end;) {
      const int shift = next_shift;
      const int z = static_cast<int>(lesser(D - shift, tiles_end - d));  // items in this tile
      const int avail = static_cast<int>(lesser(z, n - j));
      // A whole tile (uniform; a tile of pairs that starts off a word boundary holds D - 1): its
      // fold or staging compares no item.
      const bool whole = !K::elements::gathers_x && avail == D - shift;

      // The tile's elements, finished from the raw parts the walk before loaded (CSR: the values'
      // loads and x's gathers, which needed the columns, go out here together and meet the end count).
      const int t0 = V * t - shift;  // v[0]'s tile position
      const auto at = [&](int q) { return t0 + q / V * (V * Threads) + q % V; };  // v[q]'s tile position
      // v[q] holds a position in [0, limit) for q < below(limit) (but q = 0 where t0 < 0), counted
      // once so that each q costs one compare: positions grow with q.
      const auto loads_below = [&](int limit) { return limit > t0 ? (limit - t0 + V * Threads - 1) / (V * Threads) : 0; };
      const auto below = [&](int limit) {
        if constexpr (V == 1) return loads_below(limit);
        else return loads_below(limit) + loads_below(limit - 1);  // first halves, then second halves
      };
      const int avail_q = below(avail);
      const auto holds = [&](int q, int limit_q) { return q < limit_q && (q > 0 || t0 >= 0); };
      E v[Items];
      if constexpr (!K::elements::gathered) {
        // This thread's kept elements: positions 1 ... kept - 1.
        const int kept_q = keeps ? below(kept) : 0;
        const auto is_kept = [&](int q) { return q < kept_q && (q > 0 || t0 >= 1); };
#pragma unroll
        for (int q = 0; q < Items; ++q) {
          // (Not by type: CSR's int columns are its int products' type.)
          if constexpr (V == 2) v[q] = pair_half<Raw>(next[q / 2], q % 2 == 1 && (q > 1 || t0 >= 0));
          else if constexpr (!K::elements::gathers_x) v[q] = next[q];  // the raw part is the element
          else v[q] = holds(q, avail_q) && !is_kept(q) ? p.elements.finish(next[q], base + j + at(q)) : E{};
        }
        // Kept products after every load has gone out (a branch between the loads would wait for each).
        if constexpr (keeps) {
#pragma unroll
          for (int q = 0; q < Items; ++q)
            if (is_kept(q)) v[q] = element(kept_at + at(q));
        }
      }

      // The tile's ends: end i + r is in it when its position r + e is below z (e: its element
      // position in the tile). The prefetched candidates are counted first (below); a tile with more
      // ends than those (many empty segments) counts further rounds of Threads, loaded here.
      // In the offsets' own width (the tile starts at offset ts, which lies between offsets[0] and
      // offsets[S]): 32-bit arithmetic for 32-bit offsets.
      const Off ts = static_cast<Off>(base + j);
      const int candidates = static_cast<int>(lesser(z, p.segments - i));  // ends i + r, r < candidates, exist
      const auto position = [&](Off end) {  // an end's element position in the tile, clamped to [0, z]
        const UOff e = static_cast<UOff>(end) - static_cast<UOff>(ts);
        return end < ts ? 0 : e < static_cast<UOff>(z) ? static_cast<int>(e) : z;
      };
      // The first round of Threads candidates is counted alone, the other prefetched rounds together
      // only where every one of it lies inside (offsets do not decrease): a tile of a long segment
      // counts one round.
      int k;
      {
        const bool exists = t < candidates;
        const int e = position(next_ends[0]);
        if (exists) ends[t] = e;
        k = __syncthreads_count(exists && t + e < z);
      }
      if (prefetched_rounds > 1 && k == Threads && Threads < z) {  // uniform
        int mine = 0;
#pragma unroll
        for (int round = 1; round < prefetched_rounds; ++round) {
          const int r = round * Threads + t;
          const bool exists = r < candidates;  // predicated, not branched: no reconvergence a round
          const int e = position(next_ends[round]);
          mine += exists && r + e < z;
          if (exists) ends[r] = e;
        }
        mine = __reduce_add_sync(full_mask, mine);
        if (t % warp_size == 0) round_counts[t / warp_size] = mine;
        __syncthreads();
#pragma unroll
        for (int w = 0; w < Threads / warp_size; ++w) k += round_counts[w];
      }
      for (int r = prefetched_rounds * Threads + t; k == r - t && r - t < z;) {  // every candidate so far inside
        bool inside = false;
        if (r < candidates) {
          const int e = position(p.offsets[i + r + 1]);
          inside = r + e < z;
          ends[r] = e;
        }
        k += __syncthreads_count(inside);
        r += Threads;
      }
      const int m = z - k < avail ? z - k : avail;  // fewer only where offsets break the precondition
      const int items = k + m;
      const index_t next_d = d + (items > 0 ? items : 1);

      if (k == 0) {
        // The tile lies inside one segment: each thread folds its registers into its part of the
        // run of such tiles, which meets the block's other parts when the run ends (CSR: in a scan
        // each tile). No shared-memory staging, no walk.
        if constexpr (K::elements::gathered) {  // every element is in segment i
          const index_t start = p.elements.start(i) + (j - begin);
#pragma unroll
          for (int q = 0; q < Items; ++q)
            if (t + q * Threads < m) v[q] = p.elements.load(start + t + q * Threads);
        }
        S acc = op.template identity<Acc>();
        const auto fold = [&](int m_q) {
#pragma unroll
          for (int q = 0; q < Items; ++q)
            if (holds(q, m_q)) acc = op(acc, op.template lift<Acc>(v[q], j + at(q) - begin));
        };
        if (whole) {  // without an end, m == avail
          if constexpr (is_16bit_floating<E> && std::is_same_v<S, E> && has_op_fold_run<typename K::op, Acc, S, E, Items>::value) {
            // 16-bit min / max fold the tile's elements at once (op.cuh's extreme_run16); thread 0's
            // first element, before the tile where it starts off a word boundary, as the identity.
            // (A state of the elements' own type: op::sum's binned fold_run stays out.)
            if (!holds(0, Items)) v[0] = op.template identity<Acc>();
            acc = op.template fold_run<Acc>(acc, v);
          } else {
            fold(Items);
          }
        } else {
          fold(below(m));
        }
        kept = 0;  // nothing staged
        if (next_d < tiles_end) fetch(i, j + m, next_d);
        if constexpr (runs) {
          run_parts[t] = in_run ? op(run_parts[t], acc) : acc;
          in_run = true;
        } else {
          carry = block_carry<Threads>(false, acc, carry, op, slots).total;
        }
      } else {
        end_run();
        if constexpr (!K::elements::gathered) {
          const auto stage = [&](int limit_q) {
#pragma unroll
            for (int q = 0; q < Items; ++q)
              if (holds(q, limit_q)) element(at(q)) = v[q];
          };
          if (whole) stage(Items);
          else stage(avail_q);
        }
        if (t == 0) ends[k] = INT_MAX;
        kept = avail - m;  // staged past the tile's last element: the next tile's first ones
        kept_at = m;
        if (next_d < tiles_end) fetch(i + k, j + m, next_d);
        // A tile that cannot take lane groups is walked: its ends are marked by thread now.
        const bool marked = marks && !may_take_groups<Threads, Items, GroupItems>(k, m);
        if (marked) mark_ends(k);
        __syncthreads();
        const int lanes = group_lanes<Threads, Items, GroupItems>(ends, k, m);
        if (lanes > 0) {
          // Groups of `lanes` lanes: group g takes the tile's segments a = g, g + groups, ... (a = k is the
          // open tail, whose state the next tile starts from), each lane every lanes-th element, then
          // a shuffle within the group. Loops run warp-uniform so that every lane meets the shuffles.
          const int groups = Threads / lanes;
          const int g = t / lanes;
          const int lane = t % lanes;
          const int warp_first = (t / warp_size) * (warp_size / lanes);  // this warp's first group
          for (int a0 = warp_first; a0 <= k; a0 += groups) {
            const int a = a0 + (g - warp_first);
            S acc = op.template identity<Acc>();
            if (a <= k) {
              const int e = a < k ? (ends[a] < m ? ends[a] : m) : m;
              const int b = a == 0 ? 0 : (ends[a - 1] < e ? ends[a - 1] : e);
              const index_t within0 = a == 0 ? j - begin : -static_cast<index_t>(b);  // + position: index in the segment
              // This lane's elements of the segment, folded in order: four loads in flight a round; a
              // lane of its own segment (lanes == 1, short segments) takes the first 8 with no loop.
              const auto fold = [&](auto element_at) {
                const auto take = [&](const E& x, index_t within) { acc = op(acc, op.template lift<Acc>(x, within)); };
                int q = b + lane;
                if (lanes == 1) {  // uniform
                  const int left = e - q;
#pragma unroll
                  for (int u = 0; u < 8; ++u)
                    if (u < left) take(element_at(q + u), within0 + q + u);
                  q += 8;
                }
                for (; q + 3 * lanes < e; q += 4 * lanes) {
                  const E x0 = element_at(q), x1 = element_at(q + lanes), x2 = element_at(q + 2 * lanes),
                          x3 = element_at(q + 3 * lanes);
                  take(x0, within0 + q);
                  take(x1, within0 + q + lanes);
                  take(x2, within0 + q + 2 * lanes);
                  take(x3, within0 + q + 3 * lanes);
                }
                for (; q < e; q += lanes) take(element_at(q), within0 + q);
              };
              if constexpr (K::elements::gathered) {  // from the input
                if (i + a < p.segments) {
                  const index_t start = p.elements.start(i + a) + within0;
                  fold([&](int q) { return p.elements.load(start + q); });
                }
              } else {
                fold([&](int q) { return element(q); });
              }
            }
            for (int offset = lanes / 2; offset > 0; offset /= 2) acc = op(acc, shfl_down(acc, offset));
            if (lane == 0 && a <= k) {
              if (a == k) {
                slots[0].value = acc;  // the open tail: read by every thread below
              } else if (a == 0) {
                const S value = op(carry, acc);
                if (head_open) head_state = value;  // the share's first segment: left to the fix-up
                else store_words(p.out + i, op.template finalize<Out>(value));
              } else {
                store_words(p.out + (i + a), op.template finalize<Out>(acc));
              }
            }
          }
          __syncthreads();
          carry = slots[0].value;
        } else {
          // This thread's element positions [p0, p0 + Items) of the tile; end a sits before element
          // ends[a], and a0 ends come before p0.
          const int p0 = t * Items;
          int a = 0;
          unsigned ends_at = 0;  // (staged walk) bit q: an end before element p0 + q
          if constexpr (marks) {
            if (!marked) {  // uniform: group_lanes found a segment too long for groups
              mark_ends(k);
              __syncthreads();
            }
            ends_at = end_bits[t];
            a = first_end[t];  // this thread's first end, where it has one
            end_bits[t] = 0;
            first_end[t] = INT_MAX;
          } else {
            for (int hi = k; a < hi;) {  // the ends before position p0
              const int mid = (a + hi) / 2;
              if (ends[mid] < p0) a = mid + 1; else hi = mid;
            }
          }
          const int a0 = a;
          // Each walk leaves this thread's state after its last close (acc), whether it closes a
          // segment, and the state of its first close (head_part), which the scan completes.
          S acc = op.template identity<Acc>();
          S head_part = acc;
          bool closes = false;
          // (With marks no fold reads it.)
          index_t open_begin = marks || a == 0 ? begin : j + ends[a - 1];
          if constexpr (staged_walk) {
            // Branch-free: bit q of `ends_at` marks an end before element p0 + q. Each close leaves
            // its state in its position's slot (the thread's own, its element read just before),
            // and the block writes the tile's closes together after the scan.
            if constexpr (!marks) {
              for (int e = ends[a]; e < p0 + Items; e = ends[++a]) {
                const unsigned q = static_cast<unsigned>(e - p0);
                if (q < Items) ends_at |= 1u << q;
              }
            }
            const int left = m - p0;  // elements from p0 on
            const auto walk = [&](auto any_end) {
#pragma unroll
              for (int q = 0; q < Items; ++q) {
                const int pos = p0 + q;
                const E x = element(pos);
                if constexpr (decltype(any_end)::value) {
                  if (ends_at >> q & 1u) {
                    memcpy(element_bytes + pos * slot, &acc, sizeof(S));
                    acc = op.template identity<Acc>();
                    open_begin = j + pos;
                  }
                }
                if (q < left) acc = op(acc, op.template lift<Acc>(x, j + pos - open_begin));
              }
            };
            if (__any_sync(full_mask, ends_at != 0)) walk(std::true_type{});  // warp-uniform
            else walk(std::false_type{});
            closes = ends_at != 0;
            if (closes) memcpy(&head_part, element_bytes + (p0 + __ffs(ends_at) - 1) * slot, sizeof(S));
          } else {
            // With branches: an end closes the open segment and writes it (its first close waits
            // for the scan); further ends at its position close empty segments.
            int next_end = ends[a];
            Out* const tile_out = p.out + i;
            // Gathered elements: where the open segment's elements start in the input.
            index_t open_start = 0;
            if constexpr (K::elements::gathered)
              if (i + a < p.segments && p0 < m) open_start = p.elements.start(i + a);
#pragma unroll
            for (int q = 0; q < Items; ++q) {
              const int pos = p0 + q;
              if (next_end == pos) {  // segment i + a ends here
                if (closes) store_words(tile_out + a, op.template finalize<Out>(acc));
                else head_part = acc;
                closes = true;
                acc = op.template identity<Acc>();
                open_begin = j + pos;
                for (next_end = ends[++a]; next_end == pos; next_end = ends[++a])
                  store_words(tile_out + a, op.template finalize<Out>(op.template identity<Acc>()));
                if constexpr (K::elements::gathered)
                  if (pos < m && i + a < p.segments) open_start = p.elements.start(i + a);
              }
              if (pos < m) {
                const index_t within = j + pos - open_begin;  // the element's index in its segment
                if constexpr (K::elements::gathered)
                  acc = op(acc, op.template lift<Acc>(p.elements.load(open_start + within), within));
                else
                  acc = op(acc, op.template lift<Acc>(element(pos), within));
              }
            }
          }

          const block_carry_result<S> c = block_carry<Threads>(closes, acc, carry, op, slots);
          if (closes) {
            const S value = op(c.before, head_part);
            if (head_open && a0 == 0) head_state = value;  // the share's first segment: left to the fix-up
            else store_words(p.out + (i + a0), op.template finalize<Out>(value));
          }
          if constexpr (staged_walk) {
            // Every other close, from its slot (the scan's barrier has passed); further ends at one
            // position close empty segments.
            for (int r = t; r < k; r += Threads) {
              const int pos = ends[r];
              const int previous = r == 0 ? 0 : ends[r - 1];
              if (r > 0 && previous / Items == pos / Items) {  // not its thread's first close
                S value = op.template identity<Acc>();
                if (previous != pos) memcpy(&value, element_bytes + pos * slot, sizeof(S));
                store_words(p.out + (i + r), op.template finalize<Out>(value));
              }
            }
          }
          carry = c.total;
        }
        head_open = false;
        begin = j + ends[k - 1];
      }
      i += k;
      j += m;
      d = next_d;
      __syncthreads();  // this tile's reads of shared memory before the next tile's writes
    }
    end_run();
    if constexpr (spans) {
      if (span_from < j1) {  // segment i1, which begins at span_from: the tiles closed every other
        carry = block_carry<Threads>(false, span_fold<Threads, K>(p, op, base, begin, span_from, j1, staging), carry, op, slots).total;
        j = j1;
      }
    }
  }

  if (t == 0) {
    const bool started = d0 < d1 && head < p.segments;
    segment_entry<S> first{head_open ? carry : head_state, head_open ? 0u : 1u, started ? head : index_t{-1}};
    segment_entry<S> second{carry, 0u, started && !head_open && i < p.segments ? i : index_t{-1}};
    store_words(entries + 2 * blockIdx.x, first);
    store_words(entries + 2 * blockIdx.x + 1, second);
    last = take_last_ticket(ticket, gridDim.x);
  }
  __syncthreads();
  if (!last) return;  // uniform across the block

  // The fix-up: a run of consecutive entries a thread, folded in block order.
  // Entries a thread loads before it folds any: the whole run in one trip to L2 for the default grid
  // (2 entries x 4 blocks of 256 an SM, up to 192 SMs); the fix-up is the kernel's last step, all
  // latency.
  constexpr int batch = 6;
  const unsigned count = 2u * gridDim.x;
  const unsigned run = (count + Threads - 1) / Threads;
  const unsigned lo = t * run < count ? t * run : count;
  const unsigned hi = lo + run < count ? lo + run : count;
  S acc = op.template identity<Acc>();
  S head_part = acc;
  index_t head_segment = -1;
  for (unsigned e = lo; e < hi; e += batch) {
    segment_entry<S> x[batch];
#pragma unroll
    for (int q = 0; q < batch; ++q)
      if (e + q < hi) x[q] = load_from_l2(entries + e + q);
#pragma unroll
    for (int q = 0; q < batch; ++q) {
      if (e + q < hi && x[q].segment >= 0) {
        acc = op(acc, x[q].state);
        if (x[q].closes) {
          if (head_segment < 0) {
            head_part = acc;
            head_segment = x[q].segment;
          } else {
            store_words(p.out + x[q].segment, op.template finalize<Out>(acc));
          }
          acc = op.template identity<Acc>();
        }
      }
    }
  }
  const block_carry_result<S> c = block_carry<Threads>(head_segment >= 0, acc, op.template identity<Acc>(), op, slots);
  if (head_segment >= 0) store_words(p.out + head_segment, op.template finalize<Out>(op(c.before, head_part)));
  if (t == 0) *ticket = 0;
}

// The checked form's test: the lowest segment s whose offsets[s], offsets[s + 1] are not
// 0 <= offsets[s] <= offsets[s + 1] <= n, into *first_bad (which starts at ~0).
template <class Off>
__global__ void find_bad_segment(const Off* offsets, index_t n, index_t segments, unsigned long long* first_bad) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t s = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < segments; s += stride) {
    const index_t b = static_cast<index_t>(offsets[s]);
    const index_t e = static_cast<index_t>(offsets[s + 1]);
    if (b < 0 || e < b || e > n) atomicMin(first_bad, static_cast<unsigned long long>(s));
  }
}

// The checked begin / end form's test: the lowest non-empty segment s (ends[s] > begins[s]) with
// begins[s] < 0 or ends[s] > n, into *first_bad (which starts at ~0).
template <class Off>
__global__ void find_bad_range(const Off* begins, const Off* ends, index_t n, index_t segments,
                               unsigned long long* first_bad) {
  const index_t stride = static_cast<index_t>(gridDim.x) * blockDim.x;
  for (index_t s = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; s < segments; s += stride) {
    const index_t b = static_cast<index_t>(begins[s]);
    const index_t e = static_cast<index_t>(ends[s]);
    if (e > b && (b < 0 || e > n)) atomicMin(first_bad, static_cast<unsigned long long>(s));
  }
}

}  // namespace tally::detail
