// A row strategy written outside the library, as a user would (docs/composing.md walks through one):
// one struct with its own plan, launch and kernel, keeping the row-strategy contract
// (lib/tally/rows/strategy.cuh), used through reduce_rows, rows_reducer and matvec with no edit to
// the library, and checked like tally's own strategies.
//
// scalar_thread_per_row: one thread a row, reading it one element at a time (no vectors: slow on
// long rows, but any alignment).
#include "support/rows_suite.cuh"

namespace {

using tally::index_t;

template <class K>
__global__ void scalar_rows_kernel(const typename K::args p, const typename K::op op) {
  if constexpr (K::launch::programmatic) tally::launch::wait_for_previous_grid();  // before any global access
  using element = tally::rows::row_item<typename K::input, 1>;
  for (index_t r = index_t{blockIdx.x} * blockDim.x + threadIdx.x; r < p.m; r += index_t{gridDim.x} * blockDim.x) {
    const auto* row = reinterpret_cast<const element*>(p.a + r * p.ld);
    auto acc = op.template identity<typename K::acc>();
    for (index_t j = 0; j < p.n; ++j) acc = tally::rows::fold_item<typename K::acc>(acc, row[j], j, p.xform, op);
    tally::rows::store_words(p.out + r, op.template finalize<typename K::out>(acc));
  }
}

struct scalar_thread_per_row {
  static constexpr const char* name = "scalar_thread_per_row";
  static constexpr bool fixed_order = true;
  static constexpr int threads = 128;

  template <class T>
  static constexpr void plan(tally::rows_plan& p, const tally::rows_device&) {
    p.strategy_name = name;
    p.threads = threads;
    p.lanes = 1;
    p.rows_in_flight = 1;
    p.blocks = tally::rows::grid_of(p.m / threads + (p.m % threads != 0));
  }

  template <class Call>
  static void launch(const tally::rows_plan& p, const Call& call) {
    call.queue(&scalar_rows_kernel<typename Call::types>, p, 0);
  }
};

}  // namespace

using namespace tally;
using namespace tally::test;

TEST_CASE("a row strategy defined outside the library: sum, max, arg_min and matvec over every shape") {
  static_assert(rows::check_row_strategy<scalar_thread_per_row>());
  for (const rows_shape& s : rows_shapes()) {
    if (s.n > (index_t{1} << 16)) continue;  // one thread a row: long rows take too long
    const test_matrix<double> a(s.m, s.n, s.ld, next_seed(), s.offset);
    const std::uint64_t x_seed = next_seed();
    const dataset<double> x(s.n, x_seed);
    const auto truth = host_rows_truth(a, x_seed);
    const bool has_columns = a.n() > 0;
    check_rows<scalar_thread_per_row, op::sum>(a, truth, has_columns ? cub_rows<op::sum, double>(a) : std::vector<double>{});
    check_rows<rows_policy<scalar_thread_per_row, accum::native, launch::stream_ordered>, op::max>(a, truth);
    check_rows<scalar_thread_per_row, op::arg_min>(a, truth,
                                                   has_columns ? cub_rows<op::arg_min, double>(a) : std::vector<arg<double>>{});
    check_rows<scalar_thread_per_row, op::sum>(a, truth, std::vector<int>{}, rows_job::dot, x.data());
  }
}
