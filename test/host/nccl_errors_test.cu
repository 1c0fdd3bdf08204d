// tally::nccl's argument errors: each names the argument, and comes before any CUDA or NCCL call,
// so these run on machines without a GPU (and without NCCL's runtime being initialised).
#include <doctest/doctest.h>

#include <tally/nccl.cuh>

#include "../common/argument_error.hpp"

namespace {

using tally::test::argument_error_of;
using tally::test::contains;
using P = tally::default_reduce_policy<float>;

// Never dereferenced: every call below fails its checks first.
const float* some_input() { return reinterpret_cast<const float*>(std::uintptr_t{256}); }
float* some_output() { return reinterpret_cast<float*>(std::uintptr_t{512}); }

}  // namespace

TEST_CASE("nccl::all_reduce: bad arguments throw before any CUDA or NCCL call") {
  const std::string negative = argument_error_of([] { tally::nccl::all_reduce<P>(nullptr, some_input(), -1, some_output()); });
  CHECK(contains(negative, "tally::nccl::all_reduce"));
  CHECK(contains(negative, "n = -1 is negative"));
  CHECK(contains(argument_error_of([] { tally::nccl::all_reduce<P>(nullptr, static_cast<const float*>(nullptr), 5, some_output()); }),
                 "input pointer is null but n = 5"));
  CHECK(contains(argument_error_of([] { tally::nccl::all_reduce<P>(nullptr, some_input(), 5, static_cast<float*>(nullptr)); }),
                 "output pointer is null"));
  CHECK(contains(argument_error_of([] { tally::nccl::all_reduce<P>(nullptr, some_input(), 5, some_output()); }),
                 "communicator is null"));
  CHECK(contains(argument_error_of([] { tally::nccl::all_reduce(nullptr, some_input(), 0, some_output()); }),
                 "communicator is null"));
  CHECK(contains(argument_error_of([] { tally::nccl::reducer<P, float> r(nullptr); }), "communicator is null"));
  CHECK(contains(argument_error_of([] {
                   tally::nccl::all_reduce<P>(nullptr, some_input() , 4, reinterpret_cast<float*>(std::uintptr_t{514}));
                 }),
                 "output pointer is not aligned"));
}

TEST_CASE("nccl::reduce_rows / matvec: bad arguments throw before any CUDA or NCCL call") {
  CHECK(contains(argument_error_of([] { tally::nccl::reduce_rows(nullptr, some_input(), -2, 3, 3, some_output()); }),
                 "M = -2 is negative"));
  CHECK(contains(argument_error_of([] { tally::nccl::reduce_rows(nullptr, some_input(), 2, 3, 2, some_output()); }),
                 "ld = 2 is smaller than N = 3"));
  CHECK(contains(argument_error_of([] { tally::nccl::reduce_rows(nullptr, some_input(), 2, 3, 3, some_output()); }),
                 "communicator is null"));
  CHECK(contains(argument_error_of([] {
                   tally::nccl::matvec(nullptr, some_input(), 2, 3, 3, static_cast<const float*>(nullptr), some_output());
                 }),
                 "vector x pointer is null"));
  CHECK(contains(argument_error_of([] { tally::nccl::rows_reducer<tally::default_rows_policy<float>, float> r(nullptr); }),
                 "communicator is null"));
}

TEST_CASE("nccl::all_reduce_group: bad arguments throw before any CUDA or NCCL call") {
  using R = tally::nccl::reducer<P, float>;
  CHECK(contains(argument_error_of([] {
                   tally::nccl::all_reduce_group(static_cast<R* const*>(nullptr), -1, nullptr, nullptr,
                                                 static_cast<float* const*>(nullptr), nullptr);
                 }),
                 "count = -1 is negative"));
  CHECK(contains(argument_error_of([] {
                   tally::nccl::all_reduce_group(static_cast<R* const*>(nullptr), 2, nullptr, nullptr,
                                                 static_cast<float* const*>(nullptr), nullptr);
                 }),
                 "an array argument is null"));
  R* none[1] = {nullptr};
  const float* in[1] = {some_input()};
  const tally::index_t n[1] = {4};
  float* out[1] = {some_output()};
  cudaStream_t streams[1] = {nullptr};
  CHECK(contains(argument_error_of([&] { tally::nccl::all_reduce_group(none, 1, in, n, out, streams); }),
                 "reducers[0] is null"));
}

TEST_CASE("nccl: which operators NCCL's all-reduce combines, and the record layout") {
  using tally::nccl::detail::native_combine;
  static_assert(native_combine<tally::op::sum, int>);
  static_assert(native_combine<tally::op::min, unsigned long long>);
  static_assert(native_combine<tally::op::max, signed char>);
  static_assert(!native_combine<tally::op::sum, short>);  // NCCL has no 16-bit integers
  static_assert(!native_combine<tally::op::sum, float>);
  static_assert(!native_combine<tally::op::min, float>);  // tally's NaN and signed-zero rules
  static_assert(!native_combine<tally::op::arg_min, tally::arg<int>>);
  static_assert(tally::nccl::detail::nccl_type<int>(true) == ncclUint32);
  static_assert(tally::nccl::detail::nccl_type<int>(false) == ncclInt32);
  using arg_layout = tally::nccl::detail::record_layout<tally::arg<float>>;
  static_assert(arg_layout::counted);
  CHECK(arg_layout::count_offset(3) == 3 * sizeof(tally::arg<float>));
  CHECK(arg_layout::bytes(3) == 3 * sizeof(tally::arg<float>) + 8);
  using binned_layout = tally::nccl::detail::record_layout<tally::binned<float>>;
  static_assert(!binned_layout::counted);
  CHECK(binned_layout::bytes(1) % alignof(tally::binned<float>) == 0);
  CHECK(tally::nccl::detail::record_layout<int>::bytes(3) == 16);  // 12 bytes of states, padded to 8
}
