// csr_plan: the planned CSR product against the host reference (float and double, 32- and 64-bit row
// offsets and column indices, the segment tests' layouts), the same bits run to run, from a graph
// and from any block shape of one unit size, the constructor's and matvec's errors, and a row of
// more than 2^31 non-zeros.
#include <string>
#include <vector>

#include <tally/csr_plan.cuh>

#include "../common/argument_error.hpp"
#include "support/segments.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// Additions on the longest path of a planned product's row of `len` non-zeros: a lane's items, the
// warp's scan, then the tails of the units before (a fold of 32 a step, a 5-step tree each).
inline index_t planned_additions(index_t len, int items) {
  return items + 5 + 1 + len / (index_t{32} * items) / 32 + 5 + 2;
}

__global__ void fill_columns(int* cols, index_t n, std::uint64_t seed, index_t ncols) {
  for (index_t j = static_cast<index_t>(blockIdx.x) * blockDim.x + threadIdx.x; j < n;
       j += static_cast<index_t>(gridDim.x) * blockDim.x)
    cols[j] = static_cast<int>(csr_col(seed, j, ncols));
}

// A CSR matrix over a layout: values (data set l.seed), columns (csr_col), x, and the host truth.
template <class T>
struct csr_case {
  const segment_layout& l;
  index_t ncols;
  std::uint64_t col_seed;
  dataset<T> values, x;
  device_buffer<int> cols;
  std::vector<row_truth> truth;
  csr_case(const segment_layout& layout, index_t columns)
      : l(layout), ncols(columns), col_seed(next_seed()), values(l.end(), l.seed), x(columns, next_seed()),
        cols(static_cast<std::size_t>(l.end() > 0 ? l.end() : 1)) {
    fill_columns<<<1024, 256>>>(cols.get(), l.end(), col_seed, ncols);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<double> xs(static_cast<std::size_t>(ncols));
    for (index_t c = 0; c < ncols; ++c) xs[c] = host_value(x.at(c));
    truth = host_segments_truth<T>(l, &xs, col_seed);
  }
};

// Plans and multiplies with policy P into a poisoned y of rows + 1; checks every row against the
// host, y[rows] untouched, the values unwritten. Returns y's bytes.
template <class P, class T, class Off, class Col = int>
std::vector<unsigned char> check_planned(const csr_case<T>& c, const Col* cols = nullptr) {
  const segment_layout& l = c.l;
  const index_t rows = l.segments();
  INFO("policy " << P::name() << ", row offsets of " << sizeof(Off) << " bytes, columns of " << sizeof(Col) << ", "
                 << l.describe());
  const auto offsets = upload<Off>(l.offsets);
  device_buffer<T> y(static_cast<std::size_t>(rows + 1));
  y.poison();
  csr_plan<T, Off, P> plan(offsets.get(), rows, l.end());
  CHECK(plan.nnz() == l.end() - l.offsets[0]);
  if constexpr (std::is_same_v<Col, int>) plan.matvec(c.values.data(), c.cols.get(), c.x.data(), y.get());
  else plan.matvec(c.values.data(), cols, c.x.data(), y.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<T> got(static_cast<std::size_t>(rows + 1));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(got.data(), y.get(), got.size() * sizeof(T), cudaMemcpyDeviceToHost));
  index_t bad = 0;
  for (index_t r = 0; r < rows && bad < 5; ++r) {
    const index_t len = l.offsets[r + 1] - l.offsets[r];
    const long double bound = planned_additions(len, P::items) * unit_roundoff<T>() * c.truth[r].abs_dot;
    if (std::fabs(static_cast<long double>(got[r]) - c.truth[r].dot) > bound) {
      ++bad;
      FAIL_CHECK("row " << r << " of " << len << " non-zeros: tally " << show(got[r]) << ", host "
                        << static_cast<double>(c.truth[r].dot) << ", bound " << static_cast<double>(bound));
    }
  }
  CHECK(bad == 0);
  CHECK(device_buffer<T>::all_bytes(got[static_cast<std::size_t>(rows)]));
  CHECK(c.values.changed() == 0);
  return y.bytes();
}

}  // namespace

