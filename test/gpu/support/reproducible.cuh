// What the reproducible-sum GPU tests share: compositions (forced grids included), fill kernels,
// a device array and one reduce read back.
#pragma once
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tally/reduce.cuh>

#include "data.cuh"
#include "../../common/reproducible_data.cuh"

namespace tally::test::repro {

using namespace tally;
using tally::test::all_kinds;
using tally::test::bits;
using tally::test::element;
using tally::test::host_data;
using tally::test::host_fold;
using tally::test::kind;
using tally::test::state_t;
using tally::test::value_t;

// A grid of at most B blocks: forces the grid sizes a device with fewer SMs would pick.
template <index_t B>
struct at_most {
  static constexpr const char* name = "at_most";
  static constexpr bool fixed_order = true;
  static constexpr bool finishes_in_last_block = true;
  static constexpr index_t blocks(index_t tiles, int, int) { return tiles < B ? tiles : B; }
};

using R = accum::reproducible;
template <class T> using comp_default = typename default_reduce_policy<T>::template with_accum<R>;
using comp_b = reduce_policy<load::unroll<4>, block::sequential, smem::padded, 256, R, grid::per_tile>;
using comp_c = reduce_policy<load::vector<1>, block::interleaved_strided, smem::dynamic, 64, R>;
using comp_d = reduce_policy<load::single, block::warp_shuffle, smem::static_array, 1024, R, at_most<7>>;
using comp_e = reduce_policy<load::vector<4>, block::interleaved, smem::dynamic, 128, R, at_most<1>>;

template <class T>
__global__ void fill(T* out, index_t n, kind k, std::uint64_t seed) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += index_t{gridDim.x} * blockDim.x)
    out[i] = element<T>(k, seed, i);
}

template <class T>
struct device_array {
  T* p = nullptr;
  explicit device_array(std::size_t n) { TALLY_TEST_CHECK_CUDA(cudaMalloc(&p, (n ? n : 1) * sizeof(T))); }
  ~device_array() { cudaFree(p); }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
};

template <class T>
void upload(T* d, const std::vector<T>& h) {
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
}

template <class P, class T, class Out>
Out device_reduce(const T* d_in, index_t n) {
  device_array<Out> out(1);
  reduce<P>(d_in, n, out.p, op::sum{}, 0);
  Out r;
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(&r, out.p, sizeof r, cudaMemcpyDeviceToHost));
  return r;
}

}  // namespace tally::test::repro
