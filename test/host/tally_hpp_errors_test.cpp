// <tally/tally.hpp> from plain C++ (g++, no nvcc): every function (reductions, row reductions,
// matvec, transposes, sorts, merges, segmented reductions, csr_matvec) checks its arguments before
// any CUDA call. On a machine without a GPU a CUDA call would fail with a CUDA error code, so getting
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

// The same for a row function: negative M, ld < N, a null matrix, a null output, a misaligned
// matrix; the output keeps its bytes.
template <class T, class Out, class Call>
void check_rows_rejects_bad_arguments(const std::string& name, Call call) {
  INFO(name);
  alignas(16) T a[8] = {};
  Out out[2];
  std::memset(static_cast<void*>(out), 0x5A, sizeof out);
  unsigned char before[sizeof out];
  std::memcpy(before, out, sizeof out);
  CHECK(contains(argument_error_of([&] { call(a, -1, 2, 2, out); }), name + ": M = -1 is negative"));
  CHECK(contains(argument_error_of([&] { call(a, 2, 3, 2, out); }), name + ": ld = 2 is smaller than N = 3"));
  CHECK(contains(argument_error_of([&] { call(static_cast<const T*>(nullptr), 2, 2, 2, out); }),
                 name + ": matrix pointer is null"));
  CHECK(contains(argument_error_of([&] { call(a, 2, 2, 2, static_cast<Out*>(nullptr)); }), name + ": output pointer is null"));
  const auto* misaligned = reinterpret_cast<const T*>(reinterpret_cast<const char*>(a) + 1);
  CHECK(contains(argument_error_of([&] { call(misaligned, 2, 2, 2, out); }), name + ": matrix pointer is not aligned"));
  CHECK(std::memcmp(before, out, sizeof out) == 0);
}

// Every row operation and matvec tally.hpp offers on T, through Api.
template <class T, class Api>
void check_every_row_operation(const Api& api, const char* type) {
  INFO("element type " << type);
  using V = std::conditional_t<is_16bit_float<T>, float, T>;
  const std::string p = api.prefix;
  check_rows_rejects_bad_arguments<T, V>(p + "row_sum", [&](auto... a) { api.row_sum(a...); });
  check_rows_rejects_bad_arguments<T, V>(p + "row_min", [&](auto... a) { api.row_min(a...); });
  check_rows_rejects_bad_arguments<T, V>(p + "row_max", [&](auto... a) { api.row_max(a...); });
  if constexpr (!is_16bit_float<T>) {
    check_rows_rejects_bad_arguments<T, tally::arg<T>>(p + "row_arg_min", [&](auto... a) { api.row_arg_min(a...); });
    check_rows_rejects_bad_arguments<T, tally::arg<T>>(p + "row_arg_max", [&](auto... a) { api.row_arg_max(a...); });
  }
  if constexpr (std::is_floating_point_v<T> || is_16bit_float<T>) {
    alignas(16) T a[8] = {};
    V y[2] = {};
    CHECK(contains(argument_error_of([&] { api.matvec(a, 2, 2, 2, static_cast<const T*>(nullptr), y); }),
                   p + "matvec: vector x pointer is null but N = 2"));
    CHECK(contains(argument_error_of([&] { api.matvec(a, 2, 3, 2, a, y); }), p + "matvec: ld = 2 is smaller than N = 3"));
  }
}

