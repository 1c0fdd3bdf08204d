// The rules every kernel keeps (docs/testing.md), each shown on the GPU.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "support/compositions.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// Sizes for the cheaper sweeps: every boundary of test_sizes() below 2^21.
std::vector<index_t> small_sizes() {
  std::vector<index_t> kept;
  for (index_t n : test_sizes())
    if (n < (index_t{1} << 21)) kept.push_back(n);
  return kept;
}

using ladder_rungs = type_list<reduce_policies::baseline, reduce_policies::strided, reduce_policies::sequential, reduce_policies::first_add,
                               reduce_policies::unroll_last_warp, reduce_policies::complete_unroll, reduce_policies::unroll4, reduce_policies::shuffle>;

template <class T>
std::vector<unsigned char> bits_of(const T& v) {
  std::vector<unsigned char> b(sizeof(T));
  std::memcpy(b.data(), &v, sizeof(T));
  return b;
}

}  // namespace

TEST_CASE("the ladder's named compositions (reduce_policies): float and int32 sums match the host and CUB") {
  for (const index_t n : test_sizes()) {
    for_each_type(type_list<float, std::int32_t>{}, [&](auto t) {
      using T = typename decltype(t)::type;
      const dataset<T> d(n, next_seed());
      const auto truth = host_truth<op::sum>(d);
      for_each_type(ladder_rungs{}, [&](auto p) { check_reduce<typename decltype(p)::type, op::sum>(d, truth); });
    });
  }
}

TEST_CASE("every block policy at 32, 64 and 1024 threads") {
  for (const index_t n : small_sizes()) {
    const dataset<float> d(n, next_seed());
    const auto truth = host_truth<op::sum>(d);
    const dataset<std::int64_t> di(n, next_seed());
    const auto truth_min = host_truth<op::arg_min>(di);
    for_each_type(all_blocks{}, [&](auto b) {
      using B = typename decltype(b)::type;
      check_reduce<reduce_policy<load::unroll<2>, B, smem::static_array, 32>, op::sum>(d, truth);
      check_reduce<reduce_policy<load::single, B, smem::padded, 64>, op::sum>(d, truth);
      check_reduce<reduce_policy<load::vector<1>, B, smem::dynamic, 1024>, op::sum>(d, truth);
      check_reduce<reduce_policy<load::single, B, smem::padded, 32>, op::arg_min>(di, truth_min);
    });
  }
}

TEST_CASE("vector loads from misaligned starts (1 to 15 bytes off a 16-byte boundary)") {
  const auto check_offsets = [](auto tag, int max_offset) {
    using T = typename decltype(tag)::type;
    for (const index_t size : {index_t{1}, index_t{7}, index_t{33}, index_t{4097}, index_t{65537}}) {
      const index_t n = capped(size);
      for (int offset = 1; offset <= max_offset; ++offset) {
        const dataset<T> d(n, next_seed(), offset);
        INFO("offset " << offset * sizeof(T) << " bytes");
        check_reduce<default_reduce_policy<T>, op::sum>(d, host_truth<op::sum>(d));
        check_reduce<default_reduce_policy<T, op::arg_max>, op::arg_max>(d, host_truth<op::arg_max>(d));
      }
    }
  };
  check_offsets(type_tag<float>{}, 3);
  check_offsets(type_tag<double>{}, 1);
  check_offsets(type_tag<__half>{}, 7);
  check_offsets(type_tag<std::int32_t>{}, 3);
}

TEST_CASE("the input is never written, whatever the composition") {
  const index_t n = capped((index_t{1} << 20) + 7);
  const dataset<float> d(n, next_seed());
  const auto truth = host_truth<op::sum>(d);
  for_each_type(ladder_rungs{}, [&](auto p) { check_reduce<typename decltype(p)::type, op::sum>(d, truth); });
  REQUIRE(d.changed() == 0);
}

TEST_CASE("null input with n > 0: a clear error, and the output is untouched") {
  device_buffer<float> out(1);
  out.poison(0x5A);
  const float before = out.read();
  reducer<default_reduce_policy<float>, float> r;
  try {
    r(static_cast<const float*>(nullptr), 10, out.get());
    FAIL("no error thrown");
  } catch (const tally::error& e) {
    CHECK(std::string(e.what()).find("input pointer is null but n = 10") != std::string::npos);
  }
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const float after = out.read();
  CHECK(bits_of(after) == bits_of(before));
}

TEST_CASE("bit-identical results across 100 calls on the same input, for default policies") {
  const index_t n = capped((index_t{1} << 24) + 3);
  const auto check_repeatable = [n](auto op_tag, auto type_tag_) {
    using Op = typename decltype(op_tag)::type;
    using T = typename decltype(type_tag_)::type;
    using R = reducer<default_reduce_policy<T, Op>, T, Op>;
    using Out = std::conditional_t<std::is_same_v<Op, op::arg_min>, arg<T>, typename R::accum_type>;
    const dataset<T> d(n, next_seed());
    R r;
    device_buffer<Out> out(100);
    for (int k = 0; k < 100; ++k) r(d.data(), n, out.get() + k);
    const std::vector<Out> results = out.values();
    for (int k = 1; k < 100; ++k) {
      CAPTURE(k);
      CHECK(bits_of(results[k]) == bits_of(results[0]));
    }
  };
  check_repeatable(type_tag<op::sum>{}, type_tag<float>{});
  check_repeatable(type_tag<op::sum>{}, type_tag<double>{});
  check_repeatable(type_tag<op::sum>{}, type_tag<__half>{});
  check_repeatable(type_tag<op::arg_min>{}, type_tag<float>{});
}

