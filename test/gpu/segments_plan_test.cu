// Planned segment calls (segments_reducer::plan and plan_dot, reduce_segments.cuh): the bits of the
// unplanned call on every path a share can take (short shares, row shares, tiles, long segments,
// empty segments), sums and CSR products over 32- and 64-bit offsets, sums beyond 2^31 elements;
// the same bits call after call and from a captured graph; a plan refused by the other form;
// offsets changed since the plan read and write nothing out of bounds (compute-sanitizer's memcheck
// runs this file).
#include <string>
#include <vector>

#include "../common/argument_error.hpp"
#include "support/graph.cuh"
#include "support/segments.cuh"

using namespace tally;
using namespace tally::test;

namespace {

using sum_policy = default_segments_policy<float>;

std::vector<segment_layout> plan_layouts() {
  std::vector<segment_layout> out;
  const auto add = [&](std::vector<index_t> lengths, index_t base = 0) { out.push_back({offsets_of(lengths, base), next_seed()}); };
  const auto uniform = [](index_t lo, index_t hi) {
    return [lo, hi](std::mt19937_64& g) { return lo + static_cast<index_t>(g() % static_cast<std::uint64_t>(hi - lo + 1)); };
  };
  add(draw_lengths(300001, next_seed(), uniform(1, 8)));        // short shares
  add(std::vector<index_t>(100003, 4));                         // short shares of one length
  add(std::vector<index_t>(20001, 64), 17);                     // row shares, from element 17
  add(draw_lengths(30001, next_seed(), uniform(0, 128)));       // tiles
  std::vector<index_t> spiky = draw_lengths(100000, next_seed(), uniform(0, 4));
  spiky[4321] = (index_t{1} << 22) + 5;                          // one long among short
  add(spiky);
  add(std::vector<index_t>(1000, 0));                           // all empty
  add({(index_t{1} << 20) + 3});                                // one segment
  add({0});                                                     // one empty segment
  return out;
}

// P's sums over l, planned and unplanned, bit for bit; the plan's second call too.
template <class Off>
void planned_sums_match(const segment_layout& l) {
  INFO(l.describe() << ", offsets of " << sizeof(Off) << " bytes");
  const dataset<float> data(l.end(), l.seed);
  const index_t S = l.segments();
  const auto offsets = upload<Off>(l.offsets);
  device_buffer<float> unplanned(static_cast<std::size_t>(S)), planned(static_cast<std::size_t>(S + 1));
  segments_reducer<sum_policy, float> r;
  r(data.data(), offsets.get(), S, unplanned.get());
  const auto plan = r.plan(offsets.get(), S);
  CHECK(plan.offsets() == offsets.get());
  CHECK(plan.segments() == S);
  for (int call = 0; call < 2; ++call) {
    planned.poison();
    r(data.data(), plan, planned.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    std::vector<unsigned char> got = planned.bytes();
    const std::vector<unsigned char> tail(got.end() - sizeof(float), got.end());
    got.resize(got.size() - sizeof(float));
    CHECK(got == unplanned.bytes());
    CHECK(tail == std::vector<unsigned char>(sizeof(float), poison_byte));  // nothing past segment S - 1
  }
  CHECK(data.changed() == 0);
}

// CSR products over l, planned and unplanned, bit for bit.
template <class T, class Off>
void planned_products_match(const segment_layout& l) {
  INFO(l.describe() << ", CSR, offsets of " << sizeof(Off) << " bytes");
  const index_t ncols = 1 + static_cast<index_t>(l.seed % 3000);
  const std::uint64_t col_seed = next_seed();
  std::vector<index_t> cols(static_cast<std::size_t>(l.end()));
  for (index_t j = 0; j < l.end(); ++j) cols[j] = csr_col(col_seed, j, ncols);
  const auto d_cols = upload<int>(cols);
  const dataset<T> values(l.end(), l.seed), x(ncols, next_seed());
  const index_t S = l.segments();
  const auto offsets = upload<Off>(l.offsets);
  device_buffer<T> unplanned(static_cast<std::size_t>(S)), planned(static_cast<std::size_t>(S));
  planned.poison();
  segments_reducer<default_csr_policy<T>, T> r;
  r.dot(values.data(), d_cols.get(), offsets.get(), S, x.data(), unplanned.get());
  const auto plan = r.plan_dot(offsets.get(), S);
  r.dot(values.data(), d_cols.get(), plan, x.data(), planned.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(planned.bytes() == unplanned.bytes());
  CHECK(values.changed() == 0);
}

}  // namespace

TEST_CASE("segments: planned calls give the unplanned calls' bits, sums and CSR products") {
  for (const auto& l : plan_layouts()) {
    planned_sums_match<int>(l);
    planned_products_match<float, int>(l);
    planned_products_match<double, index_t>(l);
  }
  planned_sums_match<index_t>(plan_layouts()[0]);
}

TEST_CASE("segments: planned sums beyond 2^31 elements: a segment longer than 2^31, short ones after it") {
  const index_t big = (index_t{1} << 31) + 11;
  if (big + 2100000 > max_test_size()) return;
  std::vector<index_t> lengths = {5, big, 0, 1025, 3};
  const std::vector<index_t> tail =  // shares of short segments whose points lie past 2^31
      draw_lengths(1000000, next_seed(), [](std::mt19937_64& g) { return static_cast<index_t>(g() % 5); });
  lengths.insert(lengths.end(), tail.begin(), tail.end());
  planned_sums_match<index_t>({offsets_of(lengths), next_seed()});
}

TEST_CASE("segments: a plan serves the form it was made for, and bad plans are named") {
  const segment_layout l{offsets_of(std::vector<index_t>(1000, 3)), next_seed()};
  const dataset<float> data(l.end(), l.seed);
  const auto offsets = upload<int>(l.offsets);
  const auto cols = upload<int>(std::vector<index_t>(static_cast<std::size_t>(l.end()), 0));
  device_buffer<float> out(1000);
  out.poison();
  const auto before = out.bytes();
  segments_reducer<default_csr_policy<float>, float> r;
  const auto for_sums = r.plan(offsets.get(), 1000);
  const auto for_dot = r.plan_dot(offsets.get(), 1000);
  CHECK(contains(argument_error_of([&] { r.dot(data.data(), cols.get(), for_sums, data.data(), out.get()); }),
                 "a plan made by plan cannot serve this call"));
  CHECK(contains(argument_error_of([&] { r(data.data(), for_dot, out.get()); }), "a plan made by plan_dot cannot serve this call"));
  CHECK(contains(argument_error_of([&] { (void)r.plan(offsets.get(), -1); }), "num_segments = -1 is negative"));
  CHECK(contains(argument_error_of([&] { (void)r.plan(static_cast<const int*>(nullptr), 5); }), "offsets pointer is null"));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(out.bytes() == before);
  // No segments: nothing to split, nothing written.
  const auto none = r.plan(offsets.get(), 0);
  r(data.data(), none, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(out.bytes() == before);
}

TEST_CASE("segments: a planned call captured in a graph") {
  const segment_layout l = plan_layouts()[3];
  const dataset<float> data(l.end(), l.seed);
  const auto offsets = upload<int>(l.offsets);
  device_buffer<float> direct(static_cast<std::size_t>(l.segments())), graphed(static_cast<std::size_t>(l.segments()));
  segments_reducer<sum_policy, float> r;
  r(data.data(), offsets.get(), l.segments(), direct.get());
  r.reserve();
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  {
    const auto plan = r.plan(offsets.get(), l.segments(), stream);  // before the capture: it allocates
    TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
    const captured_graph graph(stream, [&] { r(data.data(), plan, graphed.get(), stream); });
    graph.run(3, [&] { CHECK(graphed.bytes() == direct.bytes()); }, graphed);
  }
  TALLY_TEST_CHECK_CUDA(cudaStreamDestroy(stream));
}

// Against the plan's contract: the offsets change after it (as many segments, fewer elements). The
// results mean nothing, but nothing outside the new elements and the output may be touched.
TEST_CASE("segments: offsets changed since the plan stay in bounds") {
  const index_t S = 5000;
  std::vector<int> planned_for(static_cast<std::size_t>(S + 1)), now(static_cast<std::size_t>(S + 1));
  for (index_t s = 0; s <= S; ++s) {
    planned_for[s] = static_cast<int>(40 * s);                               // 200000 elements
    now[s] = static_cast<int>(3 + (s > S / 2 ? 1000 : 0)) * (s > 0);     // 1003, in two segments
  }
  const dataset<float> data(now.back(), next_seed());
  device_buffer<int> offsets(static_cast<std::size_t>(S + 1));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(offsets.get(), planned_for.data(), planned_for.size() * sizeof(int), cudaMemcpyHostToDevice));
  segments_reducer<sum_policy, float> r;
  const auto plan = r.plan(offsets.get(), S);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(offsets.get(), now.data(), now.size() * sizeof(int), cudaMemcpyHostToDevice));
  device_buffer<float> out(static_cast<std::size_t>(S + 1));
  out.poison();
  r(data.data(), plan, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(device_buffer<float>::all_bytes(out.read(static_cast<std::size_t>(S))));
  CHECK(data.changed() == 0);
}
