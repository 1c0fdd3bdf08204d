// <tally/tally.h>: every C function against its <tally/tally.hpp> counterpart (which
// tally_hpp_test.cu, tally_hpp_templates_test.cu, tally_hpp_sort_test.cu and
// tally_hpp_segments_test.cu check against the host, CUB and the templates), on the same input:
// bit-identical, one-off and (reductions, rows, matvec, segmented reductions, csr_matvec) through one
// tally_reducer; the checked segmented reductions against the unchecked C++ ones; the planned
// segment_sum and csr_matvec against the unplanned C++ ones; the status and
// message of a reducer's failures. (The host test tally_h_errors_test.cpp checks the statuses and
// messages of argument failures.)
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include <tally/tally.h>
#include <tally/tally.hpp>

#include "support/check.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// One device-wide reduction: C one-off, C through the reducer, C++ one-off, into three outputs.
template <class T, class Out, class C, class CR, class Cpp>
void check_reduction(const char* name, tally_reducer* r, C c_fn, CR c_reducer_fn, Cpp cpp_fn) {
  for (const index_t n : {index_t{0}, index_t{1}, index_t{1000}, capped((index_t{1} << 20) + 7)}) {
    INFO(name << ", n = " << n);
    const dataset<T> d(n, next_seed());
    device_buffer<Out> c(1), via_reducer(1), cpp(1);
    c.poison();
    via_reducer.poison();
    using CIn = std::conditional_t<detail::is_16bit_float<T>, std::uint16_t, T>;
    const auto* in = reinterpret_cast<const CIn*>(d.data());
    REQUIRE(c_fn(in, n, c.get(), nullptr) == TALLY_SUCCESS);
    REQUIRE(c_reducer_fn(r, in, n, via_reducer.get(), nullptr) == TALLY_SUCCESS);
    cpp_fn(d.data(), n, cpp.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c.bytes() == cpp.bytes());
    CHECK(via_reducer.bytes() == cpp.bytes());
  }
}

// One row function (or matvec, with x): the same three ways, on a split shape and a short-row one.
template <class T, class Out, class Call>
void check_rows(const char* name, Call call) {
  for (const index_t m : {index_t{3}, index_t{1000}}) {
    const index_t n = m == 3 ? 65539 : 33;
    if (m * n > max_test_size()) continue;
    INFO(name << ", M = " << m << ", N = " << n);
    const dataset<T> a(m * n, next_seed()), x(n, next_seed());
    device_buffer<Out> c(static_cast<std::size_t>(m)), via_reducer(static_cast<std::size_t>(m)), cpp(static_cast<std::size_t>(m));
    c.poison();
    via_reducer.poison();
    call(a.data(), m, n, x.data(), c.get(), via_reducer.get(), cpp.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c.bytes() == cpp.bytes());
    CHECK(via_reducer.bytes() == cpp.bytes());
  }
}

template <class T>
using c_in = std::conditional_t<detail::is_16bit_float<T>, std::uint16_t, T>;
template <class T>
const c_in<T>* c_ptr(const T* p) {
  return reinterpret_cast<const c_in<T>*>(p);
}
template <class Out, class C>
C* c_out(Out* p) {
  return reinterpret_cast<C*>(p);
}

}  // namespace

