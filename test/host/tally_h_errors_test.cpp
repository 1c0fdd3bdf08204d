// <tally/tally.h> from plain C++ (no nvcc), no GPU needed: bad arguments give
// TALLY_ERROR_INVALID_ARGUMENT and a message naming the C function and the problem, before any
// CUDA call; no exception crosses the interface; the output is untouched; the message is the
// calling thread's own.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>

#include <tally/tally.h>

#include "../common/argument_error.hpp"

using tally::test::contains;

namespace {

// The status and the message of a call that must fail on its arguments.
template <class F>
std::string invalid_argument_of(F f) {
  const tally_status status = f();
  CHECK(status == TALLY_ERROR_INVALID_ARGUMENT);
  CHECK(tally_last_cuda_error() == 0);
  return tally_last_error();
}

}  // namespace

TEST_CASE("tally.h: every family rejects bad arguments with a status and a message naming the C function") {
  alignas(16) float a[8] = {};
  float out[2] = {7, 7};
  tally_arg_f64 where = {1.0, 5};
  CHECK(contains(invalid_argument_of([&] { return tally_sum_f32(nullptr, 10, out, nullptr); }),
                 "tally_sum_f32: tally::sum: input pointer is null but n = 10"));
  CHECK(contains(invalid_argument_of([&] { return tally_arg_max_f64(nullptr, -3, &where, nullptr); }),
                 "tally_arg_max_f64: tally::arg_max: n = -3 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_row_max_f32(a, 2, 3, 2, out, nullptr); }),
                 "tally_row_max_f32: tally::row_max: ld = 2 is smaller than N = 3"));
  CHECK(contains(invalid_argument_of([&] { return tally_row_sum_bf16(nullptr, 2, 2, 2, out, nullptr); }),
                 "tally_row_sum_bf16: tally::row_sum: matrix pointer is null"));
  CHECK(contains(invalid_argument_of([&] { return tally_matvec_f32(a, 2, 2, 2, nullptr, out, nullptr); }),
                 "tally_matvec_f32: tally::matvec: vector x pointer is null but N = 2"));
  CHECK(contains(invalid_argument_of([&] { return tally_transpose_32(a, a, 2, 2, nullptr); }),
                 "tally_transpose_32: tally::transpose: input and output are the same buffer"));
  CHECK(contains(invalid_argument_of([&] { return tally_transpose_64(a, out, -1, 2, nullptr); }),
                 "tally_transpose_64: tally::transpose: rows = -1, cols = 2: a dimension is negative"));
  const auto* misaligned = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const char*>(a) + 1);
  CHECK(contains(invalid_argument_of([&] { return tally_max_f16(misaligned, 2, out, nullptr); }),
                 "tally_max_f16: tally::max: input pointer is not aligned"));
  CHECK(out[0] == 7.0f);
  CHECK(out[1] == 7.0f);
  CHECK(where.value == 1.0);
  CHECK(where.index == 5);
  // Nothing to do is no error.
  CHECK(tally_transpose_16(nullptr, nullptr, 0, 9, nullptr) == TALLY_SUCCESS);
}

TEST_CASE("tally.h: handles: a null reducer is an argument error; the last error is per thread") {
  float out = 3;
  CHECK(contains(invalid_argument_of([&] { return tally_reducer_sum_f32(nullptr, nullptr, 0, &out, nullptr); }),
                 "tally_reducer_sum_f32: the reducer is null"));
  CHECK(contains(invalid_argument_of([&] { return tally_reducer_segment_sum_f32_o32(nullptr, nullptr, nullptr, 0, &out, nullptr); }),
                 "tally_reducer_segment_sum_f32_o32: the reducer is null"));
  CHECK(contains(invalid_argument_of([&] { return tally_reducer_segment_max_checked_bf16_o64(nullptr, nullptr, 0, nullptr, 0, &out, nullptr); }),
                 "tally_reducer_segment_max_checked_bf16_o64: the reducer is null"));
  CHECK(contains(invalid_argument_of([&] { return tally_reducer_csr_matvec_f32_o32(nullptr, nullptr, nullptr, nullptr, 0, nullptr, &out, nullptr); }),
                 "tally_reducer_csr_matvec_f32_o32: the reducer is null"));
  CHECK(out == 3);
  CHECK(contains(invalid_argument_of([&] { return tally_reducer_create(nullptr); }),
                 "tally_reducer_create: the place for the reducer is null"));
  tally_reducer_destroy(nullptr);  // nothing
  std::string other_thread;
  std::thread([&] { other_thread = tally_last_error(); }).join();
  CHECK(other_thread == "");  // its own last error: none yet
  CHECK(std::string(tally_status_name(TALLY_ERROR_CUDA)) == "TALLY_ERROR_CUDA");
}

