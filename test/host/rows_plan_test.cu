// The shape -> strategy choice of reduce_rows / matvec: plan_rows is a pure host function.
#include <doctest/doctest.h>

#include <cstdint>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tally/reduce_rows.cuh>

using namespace tally;

namespace {

// An H200-like device: 132 SMs, 64 resident warps per SM, 8 resident span blocks per SM.
constexpr rows_device h200{132, 64, 8};
constexpr index_t k = 1024;

template <class S = rows::by_shape, class T = float>
rows_plan plan(index_t m, index_t n, bool aligned = true, index_t ld = -1) {
  return plan_rows<S, T>(m, n, ld < 0 ? n : ld, aligned, h200);
}

// The plan of a matvec (aligned, ld = N) on the same device.
template <class T = float, class S = rows::by_shape>
rows_plan dot_plan(index_t m, index_t n) {
  return plan_rows<S, T>(m, n, n, true, h200, true);
}

}  // namespace

TEST_CASE("rows plan: the benchmark shapes (float, aligned)") {
  const rows_plan tiny = plan(4 * k * k, 8);  // (2^22, 8): 2 items per row
  CHECK(tiny.vectorized);
  CHECK(tiny.items == 2);
  CHECK(tiny.strategy() == "thread_per_row");
  CHECK(tiny.rows_in_flight == 4);
  CHECK(tiny.blocks == 4 * k * k / (4 * 256));

  CHECK(plan(k * k, 64).strategy() == "sub_warp_per_row<16>");
  const rows_plan medium = plan(64 * k, 1000);  // 250 items: long rows, many of them
  CHECK(medium.strategy() == "warp_per_row");
  CHECK(medium.rows_in_flight == 1);
  CHECK(medium.blocks == 64 * k / 8);
  CHECK(plan(16 * k, 4 * k).strategy() == "block_per_row");   // M >= 132 x 64 resident warps, 1024 items a row
  CHECK(plan(16 * k, 4 * k).blocks == 16 * k);
  CHECK(plan(16 * k, 4 * k - 4).strategy() == "warp_per_row");  // 1023 items
  CHECK(plan<rows::by_shape, double>(16 * k, 2 * k).strategy() == "block_per_row");  // 1024 items
  CHECK(plan<rows::by_shape, __half>(16 * k, 4 * k).strategy() == "warp_per_row");   // 512 items
  CHECK(plan(4 * k, 16 * k).strategy() == "block_per_row");   // fewer rows than warps, more than span blocks
  CHECK(plan(4 * k, 16 * k).blocks == 4 * k);
  CHECK(plan(4 * k, 4 * k).strategy() == "block_per_row");                  // 1024 items a row: 4 a thread
  CHECK(plan<rows::by_shape, double>(4 * k, 4 * k).strategy() == "block_per_row");
  CHECK(plan(4 * k, 2 * k).strategy() == "warp_per_row");                   // 512 items, M >= W / 4
  CHECK(plan(8448 / 4, 2 * k).strategy() == "warp_per_row");                // W / 4 rows
  CHECK(plan(8448 / 4 - 1, 2 * k).strategy() == "block_per_row");           // fewer
  CHECK(plan<rows::by_shape, double>(4 * k, 2 * k).strategy() == "block_per_row");  // 1024 items

  const rows_plan few = plan(64, k * k);  // 1056 span blocks / 64 rows
  CHECK(few.strategy() == "blocks_per_row<16>");
  CHECK(few.items_per_split == k * k / 4 / 16);
  CHECK(few.blocks == 64 * 16);
  const rows_plan three = plan(3, 16 * k * k);
  CHECK(three.strategy() == "blocks_per_row<352>");
  CHECK(three.blocks == 1056);
  CHECK(three.workspace_bytes(sizeof(float)) == 16 + 3 * 352 * sizeof(float));
}

