// segments_policy: the composition reduce_segments and csr_matvec take (reduce_segments.cuh).
//
// Segments are balanced by merge path (docs/segments.md): the S segment ends and the n elements form
// one merged sequence, and every block of a resident grid takes an equal share of its cost (an end
// weighs 32 elements, 2 in CSR products), in tiles of Threads * Items items staged through shared
// memory, where each thread walks Items consecutive element positions. An end closes a segment, an
// element folds into the open one; so a block's work is the same whether its share holds one
// segment of a billion elements or a million empty ones.
//
//   Threads  threads a block (a multiple of 32, at most 1024)
//   Items    element positions a thread walks a tile (a tile holds Threads * Items items); odd, so
//            that threads walking Items consecutive 4-byte elements of shared memory hit different
//            banks, but for 16-bit elements even, so that their tiles load in pairs
//   Accum    the accumulator (accum.cuh)
//   Launch   the launch policy (launch.cuh)
//   GroupItems  tiles of short segments (two ends a thread or more) are reduced by groups of
//            lanes instead of the walk: a group of G lanes a segment (G the power of two nearest
//            below mean length / GroupItems, 1 to 8), each lane folding every G-th element, then a
//            shuffle within the group. 0: the walk always (the tile rule is in segments_kernel.cuh)
//   RowShares  a block whose share holds whole segments of one length reads them as rows: staged in
//            shared memory by bulk copies, a group of lanes a segment, no tiles (sm_90 and later, the
//            offsets form of reduce_segments; detail/segments_row_share.cuh). false: tiles always
//   ShortShares  a block whose share holds short segments (6 elements or fewer on average) reads
//            them a segment a thread, straight from global memory, with no tiles (the offsets form
//            of reduce_segments; detail/segments_short_share.cuh). false: tiles always
//   BeginEndGroupItems  GroupItems for the begin / end form, whose walk reads the input (the offsets
//            form's GroupItems unless given)
//
// The order of every combination depends on (offsets, S, grid) alone: fixed_order is true.
// default_segments_policy<T, Op>: 256 threads, 17 items for elements of 4 bytes, 18 for 16-bit ones
// (an even count: they load in pairs) and 13 for wider ones (docs/segments.md has the sweep, 256 x
// 19 included), the default accumulator of reduce and
// reduce_rows, launched with PDL; the offsets form walks every tile for sums, min, max and custom
// operators over 4- and 8-byte elements, and gives tiles of short segments lane groups of 4 items
// otherwise; the begin / end form gives them lane groups of 4 items. default_csr_policy<T>:
// csr_matvec's, the same with 11 items for 8-byte values, every tile walked.
#pragma once
#include <string>
#include <type_traits>

#include <tally/default_policy.cuh>
#include <tally/policies/accum.cuh>
#include <tally/policies/launch.cuh>
#include <tally/policies/op.cuh>

namespace tally {

template <int Threads = 256, int Items = 17, class Accum = accum::native, class Launch = launch::pdl, int GroupItems = 4,
          bool RowShares = true, bool ShortShares = true, int BeginEndGroupItems = GroupItems>
struct segments_policy {
  static_assert(Threads >= 32 && Threads <= 1024 && Threads % 32 == 0,
                "tally segments_policy: Threads must be a multiple of 32 between 32 and 1024");
  static_assert(Items >= 1 && Items <= 32, "tally segments_policy: Items must be between 1 and 32");
  static_assert(GroupItems >= 0 && BeginEndGroupItems >= 0,
                "tally segments_policy: GroupItems and BeginEndGroupItems must be 0 (always walk) or positive");
  static_assert(accum::check_accum_policy<Accum>());
  static_assert(launch::check_launch_policy<Launch>());
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int group_items = GroupItems;
  static constexpr int begin_end_group_items = BeginEndGroupItems;
  static constexpr bool row_shares = RowShares;
  static constexpr bool short_shares = ShortShares;
  using accum = Accum;
  using launch = Launch;
  static constexpr bool fixed_order = true;
  template <class A>
  using with_accum = segments_policy<Threads, Items, A, Launch, GroupItems, RowShares, ShortShares, BeginEndGroupItems>;
  template <class L>
  using with_launch = segments_policy<Threads, Items, Accum, L, GroupItems, RowShares, ShortShares, BeginEndGroupItems>;
  // "merge_path<256x17,walk,begin_end_groups_of_4,row_shares,short_shares>/native/pdl" ("groups_of_k"
  // for GroupItems = k > 0; the begin / end form's part only where it differs; no ",row_shares" or
  // ",short_shares" without them): for test output and benchmark names.
  static std::string name() {
    const auto groups = [](int k) { return k > 0 ? "groups_of_" + std::to_string(k) : std::string("walk"); };
    return "merge_path<" + std::to_string(Threads) + "x" + std::to_string(Items) + "," + groups(GroupItems) +
           (BeginEndGroupItems != GroupItems ? ",begin_end_" + groups(BeginEndGroupItems) : "") +
           (RowShares ? ",row_shares" : "") + (ShortShares ? ",short_shares" : "") + ">/" + Accum::name + "/" +
           Launch::name;
  }
};

namespace detail {
// The offsets form's tiles of short segments: walked for value states (sum, min, max, custom) of 4-
// and 8-byte elements, whose walk marks its ends (H100: uniform 2 - 12 +10 % in float sums, +13 % in
// float max, the rest within 1 % or better); lane groups of 4 items for arg states (walked, 2 - 12
// -24 %) and 16-bit elements (2 - 12 +14 %, but -1 to -3 % on 8 of 13 distributions). docs/segments.md.
template <class T, class Op>
inline constexpr int default_group_items = std::is_base_of_v<value_state, Op> && sizeof(T) >= 4 ? 0 : 4;
}  // namespace detail

// The begin / end form keeps lane groups of 4 items: its walk reads the input.
template <class T, class Op = op::sum>
using default_segments_policy = segments_policy<256, sizeof(T) == 2 ? 18 : sizeof(T) <= 4 ? 17 : 13, detail::default_accum<T, Op>, launch::pdl,
                                                detail::default_group_items<T, Op>, true, true, 4>;

// csr_matvec's default: tiles of 256 x 11 for 8-byte values (the sums' 13 spill in the CSR kernel,
// which holds the columns ahead at 80 registers; H100: double SpMV +10 - 13 % on short and
// power-law rows, docs/segments.md), 256 x 17 for 4-byte ones, every tile walked: lane groups
// gained no SpMV row and their pass over a tile's ends cost power-law rows 1 - 2 %.
template <class T>
using default_csr_policy =
    segments_policy<256, sizeof(T) <= 4 ? 17 : 11, detail::default_accum<T, op::sum>, launch::pdl, 0>;

}  // namespace tally