TEST_CASE("tally.h: without a GPU a reducer cannot be made, and the status says CUDA") {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0) return;  // the GPU suite covers this machine
  tally_reducer* r = nullptr;
  CHECK(tally_reducer_create(&r) == TALLY_ERROR_CUDA);
  CHECK(r == nullptr);
  CHECK(tally_last_cuda_error() != 0);
  CHECK(contains(tally_last_error(), "tally_reducer_create: tally::device_reducer: "));
}

TEST_CASE("tally.h: sorts and merges reject bad arguments with a status and a message naming the C function") {
  alignas(16) float keys[8] = {};
  alignas(16) float out[8] = {7, 7, 7, 7, 7, 7, 7, 7};
  alignas(16) std::uint64_t values[8] = {}, values_out[8] = {9, 9, 9, 9, 9, 9, 9, 9};
  alignas(16) std::int32_t offsets32[3] = {0, 4, 8};
  alignas(16) std::int64_t offsets64[3] = {0, 4, 8};
  alignas(16) std::int64_t i64[8] = {}, i64_out[8] = {};
  CHECK(contains(invalid_argument_of([&] { return tally_sort_f32(nullptr, out, 10, nullptr); }),
                 "tally_sort_f32: tally::sort: keys pointer is null but n = 10"));
  CHECK(contains(invalid_argument_of([&] { return tally_sort_i64(i64, i64_out, -4, nullptr); }),
                 "tally_sort_i64: tally::sort: n = -4 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_sort_u32(reinterpret_cast<const std::uint32_t*>(keys),
                                                                 reinterpret_cast<std::uint32_t*>(keys) + 2, 4, nullptr); }),
                 "tally_sort_u32: tally::sort: the keys output overlaps the keys"));
  CHECK(contains(invalid_argument_of([&] { return tally_sort_by_key_f32_v64(keys, nullptr, out, values_out, 3, nullptr); }),
                 "tally_sort_by_key_f32_v64: tally::sort_by_key: values pointer is null but n = 3"));
  CHECK(contains(invalid_argument_of([&] { return tally_sort_by_key_f32_v32(keys, values, out, values, 4, nullptr); }),
                 "tally_sort_by_key_f32_v32: tally::sort_by_key: the values output overlaps an input"));
  CHECK(contains(invalid_argument_of([&] {
                   return tally_sort_by_key_i64_v64(i64, reinterpret_cast<const char*>(values) + 4, i64_out, values_out, 2, nullptr);
                 }),
                 "tally_sort_by_key_i64_v64: tally::sort_by_key: values pointer is not aligned to 8 bytes"));
  CHECK(contains(invalid_argument_of([&] { return tally_sort_by_key_f64_v32(nullptr, values, nullptr, values_out, -1, nullptr); }),
                 "tally_sort_by_key_f64_v32: tally::sort_by_key: n = -1 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_merge_f32_o32(keys, nullptr, 2, 8, out, nullptr); }),
                 "tally_merge_f32_o32: tally::merge: offsets pointer is null"));
  CHECK(contains(invalid_argument_of([&] { return tally_merge_i64_o64(i64, offsets64, -2, 8, i64_out, nullptr); }),
                 "tally_merge_i64_o64: tally::merge: num_lists = -2 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_merge_f64_o32(nullptr, offsets32, 2, 8, nullptr, nullptr); }),
                 "tally_merge_f64_o32: tally::merge: keys pointer is null but n = 8"));
  CHECK(contains(invalid_argument_of([&] { return tally_merge_u64_o64(reinterpret_cast<const std::uint64_t*>(i64),
                                                                      offsets64, 2, 8, reinterpret_cast<std::uint64_t*>(i64), nullptr); }),
                 "tally_merge_u64_o64: tally::merge: the output overlaps the keys"));
  CHECK(contains(invalid_argument_of([&] { return tally_merge_i32_o64(reinterpret_cast<const std::int32_t*>(keys), offsets64, 0, 8,
                                                                      reinterpret_cast<std::int32_t*>(out), nullptr); }),
                 "tally_merge_i32_o64: tally::merge: n = 8 keys but no lists (num_lists = 0)"));
  for (float v : out) CHECK(v == 7.0f);
  for (std::uint64_t v : values_out) CHECK(v == 9);
  // Nothing to do is no error.
  CHECK(tally_sort_f64(nullptr, nullptr, 0, nullptr) == TALLY_SUCCESS);
  CHECK(tally_sort_by_key_u64_v64(nullptr, nullptr, nullptr, nullptr, 0, nullptr) == TALLY_SUCCESS);
  CHECK(tally_merge_u32_o32(nullptr, nullptr, 0, 0, nullptr, nullptr) == TALLY_SUCCESS);
}

