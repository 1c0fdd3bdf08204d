// Every function of <tally/tally.hpp> (libtally.a), called once and through one device_reducer
// reused across sizes and types, against the host reference and cub::DeviceReduce: exact for
// integer sums, min, max and arg_*, within check.cuh's rounding bounds for floating sums. Then:
// device_reducer calls capture into a CUDA graph (so they allocate nothing), and bad arguments
// throw tally::error naming them, with nothing queued and the output untouched.
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include <tally/tally.hpp>

#include "../common/argument_error.hpp"
#include "support/check.cuh"
#include "support/graph.cuh"

using namespace tally;
using namespace tally::test;

namespace {

// The two ways of calling tally.hpp, with the same member names, so a test is written once for both.
struct one_off {
  static constexpr const char* prefix = "tally::";
  cudaStream_t stream = 0;
  template <class T, class Out> void sum(const T* in, index_t n, Out* out) const { tally::sum(in, n, out, stream); }
  template <class T, class Out> void min(const T* in, index_t n, Out* out) const { tally::min(in, n, out, stream); }
  template <class T, class Out> void max(const T* in, index_t n, Out* out) const { tally::max(in, n, out, stream); }
  template <class T, class Out> void arg_min(const T* in, index_t n, Out* out) const { tally::arg_min(in, n, out, stream); }
  template <class T, class Out> void arg_max(const T* in, index_t n, Out* out) const { tally::arg_max(in, n, out, stream); }
};

struct through_reducer {
  static constexpr const char* prefix = "tally::device_reducer::";
  device_reducer& r;
  cudaStream_t stream = 0;
  template <class T, class Out> void sum(const T* in, index_t n, Out* out) const { r.sum(in, n, out, stream); }
  template <class T, class Out> void min(const T* in, index_t n, Out* out) const { r.min(in, n, out, stream); }
  template <class T, class Out> void max(const T* in, index_t n, Out* out) const { r.max(in, n, out, stream); }
  template <class T, class Out> void arg_min(const T* in, index_t n, Out* out) const { r.arg_min(in, n, out, stream); }
  template <class T, class Out> void arg_max(const T* in, index_t n, Out* out) const { r.arg_max(in, n, out, stream); }
};

template <class Op, class Api, class T, class Out>
void call(const Api& api, const T* in, index_t n, Out* out) {
  if constexpr (std::is_same_v<Op, op::sum>) api.sum(in, n, out);
  else if constexpr (std::is_same_v<Op, op::min>) api.min(in, n, out);
  else if constexpr (std::is_same_v<Op, op::max>) api.max(in, n, out);
  else if constexpr (std::is_same_v<Op, op::arg_min>) api.arg_min(in, n, out);
  else api.arg_max(in, n, out);
}

// What tally.hpp offers on T, and the result each operation writes.
template <class T>
using ops_on = std::conditional_t<detail::is_16bit_float<T>, type_list<op::sum, op::min, op::max>,
                                  type_list<op::sum, op::min, op::max, op::arg_min, op::arg_max>>;
template <class Op>
inline constexpr bool is_arg_op = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
template <class T, class Op>
using result_t = std::conditional_t<is_arg_op<Op>, arg<T>, std::conditional_t<detail::is_16bit_float<T>, float, T>>;

using all_types = type_list<std::int32_t, std::int64_t, std::uint32_t, std::uint64_t, float, double, __half, __nv_bfloat16>;

template <class T>
const char* type_name() {
  if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else if constexpr (std::is_same_v<T, std::uint32_t>) return "uint32";
  else if constexpr (std::is_same_v<T, std::uint64_t>) return "uint64";
  else if constexpr (std::is_same_v<T, float>) return "float";
  else if constexpr (std::is_same_v<T, double>) return "double";
  else if constexpr (std::is_same_v<T, __half>) return "__half";
  else return "__nv_bfloat16";
}

// Empty, one element, block and warp boundaries, non-powers of two, and 2^20 + 7 (two passes).
std::vector<index_t> sizes() {
  std::vector<index_t> kept;
  for (index_t n : test_sizes())
    if (n <= (index_t{1} << 20) + 7) kept.push_back(n);
  return kept;
}

template <class V>
std::vector<unsigned char> bits_of(const V& v) {
  std::vector<unsigned char> b(sizeof(V));
  std::memcpy(b.data(), &v, sizeof(V));
  return b;
}

// Runs one operation on d into a poisoned output and returns the result.
template <class Op, class Api, class T>
result_t<T, Op> run(const Api& api, const dataset<T>& d) {
  device_buffer<result_t<T, Op>> out(1);
  out.poison();
  call<Op>(api, d.data(), d.size(), out.get());
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(api.stream));
  return out.read();
}

