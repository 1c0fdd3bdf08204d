// Unusual use (rules_test.cu has the basic rules): every byte offset 1..15 for every load policy,
// 8 streams at once, reducers of several types and sizes interleaved on one stream, graph replay
// over changing inputs.
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "../common/argument_error.hpp"
#include "support/check.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

using all_loads = type_list<load::single, load::unroll<2>, load::unroll<4>, load::unroll<8>, load::vector<1>,
                            load::vector<2>, load::vector<4>>;

template <class T>
std::vector<unsigned char> bits_of(const T& v) {
  std::vector<unsigned char> b(sizeof(T));
  std::memcpy(b.data(), &v, sizeof(T));
  return b;
}

}  // namespace

TEST_CASE("byte offsets 1..15 for every load policy: element-aligned ones give CUB's answer, the rest a clear error") {
  for (const index_t size : {index_t{1}, index_t{33}, index_t{4097}, index_t{65537}}) {
    const index_t n = capped(size);
    for_each_type(type_list<float, double, __half>{}, [&](auto t) {
      using T = typename decltype(t)::type;
      for (int offset = 1; offset <= 15; ++offset) {
        CAPTURE(offset);
        CAPTURE(n);
        if (offset % sizeof(T) == 0) {
          const dataset<T> d(n, next_seed(), offset / static_cast<index_t>(sizeof(T)));  // base is 256-aligned
          REQUIRE(reinterpret_cast<std::uintptr_t>(d.data()) % 16 == static_cast<std::uintptr_t>(offset));
          const auto truth = host_truth<op::sum>(d);
          for_each_type(all_loads{}, [&](auto l) {
            using P = reduce_policy<typename decltype(l)::type, block::warp_shuffle, smem::static_array, 128,
                                    std::conditional_t<detail::is_16bit_float<T>, accum::wide, accum::native>>;
            check_reduce<P, op::sum>(d, truth);
          });
        } else {
          device_buffer<unsigned char> raw(static_cast<std::size_t>(n) * sizeof(T) + 16);
          const T* misaligned = reinterpret_cast<const T*>(raw.get() + offset);
          for_each_type(all_loads{}, [&](auto l) {
            using P = reduce_policy<typename decltype(l)::type, block::warp_shuffle, smem::static_array, 128,
                                    std::conditional_t<detail::is_16bit_float<T>, accum::wide, accum::native>>;
            using Out = accum::value_t<typename P::accum::template type<T>>;
            device_buffer<Out> out(1);
            out.poison(0x3C);
            const Out before = out.read();
            reducer<P, T> r;
            const std::string m = argument_error_of([&] { r(misaligned, n, out.get()); });
            CHECK(contains(m, "not aligned to its element type"));
            TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
            CHECK(bits_of(out.read()) == bits_of(before));
          });
        }
      }
    });
  }
}

