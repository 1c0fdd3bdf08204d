// The transpose's rules on the GPU: the default policy, beyond 2^31 elements, argument errors that
// leave the output untouched, streams and graph capture (one allocation-free launch).
#include <vector>

#include "../common/argument_error.hpp"
#include "support/graph.cuh"
#include "support/transpose_check.cuh"

using namespace tally;
using namespace tally::test;

TEST_CASE("transpose with no policy named uses default_transpose_policy") {
  const dataset<float> d(33 * 65, next_seed());
  device_buffer<float> out(33 * 65);
  out.poison();
  transpose(d.data(), out.get(), 33, 65);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const std::vector<float> got = out.values();
  CHECK(count_host_mismatches(got, d, 33, 65) == 0);
}

TEST_CASE("transpose beyond 2^31 elements: 64-bit offsets on the vector and the element-wise paths") {
  // 32772 x 65536 (multiples of 4: 16-byte vectors) and 46341 x 46341 (odd: element-wise); 8.6 GB each way.
  for (const shape s : {shape{32772, 65536}, shape{46341, 46341}}) {
    if (s.rows * s.cols > max_test_size()) continue;
    check_transpose<default_transpose_policy<float>, float>(s.rows, s.cols);
    check_transpose<transpose_policies::padded_32, float>(s.rows, s.cols);
  }
}

TEST_CASE("transpose: argument errors leave the output untouched") {
  const dataset<float> d(64, next_seed());
  device_buffer<float> out(64);
  out.poison();
  auto* o = out.get();
  const float* in = d.data();
  CHECK(contains(argument_error_of([&] { transpose(in, o, -8, 8); }), "negative"));
  CHECK(contains(argument_error_of([&] { transpose(static_cast<const float*>(nullptr), o, 8, 8); }), "input pointer is null"));
  CHECK(contains(argument_error_of([&] { transpose(in, static_cast<float*>(nullptr), 8, 8); }), "output pointer is null"));
  CHECK(contains(argument_error_of([&] { transpose(in, const_cast<float*>(in), 8, 8); }), "in-place"));
  CHECK(contains(argument_error_of([&] { transpose(in, const_cast<float*>(in) + 8, 4, 4); }), "overlap"));
  const auto* misaligned = reinterpret_cast<const float*>(reinterpret_cast<const unsigned char*>(in) + 2);
  CHECK(contains(argument_error_of([&] { transpose(misaligned, o, 4, 4); }), "not aligned"));
  CHECK(contains(argument_error_of([&] { transpose<transpose_policies::swizzled_64_v16>(in, o, 8, -1); }), "negative"));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<unsigned char> bytes(64 * sizeof(float));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(bytes.data(), o, bytes.size(), cudaMemcpyDeviceToHost));
  for (const unsigned char b : bytes) CHECK(b == poison_byte);
  CHECK(d.changed() == 0);
}

TEST_CASE("transpose on a stream, captured in a CUDA graph and replayed") {
  constexpr index_t rows = 300, cols = 516;
  const dataset<float> d(rows * cols, next_seed());
  device_buffer<float> out(rows * cols);
  cudaStream_t s = nullptr;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  {
    const captured_graph graph(s, [&] {
      transpose(d.data(), out.get(), rows, cols, s);
      transpose<transpose_policies::padded_32>(d.data(), out.get(), rows, cols, s);
    });
    graph.run(
        1,
        [&] {
          const std::vector<float> got = out.values();
          CHECK(count_host_mismatches(got, d, rows, cols) == 0);
        },
        out);
  }
  cudaStreamDestroy(s);
}