TEST_CASE("rows plan: matvec reads two rows at once where x's items would be read again from L2") {
  // 16-bit long rows: two a warp, two items each.
  CHECK(dot_plan<__half>(16 * k, 4 * k).strategy() == "warp_per_row");
  CHECK(dot_plan<__half>(16 * k, 4 * k).rows_in_flight == 2);
  CHECK(dot_plan<__half>(16 * k, 4 * k).blocks == 16 * k / 16);
  CHECK(dot_plan<__nv_bfloat16>(4 * k, 4 * k).rows_in_flight == 2);  // 512 items, M >= W / 4
  CHECK(dot_plan<__half>(64 * k, 1000).rows_in_flight == 4);         // 125 items: four rows a warp, as sums
  CHECK(dot_plan<float>(64 * k, 1000).rows_in_flight == 1);          // 4-byte elements: one row
  CHECK(dot_plan<double>(64 * k, 1000).rows_in_flight == 1);
  // A block a row: one row at once while x fits 64 KB, two beyond; double's whole rows one at a time.
  CHECK(dot_plan<float>(16 * k, 4 * k).strategy() == "block_per_row");
  CHECK(dot_plan<float>(4 * k, 16 * k).strategy() == "block_per_row");
  CHECK(dot_plan<float>(4 * k, 32 * k).rows_in_flight == 2);  // x of 128 KB
  CHECK(dot_plan<float>(4 * k, 32 * k).blocks == 2 * k);
  CHECK(dot_plan<float>(4 * k, 16 * k).rows_in_flight == 1);  // x of 64 KB
  CHECK(dot_plan<double>(4 * k, 16 * k).strategy() == "block_per_row");
  CHECK(dot_plan<double>(4 * k, 16 * k).rows_in_flight == 1);  // 128 KB, but double
  CHECK(dot_plan<double>(4 * k, 16 * k).blocks == 4 * k);
  CHECK(plan<rows::by_shape, double>(4 * k, 16 * k).rows_in_flight == 1);  // row sums: one
  CHECK(dot_plan<double, rows::block_per_row<>>(4 * k, 16 * k).rows_in_flight == 1);
  CHECK(dot_plan<float, rows::block_per_row<>>(4 * k, 32 * k).rows_in_flight == 2);
  // Split rows: a block a span of two rows, the spans from the pairs of rows.
  const rows_plan few = dot_plan<float>(64, k * k);
  CHECK(few.strategy() == "blocks_per_row<33>");  // 1056 span blocks / 32 pairs
  CHECK(few.rows_in_flight == 2);
  CHECK(few.blocks == 32 * 33);
  CHECK(few.tickets == 32);
  CHECK(few.partials == 64 * 33);
  const rows_plan three = dot_plan<float>(3, 16 * k * k);
  CHECK(three.strategy() == "blocks_per_row<528>");
  CHECK(three.blocks == 2 * 528);
  CHECK(three.partials == 3 * 528);
  CHECK(dot_plan<__half>(3, 16 * k * k).rows_in_flight == 2);  // x of 32 MB
  CHECK(dot_plan<__half>(64, 16 * k).rows_in_flight == 1);      // 32 KB: one row, split in 16
  CHECK(dot_plan<__half>(64, 16 * k).strategy() == "blocks_per_row<2>");
  const rows_plan one = dot_plan<float>(1, k * k);  // one row: nothing to pair
  CHECK(one.rows_in_flight == 1);
  CHECK(one.strategy() == "blocks_per_row<256>");  // 2^18 items / 1024
  CHECK(dot_plan<float, rows::blocks_per_row<>>(64, k * k).rows_in_flight == 2);
  CHECK(plan<rows::blocks_per_row<>>(64, k * k).rows_in_flight == 1);  // the same shape's row sums
}