TEST_CASE("tally.h: segmented reductions and csr_matvec reject bad arguments with a status and a message naming the C function") {
  alignas(16) float in[8] = {};
  alignas(16) double din[8] = {};
  alignas(16) std::int32_t i32[8] = {}, cols[8] = {};
  alignas(16) std::int32_t offsets32[4] = {0, 2, 2, 8};
  alignas(16) std::int64_t offsets64[4] = {0, 2, 2, 8};
  alignas(16) std::uint16_t halves[8] = {};
  alignas(16) float out[3] = {7, 7, 7};
  alignas(16) double dout[3] = {7, 7, 7};
  tally_arg_i32 where[3] = {{1, 5}, {1, 5}, {1, 5}};
  CHECK(contains(invalid_argument_of([&] { return tally_segment_sum_f32_o32(nullptr, offsets32, 3, out, nullptr); }),
                 "tally_segment_sum_f32_o32: tally::segment_sum: input pointer is null but num_segments = 3"));
  CHECK(contains(invalid_argument_of([&] { return tally_segment_max_f64_o64(din, offsets64, -1, dout, nullptr); }),
                 "tally_segment_max_f64_o64: tally::segment_max: num_segments = -1 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_segment_arg_min_i32_o32(i32, nullptr, 3, where, nullptr); }),
                 "tally_segment_arg_min_i32_o32: tally::segment_arg_min: offsets pointer is null but num_segments = 3"));
  CHECK(contains(invalid_argument_of([&] { return tally_segment_arg_max_i32_o64(i32, offsets64, 3, nullptr, nullptr); }),
                 "tally_segment_arg_max_i32_o64: tally::segment_arg_max: output pointer is null but num_segments = 3"));
  const auto* odd_offsets = reinterpret_cast<const std::int64_t*>(reinterpret_cast<const char*>(offsets64) + 4);
  CHECK(contains(invalid_argument_of([&] { return tally_segment_min_f32_o64(in, odd_offsets, 1, out, nullptr); }),
                 "tally_segment_min_f32_o64: tally::segment_min: offsets pointer is not aligned to its type (8 bytes)"));
  const auto* odd_halves = reinterpret_cast<const std::uint16_t*>(reinterpret_cast<const char*>(halves) + 1);
  CHECK(contains(invalid_argument_of([&] { return tally_segment_sum_bf16_o32(odd_halves, offsets32, 3, out, nullptr); }),
                 "tally_segment_sum_bf16_o32: tally::segment_sum: input pointer is not aligned"));
  CHECK(contains(invalid_argument_of([&] { return tally_segment_sum_checked_f32_o32(in, -1, offsets32, 3, out, nullptr); }),
                 "tally_segment_sum_checked_f32_o32: tally::segment_sum: n = -1 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_segment_arg_max_checked_i32_o64(nullptr, 8, offsets64, 3, where, nullptr); }),
                 "tally_segment_arg_max_checked_i32_o64: tally::segment_arg_max: input pointer is null but num_segments = 3"));
  CHECK(contains(invalid_argument_of([&] { return tally_segment_max_checked_f16_o64(halves, 8, offsets64, -4, out, nullptr); }),
                 "tally_segment_max_checked_f16_o64: tally::segment_max: num_segments = -4 is negative"));
  CHECK(contains(invalid_argument_of([&] { return tally_csr_matvec_f32_o32(in, cols, offsets32, 2, nullptr, out, nullptr); }),
                 "tally_csr_matvec_f32_o32: tally::csr_matvec: vector x pointer is null but num_segments = 2"));
  CHECK(contains(invalid_argument_of([&] { return tally_csr_matvec_f64_o64(din, nullptr, offsets64, 2, din, dout, nullptr); }),
                 "tally_csr_matvec_f64_o64: tally::csr_matvec: column index pointer is null but num_segments = 2"));
  CHECK(contains(invalid_argument_of([&] { return tally_csr_matvec_f64_o32(din, cols, offsets32, -3, din, dout, nullptr); }),
                 "tally_csr_matvec_f64_o32: tally::csr_matvec: num_segments = -3 is negative"));
  for (float v : out) CHECK(v == 7.0f);
  for (double v : dout) CHECK(v == 7.0);
  for (const tally_arg_i32& w : where) CHECK((w.value == 1 && w.index == 5));
  // Nothing to do is no error.
  CHECK(tally_segment_sum_i64_o64(nullptr, nullptr, 0, nullptr, nullptr) == TALLY_SUCCESS);
  CHECK(tally_segment_arg_min_checked_f64_o32(nullptr, 0, nullptr, 0, nullptr, nullptr) == TALLY_SUCCESS);
  CHECK(tally_csr_matvec_f32_o64(nullptr, nullptr, nullptr, 0, nullptr, nullptr, nullptr) == TALLY_SUCCESS);
}

