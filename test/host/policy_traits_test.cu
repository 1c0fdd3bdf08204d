// Policy traits and operator semantics, checked on the host.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <tally/reduce.cuh>
#include <tally/reduce_rows.cuh>
#include <tally/transpose.cuh>

using namespace tally;

TEST_CASE("load policies: items per thread per tile") {
  CHECK(load::single::items<float> == 1);
  CHECK(load::unroll<4>::items<double> == 4);
  CHECK(load::unroll<8>::items<std::int32_t> == 8);
  // vector<V>: V 16-byte loads, each 16 / sizeof(T) elements.
  CHECK(load::vector<2>::items<float> == 8);
  CHECK(load::vector<2>::items<double> == 4);
  CHECK(load::vector<2>::items<__half> == 16);
  CHECK(load::vector<1>::items<arg<double>> == 1);
  struct twelve { float a, b, c; };
  CHECK(load::vector<2>::items<twelve> == 2);  // 12 does not divide 16: falls back to unroll<2>
  CHECK(reduce_policy<load::vector<2>, block::sequential, smem::static_array, 256>::tile_items<float> == 2048);
}

TEST_CASE("block policies: shared-memory slots") {
  CHECK(block::interleaved::slots<256> == 256);
  CHECK(block::sequential_unrolled::slots<32> == 32);
  CHECK(block::warp_shuffle::slots<256> == 8);
  CHECK(block::warp_shuffle::slots<1024> == 32);
}

TEST_CASE("accumulator policies") {
  CHECK(std::is_same_v<accum::native::type<std::int32_t>, std::int32_t>);
  CHECK(std::is_same_v<accum::wide::type<std::int32_t>, std::int64_t>);
  CHECK(std::is_same_v<accum::wide::type<std::uint32_t>, std::uint64_t>);
  CHECK(std::is_same_v<accum::wide::type<__half>, float>);
  CHECK(std::is_same_v<accum::wide::type<__nv_bfloat16>, float>);
  CHECK(std::is_same_v<accum::wide::type<float>, double>);
  CHECK(std::is_same_v<accum::wide::type<double>, double>);
  CHECK(std::is_same_v<default_reduce_policy<__half>::accum, accum::wide>);
  CHECK(std::is_same_v<default_reduce_policy<__half, op::min>::accum, accum::native>);
  CHECK(std::is_same_v<default_reduce_policy<float>::accum, accum::native>);
}

TEST_CASE("operators: identities are neutral") {
  CHECK(op::sum{}.identity<int>() == 0);
  CHECK(op::min{}.identity<std::int32_t>() == INT32_MAX);
  CHECK(op::max{}.identity<std::uint64_t>() == 0);
  CHECK(op::min{}.identity<float>() == INFINITY);
  CHECK(op::max{}.identity<double>() == -INFINITY);
  CHECK(__half2float(op::min{}.identity<__half>()) == INFINITY);
  CHECK(__bfloat162float(op::max{}.identity<__nv_bfloat16>()) == -INFINITY);
  // +inf under min stays +inf: the identity does not win.
  CHECK(op::min{}(op::min{}.identity<float>(), INFINITY) == INFINITY);
}

TEST_CASE("arg_min / arg_max: lowest index wins ties, in either operand order") {
  const op::arg_min amin;
  const op::arg_max amax;
  const arg<int> a{5, 7}, b{5, 3}, c{2, 9};
  CHECK(amin(a, b).index == 3);
  CHECK(amin(b, a).index == 3);
  CHECK(amin(a, c).index == 9);
  CHECK(amax(a, b).index == 3);
  CHECK(amax(c, a).index == 7);
  // The identity loses to a real element with the extreme value itself.
  const arg<int> extreme{INT32_MAX, 42};
  CHECK(amin(amin.identity<int>(), extreme).index == 42);
  CHECK(amin(extreme, amin.identity<int>()).index == 42);
  // n == 0: the identity finalizes to index -1.
  CHECK(amin.finalize<arg<int>>(amin.identity<int>()).index == -1);
  CHECK(amin.finalize<arg<int>>(amin.identity<int>()).value == INT32_MAX);
}

TEST_CASE("operators: lift and finalize convert through the accumulator") {
  CHECK(op::sum{}.lift<std::int64_t>(std::int32_t{-3}, 0) == -3);
  const arg<double> s = op::arg_max{}.lift<double>(1.5f, 12);
  CHECK(s.value == 1.5);
  CHECK(s.index == 12);
  CHECK(op::sum{}.finalize<float>(2.0) == 2.0f);
}

TEST_CASE("make_op wraps any associative functor with an identity") {
  struct bit_or {
    __host__ __device__ unsigned operator()(unsigned a, unsigned b) const { return a | b; }
  };
  const auto o = op::make_op(bit_or{}, 0u);
  CHECK(o.identity<unsigned>() == 0u);
  CHECK(o(0x10u, 0x01u) == 0x11u);
  CHECK(can_reduce<decltype(o), unsigned, unsigned>::value);
}

TEST_CASE("can_reduce: rejects pairs without an operator or an identity") {
  struct opaque { int x; };
  CHECK(can_reduce<op::sum, float, float>::value);
  CHECK(can_reduce<op::arg_max, __half, __half>::value);
  CHECK_FALSE(can_reduce<op::sum, opaque, opaque>::value);
  CHECK_FALSE(can_reduce<op::min, opaque, opaque>::value);
  struct ordered {
    int x;
    __host__ __device__ bool operator<(const ordered& o) const { return x < o.x; }
  };
  CHECK_FALSE(can_reduce<op::min, ordered, ordered>::value);  // comparable, but no identity
}