template <class Api>
void check_every_type(const Api& api) {
  check_every_row_operation<std::int32_t>(api, "int32");
  check_every_row_operation<std::int64_t>(api, "int64");
  check_every_row_operation<float>(api, "float");
  check_every_row_operation<double>(api, "double");
  check_every_row_operation<__half>(api, "__half");
  check_every_row_operation<__nv_bfloat16>(api, "__nv_bfloat16");
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
  template <class... A> void row_sum(A... a) const { tally::row_sum(a...); }
  template <class... A> void row_min(A... a) const { tally::row_min(a...); }
  template <class... A> void row_max(A... a) const { tally::row_max(a...); }
  template <class... A> void row_arg_min(A... a) const { tally::row_arg_min(a...); }
  template <class... A> void row_arg_max(A... a) const { tally::row_arg_max(a...); }
  template <class... A> void matvec(A... a) const { tally::matvec(a...); }
  template <class... A> void segment_sum(A... a) const { tally::segment_sum(a...); }
  template <class... A> void segment_min(A... a) const { tally::segment_min(a...); }
  template <class... A> void segment_max(A... a) const { tally::segment_max(a...); }
  template <class... A> void segment_arg_min(A... a) const { tally::segment_arg_min(a...); }
  template <class... A> void segment_arg_max(A... a) const { tally::segment_arg_max(a...); }
  template <class... A> void csr_matvec(A... a) const { tally::csr_matvec(a...); }
};

struct reducer_members {
  static constexpr const char* prefix = "tally::device_reducer::";
  tally::device_reducer& r;
  template <class... A> void sum(A... a) const { r.sum(a...); }
  template <class... A> void min(A... a) const { r.min(a...); }
  template <class... A> void max(A... a) const { r.max(a...); }
  template <class... A> void arg_min(A... a) const { r.arg_min(a...); }
  template <class... A> void arg_max(A... a) const { r.arg_max(a...); }
  template <class... A> void row_sum(A... a) const { r.row_sum(a...); }
  template <class... A> void row_min(A... a) const { r.row_min(a...); }
  template <class... A> void row_max(A... a) const { r.row_max(a...); }
  template <class... A> void row_arg_min(A... a) const { r.row_arg_min(a...); }
  template <class... A> void row_arg_max(A... a) const { r.row_arg_max(a...); }
  template <class... A> void matvec(A... a) const { r.matvec(a...); }
  template <class... A> void segment_sum(A... a) const { r.segment_sum(a...); }
  template <class... A> void segment_min(A... a) const { r.segment_min(a...); }
  template <class... A> void segment_max(A... a) const { r.segment_max(a...); }
  template <class... A> void segment_arg_min(A... a) const { r.segment_arg_min(a...); }
  template <class... A> void segment_arg_max(A... a) const { r.segment_arg_max(a...); }
  template <class... A> void csr_matvec(A... a) const { r.csr_matvec(a...); }
};

// The segmented reductions and csr_matvec through Api (defined below).
template <class Api>
void check_every_segment(const Api& api);
template <class Api>
void check_every_csr_matvec(const Api& api);

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
  check_every_segment(reducer_members{r});
  check_every_csr_matvec(reducer_members{r});
  tally::device_reducer moved_to(std::move(r));
  float out = 1.0f;
  CHECK(contains(argument_error_of([&] { r.sum(static_cast<const float*>(nullptr), 0, &out); }),
                 "tally::device_reducer::sum: this device_reducer has been moved from"));
  const auto* no_float = static_cast<const float*>(nullptr);
  const auto* no_offsets = static_cast<const std::int64_t*>(nullptr);
  CHECK(contains(argument_error_of([&] { r.segment_sum(no_float, no_offsets, 0, &out); }),
                 "tally::device_reducer::segment_sum: this device_reducer has been moved from"));
  CHECK(contains(argument_error_of([&] { r.segment_arg_max(no_float, 0, no_offsets, 0, static_cast<tally::arg<float>*>(nullptr)); }),
                 "tally::device_reducer::segment_arg_max: this device_reducer has been moved from"));
  CHECK(contains(argument_error_of([&] {
                   r.csr_matvec(no_float, static_cast<const std::int32_t*>(nullptr), no_offsets, 0, no_float, &out);
                 }),
                 "tally::device_reducer::csr_matvec: this device_reducer has been moved from"));
  CHECK(out == 1.0f);
}