TEST_CASE("rows plan: split matvec rows read A with the evict-first hint where x fits a quarter of L2") {
  constexpr rows_device h100{132, 64, 8, 50 * k * k};  // 50 MB of L2
  const auto on_h100 = [&](auto type, index_t m, index_t n, bool dot = true) {
    return plan_rows<rows::by_shape, decltype(type)>(m, n, n, true, h100, dot);
  };
  CHECK(on_h100(float{}, 64, k * k).stream_a);   // x of 4 MB, two rows a span block
  CHECK(on_h100(double{}, 64, k * k).stream_a);  // 8 MB
  CHECK(on_h100(__half{}, 64, k * k).stream_a);  // 2 MB
  CHECK(on_h100(double{}, 64, 12800 * k / 8).stream_a);       // 12.5 MB: a quarter of L2
  CHECK(!on_h100(double{}, 64, 12800 * k / 8 + 2).stream_a);  // just past it
  CHECK(!on_h100(float{}, 3, 16 * k * k).stream_a);   // 64 MB
  CHECK(!on_h100(__half{}, 3, 16 * k * k).stream_a);  // 32 MB
  CHECK(!on_h100(float{}, 4 * k, 32 * k).stream_a);  // a block a pair of whole rows
  CHECK(!on_h100(float{}, 16 * k, 4 * k).stream_a);  // a block a whole row
  CHECK(!on_h100(__half{}, 4 * k, 16 * k).stream_a);
  CHECK(!on_h100(__half{}, 64, 16 * k).stream_a);     // one row a span block
  CHECK(!on_h100(float{}, 64, k * k, false).stream_a);  // row sums
  CHECK(plan_rows<rows::blocks_per_row<>, float>(64, k * k, k * k, true, h100, true).stream_a);
  CHECK(!dot_plan<float>(64, k * k).stream_a);  // L2's size unknown
}

TEST_CASE("rows plan: a double matvec of whole rows reads them one a block with the evict-first hint") {
  constexpr rows_device h100{132, 64, 8, 50 * k * k};
  for (const auto& d : {h100, rows_device{}}) {
    const auto on = [&](index_t m, index_t n, bool dot = true) { return plan_rows<rows::by_shape, double>(m, n, n, true, d, dot); };
    for (const rows_plan& p : {on(16 * k, 4 * k), on(4 * k, 16 * k), on(4 * k, 4 * k), on(16 * k, 4 * k + 3)}) {
      CHECK(p.strategy() == "block_per_row");
      CHECK(p.stream_a);
      CHECK(p.rows_in_flight == 1);
      CHECK(p.blocks == p.m);
    }
    CHECK(!on(16 * k, 4 * k, false).stream_a);  // row sums read A with the hint in the kernel, plan or not
    CHECK(plan_rows<rows::block_per_row<>, double>(4 * k, 16 * k, 16 * k, true, d, true).stream_a);
    CHECK(!plan_rows<rows::block_per_row<>, float>(4 * k, 16 * k, 16 * k, true, d, true).stream_a);
  }
  // Split rows keep their rule: two rows a block, the hint only where x fits a quarter of L2.
  const rows_plan three = plan_rows<rows::by_shape, double>(3, 16 * k * k, 16 * k * k, true, h100, true);
  CHECK(three.splits > 1);
  CHECK(three.rows_in_flight == 2);
  CHECK(!three.stream_a);  // x of 128 MB
}

TEST_CASE("rows plan: short rows get one lane up to 4 items, then one per 16-byte item, two past 16 items") {
  CHECK(plan(1000, 1).strategy() == "thread_per_row");
  CHECK(plan(1000, 4).strategy() == "thread_per_row");
  CHECK(plan(1000, 5).strategy() == "thread_per_row");  // one item and a tail element
  CHECK(plan(1000, 5).tail_begin == 4);
  CHECK(plan(1000, 16).strategy() == "thread_per_row");     // 4 items
  CHECK(plan(1000, 17).strategy() == "sub_warp_per_row<8>");  // 4 items and a tail element
  CHECK(plan(1000, 20).strategy() == "sub_warp_per_row<8>");  // 5 items
  CHECK(plan(1000, 31).strategy() == "sub_warp_per_row<8>");
  CHECK(plan(1000, 33).strategy() == "sub_warp_per_row<16>");
  CHECK(plan(1000, 65).strategy() == "sub_warp_per_row<16>");  // 16 items and a tail element
  CHECK(plan(1000, 128).strategy() == "sub_warp_per_row<16>");  // 32 items: two a lane
  CHECK(plan(1000, 128).rows_in_flight == 4);
  CHECK(plan(1000, 132).strategy() == "warp_per_row");          // 33 items
  CHECK(plan<rows::by_shape, double>(k * k, 64).strategy() == "sub_warp_per_row<16>");
  CHECK(plan(10, 512).rows_in_flight == 4);  // 128 items
  CHECK(plan<rows::by_shape, double>(4 * k * k, 8).strategy() == "thread_per_row");  // 4 items
  CHECK(plan<rows::by_shape, double>(4 * k * k, 10).strategy() == "sub_warp_per_row<8>");  // 5 items
  CHECK(plan<rows::by_shape, double>(4 * k * k, 8).item_elems == 2);
}