// got is Op over d through tally.hpp, which runs default_reduce_policy<T, Op>: compared with the host
// reference and with CUB.
template <class Op, class T, class Truth>
void check_result(const dataset<T>& d, const Truth& truth, const result_t<T, Op>& got) {
  using P = default_reduce_policy<T, Op>;
  expect_matches_reference<P, Op>(d, truth, got, reducer<P, T, Op>().plan(d.size()));
}

// Every bad argument of Op on T throws naming the function and the argument before any work is
// queued, so the poisoned output keeps its bytes; n == 0 with a null input is valid and writes the
// identity.
template <class Op, class T, class Api>
void check_arguments(const Api& api) {
  using Out = result_t<T, Op>;
  const std::string name = std::string(api.prefix) + Op::name;
  INFO(name << " on " << std::string(type_name<T>()));
  const dataset<T> d(4, next_seed());
  device_buffer<Out> out(1);
  out.poison(0x5A);
  const std::vector<unsigned char> poison = bits_of(out.read());

  const std::string null_input = argument_error_of([&] { call<Op>(api, static_cast<const T*>(nullptr), 5, out.get()); });
  CHECK(contains(null_input, name + ": input pointer is null but n = 5"));
  const std::string negative = argument_error_of([&] { call<Op>(api, d.data(), -2, out.get()); });
  CHECK(contains(negative, name + ": n = -2 is negative"));
  const std::string null_output = argument_error_of([&] { call<Op>(api, d.data(), 4, static_cast<Out*>(nullptr)); });
  CHECK(contains(null_output, name + ": output pointer is null"));
  const auto* misaligned = reinterpret_cast<const T*>(reinterpret_cast<const char*>(d.data()) + 1);
  CHECK(contains(argument_error_of([&] { call<Op>(api, misaligned, 2, out.get()); }), "input pointer is not aligned"));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(bits_of(out.read()) == poison);

  call<Op>(api, static_cast<const T*>(nullptr), 0, out.get());
  TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(api.stream));
  const dataset<T> empty(0, next_seed());
  check_result<Op>(empty, host_truth<Op>(empty), out.read());  // the identity
}

struct stream_guard {
  cudaStream_t stream = nullptr;
  stream_guard() { TALLY_TEST_CHECK_CUDA(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking)); }
  ~stream_guard() { cudaStreamDestroy(stream); }
};

}  // namespace

TEST_CASE("tally.hpp: every function, one-off and through one reused device_reducer, matches the host and CUB") {
  const stream_guard s;
  device_reducer r;  // one object for every size, type and operation below
  int device = 0;
  TALLY_TEST_CHECK_CUDA(cudaGetDevice(&device));
  CHECK(r.device() == device);
  CHECK(r.workspace_bytes() > 0);
  const one_off once{s.stream};
  const through_reducer reused{r, s.stream};

  for (const index_t n : sizes()) {
    for_each_type(all_types{}, [&](auto t) {
      using T = typename decltype(t)::type;
      const dataset<T> d(n, next_seed());
      for_each_type(ops_on<T>{}, [&](auto o) {
        using Op = typename decltype(o)::type;
        INFO(std::string(Op::name) << " on " << type_name<T>() << ", n = " << n << ", seed = " << d.seed());
        const auto truth = host_truth<Op>(d);
        {
          INFO("tally::" << std::string(Op::name));
          check_result<Op>(d, truth, run<Op>(once, d));
        }
        {
          INFO("tally::device_reducer::" << std::string(Op::name));
          check_result<Op>(d, truth, run<Op>(reused, d));
        }
      });
      CHECK(d.changed() == 0);
    });
  }
}