TEST_CASE("tally.hpp: transposes reject bad arguments before any CUDA call") {
  alignas(16) float a[8] = {}, b[8] = {};
  CHECK(contains(argument_error_of([&] { tally::transpose(a, b, -1, 2); }), "tally::transpose: rows = -1, cols = 2: a dimension is negative"));
  CHECK(contains(argument_error_of([&] { tally::transpose(static_cast<const float*>(nullptr), b, 2, 2); }),
                 "tally::transpose: input pointer is null"));
  CHECK(contains(argument_error_of([&] { tally::transpose(a, a, 2, 2); }), "in-place transpose is not supported"));
  CHECK(contains(argument_error_of([&] { tally::transpose(a, a + 2, 2, 2); }), "input and output overlap"));
  const auto* misaligned = reinterpret_cast<const double*>(reinterpret_cast<const char*>(a) + 4);
  double d[4] = {};
  CHECK(contains(argument_error_of([&] { tally::transpose(misaligned, d, 1, 1); }), "input pointer is not aligned to its element type (8 bytes)"));
  const auto* h = reinterpret_cast<const __half*>(a);
  CHECK(argument_error_of([&] { tally::transpose(h, reinterpret_cast<__half*>(b), 0, 5); }) == "");  // nothing to do
  CHECK(b[0] == 0.0f);
}

