// tally::nccl on the host: argument errors (each names the argument, and comes before any CUDA or
// NCCL call, so these run without a GPU), which operators take NCCL's all-reduce, the record
// layout, and the combine's fold over hand-made records against the whole input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

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

namespace {

// Each part's state as the local reduce writes it (lifted at its local index, combined, finalized
// to the state type), in records laid out as after the all-gather; then the combine's fold.
template <class Acc, class Out, class T, class Op>
Out folded(const std::vector<T>& h, const std::vector<tally::index_t>& counts, Op op) {
  using S = typename Op::template state<Acc>;
  using layout = tally::nccl::detail::record_layout<S>;
  const std::size_t bytes = layout::bytes(1);
  std::vector<std::uint64_t> storage((bytes * counts.size() + 7) / 8 + 2);  // 16-byte aligned on this host
  auto* records = reinterpret_cast<unsigned char*>(storage.data());
  tally::index_t first = 0;
  for (std::size_t k = 0; k < counts.size(); ++k) {
    S acc = op.template identity<Acc>();
    for (tally::index_t i = 0; i < counts[k]; ++i) acc = op(acc, op.template lift<Acc>(h[static_cast<std::size_t>(first + i)], i));
    const S state = op.template finalize<S>(acc);
    std::memcpy(records + k * bytes, &state, sizeof state);
    const std::int64_t count = counts[k];
    if (layout::counted) std::memcpy(records + k * bytes + layout::count_offset(1), &count, sizeof count);
    first += counts[k];
  }
  const S total = tally::nccl::detail::fold_row<Acc, S>(records, bytes, layout::count_offset(1),
                                                         static_cast<int>(counts.size()), 0, op);
  return op.template finalize<Out>(total);
}

// The whole input reduced at once, global indices.
template <class Acc, class Out, class T, class Op>
Out whole(const std::vector<T>& h, Op op) {
  typename Op::template state<Acc> acc = op.template identity<Acc>();
  for (std::size_t i = 0; i < h.size(); ++i) acc = op(acc, op.template lift<Acc>(h[i], static_cast<tally::index_t>(i)));
  return op.template finalize<Out>(acc);
}

// k uneven parts of n; from 3 parts on, part 1 holds nothing.
std::vector<tally::index_t> parts_of(tally::index_t n, int k, std::mt19937& g) {
  std::vector<tally::index_t> cuts{0, n};
  for (int i = 1; i < k; ++i) cuts.push_back(static_cast<tally::index_t>(g() % static_cast<unsigned>(n + 1)));
  std::sort(cuts.begin(), cuts.end());
  std::vector<tally::index_t> counts;
  for (int i = 0; i < k; ++i) counts.push_back(cuts[static_cast<std::size_t>(i) + 1] - cuts[static_cast<std::size_t>(i)]);
  if (k >= 3) {
    counts[0] += counts[1];
    counts[1] = 0;
  }
  return counts;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("nccl: the combine's fold of 1 to 8 parts gives the bits of the whole (host)") {
  std::mt19937 g(5);
  for (const tally::index_t n : {0, 1, 2, 9, 100, 1001}) {
    std::vector<float> f(static_cast<std::size_t>(n));
    std::vector<int> v(static_cast<std::size_t>(n));
    for (auto& x : f) x = std::ldexp(static_cast<float>(g() % 2001) - 1000.0f, static_cast<int>(g() % 60) - 30);
    for (auto& x : v) x = static_cast<int>(g() % 21) - 10;  // many ties
    if (n > 50) f[static_cast<std::size_t>(n / 2)] = std::nanf("");
    for (int k = 1; k <= 8; ++k) {
      const std::vector<tally::index_t> counts = parts_of(n, k, g);
      CAPTURE(n);
      CAPTURE(k);
      using binned = tally::binned<float>;
      CHECK(same_bits(folded<binned, float>(f, counts, tally::op::sum{}), whole<binned, float>(f, tally::op::sum{})));
      const auto a = folded<float, tally::arg<float>>(f, counts, tally::op::arg_min{});
      const auto b = whole<float, tally::arg<float>>(f, tally::op::arg_min{});
      CHECK(same_bits(a.value, b.value));
      CHECK(a.index == b.index);
      const auto c = folded<int, tally::arg<int>>(v, counts, tally::op::arg_max{});
      const auto d = whole<int, tally::arg<int>>(v, tally::op::arg_max{});
      CHECK(c.value == d.value);
      CHECK(c.index == d.index);
      CHECK(folded<int, int>(v, counts, tally::op::sum{}) == whole<int, int>(v, tally::op::sum{}));
      CHECK(same_bits(folded<float, float>(f, counts, tally::op::max{}), whole<float, float>(f, tally::op::max{})));
    }
  }
}