TEST_CASE("tally.hpp: device_reducer calls allocate nothing, so they capture into a CUDA graph") {
  const stream_guard s;
  device_reducer r;
  const index_t n = (index_t{1} << 20) + 7;
  const dataset<float> f(n, next_seed());
  const dataset<__half> h(n, next_seed());
  const dataset<std::int64_t> i(n, next_seed());
  device_buffer<float> f_sum(1), h_max(1);
  device_buffer<arg<std::int64_t>> i_min(1);

  // Global capture mode: any cudaMalloc during capture fails, and the call would throw.
  const captured_graph graph(s.stream, [&] {
    r.sum(f.data(), n, f_sum.get(), s.stream);
    r.max(h.data(), n, h_max.get(), s.stream);
    r.arg_min(i.data(), n, i_min.get(), s.stream);
  });
  // Deterministic: the graph's results are bit-identical to direct one-off calls.
  graph.run(
      2,
      [&] {
        const one_off once{s.stream};
        CHECK(bits_of(f_sum.read()) == bits_of(run<op::sum>(once, f)));
        CHECK(bits_of(h_max.read()) == bits_of(run<op::max>(once, h)));
        CHECK(bits_of(i_min.read()) == bits_of(run<op::arg_min>(once, i)));
      },
      f_sum, h_max, i_min);
}

TEST_CASE("tally.hpp: bad arguments throw tally::error naming them; nothing is queued, the output is untouched") {
  device_reducer r;
  const one_off once;
  const through_reducer reused{r};
  for_each_type(all_types{}, [&](auto t) {
    using T = typename decltype(t)::type;
    for_each_type(ops_on<T>{}, [&](auto o) {
      using Op = typename decltype(o)::type;
      check_arguments<Op, T>(once);
      check_arguments<Op, T>(reused);
    });
  });
}

TEST_CASE("tally.hpp: a moved-from device_reducer throws; the one moved to works") {
  device_reducer a;
  const int device = a.device();
  device_reducer b(std::move(a));
  CHECK(a.device() == -1);
  CHECK(a.workspace_bytes() == 0);
  CHECK(b.device() == device);

  const dataset<double> d(1000, next_seed());
  device_buffer<double> out(1);
  const std::string moved = argument_error_of([&] { a.sum(d.data(), d.size(), out.get()); });
  CHECK(contains(moved, "tally::device_reducer::sum: this device_reducer has been moved from"));
  check_result<op::sum>(d, host_truth<op::sum>(d), run<op::sum>(through_reducer{b}, d));
}

TEST_CASE("tally.hpp: a device_reducer used while another device is current throws") {
  int devices = 0;
  TALLY_TEST_CHECK_CUDA(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    MESSAGE("one device: nothing to switch to");
    return;
  }
  TALLY_TEST_CHECK_CUDA(cudaSetDevice(0));
  device_reducer r;
  const dataset<float> d(1000, next_seed());
  device_buffer<float> out(1);
  TALLY_TEST_CHECK_CUDA(cudaSetDevice(1));
  const std::string wrong = argument_error_of([&] { r.sum(d.data(), d.size(), out.get()); });
  TALLY_TEST_CHECK_CUDA(cudaSetDevice(0));
  CHECK(contains(wrong, "tally::device_reducer::sum: the current device is 1 but this device_reducer was made on device 0"));
}