namespace {

// A 4- or 8-byte value type of the user's: any such trivially copyable type goes through
// tally.hpp's sort_by_key template, as the word of its size.
struct two_floats {
  float x, y;
};
static_assert(sizeof(two_floats) == 8 && alignof(two_floats) == 4, "a value type aligned to less than its size");

// sort and sort_by_key on key type K (values: std::uint32_t, std::uint64_t and types of those
// sizes through the template): negative n, null pointers with n > 0, overlapping outputs and
// misaligned pointers throw naming the function and the problem before any CUDA call; the outputs
// keep their bytes; n == 0 is no error, null pointers and all (and makes no CUDA call either).
template <class K>
void check_sort_rejects_bad_arguments(const char* type) {
  INFO("key type " << type);
  alignas(16) K keys[8] = {}, out[8];
  alignas(16) std::uint32_t v32[8] = {}, v32_out[8];
  alignas(16) std::uint64_t v64[8] = {}, v64_out[8];
  alignas(16) std::int32_t i32[8] = {};
  alignas(16) two_floats pairs[8] = {}, pairs_out[8];
  std::memset(out, 0x5A, sizeof out);
  std::memset(v64_out, 0x5A, sizeof v64_out);
  unsigned char out_before[sizeof out], v64_before[sizeof v64_out];
  std::memcpy(out_before, out, sizeof out);
  std::memcpy(v64_before, v64_out, sizeof v64_out);
  const K* no_keys = nullptr;

  const std::string s = "tally::sort: ";
  CHECK(contains(argument_error_of([&] { tally::sort(keys, out, -1); }), s + "n = -1 is negative"));
  CHECK(contains(argument_error_of([&] { tally::sort(no_keys, out, 5); }), s + "keys pointer is null but n = 5"));
  CHECK(contains(argument_error_of([&] { tally::sort(keys, static_cast<K*>(nullptr), 5); }),
                 s + "keys output pointer is null but n = 5"));
  CHECK(contains(argument_error_of([&] { tally::sort(keys, keys, 4); }), s + "the keys output overlaps the keys"));
  CHECK(contains(argument_error_of([&] { tally::sort(keys, keys + 3, 4); }), s + "the keys output overlaps the keys"));
  const auto* odd_keys = reinterpret_cast<const K*>(reinterpret_cast<const char*>(keys) + 1);
  CHECK(contains(argument_error_of([&] { tally::sort(odd_keys, out, 2); }),
                 s + "keys pointer is not aligned to its type (" + std::to_string(sizeof(K)) + " bytes)"));
  auto* odd_out = reinterpret_cast<K*>(reinterpret_cast<char*>(out) + 2);
  CHECK(contains(argument_error_of([&] { tally::sort(keys, odd_out, 2); }), s + "keys output pointer is not aligned"));
  CHECK(argument_error_of([&] { tally::sort(no_keys, static_cast<K*>(nullptr), 0); }) == "");  // nothing to do

  const std::string p = "tally::sort_by_key: ";
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v32, out, v32_out, -2); }), p + "n = -2 is negative"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(no_keys, v64, out, v64_out, 3); }),
                 p + "keys pointer is null but n = 3"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, static_cast<const std::uint32_t*>(nullptr), out, v32_out, 3); }),
                 p + "values pointer is null but n = 3"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v64, out, static_cast<std::uint64_t*>(nullptr), 3); }),
                 p + "values output pointer is null but n = 3"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v32, static_cast<K*>(nullptr), v32_out, 3); }),
                 p + "keys output pointer is null but n = 3"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v64, keys, v64_out, 4); }),
                 p + "the keys output overlaps the keys"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v64, out, v64, 4); }),
                 p + "the values output overlaps an input"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v32, out, reinterpret_cast<std::uint32_t*>(keys), 4); }),
                 p + "the values output overlaps an input"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, reinterpret_cast<const std::uint32_t*>(out), out, v32_out, 4); }),
                 p + "the keys output overlaps the values"));
  // Both outputs in one buffer of their own: the values' 32 bytes start 8 into the keys' and end
  // inside it (past `out` they could reach another array on the stack: an input, another error).
  alignas(16) unsigned char outputs[64];
  CHECK(contains(argument_error_of([&] {
                   tally::sort_by_key(keys, v64, reinterpret_cast<K*>(outputs), reinterpret_cast<std::uint64_t*>(outputs + 8), 4);
                 }),
                 p + "the keys output and the values output overlap"));
  // Through the template: any trivially copyable 4- or 8-byte value, checked as the library's word.
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, i32, out, i32, 4); }), p + "the values output overlaps an input"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, static_cast<const two_floats*>(nullptr), out, pairs_out, 4); }),
                 p + "values pointer is null but n = 4"));
  // A value type aligned to less than its size (4 of 8 bytes): the pointer must still be aligned to
  // the 8-byte word the library moves.
  const auto* word_misaligned = reinterpret_cast<const two_floats*>(reinterpret_cast<const char*>(pairs) + 4);
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, word_misaligned, out, pairs_out, 2); }),
                 p + "values pointer is not aligned to 8 bytes"));
  const auto* odd_v64 = reinterpret_cast<const std::uint64_t*>(reinterpret_cast<const char*>(v64) + 4);
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, odd_v64, out, v64_out, 2); }),
                 p + "values pointer is not aligned to 8 bytes"));
  auto* odd_v32_out = reinterpret_cast<std::uint32_t*>(reinterpret_cast<char*>(v32_out) + 2);
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(keys, v32, out, odd_v32_out, 2); }),
                 p + "values output pointer is not aligned to 4 bytes"));
  CHECK(contains(argument_error_of([&] { tally::sort_by_key(odd_keys, v32, out, v32_out, 2); }), p + "keys pointer is not aligned"));
  CHECK(argument_error_of([&] {
          tally::sort_by_key(no_keys, static_cast<const std::uint64_t*>(nullptr), static_cast<K*>(nullptr),
                             static_cast<std::uint64_t*>(nullptr), 0);
        }) == "");
  CHECK(argument_error_of([&] {
          tally::sort_by_key(no_keys, static_cast<const float*>(nullptr), static_cast<K*>(nullptr), static_cast<float*>(nullptr), 0);
        }) == "");
  CHECK(std::memcmp(out_before, out, sizeof out) == 0);
  CHECK(std::memcmp(v64_before, v64_out, sizeof v64_out) == 0);
}

