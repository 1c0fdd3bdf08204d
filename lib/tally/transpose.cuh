// Out-of-place transpose of a row-major matrix, composed from a transpose_policy.
//
//   tally::transpose(d_in, d_out, rows, cols, stream);                              // default policy
//   tally::transpose<tally::transpose_policies::padded_32>(d_in, d_out, rows, cols, stream);
//
// in holds rows x cols elements, row-major; out receives cols x rows, row-major: out[j * rows + i]
// = in[i * cols + j]. Element types of 2, 4 or 8 bytes (the bits are copied, never converted).
// Asynchronous, allocation-free (capturable in a CUDA graph) and one kernel launch (one per
// 2^31 - 1 tiles). Every argument is checked before anything is queued; a bad one throws
// tally::error and out is not written: negative dimensions, rows x cols beyond the address space, a null or misaligned pointer when
// rows x cols > 0, and in == out or overlapping buffers (the transpose is out of place only).
// rows == 0 or cols == 0 is a no-op.
#pragma once
#include <cstdint>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <tally/detail/device_cache.hpp>
#include <tally/detail/launch.cuh>
#include <tally/detail/transpose_kernel.cuh>
#include <tally/error.hpp>
#include <tally/transpose_policy.cuh>

namespace tally {

// How a transpose of rows x cols elements is launched.
struct transpose_plan {
  index_t rows = 0, cols = 0;
  index_t tile_rows = 0, tile_cols = 0;  // tiles down and across the input
  index_t tiles = 0;
  index_t launches = 0;     // one block a tile; a launch holds up to max_transpose_blocks of them
  bool vectorized = false;  // the policy's vectors fit: both dimensions and both pointers allow them
};

inline constexpr index_t max_transpose_blocks = 2147483647;  // gridDim.x limit

// Pure host function: the plan for a rows x cols input at address `in` into `out` (addresses
// only decide whether vector accesses are aligned).
template <class P, class T>
constexpr transpose_plan plan_transpose(index_t rows, index_t cols, std::uintptr_t in, std::uintptr_t out) {
  constexpr int v = P::template vector_elems<T>;
  constexpr std::uintptr_t vector_bytes = v * sizeof(T);
  transpose_plan p;
  p.rows = rows;
  p.cols = cols;
  p.tile_rows = rows / P::tile + (rows % P::tile != 0);
  p.tile_cols = cols / P::tile + (cols % P::tile != 0);
  p.tiles = p.tile_rows * p.tile_cols;
  p.launches = p.tiles / max_transpose_blocks + (p.tiles % max_transpose_blocks != 0);
  p.vectorized = v > 1 && rows % v == 0 && cols % v == 0 && in % vector_bytes == 0 && out % vector_bytes == 0;
  return p;
}

namespace detail {

// Argument checks; no CUDA call, so they run anywhere.
template <class T>
void validate_transpose(const T* in, const T* out, index_t rows, index_t cols, const char* where) {
  const std::string w(where);
  const auto dims = [&] { return "rows = " + std::to_string(rows) + ", cols = " + std::to_string(cols); };
  if (rows < 0 || cols < 0) throw error(w + ": " + dims() + ": a dimension is negative");
  if (rows == 0 || cols == 0) return;  // nothing to read or write
  constexpr index_t max_elements = static_cast<index_t>(PTRDIFF_MAX / sizeof(T));
  if (rows > max_elements / cols) throw error(w + ": " + dims() + ": rows x cols elements exceed the address space");
  if (in == nullptr) throw error(w + ": input pointer is null but " + dims());
  if (out == nullptr) throw error(w + ": output pointer is null but " + dims());
  const auto a = reinterpret_cast<std::uintptr_t>(in), b = reinterpret_cast<std::uintptr_t>(out);
  if (a % alignof(T) != 0)
    throw error(w + ": input pointer is not aligned to its element type (" + std::to_string(alignof(T)) + " bytes)");
  if (b % alignof(T) != 0)
    throw error(w + ": output pointer is not aligned to its element type (" + std::to_string(alignof(T)) + " bytes)");
  if (a == b) throw error(w + ": input and output are the same buffer: in-place transpose is not supported");
  const auto bytes = static_cast<std::uintptr_t>(rows * cols) * sizeof(T);
  if (a < b + bytes && b < a + bytes)
    throw error(w + ": input and output overlap: the transpose is out of place and needs separate buffers");
}

template <class P, class T, int V>
void launch_transpose(const transpose_plan& p, const T* in, T* out, cudaStream_t stream) {
  constexpr const char* where = "tally::transpose";
  const bool programmatic =
      P::launch::programmatic && compute_capability_major(current_device(where), where) >= 9;
  for (index_t first = 0; first < p.tiles; first += max_transpose_blocks) {
    const index_t blocks = p.tiles - first < max_transpose_blocks ? p.tiles - first : max_transpose_blocks;
    queue_kernel(&transpose_kernel<P, T, V>, blocks, P::threads, P::template dynamic_smem_bytes<T>, stream, programmatic,
                 where, in, out, p.rows, p.cols, p.tile_rows, p.tile_cols, first);
  }
}

}  // namespace detail

// P = void picks default_transpose_policy<T>.
template <class P = void, class T>
void transpose(const T* in, T* out, index_t rows, index_t cols, cudaStream_t stream = 0) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8,
                "tally::transpose: element types of 2, 4 or 8 bytes are supported");
  static_assert(std::is_trivially_copyable_v<T>, "tally::transpose: the element type must be trivially copyable");
  using policy = std::conditional_t<std::is_void_v<P>, default_transpose_policy<T>, P>;
  detail::validate_transpose(in, out, rows, cols, "tally::transpose");
  const transpose_plan p = plan_transpose<policy, T>(rows, cols, reinterpret_cast<std::uintptr_t>(in),
                                                     reinterpret_cast<std::uintptr_t>(out));
  if (p.tiles == 0) return;
  constexpr int v = policy::template vector_elems<T>;
  if constexpr (v > 1) {
    if (p.vectorized) {
      detail::launch_transpose<policy, T, v>(p, in, out, stream);
      return;
    }
  }
  detail::launch_transpose<policy, T, 1>(p, in, out, stream);
}

}  // namespace tally