TEST_CASE("graph capture: a reducer and the one-off reduce replay to the same result") {
  const index_t n = capped((index_t{1} << 22) + 5);
  const dataset<double> d(n, next_seed());
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  device_buffer<double> direct(1), captured(2);

  reducer<default_reduce_policy<double>, double> r;
  r.reserve(n);  // no allocation may happen during capture
  r(d.data(), n, direct.get(), stream);

  {
    const captured_graph graph(stream, [&] {
      r(d.data(), n, captured.get(), stream);
      tally::reduce<default_reduce_policy<double>>(d.data(), n, captured.get() + 1, op::sum{}, stream);
    });
    graph.run(
        3,
        [&] {
          CHECK(bits_of(captured.read(0)) == bits_of(direct.read()));
          CHECK(bits_of(captured.read(1)) == bits_of(direct.read()));
        },
        captured);
  }
  cudaStreamDestroy(stream);
}

TEST_CASE("one-off calls take their workspace from tally's pool, which keeps it mapped across synchronizations") {
  // The device's default pool (release threshold 0) handed its memory back at every
  // synchronization, and the next one-off mapped it again (docs/plain.md).
  int device = 0;
  TALLY_TEST_CHECK_CUDA(cudaGetDevice(&device));
  const cudaMemPool_t pool = detail::workspace_pool(device);
  REQUIRE(pool != nullptr);
  std::uint64_t kept = 0;
  TALLY_TEST_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &kept));
  CHECK(kept == detail::pool_kept_bytes);
  const index_t n = capped((index_t{1} << 22) + 5);
  const dataset<float> d(n, next_seed());
  device_buffer<float> out(1);
  tally::reduce<default_reduce_policy<float>>(d.data(), n, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  std::uint64_t reserved = 0, used = 0;
  TALLY_TEST_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
  TALLY_TEST_CHECK_CUDA(cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used));
  CHECK(reserved > 0);  // still mapped after the synchronization
  CHECK(used == 0);     // and free: the call gave its workspace back
}

TEST_CASE("one reducer reused across growing and shrinking sizes; the one-off reduce agrees") {
  reducer<reduce_policies::baseline, std::int32_t> r;  // per_tile: the workspace grows with n
  for (const index_t size : {index_t{1000}, index_t{1} << 22, index_t{300}, (index_t{1} << 24) + 3, index_t{5}}) {
    const index_t n = capped(size);
    const dataset<std::int32_t> d(n, next_seed());
    const auto truth = host_truth<op::sum>(d);
    device_buffer<std::int32_t> out(2);
    r(d.data(), n, out.get());
    tally::reduce<reduce_policies::baseline>(d.data(), n, out.get() + 1);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CAPTURE(n);
    CHECK(out.read(0) == static_cast<std::int32_t>(truth.wrapped));
    CHECK(out.read(1) == static_cast<std::int32_t>(truth.wrapped));
  }
}

TEST_CASE("accum::wide gives the exact int32 sum where native wraps") {
  const index_t n = capped((index_t{1} << 24) + 3);  // |values| < 2^17: sums reach past 2^31
  const dataset<std::int32_t> d(n, next_seed());
  const auto truth = host_truth<op::sum>(d);
  using wide_p = reduce_policy<load::vector<2>, block::warp_shuffle, smem::static_array, 256, accum::wide>;
  check_reduce<wide_p, op::sum>(d, truth);  // compares the int64 result with the exact sum
  check_reduce<default_reduce_policy<std::int32_t>, op::sum>(d, truth);  // int32 result, the sum mod 2^32
}

// With a wider accumulator, min / max of no element is still T's identity (int64's highest would
// narrow to -1); found by the fuzz test.
TEST_CASE("accum::wide min, max, arg_min, arg_max over int32: empty and short inputs give T's answers") {
  using wide_p = reduce_policy<load::single, block::warp_shuffle, smem::padded, 1024, accum::wide>;
  for (const index_t n : {index_t{0}, index_t{1}, index_t{1000}}) {
    const dataset<std::int32_t> d(n, next_seed());
    check_reduce<wide_p, op::min>(d, host_truth<op::min>(d));
    check_reduce<wide_p, op::max>(d, host_truth<op::max>(d));
    check_reduce<wide_p, op::arg_min>(d, host_truth<op::arg_min>(d));
    check_reduce<wide_p, op::arg_max>(d, host_truth<op::arg_max>(d));
  }
}

struct bit_xor {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a ^ b; }
};

TEST_CASE("a user functor with an identity: bitwise xor over uint32, exact") {
  const auto xor_op = op::make_op(bit_xor{}, std::uint32_t{0});
  for (const index_t n : small_sizes()) {
    const dataset<std::uint32_t> d(n, next_seed());
    const std::uint32_t expected = host_reduce(
        n, std::uint32_t{0}, [&](std::uint32_t a, index_t i) { return a ^ d.at(i); },
        [](std::uint32_t a, std::uint32_t b) { return a ^ b; });
    device_buffer<std::uint32_t> out(1);
    reducer<default_reduce_policy<std::uint32_t>, std::uint32_t, decltype(xor_op)> r(xor_op);
    r(d.data(), n, out.get());
    CAPTURE(n);
    CHECK(out.read() == expected);
  }
}

TEST_CASE("native __half sums on short inputs stay within the half-precision bound") {
  using half_p = reduce_policy<load::vector<2>, block::warp_shuffle, smem::static_array, 256, accum::native>;
  for (const index_t n : {index_t{1}, index_t{33}, index_t{257}, index_t{1000}, index_t{4097}}) {
    const dataset<__half> d(n, next_seed());
    check_reduce<half_p, op::sum>(d, host_truth<op::sum>(d));
  }
}