// merge on key type K with Offset offsets: negative n or num_lists, keys but no lists, null
// pointers, an output overlapping the keys, misaligned pointers; n == 0 is no error.
template <class K, class Offset>
void check_merge_rejects_bad_arguments(const char* type) {
  INFO("key type " << type << ", offsets of " << sizeof(Offset) << " bytes");
  alignas(16) K keys[8] = {}, out[8];
  alignas(16) Offset offsets[4] = {0, 2, 4, 8};
  std::memset(out, 0x5A, sizeof out);
  unsigned char before[sizeof out];
  std::memcpy(before, out, sizeof out);
  const K* no_keys = nullptr;
  const Offset* no_offsets = nullptr;
  const std::string m = "tally::merge: ";
  CHECK(contains(argument_error_of([&] { tally::merge(keys, offsets, 3, -1, out); }), m + "n = -1 is negative"));
  CHECK(contains(argument_error_of([&] { tally::merge(keys, offsets, -3, 8, out); }), m + "num_lists = -3 is negative"));
  CHECK(contains(argument_error_of([&] { tally::merge(keys, offsets, 0, 8, out); }), m + "n = 8 keys but no lists (num_lists = 0)"));
  CHECK(contains(argument_error_of([&] { tally::merge(keys, no_offsets, 3, 8, out); }), m + "offsets pointer is null"));
  CHECK(contains(argument_error_of([&] { tally::merge(no_keys, offsets, 3, 8, out); }), m + "keys pointer is null but n = 8"));
  CHECK(contains(argument_error_of([&] { tally::merge(keys, offsets, 3, 8, static_cast<K*>(nullptr)); }),
                 m + "output pointer is null but n = 8"));
  CHECK(contains(argument_error_of([&] { tally::merge(keys, offsets, 3, 8, keys); }), m + "the output overlaps the keys"));
  CHECK(contains(argument_error_of([&] { tally::merge(keys + 4, offsets, 1, 4, keys + 1); }), m + "the output overlaps the keys"));
  const auto* odd_offsets = reinterpret_cast<const Offset*>(reinterpret_cast<const char*>(offsets) + 2);
  CHECK(contains(argument_error_of([&] { tally::merge(keys, odd_offsets, 1, 2, out); }),
                 m + "offsets pointer is not aligned to its type (" + std::to_string(sizeof(Offset)) + " bytes)"));
  const auto* odd_keys = reinterpret_cast<const K*>(reinterpret_cast<const char*>(keys) + 1);
  CHECK(contains(argument_error_of([&] { tally::merge(odd_keys, offsets, 1, 2, out); }), m + "keys pointer is not aligned"));
  auto* odd_out = reinterpret_cast<K*>(reinterpret_cast<char*>(out) + 1);
  CHECK(contains(argument_error_of([&] { tally::merge(keys, offsets, 1, 2, odd_out); }), m + "output pointer is not aligned"));
  CHECK(argument_error_of([&] { tally::merge(no_keys, no_offsets, 0, 0, static_cast<K*>(nullptr)); }) == "");  // nothing to do
  CHECK(argument_error_of([&] { tally::merge(no_keys, offsets, 3, 0, static_cast<K*>(nullptr)); }) == "");    // empty lists
  CHECK(std::memcmp(before, out, sizeof out) == 0);
}

template <class K>
void check_sorts_and_merges(const char* type) {
  check_sort_rejects_bad_arguments<K>(type);
  check_merge_rejects_bad_arguments<K, std::int32_t>(type);
  check_merge_rejects_bad_arguments<K, std::int64_t>(type);
}

}  // namespace

TEST_CASE("tally.hpp: sorts and merges reject bad arguments before any CUDA call") {
  check_sorts_and_merges<std::int32_t>("int32");
  check_sorts_and_merges<std::int64_t>("int64");
  check_sorts_and_merges<std::uint32_t>("uint32");
  check_sorts_and_merges<std::uint64_t>("uint64");
  check_sorts_and_merges<float>("float");
  check_sorts_and_merges<double>("double");
}