TEST_CASE("csr_plan: float and double, 32- and 64-bit row offsets and columns, against the host") {
  for (const auto& l : segment_test_layouts()) {
    const index_t ncols = 1 + static_cast<index_t>(l.seed % 5000);
    const csr_case<float> f(l, ncols);
    const auto bits = check_planned<default_csr_plan_policy<float>, float, int>(f);
    // Another block shape and register bound with the same units and runs: the same bits.
    CHECK(check_planned<csr_plan_policy<1, 7, 64>, float, index_t>(f) == bits);
    check_planned<csr_plan_policy<8, 3, 32>, float, int>(f);  // units of 96 items: rows over many units
    const csr_case<double> d(l, ncols);
    std::vector<index_t> wide(static_cast<std::size_t>(l.end()));
    for (index_t j = 0; j < l.end(); ++j) wide[j] = csr_col(d.col_seed, j, ncols);
    const auto cols64 = upload<index_t>(wide);
    check_planned<default_csr_plan_policy<double>, double, index_t>(d, cols64.get());
  }
}

TEST_CASE("csr_plan: the same bits run to run, on other streams and from a graph") {
  const segment_layout l{offsets_of(mixed_lengths(20000, next_seed())), next_seed()};
  const csr_case<float> c(l, 777);
  const index_t rows = l.segments();
  const auto offsets = upload<int>(l.offsets);
  csr_plan<float> plan(offsets.get(), rows, l.end());
  device_buffer<float> first(static_cast<std::size_t>(rows)), again(static_cast<std::size_t>(rows)),
      graphed(static_cast<std::size_t>(rows));
  plan.matvec(c.values.data(), c.cols.get(), c.x.data(), first.get());
  plan.matvec(c.values.data(), c.cols.get(), c.x.data(), again.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(first.bytes() == again.bytes());
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  TALLY_TEST_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
  plan.matvec(c.values.data(), c.cols.get(), c.x.data(), graphed.get(), stream);
  TALLY_TEST_CHECK_CUDA(cudaStreamEndCapture(stream, &graph));
  TALLY_TEST_CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  for (int k = 0; k < 3; ++k) TALLY_TEST_CHECK_CUDA(cudaGraphLaunch(exec, stream));
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK(graphed.bytes() == first.bytes());
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(stream));
}

TEST_CASE("csr_plan: errors name the first bad row, and nothing is planned or written") {
  const auto error_for = [&](std::vector<index_t> offsets, index_t nnz) {
    const auto d = upload<int>(offsets);
    return argument_error_of([&] { csr_plan<float> plan(d.get(), 4, nnz); });
  };
  CHECK(contains(error_for({0, 10, 5, 20, 30}, 100),
                 "tally::csr_plan: row 1 (row_offsets[1] = 10, row_offsets[2] = 5) ends before it begins"));
  CHECK(contains(error_for({0, 10, 20, 120, 30}, 100), "row 2 (row_offsets[2] = 20, row_offsets[3] = 120) ends beyond n = 100"));
  CHECK(contains(error_for({-3, 10, 20, 30, 40}, 100), "row 0 (row_offsets[0] = -3, row_offsets[1] = 10) begins before element 0"));
  CHECK(error_for({0, 10, 20, 30, 100}, 100).empty());
  const auto d = upload<int>({0, 1, 2, 3, 4});
  CHECK(contains(argument_error_of([&] { csr_plan<float> p(d.get(), -1, 4); }), "rows = -1 is negative"));
  CHECK(contains(argument_error_of([&] { csr_plan<float> p(d.get(), 4, -2); }), "nnz = -2 is negative"));
  CHECK(contains(argument_error_of([&] { csr_plan<float> p(static_cast<const int*>(nullptr), 4, 4); }),
                 "row offsets pointer is null"));
  csr_plan<float> empty(static_cast<const int*>(nullptr), 0, 0);
  CHECK(argument_error_of([&] { empty.matvec(static_cast<const float*>(nullptr), static_cast<const int*>(nullptr),
                                             static_cast<const float*>(nullptr), static_cast<float*>(nullptr)); })
            .empty());
  const dataset<float> values(4, next_seed());
  device_buffer<float> y(4);
  csr_plan<float> plan(d.get(), 4, 4);
  CHECK(contains(argument_error_of([&] { plan.matvec(values.data(), static_cast<const int*>(nullptr), values.data(), y.get()); }),
                 "column index pointer is null"));
  CHECK(contains(argument_error_of([&] { plan.matvec(values.data(), d.get(), static_cast<const float*>(nullptr), y.get()); }),
                 "vector x pointer is null"));
}

TEST_CASE("csr_plan: a row of more than 2^31 non-zeros among short ones, 64-bit row offsets") {
  const index_t big = (index_t{1} << 31) + 11;
  if (big + 2000 > max_test_size()) return;
  const segment_layout l{offsets_of({5, big, 0, 1025, 3, 1, 0, 7}), next_seed()};
  const csr_case<float> c(l, 4099);
  check_planned<default_csr_plan_policy<float>, float, index_t>(c);
}