TEST_CASE("rows plan: misaligned rows read one element at a time") {
  const rows_plan p = plan(4 * k * k, 8, false, 9);
  CHECK_FALSE(p.vectorized);
  CHECK(p.item_elems == 1);
  CHECK(p.items == 8);
  CHECK(p.tail_begin == 8);
  CHECK(p.strategy() == "sub_warp_per_row<8>");
  CHECK(plan(1000, 1, false).strategy() == "sub_warp_per_row<8>");
  CHECK(plan(1000, 9, false).strategy() == "warp_per_row");
  struct twelve { float a, b, c; };
  CHECK_FALSE(plan<rows::by_shape, twelve>(100, 100, true).vectorized);

  alignas(16) float buf[64] = {};
  CHECK(detail::rows_aligned16(buf, 8, static_cast<const float*>(nullptr)));
  CHECK(detail::rows_aligned16(buf, 4, buf + 4));
  CHECK_FALSE(detail::rows_aligned16(buf, 9, static_cast<const float*>(nullptr)));  // ld * 4 bytes not a multiple of 16
  CHECK_FALSE(detail::rows_aligned16(buf + 1, 8, static_cast<const float*>(nullptr)));
  CHECK_FALSE(detail::rows_aligned16(buf, 8, buf + 2));  // x misaligned
}

TEST_CASE("rows plan: M = 0 launches nothing, N = 0 writes identities") {
  CHECK_FALSE(plan(0, 100).launches());
  CHECK(plan(0, 100).blocks == 0);
  const rows_plan empty_rows = plan(100, 0);
  CHECK(empty_rows.launches());
  CHECK(empty_rows.strategy() == "thread_per_row");  // N = 0: a lane a row reads nothing, writes the identity
  CHECK(empty_rows.items == 0);
  CHECK(empty_rows.tail_begin == 0);
  CHECK(plan<rows::blocks_per_row<>>(5, 0).splits == 1);
}

TEST_CASE("rows plan: forced strategies") {
  CHECK(plan<rows::thread_per_row>(10, k * k).strategy() == "thread_per_row");
  CHECK(plan<rows::warp_per_row>(10, 512).rows_in_flight == 4);
  CHECK(plan<rows::warp_per_row>(10, 516).rows_in_flight == 1);
  CHECK(plan<rows::sub_warp_per_row<4, 128>>(1000, 100).blocks == (1000 + 4 * 32 - 1) / (4 * 32));
  CHECK(plan<rows::block_per_row<128>>(3, 16 * k * k).strategy() == "block_per_row");
  CHECK(plan<rows::block_per_row<128>>(3, 16 * k * k).threads == 128);
  // blocks_per_row splits even where the default would not: at least 2, at most one per item.
  CHECK(plan<rows::blocks_per_row<>>(k * k, 8).splits == 2);
  CHECK(plan<rows::blocks_per_row<>>(1, 33).splits == 8);  // 8 items (the last split reads the tail too)
  CHECK(plan<rows::blocks_per_row<>>(1, 33).items_per_split == 1);
  CHECK(plan<rows::blocks_per_row<>>(1, 1).splits == 1);
  CHECK(plan<rows::blocks_per_row<>>(64, k * k).splits == 16);
}

