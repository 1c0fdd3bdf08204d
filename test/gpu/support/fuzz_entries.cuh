// The fuzz table's entries for one element type: twelve compositions that between them use every
// load, block and smem member, block sizes 32 to 1024, both grids and all three accumulators, each
// paired with two of the five operators (rotating with the composition and the type, so every
// operator meets every composition across the types). 24 reducers a type, not 12 x 5: compile time.
#pragma once
#include <type_traits>
#include <utility>
#include <vector>

#include "check.cuh"
#include "fuzz.cuh"

namespace tally::test::fuzz {

template <class T>
inline constexpr bool floating = detail::is_floating<T>;

// The accumulator a composition asks for, where it applies: kahan for floating sums only, and
// 16-bit floating sums in float at least (a __half running sum is meaningless at fuzz sizes).
template <class Accum, class T, class Op>
using accum_for = std::conditional_t<
    std::is_same_v<Accum, accum::kahan>,
    std::conditional_t<floating<T> && std::is_same_v<Op, op::sum>, accum::kahan, accum::native>,
    std::conditional_t<detail::is_16bit_float<T> && std::is_same_v<Op, op::sum>, accum::wide, Accum>>;

template <class Load, class Block, class Smem, int Threads, class Accum, class Grid>
struct composition {
  template <class T, class Op>
  using policy = reduce_policy<Load, Block, Smem, Threads, accum_for<Accum, T, Op>, Grid>;
};

using compositions = type_list<
    composition<load::vector<4>, block::warp_shuffle, smem::static_array, 256, accum::native, grid::resident>,
    composition<load::single, block::interleaved, smem::static_array, 256, accum::native, grid::per_tile>,
    composition<load::unroll<2>, block::interleaved_strided, smem::padded, 128, accum::native, grid::per_tile>,
    composition<load::unroll<4>, block::sequential, smem::dynamic, 512, accum::native, grid::resident>,
    composition<load::unroll<8>, block::sequential_unrolled, smem::padded, 1024, accum::native, grid::resident>,
    composition<load::vector<1>, block::warp_shuffle, smem::dynamic, 32, accum::native, grid::resident>,
    composition<load::vector<2>, block::sequential_unrolled, smem::static_array, 64, accum::wide, grid::per_tile>,
    composition<load::single, block::warp_shuffle, smem::padded, 1024, accum::wide, grid::resident>,
    composition<load::vector<4>, block::interleaved, smem::dynamic, 128, accum::kahan, grid::resident>,
    composition<load::unroll<2>, block::sequential, smem::static_array, 64, accum::kahan, grid::per_tile>,
    composition<load::vector<2>, block::interleaved_strided, smem::static_array, 512, accum::native, grid::resident>,
    composition<load::unroll<4>, block::warp_shuffle, smem::dynamic, 128, accum::kahan, grid::per_tile>>;

using operators = type_list<op::sum, op::min, op::max, op::arg_min, op::arg_max>;

template <class T> struct absolute_as_double {
  __device__ double operator()(const T& x) const {
    const double v = static_cast<double>(static_cast<float>(x));
    return v < 0 ? -v : v;
  }
};
template <> struct absolute_as_double<double> {
  __device__ double operator()(const double& x) const { return x < 0 ? -x : x; }
};

// sum |x_i| over the window, by CUB in double: scales the rounding bounds of floating sums.
template <class T>
long double absolute_sum(const T* in, index_t n) {
  device_buffer<double> out(1);
  run_cub([&](void* t, std::size_t& b) {
    return cub::DeviceReduce::TransformReduce(t, b, in, out.get(), n, ::cuda::std::plus<double>{},
                                              absolute_as_double<T>{}, 0.0);
  });
  return out.read();
}

template <class P, class T, class Op>
void run_case(const fuzz_case& c, const arena& a) {
  using R = reducer<P, T, Op>;
  using V = accum::value_t<typename R::accum_type>;
  constexpr bool is_sum = std::is_same_v<Op, op::sum>;
  constexpr bool is_arg_op = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
  using Out = std::conditional_t<is_sum, V, std::conditional_t<is_arg_op, arg<T>, T>>;
  const index_t n = c.n;
  T* in = reinterpret_cast<T*>(a.base + c.offset_bytes);
  if (n > 0) {
    fill_kernel<T><<<4096, 256>>>(in, n, c.seed);
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
  }

  device_buffer<Out> out(1);
  out.poison();
  R r;
  r(in, n, out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  const Out got = out.read();
  INFO("tally returned " << show(got));

  if constexpr (is_sum && std::is_integral_v<V>) {
    CHECK(got == (cub_result<Op, V>(in, n)));
  } else if constexpr (is_sum) {
    const long double abs_sum = n > 0 ? absolute_sum(in, n) : 0.0L;
    const long double cub = static_cast<long double>(host_value(cub_result<Op, V>(in, n)));
    const long double bound =
        tally_sum_bound<P, V>(r.plan(n), abs_sum) + cub_sum_bound<V>(n, device_sm_count(), abs_sum);
    INFO("cub returned " << static_cast<double>(cub) << ", sum |x| " << static_cast<double>(abs_sum) << ", bound "
                         << static_cast<double>(bound));
    CHECK(std::fabs(static_cast<long double>(host_value(got)) - cub) <= bound);
  } else if constexpr (is_arg_op) {
    if (n == 0) {
      CHECK(got.index == -1);
      CHECK(host_value(got.value) == host_value(static_cast<T>(Op{}.template identity<T>().value)));
    } else {
      const arg<T> cub = cub_result<Op, T>(in, n);
      INFO("cub returned " << show(cub));
      CHECK(host_value(got.value) == host_value(cub.value));
      CHECK(got.index == cub.index);
    }
  } else {
    if (n == 0) {
      CHECK(host_value(got) == host_value(Op{}.template identity<T>()));
    } else {
      const T cub = cub_result<Op, T>(in, n);
      INFO("cub returned " << show(cub));
      CHECK(host_value(got) == host_value(cub));
    }
  }

  // The input is never written.
  device_buffer<unsigned long long> changed(1);
  TALLY_TEST_CHECK_CUDA(cudaMemset(changed.get(), 0, sizeof(unsigned long long)));
  if (n > 0) count_changed_kernel<T><<<4096, 256>>>(in, n, c.seed, changed.get());
  TALLY_TEST_CHECK_CUDA(cudaGetLastError());
  CHECK(changed.read() == 0);
}

// Composition number C pairs with the operators (C + TypeRank) % 5 and (C + TypeRank + 2) % 5; the
// others are not instantiated.
template <class T, int TypeRank, int C, class Comp, class Op, int O>
void add_pair(std::vector<entry>& table) {
  if constexpr (O == (C + TypeRank) % 5 || O == (C + TypeRank + 2) % 5) {
    using P = typename Comp::template policy<T, Op>;
    table.push_back({P::name(), "", Op::name, sizeof(T), P::template tile_items<T>, P::threads, &run_case<P, T, Op>});
  }
}

template <class T, int TypeRank, int C, class Comp, class... Ops, int... Os>
void add_composition(std::vector<entry>& table, type_list<Ops...>, std::integer_sequence<int, Os...>) {
  (add_pair<T, TypeRank, C, Comp, Ops, Os>(table), ...);
}

template <class T, int TypeRank, class... Comps, int... Cs>
void add_compositions(std::vector<entry>& table, const char* type, type_list<Comps...>,
                      std::integer_sequence<int, Cs...>) {
  const std::size_t first = table.size();
  (add_composition<T, TypeRank, Cs, Comps>(table, operators{}, std::make_integer_sequence<int, 5>{}), ...);
  for (std::size_t i = first; i < table.size(); ++i) table[i].type = type;
}

template <class T, int TypeRank, class... Comps>
void add_entries(std::vector<entry>& table, const char* type, type_list<Comps...> comps) {
  add_compositions<T, TypeRank>(table, type, comps, std::make_integer_sequence<int, sizeof...(Comps)>{});
}

}  // namespace tally::test::fuzz