namespace {

// A segmented reduction (Call: one of segment_sum ... segment_arg_max) on T with results Out and
// Offset offsets, unchecked (in, offsets, num_segments, out) and checked (in, n, offsets,
// num_segments, out): a negative num_segments or n, null pointers with segments to reduce and
// misaligned pointers throw naming the function and the problem before any CUDA call; the output
// keeps its bytes; num_segments == 0 is no error, null pointers and all (and makes no CUDA call).
template <class T, class Out, class Offset, class Call>
void check_segments_reject_bad_arguments(const std::string& name, Call call) {
  INFO(name << ", offsets of " << sizeof(Offset) << " bytes");
  alignas(16) T in[8] = {};
  alignas(16) Offset offsets[4] = {0, 2, 2, 8};
  alignas(16) Out out[3];
  std::memset(static_cast<void*>(out), 0x5A, sizeof out);
  unsigned char before[sizeof out];
  std::memcpy(before, out, sizeof out);
  const T* no_in = nullptr;
  const Offset* no_offsets = nullptr;
  Out* no_out = nullptr;
  const auto* odd_in = reinterpret_cast<const T*>(reinterpret_cast<const char*>(in) + 1);
  const auto* odd_offsets = reinterpret_cast<const Offset*>(reinterpret_cast<const char*>(offsets) + 2);
  auto* odd_out = reinterpret_cast<Out*>(reinterpret_cast<char*>(out) + 1);
  const std::string p = name + ": ";
  const std::string in_aligned = p + "input pointer is not aligned to its type (" + std::to_string(alignof(T)) + " bytes)";
  const std::string offsets_aligned =
      p + "offsets pointer is not aligned to its type (" + std::to_string(sizeof(Offset)) + " bytes)";

  // The unchecked form.
  CHECK(contains(argument_error_of([&] { call(in, offsets, -1, out); }), p + "num_segments = -1 is negative"));
  CHECK(contains(argument_error_of([&] { call(no_in, offsets, 3, out); }), p + "input pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { call(in, no_offsets, 3, out); }), p + "offsets pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { call(in, offsets, 3, no_out); }), p + "output pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { call(odd_in, offsets, 3, out); }), in_aligned));
  CHECK(contains(argument_error_of([&] { call(in, odd_offsets, 1, out); }), offsets_aligned));
  CHECK(contains(argument_error_of([&] { call(in, offsets, 3, odd_out); }), p + "output pointer is not aligned"));
  CHECK(argument_error_of([&] { call(no_in, no_offsets, 0, no_out); }) == "");  // nothing to do

  // The checked form: the same, and n.
  CHECK(contains(argument_error_of([&] { call(in, 8, offsets, -2, out); }), p + "num_segments = -2 is negative"));
  CHECK(contains(argument_error_of([&] { call(in, -1, offsets, 3, out); }), p + "n = -1 is negative"));
  CHECK(contains(argument_error_of([&] { call(no_in, 8, offsets, 3, out); }), p + "input pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { call(in, 8, no_offsets, 3, out); }), p + "offsets pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { call(in, 8, offsets, 3, no_out); }), p + "output pointer is null but num_segments = 3"));
  CHECK(contains(argument_error_of([&] { call(odd_in, 8, offsets, 3, out); }), in_aligned));
  CHECK(contains(argument_error_of([&] { call(in, 8, odd_offsets, 1, out); }), offsets_aligned));
  CHECK(contains(argument_error_of([&] { call(in, 8, offsets, 3, odd_out); }), p + "output pointer is not aligned"));
  CHECK(argument_error_of([&] { call(no_in, 0, no_offsets, 0, no_out); }) == "");
  CHECK(argument_error_of([&] { call(in, 8, no_offsets, 0, no_out); }) == "");
  CHECK(std::memcmp(before, out, sizeof out) == 0);
}

// Every segmented reduction on T with Offset offsets, through Api: the free functions or one
// device_reducer.
template <class T, class Offset, class Api>
void check_segments_on(const Api& api, const char* type) {
  INFO("element type " << type);
  using V = std::conditional_t<is_16bit_float<T>, float, T>;
  const std::string p = api.prefix;
  check_segments_reject_bad_arguments<T, V, Offset>(p + "segment_sum", [&](auto... a) { api.segment_sum(a...); });
  check_segments_reject_bad_arguments<T, V, Offset>(p + "segment_min", [&](auto... a) { api.segment_min(a...); });
  check_segments_reject_bad_arguments<T, V, Offset>(p + "segment_max", [&](auto... a) { api.segment_max(a...); });
  if constexpr (!is_16bit_float<T>) {
    check_segments_reject_bad_arguments<T, tally::arg<T>, Offset>(p + "segment_arg_min",
                                                                  [&](auto... a) { api.segment_arg_min(a...); });
    check_segments_reject_bad_arguments<T, tally::arg<T>, Offset>(p + "segment_arg_max",
                                                                  [&](auto... a) { api.segment_arg_max(a...); });
  }
}

// csr_matvec on T with Offset row offsets (32-bit columns) through Api: a negative row count, null
// pointers with rows, misaligned pointers; rows == 0 is no error.
template <class T, class Offset, class Api>
void check_csr_matvec_rejects_bad_arguments(const Api& api, const char* type) {
  INFO("element type " << type << ", row offsets of " << sizeof(Offset) << " bytes");
  alignas(16) T values[8] = {}, x[4] = {};
  alignas(16) std::int32_t cols[8] = {};
  alignas(16) Offset offsets[3] = {0, 3, 8};
  alignas(16) T y[2];
  std::memset(y, 0x5A, sizeof y);
  unsigned char before[sizeof y];
  std::memcpy(before, y, sizeof y);
  const T* no_t = nullptr;
  const std::string p = std::string(api.prefix) + "csr_matvec: ";
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, cols, offsets, -1, x, y); }), p + "num_segments = -1 is negative"));
  CHECK(contains(argument_error_of([&] { api.csr_matvec(no_t, cols, offsets, 2, x, y); }),
                 p + "input pointer is null but num_segments = 2"));
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, static_cast<const std::int32_t*>(nullptr), offsets, 2, x, y); }),
                 p + "column index pointer is null but num_segments = 2"));
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, cols, static_cast<const Offset*>(nullptr), 2, x, y); }),
                 p + "offsets pointer is null but num_segments = 2"));
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, cols, offsets, 2, no_t, y); }),
                 p + "vector x pointer is null but num_segments = 2"));
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, cols, offsets, 2, x, static_cast<T*>(nullptr)); }),
                 p + "output pointer is null but num_segments = 2"));
  const auto* odd_cols = reinterpret_cast<const std::int32_t*>(reinterpret_cast<const char*>(cols) + 2);
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, odd_cols, offsets, 2, x, y); }),
                 p + "column index pointer is not aligned to its type (4 bytes)"));
  const auto* odd_x = reinterpret_cast<const T*>(reinterpret_cast<const char*>(x) + 2);
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, cols, offsets, 2, odd_x, y); }), p + "vector x pointer is not aligned"));
  const auto* odd_values = reinterpret_cast<const T*>(reinterpret_cast<const char*>(values) + 1);
  CHECK(contains(argument_error_of([&] { api.csr_matvec(odd_values, cols, offsets, 2, x, y); }), p + "input pointer is not aligned"));
  const auto* odd_offsets = reinterpret_cast<const Offset*>(reinterpret_cast<const char*>(offsets) + 2);
  CHECK(contains(argument_error_of([&] { api.csr_matvec(values, cols, odd_offsets, 2, x, y); }), p + "offsets pointer is not aligned"));
  CHECK(argument_error_of([&] {
          api.csr_matvec(no_t, static_cast<const std::int32_t*>(nullptr), static_cast<const Offset*>(nullptr), 0, no_t,
                            static_cast<T*>(nullptr));
        }) == "");  // nothing to do
  CHECK(std::memcmp(before, y, sizeof y) == 0);
}