TEST_CASE("8 streams reducing different buffers at once: each result equals the same call made alone") {
  constexpr int streams = 8;
  std::vector<cudaStream_t> s(streams);
  for (auto& st : s) TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking));
  std::vector<std::unique_ptr<dataset<float>>> fd;
  std::vector<std::unique_ptr<dataset<std::int64_t>>> id;
  for (int k = 0; k < streams; ++k) {
    const index_t n = capped((index_t{1} << 22) + 1000 * k + k);  // different sizes, different plans
    fd.push_back(std::make_unique<dataset<float>>(n, next_seed()));
    id.push_back(std::make_unique<dataset<std::int64_t>>(n, next_seed()));
  }
  using sum_r = reducer<default_reduce_policy<float>, float>;
  using argmin_r = reducer<default_reduce_policy<std::int64_t, op::arg_min>, std::int64_t, op::arg_min>;
  using kahan_p = reduce_policy<load::unroll<4>, block::sequential, smem::padded, 256, accum::kahan, grid::per_tile>;
  std::vector<sum_r> sums(streams);
  std::vector<argmin_r> argmins(streams);
  std::vector<reducer<kahan_p, float>> kahans(streams);

  // Alone, one at a time: checked against the host reference and CUB.
  device_buffer<float> alone_sum(streams), alone_kahan(streams);
  device_buffer<arg<std::int64_t>> alone_arg(streams);
  for (int k = 0; k < streams; ++k) {
    check_reduce<default_reduce_policy<float>, op::sum>(*fd[k], host_truth<op::sum>(*fd[k]));
    check_reduce<default_reduce_policy<std::int64_t, op::arg_min>, op::arg_min>(*id[k], host_truth<op::arg_min>(*id[k]));
    sums[k](fd[k]->data(), fd[k]->size(), alone_sum.get() + k);
    kahans[k](fd[k]->data(), fd[k]->size(), alone_kahan.get() + k);
    argmins[k](id[k]->data(), id[k]->size(), alone_arg.get() + k);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  }

  // All at once, three rounds, round-robin over the streams, no host wait in between; the one-off
  // reduce (stream-ordered pool) joins in.
  constexpr int rounds = 3;
  device_buffer<float> sum_out(streams * rounds), kahan_out(streams * rounds), oneoff_out(streams * rounds);
  device_buffer<arg<std::int64_t>> arg_out(streams * rounds);
  for (int round = 0; round < rounds; ++round)
    for (int k = 0; k < streams; ++k) {
      const int slot = round * streams + k;
      sums[k](fd[k]->data(), fd[k]->size(), sum_out.get() + slot, s[k]);
      argmins[k](id[k]->data(), id[k]->size(), arg_out.get() + slot, s[k]);
      kahans[k](fd[k]->data(), fd[k]->size(), kahan_out.get() + slot, s[k]);
      tally::reduce<default_reduce_policy<float>>(fd[k]->data(), fd[k]->size(), oneoff_out.get() + slot, op::sum{}, s[k]);
    }
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  for (int round = 0; round < rounds; ++round)
    for (int k = 0; k < streams; ++k) {
      CAPTURE(round);
      CAPTURE(k);
      const int slot = round * streams + k;
      CHECK(bits_of(sum_out.read(slot)) == bits_of(alone_sum.read(k)));
      CHECK(bits_of(oneoff_out.read(slot)) == bits_of(alone_sum.read(k)));
      CHECK(bits_of(kahan_out.read(slot)) == bits_of(alone_kahan.read(k)));
      CHECK(bits_of(arg_out.read(slot)) == bits_of(alone_arg.read(k)));
    }
  for (int k = 0; k < streams; ++k) {
    CHECK(fd[k]->changed() == 0);
    CHECK(id[k]->changed() == 0);
  }
  for (auto& st : s) cudaStreamDestroy(st);
}

TEST_CASE("reducers of several types and operators reused across sizes, interleaved on one stream without waits") {
  using kahan_p = reduce_policy<load::vector<2>, block::warp_shuffle, smem::dynamic, 512, accum::kahan>;
  using per_tile_p = reduce_policy<load::unroll<2>, block::sequential_unrolled, smem::static_array, 128,
                                   accum::native, grid::per_tile>;
  reducer<kahan_p, float> kahan_sum;
  reducer<per_tile_p, std::int64_t, op::arg_min> argmin;
  reducer<default_reduce_policy<__half, op::max>, __half, op::max> half_max;
  reducer<default_reduce_policy<double>, double> double_sum;
  // Sizes cross the one-block / many-block boundary both ways, grow past and shrink below the
  // reserved workspace.
  const std::vector<index_t> sizes{5, 70001, (index_t{1} << 22) + 3, 300, 0, (index_t{1} << 24) + 1, 1, 4097};
  std::vector<std::unique_ptr<dataset<float>>> fd;
  std::vector<std::unique_ptr<dataset<std::int64_t>>> id;
  std::vector<std::unique_ptr<dataset<__half>>> hd;
  std::vector<std::unique_ptr<dataset<double>>> dd;
  for (const index_t size : sizes) {
    const index_t n = capped(size);
    fd.push_back(std::make_unique<dataset<float>>(n, next_seed()));
    id.push_back(std::make_unique<dataset<std::int64_t>>(n, next_seed()));
    hd.push_back(std::make_unique<dataset<__half>>(n, next_seed()));
    dd.push_back(std::make_unique<dataset<double>>(n, next_seed()));
  }
  const std::size_t m = sizes.size();
  device_buffer<float> f_out(m);
  device_buffer<arg<std::int64_t>> i_out(m);
  device_buffer<__half> h_out(m);
  device_buffer<double> d_out(m);
  for (std::size_t k = 0; k < m; ++k) {  // all queued on the default stream, no waits
    kahan_sum(fd[k]->data(), fd[k]->size(), f_out.get() + k);
    argmin(id[k]->data(), id[k]->size(), i_out.get() + k);
    half_max(hd[k]->data(), hd[k]->size(), h_out.get() + k);
    double_sum(dd[k]->data(), dd[k]->size(), d_out.get() + k);
  }
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  for (std::size_t k = 0; k < m; ++k) {
    CAPTURE(fd[k]->size());
    expect_matches_reference<kahan_p, op::sum>(*fd[k], host_truth<op::sum>(*fd[k]), f_out.read(k),
                                               kahan_sum.plan(fd[k]->size()));
    expect_matches_reference<per_tile_p, op::arg_min>(*id[k], host_truth<op::arg_min>(*id[k]), i_out.read(k),
                                                      argmin.plan(id[k]->size()));
    expect_matches_reference<default_reduce_policy<__half, op::max>, op::max>(*hd[k], host_truth<op::max>(*hd[k]),
                                                                        h_out.read(k), half_max.plan(hd[k]->size()));
    expect_matches_reference<default_reduce_policy<double>, op::sum>(*dd[k], host_truth<op::sum>(*dd[k]), d_out.read(k),
                                                              double_sum.plan(dd[k]->size()));
  }
}

