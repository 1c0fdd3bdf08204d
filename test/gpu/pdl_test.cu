// Programmatic dependent launch (launch::pdl, for reduce, row and transpose launches): the same results
// as a plain launch, and no call reads memory before the kernel ahead of it in the stream has
// finished writing it.
#include <algorithm>
#include <cstdint>
#include <vector>

#include <tally/reduce_rows.cuh>
#include <tally/transpose.cuh>

#include "support/check.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// A composition unlike default_reduce_policy's (which the other suites test), launched programmatically.
using pdl_policy = reduce_policy<load::unroll<4>, block::sequential_unrolled, smem::padded, 128, accum::native,
                                 grid::resident, launch::pdl>;

std::int64_t host_int_sum(std::uint64_t seed, index_t n) {
  std::uint64_t s = 0;  // int32 sums wrap, as the device's do
  for (index_t i = 0; i < n; ++i) s += static_cast<std::uint64_t>(static_cast<std::int64_t>(value_at<std::int32_t>(seed, i)));
  return static_cast<std::int32_t>(static_cast<std::uint32_t>(s));
}

}  // namespace

TEST_CASE("launch::pdl reduce: matches the host and CUB at every size") {
  for (const index_t n : test_sizes()) {
    for_each_type(type_list<float, std::int32_t, double>{}, [&](auto t) {
      using T = typename decltype(t)::type;
      const dataset<T> d(n, next_seed());
      check_reduce<pdl_policy, op::sum>(d, host_truth<op::sum>(d));
      if constexpr (std::is_same_v<T, float>) check_reduce<pdl_policy, op::arg_min>(d, host_truth<op::arg_min>(d));
    });
  }
}

