// <tally/tally.hpp>: precompiled device-wide reductions for plain C++ programs.
//
// No CUDA syntax: g++ (or any C++11 compiler) includes this header and links libtally.a and the
// CUDA runtime (both come with the `tally::tally` CMake target). The reductions are the
// default-policy instantiations of the templates in <tally/reduce.cuh>; use those directly for
// other types, operators or policies.
//
//   #include <tally/tally.hpp>
//   tally::sum(d_in, n, d_out, stream);          // one-off: workspace from the stream-ordered pool
//
//   tally::device_reducer r;                     // allocates its workspace once, here
//   r.sum(d_a, n, d_sum, stream);                // later calls allocate nothing
//   r.arg_max(d_b, m, d_where, stream);
//
// Operations and element types
//   T = int32, int64, uint32, uint64, float, double:
//     sum     -> T        (accumulated in T, as cub::DeviceReduce::Sum does; integer sums wrap)
//     min, max -> T
//     arg_min, arg_max -> tally::arg<T> {value, index}: the lowest index among equal extremes
//   T = __half, __nv_bfloat16:
//     sum, min, max -> float (sums accumulate in float; min / max are exact)
//   For n == 0 the result is the identity: 0 for sum, the largest (min) or smallest (max) value of
//   the type (+-infinity for floating types), and index -1 for arg_min / arg_max.
//
// Every function
//   - takes device pointers: `in` holds n elements (it may be null when n == 0), `out` one result;
//   - is asynchronous: it queues its work on `stream` and returns; *out is valid once the stream
//     reaches that point (cudaStreamSynchronize, an event, or a later kernel on the same stream);
//   - is deterministic: the same device, n and input give a bit-identical result;
//   - never writes the input.
//
// Errors: one convention, exceptions. Every failure a call detects throws tally::error (<tally/error.hpp>, derived
// from std::runtime_error) whose what() names the function and the problem, for example
//   "tally::sum: input pointer is null but n = 10".
// error::code() is the CUDA error behind it (cudaErrorMemoryAllocation, ...), or cudaSuccess for a
// bad argument or a misused device_reducer. Bad arguments (negative n, a null input with n > 0, a
// null output, a pointer not aligned to its type) are checked before any CUDA call: nothing is
// queued and *out is untouched.
// A failure of the queued kernels themselves (e.g. an input pointer that is not device memory)
// surfaces as CUDA errors do, as the status of the next synchronising CUDA call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_runtime_api.h>

#include <tally/error.hpp>
#include <tally/types.hpp>

// Stamps the declarations of every operation on one element type, for the free functions and for
// device_reducer's members alike (both have the signature `void op(in, n, out, stream = 0)`).
#define TALLY_REDUCTION_(OP, T, OUT) void OP(const T* in, index_t n, OUT* out, cudaStream_t stream = 0);
#define TALLY_VALUE_REDUCTIONS_(T, OUT) \
  TALLY_REDUCTION_(sum, T, OUT)         \
  TALLY_REDUCTION_(min, T, OUT)         \
  TALLY_REDUCTION_(max, T, OUT)
#define TALLY_ALL_REDUCTIONS_(T)  \
  TALLY_VALUE_REDUCTIONS_(T, T)   \
  TALLY_REDUCTION_(arg_min, T, arg<T>) \
  TALLY_REDUCTION_(arg_max, T, arg<T>)
#define TALLY_EVERY_TYPE_                      \
  TALLY_ALL_REDUCTIONS_(std::int32_t)          \
  TALLY_ALL_REDUCTIONS_(std::int64_t)          \
  TALLY_ALL_REDUCTIONS_(std::uint32_t)         \
  TALLY_ALL_REDUCTIONS_(std::uint64_t)         \
  TALLY_ALL_REDUCTIONS_(float)                 \
  TALLY_ALL_REDUCTIONS_(double)                \
  TALLY_VALUE_REDUCTIONS_(__half, float)       \
  TALLY_VALUE_REDUCTIONS_(__nv_bfloat16, float)

namespace tally {

namespace detail {
struct device_reducer_impl;  // defined in the library (lib/src): the workspace and its device
}  // namespace detail

// One-off reductions: a call whose n needs more than one block takes its workspace (at most tens
// of KiB) from the device's stream-ordered memory pool, with cudaMallocAsync / cudaFreeAsync on
// `stream`. device_reducer below allocates nothing per call.
//
//   void sum    (const T* in, index_t n, T* out,      cudaStream_t stream = 0);
//   void min    (const T* in, index_t n, T* out,      cudaStream_t stream = 0);
//   void max    (const T* in, index_t n, T* out,      cudaStream_t stream = 0);
//   void arg_min(const T* in, index_t n, arg<T>* out, cudaStream_t stream = 0);
//   void arg_max(const T* in, index_t n, arg<T>* out, cudaStream_t stream = 0);
//   void sum / min / max(const __half* or const __nv_bfloat16* in, index_t n, float* out, cudaStream_t stream = 0);
TALLY_EVERY_TYPE_

// Reductions that never allocate: the object owns one device workspace, allocated in the
// constructor and sized for the largest workspace any operation above needs at any n, and every
// member call reuses it. The members have the signatures of the free functions.
//
// - Bound to a device: the one current when it was constructed. A call made while another device
//   is current throws tally::error (switch back with cudaSetDevice first).
// - One workspace, shared by every call: the calls must not overlap on the device. Calls on one
//   stream never do; calls that may (different streams with no event between them, or different
//   host threads) need one device_reducer each.
// - Graph capture: calls can be captured in a CUDA graph, since they allocate nothing (the
//   constructor also reads every per-device fact a call needs, so calls make no attribute query).
// - Movable, not copyable; a moved-from object throws tally::error when called.
class device_reducer {
 public:
  // Throws tally::error if no device is usable or the workspace cannot be allocated.
  device_reducer();
  ~device_reducer();
  device_reducer(device_reducer&& other) noexcept;
  device_reducer& operator=(device_reducer&& other) noexcept;
  device_reducer(const device_reducer&) = delete;
  device_reducer& operator=(const device_reducer&) = delete;

  // The device this object's workspace lives on (-1 once moved from).
  int device() const noexcept;
  // Bytes of device workspace it owns.
  std::size_t workspace_bytes() const noexcept;

  TALLY_EVERY_TYPE_

 private:
  std::unique_ptr<detail::device_reducer_impl> impl_;
};

}  // namespace tally

#undef TALLY_EVERY_TYPE_
#undef TALLY_ALL_REDUCTIONS_
#undef TALLY_VALUE_REDUCTIONS_
#undef TALLY_REDUCTION_