TEST_CASE("graph capture and replay over changing inputs: kahan, per_tile arg_min and the one-off reduce") {
  const index_t n = capped((index_t{1} << 22) + 5);
  device_buffer<float> fin(static_cast<std::size_t>(n));
  device_buffer<std::int64_t> iin(static_cast<std::size_t>(n));
  using kahan_p = reduce_policy<load::vector<4>, block::warp_shuffle, smem::static_array, 256, accum::kahan>;
  using per_tile_p = reduce_policy<load::unroll<4>, block::sequential, smem::padded, 256, accum::native, grid::per_tile>;
  reducer<kahan_p, float> kahan_sum;
  reducer<per_tile_p, std::int64_t, op::arg_min> argmin;
  kahan_sum.reserve(n);
  argmin.reserve(n);
  cudaStream_t stream;
  TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
  device_buffer<float> graph_sum(2), direct_sum(2);
  device_buffer<arg<std::int64_t>> graph_arg(1), direct_arg(1);

  {
    const captured_graph graph(stream, [&] {
      kahan_sum(fin.get(), n, graph_sum.get(), stream);
      tally::reduce<kahan_p>(fin.get(), n, graph_sum.get() + 1, op::sum{}, stream);
      argmin(iin.get(), n, graph_arg.get(), stream);
    });
    for (int replay = 0; replay < 3; ++replay) {
      CAPTURE(replay);
      // New inputs ahead of each replay and direct calls on the same reducers behind it, all on the
      // stream with no host wait between: launch(), not run().
      const std::uint64_t seed = next_seed();
      fill_kernel<float><<<1024, 256, 0, stream>>>(fin.get(), n, seed);
      fill_kernel<std::int64_t><<<1024, 256, 0, stream>>>(iin.get(), n, seed + 1);
      graph.launch();
      kahan_sum(fin.get(), n, direct_sum.get(), stream);
      argmin(iin.get(), n, direct_arg.get(), stream);
      TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream));
      CHECK(bits_of(graph_sum.read(0)) == bits_of(direct_sum.read(0)));
      CHECK(bits_of(graph_sum.read(1)) == bits_of(direct_sum.read(0)));
      CHECK(bits_of(graph_arg.read()) == bits_of(direct_arg.read()));
      // And the direct call is right: the exact extreme of this replay's data.
      const dataset<std::int64_t> again(n, seed + 1);  // same generator, same values
      const auto truth = host_truth<op::arg_min>(again);
      CHECK(direct_arg.read().index == truth.index);
    }
  }
  cudaStreamDestroy(stream);
}