TEST_CASE("tally.h: plans: null handles and bad offsets are argument errors, and no plan is written") {
  alignas(16) std::int32_t offsets32[4] = {0, 2, 2, 8};
  alignas(16) float in[8] = {}, out[3] = {7, 7, 7};
  alignas(16) std::int32_t cols[8] = {};
  tally_plan* const untouched = reinterpret_cast<tally_plan*>(&offsets32[1]);  // never dereferenced
  tally_plan* plan = untouched;
  CHECK(invalid_argument_of([&] { return tally_plan_segment_sum_f32_o32(nullptr, offsets32, 3, nullptr); }) ==
        "tally_plan_segment_sum_f32_o32: the place for the plan is null");
  CHECK(invalid_argument_of([&] { return tally_plan_csr_matvec_f64_o64(&plan, nullptr, 3, nullptr); }) ==
        "tally_plan_csr_matvec_f64_o64: tally::plan_csr_matvec<double>: offsets pointer is null but num_segments = 3");
  CHECK(invalid_argument_of([&] { return tally_plan_segment_sum_bf16_o32(&plan, offsets32, -2, nullptr); }) ==
        "tally_plan_segment_sum_bf16_o32: tally::plan_segment_sum<__nv_bfloat16>: num_segments = -2 is negative");
  CHECK(plan == untouched);
  CHECK(invalid_argument_of([&] { return tally_segment_sum_planned_f32(in, nullptr, out, nullptr); }) ==
        "tally_segment_sum_planned_f32: the plan is null");
  CHECK(invalid_argument_of([&] { return tally_csr_matvec_planned_f32(in, cols, nullptr, in, out, nullptr); }) ==
        "tally_csr_matvec_planned_f32: the plan is null");
  CHECK(invalid_argument_of([&] { return tally_reducer_segment_sum_planned_i64(nullptr, nullptr, nullptr, nullptr, nullptr); }) ==
        "tally_reducer_segment_sum_planned_i64: the reducer is null");
  CHECK(invalid_argument_of([&] { return tally_reducer_csr_matvec_planned_f64(nullptr, nullptr, cols, nullptr, nullptr, nullptr, nullptr); }) ==
        "tally_reducer_csr_matvec_planned_f64: the reducer is null");
  for (float v : out) CHECK(v == 7.0f);
  tally_plan_destroy(nullptr);  // nothing
}
