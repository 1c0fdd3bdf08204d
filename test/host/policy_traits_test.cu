// Policy traits and operator semantics, checked on the host.
#include <doctest/doctest.h>

#include <cstdint>
#include <type_traits>

#include <tally/reduce.cuh>

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
  CHECK(std::is_same_v<default_policy<__half>::accum, accum::wide>);
  CHECK(std::is_same_v<default_policy<__half, op::min>::accum, accum::native>);
  CHECK(std::is_same_v<default_policy<float>::accum, accum::native>);
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
  CHECK(default_policy<float>::name() == "vector4/warp_shuffle/static_array/256/native/resident_pdl");
  CHECK(ladder::baseline::name() == "single/interleaved/static_array/256/native/per_tile");
}
