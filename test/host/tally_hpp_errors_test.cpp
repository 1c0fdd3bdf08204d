// <tally/tally.hpp> from plain C++ (g++, no nvcc): every function checks its arguments before any
// CUDA call. On a machine without a GPU a CUDA call would fail with a CUDA error code, so getting
// the argument error (code cudaSuccess) there shows that the check came first; this runs, and
// must pass, everywhere, CI included. The pointers are host addresses: nothing may use them.
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <tally/tally.hpp>

#include "../common/argument_error.hpp"

using tally::test::argument_error_of;
using tally::test::contains;

namespace {

template <class T>
inline constexpr bool is_16bit_float = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;


// Negative n, a null input with n > 0, a null output and a misaligned input: each throws naming
// the function and the argument, and the output keeps its bytes.
template <class T, class Out, class Call>
void check_rejects_bad_arguments(const std::string& name, Call call) {
  INFO(name);
  alignas(16) T in[4] = {};
  Out out;
  std::memset(static_cast<void*>(&out), 0x5A, sizeof out);
  unsigned char before[sizeof(Out)];
  std::memcpy(before, &out, sizeof out);

  CHECK(contains(argument_error_of([&] { call(static_cast<const T*>(nullptr), 5, &out); }),
                 name + ": input pointer is null but n = 5"));
  CHECK(contains(argument_error_of([&] { call(in, -1, &out); }), name + ": n = -1 is negative"));
  CHECK(contains(argument_error_of([&] { call(in, 4, static_cast<Out*>(nullptr)); }),
                 name + ": output pointer is null"));
  const auto* misaligned = reinterpret_cast<const T*>(reinterpret_cast<const char*>(in) + 1);
  CHECK(contains(argument_error_of([&] { call(misaligned, 2, &out); }), name + ": input pointer is not aligned"));
  CHECK(std::memcmp(before, &out, sizeof out) == 0);
}

// Every operation tally.hpp offers on T, through Api: the free functions or one device_reducer.
template <class T, class Api>
void check_every_operation(const Api& api, const char* type) {
  INFO("element type " << type);
  using V = std::conditional_t<is_16bit_float<T>, float, T>;
  const std::string p = api.prefix;
  check_rejects_bad_arguments<T, V>(p + "sum", [&](auto... a) { api.sum(a...); });
  check_rejects_bad_arguments<T, V>(p + "min", [&](auto... a) { api.min(a...); });
  check_rejects_bad_arguments<T, V>(p + "max", [&](auto... a) { api.max(a...); });
  if constexpr (!is_16bit_float<T>) {
    check_rejects_bad_arguments<T, tally::arg<T>>(p + "arg_min", [&](auto... a) { api.arg_min(a...); });
    check_rejects_bad_arguments<T, tally::arg<T>>(p + "arg_max", [&](auto... a) { api.arg_max(a...); });
  }
}

template <class Api>
void check_every_type(const Api& api) {
  check_every_operation<std::int32_t>(api, "int32");
  check_every_operation<std::int64_t>(api, "int64");
  check_every_operation<std::uint32_t>(api, "uint32");
  check_every_operation<std::uint64_t>(api, "uint64");
  check_every_operation<float>(api, "float");
  check_every_operation<double>(api, "double");
  check_every_operation<__half>(api, "__half");
  check_every_operation<__nv_bfloat16>(api, "__nv_bfloat16");
}

struct free_functions {
  static constexpr const char* prefix = "tally::";
  template <class... A> void sum(A... a) const { tally::sum(a...); }
  template <class... A> void min(A... a) const { tally::min(a...); }
  template <class... A> void max(A... a) const { tally::max(a...); }
  template <class... A> void arg_min(A... a) const { tally::arg_min(a...); }
  template <class... A> void arg_max(A... a) const { tally::arg_max(a...); }
};

struct reducer_members {
  static constexpr const char* prefix = "tally::device_reducer::";
  tally::device_reducer& r;
  template <class... A> void sum(A... a) const { r.sum(a...); }
  template <class... A> void min(A... a) const { r.min(a...); }
  template <class... A> void max(A... a) const { r.max(a...); }
  template <class... A> void arg_min(A... a) const { r.arg_min(a...); }
  template <class... A> void arg_max(A... a) const { r.arg_max(a...); }
};

bool have_device() {
  int devices = 0;
  return cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
}

}  // namespace

TEST_CASE("tally.hpp: every free function rejects bad arguments before any CUDA call") {
  check_every_type(free_functions{});
}

TEST_CASE("tally.hpp: device_reducer reports a missing device with its CUDA error, or rejects bad arguments") {
  if (!have_device()) {
    // A CUDA call of the constructor fails (cudaGetDevice, the first, on the machines we know):
    // the error names the constructor and the call, and carries the CUDA code.
    try {
      tally::device_reducer r;
      FAIL("constructing a device_reducer without a device did not throw");
    } catch (const tally::error& e) {
      INFO(e.what());
      CHECK(e.code() != cudaSuccess);
      CHECK(std::string(e.what()).rfind("tally::device_reducer: ", 0) == 0);
      CHECK(contains(e.what(), " failed: "));
    }
    return;
  }
  tally::device_reducer r;
  check_every_type(reducer_members{r});
  tally::device_reducer moved_to(std::move(r));
  float out = 1.0f;
  CHECK(contains(argument_error_of([&] { r.sum(static_cast<const float*>(nullptr), 0, &out); }),
                 "tally::device_reducer::sum: this device_reducer has been moved from"));
  CHECK(out == 1.0f);
}