template <class Api>
void check_every_segment(const Api& api) {
  check_segments_on<std::int32_t, std::int32_t>(api, "int32");
  check_segments_on<std::int32_t, std::int64_t>(api, "int32");
  check_segments_on<std::int64_t, std::int32_t>(api, "int64");
  check_segments_on<std::int64_t, std::int64_t>(api, "int64");
  check_segments_on<float, std::int32_t>(api, "float");
  check_segments_on<float, std::int64_t>(api, "float");
  check_segments_on<double, std::int32_t>(api, "double");
  check_segments_on<double, std::int64_t>(api, "double");
  check_segments_on<__half, std::int32_t>(api, "__half");
  check_segments_on<__half, std::int64_t>(api, "__half");
  check_segments_on<__nv_bfloat16, std::int32_t>(api, "__nv_bfloat16");
  check_segments_on<__nv_bfloat16, std::int64_t>(api, "__nv_bfloat16");
}

template <class Api>
void check_every_csr_matvec(const Api& api) {
  check_csr_matvec_rejects_bad_arguments<float, std::int32_t>(api, "float");
  check_csr_matvec_rejects_bad_arguments<float, std::int64_t>(api, "float");
  check_csr_matvec_rejects_bad_arguments<double, std::int32_t>(api, "double");
  check_csr_matvec_rejects_bad_arguments<double, std::int64_t>(api, "double");
}

}  // namespace