// The device-wide reductions: C one-off, C reducer, C++ one-off. COUT: the C output type.
#define C_REDUCTION(T, OUT, COUT, OP, S)                                                                             \
  check_reduction<T, OUT>(                                                                                             \
      "tally_" #OP "_" #S, r,                                                                                          \
      [](auto in, index_t n, OUT* out, void* s) { return tally_##OP##_##S(in, n, c_out<OUT, COUT>(out), s); },        \
      [](tally_reducer* h, auto in, index_t n, OUT* out, void* s) {                                                   \
        return tally_reducer_##OP##_##S(h, in, n, c_out<OUT, COUT>(out), s);                                           \
      },                                                                                                               \
      [](const T* in, index_t n, OUT* out) { tally::OP(in, n, out); })
#define C_ALL_REDUCTIONS(T, S)                                 \
  C_REDUCTION(T, T, T, sum, S);                                \
  C_REDUCTION(T, T, T, min, S);                                \
  C_REDUCTION(T, T, T, max, S);                                \
  C_REDUCTION(T, arg<T>, tally_arg_##S, arg_min, S);           \
  C_REDUCTION(T, arg<T>, tally_arg_##S, arg_max, S)
#define C_FLOAT16_REDUCTIONS(T, S) \
  C_REDUCTION(T, float, float, sum, S); \
  C_REDUCTION(T, float, float, min, S); \
  C_REDUCTION(T, float, float, max, S)

TEST_CASE("tally.h: every device-wide reduction equals tally.hpp's, one-off and through a tally_reducer") {
  tally_reducer* r = nullptr;
  REQUIRE_MESSAGE(tally_reducer_create(&r) == TALLY_SUCCESS, tally_last_error());
  C_ALL_REDUCTIONS(std::int32_t, i32);
  C_ALL_REDUCTIONS(std::int64_t, i64);
  C_ALL_REDUCTIONS(std::uint32_t, u32);
  C_ALL_REDUCTIONS(std::uint64_t, u64);
  C_ALL_REDUCTIONS(float, f32);
  C_ALL_REDUCTIONS(double, f64);
  C_FLOAT16_REDUCTIONS(__half, f16);
  C_FLOAT16_REDUCTIONS(__nv_bfloat16, bf16);
  tally_reducer_destroy(r);
}

// Row functions: C one-off, C reducer, C++ one-off.
#define C_ROW(T, OUT, COUT, OP, S)                                                                         \
  check_rows<T, OUT>("tally_" #OP "_" #S, [&](const T* a, index_t m, index_t n, const T*, OUT* c, OUT* via, OUT* cpp) { \
    REQUIRE(tally_##OP##_##S(c_ptr(a), m, n, n, c_out<OUT, COUT>(c), nullptr) == TALLY_SUCCESS);              \
    REQUIRE(tally_reducer_##OP##_##S(r, c_ptr(a), m, n, n, c_out<OUT, COUT>(via), nullptr) == TALLY_SUCCESS); \
    tally::OP(a, m, n, n, cpp);                                                                              \
  })
#define C_ALL_ROWS(T, S)                              \
  C_ROW(T, T, T, row_sum, S);                         \
  C_ROW(T, T, T, row_min, S);                         \
  C_ROW(T, T, T, row_max, S);                         \
  C_ROW(T, arg<T>, tally_arg_##S, row_arg_min, S);    \
  C_ROW(T, arg<T>, tally_arg_##S, row_arg_max, S)
#define C_FLOAT16_ROWS(T, S)          \
  C_ROW(T, float, float, row_sum, S); \
  C_ROW(T, float, float, row_min, S); \
  C_ROW(T, float, float, row_max, S)
#define C_MATVEC(T, Y, S)                                                                                     \
  check_rows<T, Y>("tally_matvec_" #S, [&](const T* a, index_t m, index_t n, const T* x, Y* c, Y* via, Y* cpp) { \
    REQUIRE(tally_matvec_##S(c_ptr(a), m, n, n, c_ptr(x), c, nullptr) == TALLY_SUCCESS);                       \
    REQUIRE(tally_reducer_matvec_##S(r, c_ptr(a), m, n, n, c_ptr(x), via, nullptr) == TALLY_SUCCESS);          \
    tally::matvec(a, m, n, n, x, cpp);                                                                          \
  })

TEST_CASE("tally.h: every row function and matvec equals tally.hpp's, one-off and through a tally_reducer") {
  tally_reducer* r = nullptr;
  REQUIRE_MESSAGE(tally_reducer_create(&r) == TALLY_SUCCESS, tally_last_error());
  C_ALL_ROWS(std::int32_t, i32);
  C_ALL_ROWS(std::int64_t, i64);
  C_ALL_ROWS(float, f32);
  C_ALL_ROWS(double, f64);
  C_FLOAT16_ROWS(__half, f16);
  C_FLOAT16_ROWS(__nv_bfloat16, bf16);
  C_MATVEC(float, float, f32);
  C_MATVEC(double, double, f64);
  C_MATVEC(__half, float, f16);
  C_MATVEC(__nv_bfloat16, float, bf16);
  tally_reducer_destroy(r);
}

TEST_CASE("tally.h: transposes of 16-, 32- and 64-bit elements equal tally.hpp's") {
  const auto check = [](auto tag, auto c_fn) {
    using T = typename decltype(tag)::type;
    const index_t rows = 513, cols = 1027;
    if (rows * cols > max_test_size()) return;
    const dataset<T> in(rows * cols, next_seed());
    device_buffer<T> c(static_cast<std::size_t>(rows * cols)), cpp(static_cast<std::size_t>(rows * cols));
    c.poison();
    REQUIRE(c_fn(in.data(), c.get(), rows, cols, nullptr) == TALLY_SUCCESS);
    tally::transpose(in.data(), cpp.get(), rows, cols);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c.bytes() == cpp.bytes());
  };
  check(type_tag<std::uint16_t>{}, tally_transpose_16);
  check(type_tag<float>{}, tally_transpose_32);
  check(type_tag<std::int64_t>{}, tally_transpose_64);
}

namespace {

template <class T>
device_buffer<T> upload_vector(const std::vector<T>& h) {
  device_buffer<T> d(h.size());
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(d.get(), h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

// The sorts and merges on key type K: each C function (keys alone, 32- and 64-bit values, 32- and
// 64-bit offsets) against tally.hpp's on the same input. The merge's lists are parts of the keys,
// each sorted by tally::sort.
template <class K, class Sort, class Pairs32, class Pairs64, class Merge32, class Merge64>
void check_sorts(const char* name, Sort c_sort, Pairs32 c_pairs32, Pairs64 c_pairs64, Merge32 c_merge32, Merge64 c_merge64) {
  for (const index_t n : {index_t{0}, index_t{1}, index_t{1000}, capped(index_t{100003})}) {
    INFO(name << ", n = " << n);
    const auto count = static_cast<std::size_t>(n);
    const dataset<K> keys(n, next_seed());
    const dataset<std::uint32_t> v32(n, next_seed());
    const dataset<std::uint64_t> v64(n, next_seed());
    device_buffer<K> c_k(count), cpp_k(count), lists(count);
    device_buffer<std::uint32_t> c_v32(count), cpp_v32(count);
    device_buffer<std::uint64_t> c_v64(count), cpp_v64(count);
    c_k.poison();
    REQUIRE_MESSAGE(c_sort(keys.data(), c_k.get(), n, nullptr) == TALLY_SUCCESS, tally_last_error());
    tally::sort(keys.data(), cpp_k.get(), n);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c_k.bytes() == cpp_k.bytes());

    c_k.poison();
    c_v32.poison();
    REQUIRE_MESSAGE(c_pairs32(keys.data(), v32.data(), c_k.get(), c_v32.get(), n, nullptr) == TALLY_SUCCESS, tally_last_error());
    tally::sort_by_key(keys.data(), v32.data(), cpp_k.get(), cpp_v32.get(), n);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c_k.bytes() == cpp_k.bytes());
    CHECK(c_v32.bytes() == cpp_v32.bytes());

    c_k.poison();
    c_v64.poison();
    REQUIRE_MESSAGE(c_pairs64(keys.data(), v64.data(), c_k.get(), c_v64.get(), n, nullptr) == TALLY_SUCCESS, tally_last_error());
    tally::sort_by_key(keys.data(), v64.data(), cpp_k.get(), cpp_v64.get(), n);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c_k.bytes() == cpp_k.bytes());
    CHECK(c_v64.bytes() == cpp_v64.bytes());

    // Three sorted lists (the first two may be empty).
    const std::vector<index_t> bounds = {0, n / 3, n / 2, n};
    for (std::size_t l = 0; l + 1 < bounds.size(); ++l)
      tally::sort(keys.data() + bounds[l], lists.get() + bounds[l], bounds[l + 1] - bounds[l]);
    const auto off32 = upload_vector(std::vector<std::int32_t>(bounds.begin(), bounds.end()));
    const auto off64 = upload_vector(std::vector<std::int64_t>(bounds.begin(), bounds.end()));
    c_k.poison();
    REQUIRE_MESSAGE(c_merge32(lists.get(), off32.get(), 3, n, c_k.get(), nullptr) == TALLY_SUCCESS, tally_last_error());
    tally::merge(lists.get(), off32.get(), 3, n, cpp_k.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c_k.bytes() == cpp_k.bytes());
    c_k.poison();
    REQUIRE_MESSAGE(c_merge64(lists.get(), off64.get(), 3, n, c_k.get(), nullptr) == TALLY_SUCCESS, tally_last_error());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c_k.bytes() == cpp_k.bytes());
  }
}

}  // namespace

#define C_SORTS(K, S)                                                                                                    \
  check_sorts<K>("tally_sort_" #S " / sort_by_key / merge", tally_sort_##S, tally_sort_by_key_##S##_v32, tally_sort_by_key_##S##_v64, \
                 tally_merge_##S##_o32, tally_merge_##S##_o64)

TEST_CASE("tally.h: sorts, sorts by key (32- and 64-bit values) and merges (32- and 64-bit offsets) equal tally.hpp's") {
  C_SORTS(std::int32_t, i32);
  C_SORTS(std::int64_t, i64);
  C_SORTS(std::uint32_t, u32);
  C_SORTS(std::uint64_t, u64);
  C_SORTS(float, f32);
  C_SORTS(double, f64);
}

namespace {

// Ragged offsets (a third of the segments empty) of `count` segments, from 0.
template <class Offset>
std::vector<Offset> ragged_offsets(index_t count) {
  std::mt19937_64 g(next_seed());
  std::vector<Offset> offsets(1, 0);
  for (index_t s = 0; s < count; ++s) offsets.push_back(offsets.back() + static_cast<Offset>(g() % 3 == 0 ? 0 : g() % 50));
  return offsets;
}

// One segmented reduction: the C function, unchecked and checked, one-off (c_fn(nullptr, ...)) and
// through the reducer r (c_fn(r, ...)), against tally.hpp's (unchecked) on the same input, with no
// segment and with ragged ones.
template <class T, class Out, class Offset, class C, class CChecked, class Cpp>
void check_segment(const char* name, tally_reducer* r, C c_fn, CChecked c_checked_fn, Cpp cpp_fn) {
  for (const index_t count : {index_t{0}, index_t{5000}}) {
    const auto offsets = ragged_offsets<Offset>(count);
    const index_t n = offsets.back();
    INFO(name << ", " << count << " segments, n = " << n);
    const dataset<T> d(n, next_seed());
    const auto d_offsets = upload_vector(offsets);
    const auto outputs = static_cast<std::size_t>(count + 1);
    device_buffer<Out> c(outputs), checked(outputs), via_reducer(outputs), checked_via_reducer(outputs), cpp(outputs);
    c.poison();
    checked.poison();
    via_reducer.poison();
    checked_via_reducer.poison();
    cpp.poison();
    const auto* in = c_ptr(d.data());
    REQUIRE_MESSAGE(c_fn(nullptr, in, d_offsets.get(), count, c.get(), nullptr) == TALLY_SUCCESS, tally_last_error());
    REQUIRE_MESSAGE(c_checked_fn(nullptr, in, n, d_offsets.get(), count, checked.get(), nullptr) == TALLY_SUCCESS,
                    tally_last_error());
    REQUIRE_MESSAGE(c_fn(r, in, d_offsets.get(), count, via_reducer.get(), nullptr) == TALLY_SUCCESS, tally_last_error());
    REQUIRE_MESSAGE(c_checked_fn(r, in, n, d_offsets.get(), count, checked_via_reducer.get(), nullptr) == TALLY_SUCCESS,
                    tally_last_error());
    cpp_fn(d.data(), d_offsets.get(), count, cpp.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c.bytes() == cpp.bytes());
    CHECK(checked.bytes() == cpp.bytes());
    CHECK(via_reducer.bytes() == cpp.bytes());
    CHECK(checked_via_reducer.bytes() == cpp.bytes());
  }
}

// csr_matvec: the C function, one-off and through the reducer r, and the planned C call over a plan
// from the C maker (planned(nullptr, ...): one-off), against tally.hpp's (taken by its exact type),
// no rows and ragged ones.
template <class T, class Offset, class C, class CR, class MakePlan, class Planned>
void check_csr(const char* name, tally_reducer* r, C c_fn, CR c_reducer_fn, MakePlan make_plan, Planned planned) {
  void (*const cpp_fn)(const T*, const std::int32_t*, const Offset*, index_t, const T*, T*, cudaStream_t) = tally::csr_matvec;
  for (const index_t rows : {index_t{0}, index_t{3000}}) {
    const auto offsets = ragged_offsets<Offset>(rows);
    const index_t nnz = offsets.back(), ncols = 777;
    INFO(name << ", " << rows << " rows, " << nnz << " non-zeros");
    std::mt19937_64 g(next_seed());
    std::vector<std::int32_t> cols(static_cast<std::size_t>(nnz));
    for (auto& col : cols) col = static_cast<std::int32_t>(g() % ncols);
    const dataset<T> values(nnz, next_seed()), x(ncols, next_seed());
    const auto d_offsets = upload_vector(offsets);
    const auto d_cols = upload_vector(cols.empty() ? std::vector<std::int32_t>(1, 0) : cols);
    const auto outputs = static_cast<std::size_t>(rows + 1);
    device_buffer<T> c(outputs), via_reducer(outputs), c_planned(outputs), planned_via_reducer(outputs), cpp(outputs);
    c.poison();
    via_reducer.poison();
    c_planned.poison();
    planned_via_reducer.poison();
    cpp.poison();
    REQUIRE_MESSAGE(c_fn(values.data(), d_cols.get(), d_offsets.get(), rows, x.data(), c.get(), nullptr) == TALLY_SUCCESS,
                    tally_last_error());
    REQUIRE_MESSAGE(c_reducer_fn(r, values.data(), d_cols.get(), d_offsets.get(), rows, x.data(), via_reducer.get(), nullptr) ==
                        TALLY_SUCCESS,
                    tally_last_error());
    tally_plan* plan = nullptr;
    REQUIRE_MESSAGE(make_plan(&plan, d_offsets.get(), rows, nullptr) == TALLY_SUCCESS, tally_last_error());
    REQUIRE_MESSAGE(planned(nullptr, values.data(), d_cols.get(), plan, x.data(), c_planned.get(), nullptr) == TALLY_SUCCESS,
                    tally_last_error());
    REQUIRE_MESSAGE(planned(r, values.data(), d_cols.get(), plan, x.data(), planned_via_reducer.get(), nullptr) == TALLY_SUCCESS,
                    tally_last_error());
    cpp_fn(values.data(), d_cols.get(), d_offsets.get(), rows, x.data(), cpp.get(), 0);
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c.bytes() == cpp.bytes());
    CHECK(via_reducer.bytes() == cpp.bytes());
    CHECK(c_planned.bytes() == cpp.bytes());
    CHECK(planned_via_reducer.bytes() == cpp.bytes());
    tally_plan_destroy(plan);
  }
}

// The planned segment_sum: a plan from the C maker, then the planned C call, one-off
// (planned(nullptr, ...)) and through the reducer r, against tally.hpp's unplanned segment_sum on
// the same input, with no segment and with ragged ones.
template <class T, class Out, class Offset, class MakePlan, class Planned>
void check_planned_sum(const char* name, tally_reducer* r, MakePlan make_plan, Planned planned) {
  for (const index_t count : {index_t{0}, index_t{5000}}) {
    const auto offsets = ragged_offsets<Offset>(count);
    INFO(name << ", " << count << " segments");
    const dataset<T> d(offsets.back(), next_seed());
    const auto d_offsets = upload_vector(offsets);
    const auto outputs = static_cast<std::size_t>(count + 1);
    device_buffer<Out> c(outputs), via_reducer(outputs), cpp(outputs);
    c.poison();
    via_reducer.poison();
    cpp.poison();
    tally_plan* plan = nullptr;
    REQUIRE_MESSAGE(make_plan(&plan, d_offsets.get(), count, nullptr) == TALLY_SUCCESS, tally_last_error());
    REQUIRE_MESSAGE(planned(nullptr, c_ptr(d.data()), plan, c.get(), nullptr) == TALLY_SUCCESS, tally_last_error());
    REQUIRE_MESSAGE(planned(r, c_ptr(d.data()), plan, via_reducer.get(), nullptr) == TALLY_SUCCESS, tally_last_error());
    tally::segment_sum(d.data(), d_offsets.get(), count, cpp.get());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
    CHECK(c.bytes() == cpp.bytes());
    CHECK(via_reducer.bytes() == cpp.bytes());
    tally_plan_destroy(plan);
  }
}

}  // namespace

// The planned segment_sum on suffix S over BITS-bit offsets (C++ type T, results OUT; C results COUT).
#define C_PLANNED_SUM(T, OUT, COUT, S, BITS)                                                                          \
  check_planned_sum<T, OUT, std::int##BITS##_t>(                                                                      \
      "tally_segment_sum_planned_" #S ", plan of " #BITS "-bit offsets", r, tally_plan_segment_sum_##S##_o##BITS,     \
      [](tally_reducer* h, auto in, const tally_plan* p, OUT* out, void* s) {                                         \
        return h != nullptr ? tally_reducer_segment_sum_planned_##S(h, in, p, c_out<OUT, COUT>(out), s)               \
                            : tally_segment_sum_planned_##S(in, p, c_out<OUT, COUT>(out), s);                         \
      })
#define C_PLANNED_SUMS(T, OUT, COUT, S) \
  C_PLANNED_SUM(T, OUT, COUT, S, 32);   \
  C_PLANNED_SUM(T, OUT, COUT, S, 64)

TEST_CASE("tally.h: planned segment_sum (every type) equals tally.hpp's unplanned one, one-off and through a tally_reducer; a plan refused by another call") {
  tally_reducer* r = nullptr;
  REQUIRE_MESSAGE(tally_reducer_create(&r) == TALLY_SUCCESS, tally_last_error());
  C_PLANNED_SUMS(std::int32_t, std::int32_t, std::int32_t, i32);
  C_PLANNED_SUMS(std::int64_t, std::int64_t, std::int64_t, i64);
  C_PLANNED_SUMS(float, float, float, f32);
  C_PLANNED_SUMS(double, double, double, f64);
  C_PLANNED_SUMS(__half, float, float, f16);
  C_PLANNED_SUMS(__nv_bfloat16, float, float, bf16);

  const dataset<float> data(100, next_seed());
  const auto offsets = upload_vector(std::vector<std::int32_t>{0, 10, 100});
  const auto cols = upload_vector(std::vector<std::int32_t>(100, 3));
  device_buffer<float> out(2);
  out.poison();
  const auto before = out.bytes();
  tally_plan* sums = nullptr;
  REQUIRE_MESSAGE(tally_plan_segment_sum_f32_o32(&sums, offsets.get(), 2, nullptr) == TALLY_SUCCESS, tally_last_error());
  CHECK(tally_reducer_csr_matvec_planned_f32(r, data.data(), cols.get(), sums, data.data(), out.get(), nullptr) ==
        TALLY_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(tally_last_error()) ==
        "tally_reducer_csr_matvec_planned_f32: tally::device_reducer::csr_matvec: a plan made by "
        "tally::plan_segment_sum<float> cannot serve this call, which takes one made by tally::plan_csr_matvec<float>");
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(out.bytes() == before);
  tally_plan_destroy(sums);
  tally_reducer_destroy(r);
}

// A segmented reduction with BITS-bit offsets: C unchecked and C checked (one-off with a null
// reducer h, tally_reducer_* otherwise), C++. COUT: the C output type.
#define C_SEGMENT(T, OUT, COUT, OP, S, BITS)                                                                          \
  check_segment<T, OUT, std::int##BITS##_t>(                                                                          \
      "tally_segment_" #OP "_" #S "_o" #BITS, r,                                                                      \
      [](tally_reducer* h, auto in, const std::int##BITS##_t* o, index_t k, OUT* out, void* s) {                      \
        return h != nullptr ? tally_reducer_segment_##OP##_##S##_o##BITS(h, in, o, k, c_out<OUT, COUT>(out), s)       \
                            : tally_segment_##OP##_##S##_o##BITS(in, o, k, c_out<OUT, COUT>(out), s);                 \
      },                                                                                                              \
      [](tally_reducer* h, auto in, index_t n, const std::int##BITS##_t* o, index_t k, OUT* out, void* s) {           \
        return h != nullptr ? tally_reducer_segment_##OP##_checked_##S##_o##BITS(h, in, n, o, k, c_out<OUT, COUT>(out), s) \
                            : tally_segment_##OP##_checked_##S##_o##BITS(in, n, o, k, c_out<OUT, COUT>(out), s);      \
      },                                                                                                              \
      [](const T* in, const std::int##BITS##_t* o, index_t k, OUT* out) { tally::segment_##OP(in, o, k, out); })
#define C_SEGMENT_OFFSETS(T, OUT, COUT, OP, S) \
  C_SEGMENT(T, OUT, COUT, OP, S, 32);          \
  C_SEGMENT(T, OUT, COUT, OP, S, 64)
#define C_ALL_SEGMENTS(T, S)                                    \
  C_SEGMENT_OFFSETS(T, T, T, sum, S);                           \
  C_SEGMENT_OFFSETS(T, T, T, min, S);                           \
  C_SEGMENT_OFFSETS(T, T, T, max, S);                           \
  C_SEGMENT_OFFSETS(T, arg<T>, tally_arg_##S, arg_min, S);      \
  C_SEGMENT_OFFSETS(T, arg<T>, tally_arg_##S, arg_max, S)
#define C_FLOAT16_SEGMENTS(T, S)                \
  C_SEGMENT_OFFSETS(T, float, float, sum, S);   \
  C_SEGMENT_OFFSETS(T, float, float, min, S);   \
  C_SEGMENT_OFFSETS(T, float, float, max, S)

#define C_CSR(S, T, BITS)                                                                                     \
  check_csr<T, std::int##BITS##_t>(                                                                           \
      "tally_csr_matvec_" #S "_o" #BITS, r, tally_csr_matvec_##S##_o##BITS, tally_reducer_csr_matvec_##S##_o##BITS, \
      tally_plan_csr_matvec_##S##_o##BITS,                                                                    \
      [](tally_reducer* h, const T* v, const std::int32_t* c, const tally_plan* p, const T* x, T* y, void* s) { \
        return h != nullptr ? tally_reducer_csr_matvec_planned_##S(h, v, c, p, x, y, s)                       \
                            : tally_csr_matvec_planned_##S(v, c, p, x, y, s);                                 \
      })

TEST_CASE("tally.h: segmented reductions (unchecked and checked, 32- and 64-bit offsets) and csr_matvec (unplanned and planned) equal tally.hpp's, one-off and through a tally_reducer") {
  tally_reducer* r = nullptr;
  REQUIRE_MESSAGE(tally_reducer_create(&r) == TALLY_SUCCESS, tally_last_error());
  C_ALL_SEGMENTS(std::int32_t, i32);
  C_ALL_SEGMENTS(std::int64_t, i64);
  C_ALL_SEGMENTS(float, f32);
  C_ALL_SEGMENTS(double, f64);
  C_FLOAT16_SEGMENTS(__half, f16);
  C_FLOAT16_SEGMENTS(__nv_bfloat16, bf16);
  C_CSR(f32, float, 32);
  C_CSR(f32, float, 64);
  C_CSR(f64, double, 32);
  C_CSR(f64, double, 64);
  tally_reducer_destroy(r);
}

TEST_CASE("tally.h: a tally_reducer's segmented reductions and csr_matvec report bad offsets and bad arguments with a status and a message") {
  tally_reducer* r = nullptr;
  REQUIRE_MESSAGE(tally_reducer_create(&r) == TALLY_SUCCESS, tally_last_error());
  const dataset<float> data(100, next_seed());
  const auto bad = upload_vector(std::vector<std::int32_t>{0, 10, 5, 20, 30});
  const auto offsets = upload_vector(std::vector<std::int64_t>{0, 10, 100});
  device_buffer<float> out(4);
  out.poison();
  const auto before = out.bytes();
  CHECK(tally_reducer_segment_sum_checked_f32_o32(r, data.data(), 100, bad.get(), 4, out.get(), nullptr) ==
        TALLY_ERROR_INVALID_ARGUMENT);
  CHECK(tally_last_cuda_error() == 0);
  CHECK(std::string(tally_last_error()) ==
        "tally_reducer_segment_sum_checked_f32_o32: tally::device_reducer::segment_sum: tally::reduce_segments: segment 1 "
        "(offsets[1] = 10, offsets[2] = 5) ends before it begins: offsets must not decrease");
  CHECK(tally_reducer_csr_matvec_f32_o64(r, data.data(), nullptr, offsets.get(), 2, data.data(), out.get(), nullptr) ==
        TALLY_ERROR_INVALID_ARGUMENT);
  CHECK(std::string(tally_last_error()) ==
        "tally_reducer_csr_matvec_f32_o64: tally::device_reducer::csr_matvec: column index pointer is null but num_segments = 2");
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(out.bytes() == before);
  tally_reducer_destroy(r);
}
