// accum::reproducible in the other algorithms: each row of reduce_rows and each segment of
// reduce_segments has the bits of the host's fold of its elements, which are the bits of a
// device-wide reduce of that row alone.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <vector>

#include <tally/reduce_rows.cuh>
#include <tally/reduce_segments.cuh>

#include "support/reproducible.cuh"

namespace {

using namespace tally;
using namespace tally::test::repro;  // with the test data names (support/reproducible.cuh)

// float, and __half: 16-bit rows fold an item's elements through op::sum's binned fold_run, and 16-bit
// segment tiles hold pairs (18 items a thread).
template <class T>
void check_rows_and_segments() {
  const std::uint64_t seed = tally::test::next_seed();
  const bool small = tally::test::max_test_size() < (1 << 21);  // TALLY_TEST_MAX_N: the sanitizer runs
  for (index_t cols : {index_t{1}, index_t{7}, index_t{100}, index_t{4099}, index_t{70000}}) {
    const index_t rows = small ? 3 : cols > 5000 ? 37 : 300, ld = cols + 3;
    const std::vector<T> h = host_data<T>(kind::wide, seed + static_cast<std::uint64_t>(cols), rows * ld);
    device_array<T> d(h.size());
    upload(d.p, h);
    device_array<value_t<T>> out(static_cast<std::size_t>(rows));
    reduce_rows<rows_policy<rows::by_shape, R>>(d.p, rows, cols, ld, out.p, op::sum{}, 0);
    std::vector<value_t<T>> got(static_cast<std::size_t>(rows));
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(got.data(), out.p, got.size() * sizeof(value_t<T>), cudaMemcpyDeviceToHost));
    int bad = 0;
    for (index_t i = 0; i < rows; ++i) bad += bits(got[static_cast<std::size_t>(i)]) != bits(host_fold(h.data() + i * ld, cols).value());
    INFO("rows " << rows << " x " << cols);
    CHECK(bad == 0);
    // The row alone through the device-wide reduce.
    CHECK(bits(device_reduce<comp_default<T>, T, value_t<T>>(d.p + (rows / 2) * ld, cols)) == bits(got[static_cast<std::size_t>(rows / 2)]));
  }
  // Ragged segments, lengths 0 to a few thousand.
  std::mt19937_64 rng(seed);
  std::vector<std::int64_t> offsets{0};
  while (offsets.back() < (small ? 20000 : 1 << 21)) offsets.push_back(offsets.back() + static_cast<std::int64_t>(rng() % (rng() % 4 == 0 ? 5000 : 40)));
  const index_t segments = static_cast<index_t>(offsets.size()) - 1, n = offsets.back();
  const std::vector<T> h = host_data<T>(kind::full_range, seed, n);
  device_array<T> d(h.size());
  upload(d.p, h);
  device_array<std::int64_t> d_off(offsets.size());
  upload(d_off.p, offsets);
  device_array<value_t<T>> out(static_cast<std::size_t>(segments));
  reduce_segments<segments_policy<256, sizeof(T) == 2 ? 18 : 17, R>>(d.p, d_off.p, segments, out.p, op::sum{}, 0);
  std::vector<value_t<T>> got(static_cast<std::size_t>(segments));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(got.data(), out.p, got.size() * sizeof(value_t<T>), cudaMemcpyDeviceToHost));
  int bad = 0;
  for (index_t s = 0; s < segments; ++s)
    bad += bits(got[static_cast<std::size_t>(s)]) != bits(host_fold(h.data() + offsets[static_cast<std::size_t>(s)], offsets[static_cast<std::size_t>(s) + 1] - offsets[static_cast<std::size_t>(s)]).value());
  INFO(segments << " segments");
  CHECK(bad == 0);
}

TEST_CASE("reproducible: each row of reduce_rows and each segment of reduce_segments has the bits of its own reduce") {
  check_rows_and_segments<float>();
}

TEST_CASE("reproducible: the same for __half rows and segments") { check_rows_and_segments<__half>(); }

}  // namespace
