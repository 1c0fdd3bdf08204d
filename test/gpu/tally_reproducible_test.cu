// tally::reproducible_sum (tally.hpp) and tally_reproducible_sum_<t> (tally.h): the bits of the
// template (accum::reproducible) and of the host fold, one-off and through a device_reducer.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include <tally/tally.h>
#include <tally/tally.hpp>

#include "support/reproducible.cuh"

namespace {

using namespace tally;
using namespace tally::test::repro;  // with the test data names (support/reproducible.cuh)

template <class T>
void check_entry_points(tally_status (*c_one_off)(const T*, int64_t, T*, void*),
                        tally_status (*c_reducer)(tally_reducer*, const T*, int64_t, T*, void*)) {
  tally::device_reducer r;
  tally_reducer* cr = nullptr;
  REQUIRE(tally_reducer_create(&cr) == TALLY_SUCCESS);
  for (index_t n : {index_t{0}, index_t{1}, index_t{1000}, index_t{(1 << 20) + 3}}) {
    for (kind k : {kind::wide, kind::full_range}) {
      const std::vector<T> h = host_data<T>(k, 99 + static_cast<std::uint64_t>(n), n);
      device_array<T> d(h.size());
      upload(d.p, h);
      device_array<T> out(4);
      const auto want = bits(host_fold(h.data(), n).value());
      INFO("n " << n << " kind " << static_cast<int>(k));
      CHECK(bits(device_reduce<comp_default<T>, T, T>(d.p, n)) == want);
      tally::reproducible_sum(d.p, n, out.p + 0);
      r.reproducible_sum(d.p, n, out.p + 1);
      REQUIRE(c_one_off(d.p, n, out.p + 2, nullptr) == TALLY_SUCCESS);
      REQUIRE(c_reducer(cr, d.p, n, out.p + 3, nullptr) == TALLY_SUCCESS);
      T got[4];
      TALLY_TEST_CHECK_CUDA(cudaMemcpy(got, out.p, sizeof got, cudaMemcpyDeviceToHost));
      for (T g : got) CHECK(bits(g) == want);
    }
  }
  tally_reducer_destroy(cr);
}

TEST_CASE("tally.hpp and tally.h: reproducible_sum gives the template's and the host fold's bits") {
  check_entry_points<float>(tally_reproducible_sum_f32, tally_reducer_reproducible_sum_f32);
  check_entry_points<double>(tally_reproducible_sum_f64, tally_reducer_reproducible_sum_f64);
}

}  // namespace
