// The row-reduction sweep one element type runs: every strategy (forced) and the default, for
// sum, min, max, arg_max and matvec, over shapes around every boundary of the plans.
#pragma once
#include <vector>

#include "rows.cuh"

namespace tally::test {

// M or N = 1, N around warp sizes and not a multiple of 32, ld = N + 3 (rows misaligned: scalar
// items) and N + 32, a misaligned start, N = 0, many short rows, few long rows.
inline std::vector<rows_shape> rows_shapes() {
  const index_t mega = index_t{1} << 20;
  std::vector<rows_shape> kept;
  for (const rows_shape s : {rows_shape{1, 1, 1, 0}, rows_shape{1, 1000, 1000, 0}, rows_shape{1000, 1, 1, 0},
                             rows_shape{7, 31, 31, 0}, rows_shape{9, 33, 33, 0}, rows_shape{100, 1000, 1000, 0},
                             rows_shape{37, 100, 103, 0}, rows_shape{37, 100, 132, 0}, rows_shape{300, 8, 8, 0},
                             rows_shape{300, 8, 11, 0}, rows_shape{5000, 64, 64, 0}, rows_shape{1000, 64, 64, 1},
                             rows_shape{5, 0, 0, 0}, rows_shape{5, 0, 3, 0}, rows_shape{mega, 8, 8, 0},
                             rows_shape{3, mega + 5, mega + 5, 0}, rows_shape{64, 70001, 70004, 0}})
    if (s.m * s.ld + s.offset <= max_test_size()) kept.push_back(s);
  return kept;
}

template <class T, class Op>
using forced_strategies = type_list<default_rows_policy<T, Op>, rows::thread_per_row, rows::sub_warp_per_row<4>,
                                    rows::warp_per_row, rows::block_per_row<128>, rows::blocks_per_row<>>;

template <class Op, class T>
void check_op_on_all_strategies(const test_matrix<T>& a, const std::vector<row_truth>& truth) {
  const auto cub = cub_rows<Op, T>(a);
  for_each_type(forced_strategies<T, Op>{}, [&](auto s) {
    // CUB is not compared on empty rows (its arg_* answer for an empty segment differs).
    check_rows<typename decltype(s)::type, Op>(a, truth, a.n() > 0 ? cub : decltype(cub){});
  });
}

template <class T>
void check_rows_on_type() {
  for (const rows_shape& s : rows_shapes()) {
    const test_matrix<T> a(s.m, s.n, s.ld, next_seed(), s.offset);
    const std::uint64_t x_seed = next_seed();
    const dataset<T> x(s.n, x_seed);
    const auto truth = host_rows_truth(a, x_seed);
    check_op_on_all_strategies<op::sum>(a, truth);
    check_op_on_all_strategies<op::min>(a, truth);
    check_op_on_all_strategies<op::max>(a, truth);
    check_op_on_all_strategies<op::arg_max>(a, truth);
    check_rows<default_rows_policy<T, op::arg_min>, op::arg_min>(a, truth, a.n() > 0 ? cub_rows<op::arg_min, T>(a) : std::vector<arg<T>>{});
    // block_per_row<>: the default's kernels of whole rows (double's streamed: rows_stream_kernel.cuh).
    for_each_type(type_list<default_rows_policy<T>, rows::warp_per_row, rows::block_per_row<>, rows::blocks_per_row<>>{}, [&](auto p) {
      check_rows<typename decltype(p)::type, op::sum>(a, truth, std::vector<int>{}, rows_job::dot, x.data());
    });
  }
}

}  // namespace tally::test