// A producer kernel rewrites the input before every reduction, in one stream and without any host
// synchronisation: a reduction that started reading before the producer finished would see a mix
// of two fills and miss the exact (wrapping) int32 sum.
TEST_CASE("launch::pdl reduce: waits for the kernel ahead of it: fill, reduce, fill, reduce, ...") {
  const index_t n = capped((index_t{1} << 22) + 5);
  constexpr int rounds = 24;
  device_buffer<std::int32_t> in(static_cast<std::size_t>(n));
  device_buffer<std::int32_t> out(rounds);
  out.poison();
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  reducer<pdl_policy, std::int32_t> r;
  r.reserve(n);
  std::vector<std::uint64_t> seeds(rounds);
  for (int k = 0; k < rounds; ++k) {
    seeds[k] = next_seed();
    fill_kernel<std::int32_t><<<1024, 256, 0, stream>>>(in.get(), n, seeds[k]);
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    r(in.get(), n, out.get() + k, stream);
    r(in.get(), n / 3, out.get() + k, stream);  // back to back: the second overwrites the first
    r(in.get(), n, out.get() + k, stream);
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  const std::vector<std::int32_t> got = out.values();
  for (int k = 0; k < rounds; ++k) {
    CAPTURE(k);
    CHECK(got[k] == host_int_sum(seeds[k], n));
  }
  cudaStreamDestroy(stream);
}

// The same with a cudaMemsetAsync as the producer: not a kernel, so no programmatic edge, and the
// reduction must still start after it.
TEST_CASE("launch::pdl reduce: waits for a cudaMemsetAsync ahead of it") {
  const index_t n = capped((index_t{1} << 22) + 5);
  constexpr int rounds = 24;
  device_buffer<std::int32_t> in(static_cast<std::size_t>(n));
  device_buffer<std::int32_t> out(rounds);
  out.poison();
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  reducer<pdl_policy, std::int32_t> r;
  r.reserve(n);
  std::vector<std::int32_t> expected(rounds);
  for (int k = 0; k < rounds; ++k) {
    const unsigned char byte = static_cast<unsigned char>(k + 1);
    TALLY_TEST_CHECK_CUDA(cudaMemsetAsync(in.get(), byte, sizeof(std::int32_t) * static_cast<std::size_t>(n), stream));
    r(in.get(), n, out.get() + k, stream);
    const std::uint32_t word = 0x01010101u * byte;
    expected[k] = static_cast<std::int32_t>(static_cast<std::uint32_t>(static_cast<std::uint64_t>(word) * static_cast<std::uint64_t>(n)));
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  for (int k = 0; k < rounds; ++k) {
    CAPTURE(k);
    CHECK(out.read(static_cast<std::size_t>(k)) == expected[k]);
  }
  cudaStreamDestroy(stream);
}

// Each reduction's input is the previous one's output (n = 1: a one-block launch): a chain of
// programmatic launches where every read depends on the write just before it.
// Captured launches are made without PDL (detail::is_capturing); the replays run behind a
// cudaMemsetAsync of their output, which they must follow.
TEST_CASE("launch::pdl reduce: chains: reduce of the previous reduction's output, in a CUDA graph too") {
  constexpr int links = 16;
  const index_t n = capped((index_t{1} << 20) + 7);
  const dataset<double> d(n, next_seed());
  device_buffer<double> chain(links + 1), replayed(links + 1);
  reducer<pdl_policy, double> r;
  r.reserve(n);
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  const auto queue = [&](double* c) {
    r(d.data(), n, c, stream);
    for (int k = 0; k < links; ++k) r(c + k, 1, c + k + 1, stream);
  };
  chain.poison();
  queue(chain.get());
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  const double total = chain.read(0);
  for (int k = 1; k <= links; ++k) CHECK(chain.read(k) == total);

  replayed.poison();
  {
    const captured_graph graph(stream, [&] { queue(replayed.get()); });
    for (int replay = 0; replay < 3; ++replay) {
      // Poisoned on the stream, not by run(): the replay must wait for it with no host wait between.
      TALLY_TEST_CHECK_CUDA(cudaMemsetAsync(replayed.get(), 0xA5, sizeof(double) * (links + 1), stream));
      graph.launch();
      TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
      for (int k = 0; k <= links; ++k) CHECK(replayed.read(k) == total);
    }
  }
  cudaStreamDestroy(stream);
}

// Row reductions, every launch: a fill kernel rewrites the matrix before each call, and each call
// is followed by a row reduction of its own output (a 1 x M matrix), all in one stream with no
// host synchronisation. int32 row sums are exact, so a call that read a half-written input, or
// an output not yet written, gives a wrong number. The shapes run the group kernel (16384 x 200:
// a warp a row) and the span kernel (8 x 2^19: several blocks a row, with tickets).
TEST_CASE_TEMPLATE("row launches wait for the kernel ahead: fill, rows, rows of the result, ...", L, launch::stream_ordered,
                   launch::pdl) {
  using policy = rows_policy<rows::by_shape, accum::native, L>;
  struct shape {
    index_t m, n;
  };
  for (const shape s : {shape{16384, 200}, shape{8, index_t{1} << 19}}) {
    CAPTURE(s.m);
    CAPTURE(s.n);
    constexpr int rounds = 16;
    device_buffer<std::int32_t> a(static_cast<std::size_t>(s.m * s.n));
    device_buffer<std::int32_t> rows_out(static_cast<std::size_t>(s.m * rounds)), total(rounds);
    rows_out.poison();
    total.poison();
    cudaStream_t stream;
    TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    rows_reducer<policy, std::int32_t> r, r_total;
    r.reserve(s.m, s.n, s.n);
    r_total.reserve(1, s.m, s.m);
    std::vector<std::uint64_t> seeds(rounds);
    for (int k = 0; k < rounds; ++k) {
      seeds[k] = next_seed();
      fill_kernel<std::int32_t><<<1024, 256, 0, stream>>>(a.get(), s.m * s.n, seeds[k]);
      TALLY_TEST_CHECK_CUDA(cudaGetLastError());
      std::int32_t* out = rows_out.get() + k * s.m;
      r(a.get(), s.m, s.n, s.n, out, stream);
      r_total(out, 1, s.m, s.m, total.get() + k, stream);
    }
    TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
    const std::vector<std::int32_t> got = rows_out.values();
    for (int k = 0; k < rounds; ++k) {
      CAPTURE(k);
      index_t bad_rows = 0;
      std::uint64_t all = 0;
      for (index_t i = 0; i < s.m; ++i) {
        std::uint64_t row = 0;  // int32 sums wrap, as the device's do
        for (index_t j = 0; j < s.n; ++j)
          row += static_cast<std::uint64_t>(static_cast<std::int64_t>(value_at<std::int32_t>(seeds[k], i * s.n + j)));
        bad_rows += got[static_cast<std::size_t>(k * s.m + i)] != static_cast<std::int32_t>(static_cast<std::uint32_t>(row));
        all += row;
      }
      CHECK(bad_rows == 0);
      CHECK(total.read(static_cast<std::size_t>(k)) == static_cast<std::int32_t>(static_cast<std::uint32_t>(all)));
    }
    cudaStreamDestroy(stream);
  }
}

// Transposes launched with PDL (the default): a fill kernel rewrites the input, then A -> A^T ->
// A^T^T, round after round on one stream with no host synchronisation; the last transpose of each
// round reads what the one before wrote, and the next fill overwrites what the first read. Every
// round's result must equal its own input, bit for bit.
TEST_CASE("launch::pdl transposes wait for the kernel ahead: fill, transpose, transpose back, ...") {
  static_assert(default_transpose_policy<std::int32_t>::launch::programmatic);
  const index_t rows = 1000, cols = std::max<index_t>(1, capped(index_t{4100} * rows) / rows);  // 1000 x 4100
  constexpr int rounds = 12;
  device_buffer<std::int32_t> a(static_cast<std::size_t>(rows * cols)), at(static_cast<std::size_t>(rows * cols));
  device_buffer<std::int32_t> back(static_cast<std::size_t>(rows * cols * rounds));
  back.poison();
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  std::vector<std::uint64_t> seeds(rounds);
  for (int k = 0; k < rounds; ++k) {
    seeds[k] = next_seed();
    fill_kernel<std::int32_t><<<1024, 256, 0, stream>>>(a.get(), rows * cols, seeds[k]);
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    tally::transpose(a.get(), at.get(), rows, cols, stream);
    tally::transpose(at.get(), back.get() + k * rows * cols, cols, rows, stream);
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
  const std::vector<std::int32_t> got = back.values();
  for (int k = 0; k < rounds; ++k) {
    CAPTURE(k);
    index_t wrong = 0;
    for (index_t i = 0; i < rows * cols; ++i)
      wrong += got[static_cast<std::size_t>(k * rows * cols + i)] != value_at<std::int32_t>(seeds[k], i);
    CHECK(wrong == 0);
  }
  cudaStreamDestroy(stream);
}