TEST_CASE("rows plan: every plan covers every row and item, within the grid limit") {
  for (index_t m : {index_t{1}, index_t{3}, index_t{64}, index_t{1000}, index_t{1} << 20, index_t{1} << 31})
    for (index_t n : {index_t{0}, index_t{1}, index_t{7}, index_t{33}, index_t{1000}, index_t{1} << 20, (index_t{1} << 30) + 17})
      for (bool aligned : {true, false}) {
        CAPTURE(m);
        CAPTURE(n);
        CAPTURE(aligned);
        const auto check = [&](const rows_plan& p) {
          CHECK(p.blocks >= 1);
          CHECK(p.blocks <= grid::max_blocks);
          CHECK(p.items * p.item_elems + (p.n - p.tail_begin) == n);
          CHECK(p.n - p.tail_begin < p.item_elems);
          if (p.lanes == 0) {  // blocks reduce spans of rows
            CHECK(p.splits >= 1);
            CHECK(p.splits * p.items_per_split >= p.items);
            if (p.items > 0) CHECK((p.splits - 1) * p.items_per_split < p.items);  // no empty split
          } else {
            CHECK(32 % p.lanes == 0);
          }
        };
        check(plan(m, n, aligned));
        check(plan<rows::blocks_per_row<>>(m, n, aligned));
        check(plan<rows::warp_per_row>(m, n, aligned));
        check(plan<rows::by_shape, double>(m, n, aligned));
        check(plan_rows<rows::by_shape, float>(m, n, n, aligned, h200, true));
        check(plan_rows<rows::by_shape, __half>(m, n, n, aligned, h200, true));
        check(plan_rows<rows::blocks_per_row<>, float>(m, n, n, aligned, h200, true));
      }
}

namespace {
// A strategy of the test's own (only its plan runs here): one struct, no edit to the library.
struct one_block_of_64_a_row {
  static constexpr const char* name = "one_block_of_64_a_row";
  static constexpr bool fixed_order = true;
  template <class T>
  static constexpr void plan(rows_plan& p, const rows_device&) {
    detail::plan_spans(p, 64, 1);
    p.strategy_name = name;
  }
  template <class Call>
  static void launch(const rows_plan&, const Call&) {}
};
}  // namespace

TEST_CASE("rows plan: a strategy defined outside the library plans through plan_rows") {
  static_assert(rows::check_row_strategy<one_block_of_64_a_row>());
  const rows_plan p = plan<one_block_of_64_a_row>(1000, 100);
  CHECK(p.strategy() == "one_block_of_64_a_row");
  CHECK(p.threads == 64);
  CHECK(p.blocks == 1000);
  CHECK(p.items == 25);  // plan_rows' part: 16-byte items of 4 floats
  CHECK(p.workspace_bytes(sizeof(float)) == 0);
}

TEST_CASE("rows plan: split rows ask for a ticket a row and a partial a split") {
  const rows_plan few = plan(64, k * k);  // blocks_per_row<16>
  CHECK(few.tickets == 64);
  CHECK(few.partials == 64 * 16);
  CHECK(few.partials_offset() == 256);
  CHECK(few.workspace_bytes(sizeof(double)) == 256 + 64 * 16 * sizeof(double));
  const rows_plan whole = plan(4 * k, 16 * k);  // block_per_row: no workspace
  CHECK(whole.tickets == 0);
  CHECK(whole.workspace_bytes(sizeof(float)) == 0);
}

TEST_CASE("rows plan: by_shape's workspace bound covers every shape (device_reducer sizes its workspace with it)") {
  for (const rows_device d : {h200, rows_device{132, 64, 16}, rows_device{4, 48, 1}, rows_device{1, 32, 32}}) {
    const std::size_t bound = rows::by_shape::workspace_bound(d, 16);
    std::size_t largest = 0;
    for (index_t m = 1; m <= 1 << 16; m = m * 3 + 1)
      for (index_t n : {index_t{1}, index_t{129} * 4, index_t{1000}, index_t{1} << 14, index_t{1} << 22, (index_t{1} << 26) + 5})
        for (bool aligned : {true, false})
          for (bool dot : {false, true}) {
            const rows_plan p = plan_rows<rows::by_shape, float>(m, n, n, aligned, d, dot);
            const std::size_t need = p.workspace_bytes(16);
            CAPTURE(m);
            CAPTURE(n);
            CAPTURE(dot);
            CHECK(need <= bound);
            largest = need > largest ? need : largest;
          }
    CHECK(largest > 0);  // some shape split its rows
  }
}