TEST_CASE("policy names") {
  CHECK(default_reduce_policy<float>::name() == "vector4/warp_shuffle/static_array/256/native/resident/pdl");
  CHECK(reduce_policies::baseline::name() == "single/interleaved/static_array/256/native/per_tile/stream_ordered");
}

namespace {
struct no_reduce {  // a block policy missing its reduce
  static constexpr const char* name = "no_reduce";
  static constexpr bool fixed_order = true;
  template <int Threads> static constexpr int slots = Threads;
};
}  // namespace

TEST_CASE("every member of every family keeps its contract") {
  static_assert(load::check_load_policy<load::single>() && load::check_load_policy<load::unroll<8>>() &&
                load::check_load_policy<load::vector<4>>());
  static_assert(block::check_block_policy<block::interleaved>() && block::check_block_policy<block::interleaved_strided>() &&
                block::check_block_policy<block::sequential>() && block::check_block_policy<block::sequential_unrolled>() &&
                block::check_block_policy<block::warp_shuffle>());
  static_assert(smem::check_smem_policy<smem::static_array>() && smem::check_smem_policy<smem::dynamic>() &&
                smem::check_smem_policy<smem::padded>());
  static_assert(smem::check_tile_layout<smem::static_array>() && smem::check_tile_layout<smem::padded>() &&
                smem::check_tile_layout<smem::swizzled>() && smem::check_tile_layout<smem::none>());
  static_assert(accum::check_accum_policy<accum::native>() && accum::check_accum_policy<accum::wide>() &&
                accum::check_accum_policy<accum::kahan>());
  static_assert(grid::check_grid_policy<grid::resident>() && grid::check_grid_policy<grid::per_tile>());
  static_assert(launch::check_launch_policy<launch::pdl>() && launch::check_launch_policy<launch::stream_ordered>());
  static_assert(check_operator<op::sum>() && check_operator<op::min>() && check_operator<op::max>() &&
                check_operator<op::arg_min>() && check_operator<op::arg_max>());
  static_assert(tile_order::check_tile_order<tile_order::row_major>() && tile_order::check_tile_order<tile_order::banded<32>>());
  // What the checks detect, on a policy missing a member (the compile-fail tests see the message).
  CHECK(tally::detail::is_detected<block::detail::slots_member, no_reduce>);
  CHECK_FALSE(tally::detail::is_detected<block::detail::reduce_member, no_reduce>);
  CHECK_FALSE(tally::detail::is_detected<smem::detail::static_bytes_member, smem::swizzled>);  // a tile-only layout
}

TEST_CASE("determinism: compositions declare a fixed order; exact operators need none") {
  CHECK(default_reduce_policy<float>::fixed_order);
  CHECK(reduce_policies::baseline::fixed_order);
  CHECK(is_exact<op::sum, std::int32_t>::value);
  CHECK(is_exact<op::arg_max, std::uint64_t>::value);
  CHECK_FALSE(is_exact<op::sum, float>::value);
  CHECK_FALSE(is_exact<op::min, double>::value);  // which NaN comes back depends on the order
  CHECK(meets_determinism<determinism::run_to_run, true, op::sum, float>);
  CHECK_FALSE(meets_determinism<determinism::run_to_run, false, op::sum, float>);
  CHECK(meets_determinism<determinism::run_to_run, false, op::sum, std::int64_t>);
  CHECK(meets_determinism<determinism::not_guaranteed, false, op::sum, float>);
}

TEST_CASE("one launch family for every composition; with_* replaces one member") {
  using P = default_reduce_policy<float>;
  CHECK(std::is_same_v<P::launch, launch::pdl>);
  CHECK(std::is_same_v<P::with_launch<launch::stream_ordered>::launch, launch::stream_ordered>);
  CHECK(std::is_same_v<P::with_accum<accum::kahan>::accum, accum::kahan>);
  CHECK(std::is_same_v<P::with_accum<accum::kahan>::launch, launch::pdl>);
  CHECK(std::is_same_v<P::with_grid<grid::per_tile>::launch, launch::pdl>);
  CHECK(std::is_same_v<default_rows_policy<float>::launch, launch::pdl>);
  CHECK(std::is_same_v<default_transpose_policy<float>::launch, launch::pdl>);
  CHECK(default_transpose_policy<double>::name() == "swizzled_64x64_512t_v16_col_pdl");
  CHECK(transpose_policies::padded_32::with_launch<launch::pdl>::name() == "padded_32x32_256t_pdl");
}

// The old spellings still compile (with a deprecation warning each, silenced here) and mean the new ones.
#if defined(__NVCC__)
#pragma nv_diag_suppress 1444
#endif
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
TEST_CASE("deprecated spellings are aliases of the new names") {
  CHECK(std::is_same_v<default_policy<double, op::min>, default_reduce_policy<double, op::min>>);
  CHECK(std::is_same_v<ladder::unroll4, reduce_policies::unroll4>);
  CHECK(std::is_same_v<transposes::padded_32, transpose_policies::padded_32>);
  using old_pdl = reduce_policy<load::vector<4>, block::warp_shuffle, smem::static_array, 256, accum::native, grid::resident_pdl>;
  CHECK(std::is_same_v<old_pdl::launch, launch::pdl>);
  CHECK(std::is_same_v<rows::pdl, launch::pdl>);
  CHECK(std::is_same_v<rows::stream_ordered, launch::stream_ordered>);
}
#pragma GCC diagnostic pop