TEST_CASE("tally.hpp: segmented reductions, unchecked and checked, reject bad arguments before any CUDA call") {
  check_every_segment(free_functions{});
}

TEST_CASE("tally.hpp: csr_matvec rejects bad arguments before any CUDA call") {
  check_every_csr_matvec(free_functions{});
}

namespace {

// The makers of plans on T (segment_sum's; csr_matvec's where T is float or double) with Offset
// offsets: a negative count and null offsets with segments to plan.
template <class T, class Offset>
void check_plan_makers_reject_bad_arguments(const std::string& type) {
  INFO("element type " << type << ", offsets of " << sizeof(Offset) << " bytes");
  alignas(16) Offset offsets[3] = {0, 3, 8};
  const auto* none = static_cast<const Offset*>(nullptr);
  const std::string sum = "tally::plan_segment_sum<" + type + ">: ";
  CHECK(contains(argument_error_of([&] { (void)tally::plan_segment_sum<T>(offsets, -1); }), sum + "num_segments = -1 is negative"));
  CHECK(contains(argument_error_of([&] { (void)tally::plan_segment_sum<T>(none, 2); }),
                 sum + "offsets pointer is null but num_segments = 2"));
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    const std::string csr = "tally::plan_csr_matvec<" + type + ">: ";
    CHECK(contains(argument_error_of([&] { (void)tally::plan_csr_matvec<T>(offsets, -3); }), csr + "num_segments = -3 is negative"));
    const auto* odd = reinterpret_cast<const Offset*>(reinterpret_cast<const char*>(offsets) + 2);
    CHECK(contains(argument_error_of([&] { (void)tally::plan_csr_matvec<T>(odd, 2); }), csr + "offsets pointer is not aligned"));
  }
}

}  // namespace

TEST_CASE("tally.hpp: plans' makers and planned calls reject bad arguments and empty plans before any CUDA call") {
  check_plan_makers_reject_bad_arguments<std::int32_t, std::int32_t>("std::int32_t");
  check_plan_makers_reject_bad_arguments<std::int64_t, std::int64_t>("std::int64_t");
  check_plan_makers_reject_bad_arguments<float, std::int32_t>("float");
  check_plan_makers_reject_bad_arguments<double, std::int64_t>("double");
  check_plan_makers_reject_bad_arguments<__half, std::int32_t>("__half");
  check_plan_makers_reject_bad_arguments<__nv_bfloat16, std::int64_t>("__nv_bfloat16");

  const tally::offsets_plan empty;
  CHECK(empty.empty());
  CHECK(empty.num_segments() == 0);
  alignas(16) float in[4] = {}, out[2] = {1.0f, 2.0f};
  alignas(16) std::int32_t cols[4] = {};
  CHECK(contains(argument_error_of([&] { tally::segment_sum(in, empty, out); }),
                 "tally::segment_sum: the plan is empty (default-constructed or moved from)"));
  CHECK(contains(argument_error_of([&] { tally::csr_matvec(in, cols, empty, in, out); }),
                 "tally::csr_matvec: the plan is empty (default-constructed or moved from)"));
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == 2.0f);
}
