// What device_reducer.cpp and the per-type source files share: the state behind a
// tally::device_reducer, the size of workspace each element type needs, and how errors name the
// public function. Plain C++.
#pragma once
#include <cstddef>
#include <string>

#include <cuda_runtime_api.h>

#include <tally/detail/workspace.hpp>
#include <tally/tally.hpp>

namespace tally::detail {

// The workspace behind a device_reducer: allocated once, sized for every call of tally.hpp.
struct device_reducer_impl {
  device_workspace workspace;
  std::size_t bytes = 0;
  explicit device_reducer_impl(const char* where) : workspace(where) {}

  // The workspace readied for a call that needs `need` (its tickets cleared where an earlier call
  // may have left partials). Never allocates: bytes bounds every call.
  void* prepare(workspace_need need, cudaStream_t stream) {
    if (need.total > bytes)
      throw error("a call needs " + std::to_string(need.total) + " bytes of workspace, more than the " +
                  std::to_string(bytes) + " this device_reducer sized for every call (a bug in tally: please report it)");
    return workspace.prepare(need, stream);
  }
};

// Throws unless the current device (reducer_device, read by the call) is the workspace's.
inline void check_same_device(const device_reducer_impl& self, int reducer_device) {
  if (reducer_device != self.workspace.device())
    throw error("the current device is " + std::to_string(reducer_device) + " but this device_reducer was made on device " +
                std::to_string(self.workspace.device()));
}

// Bytes of workspace that the largest default-policy reduction (rows_workspace_bound: row
// reduction; matvec_workspace_bound: matvec; segments_workspace_bound: segmented reduction;
// csr_workspace_bound: csr_matvec) of element type T needs, at any size, on the current device.
// Defined in default_reductions.cuh (default_rows.cuh, default_segments.cuh) and explicitly
// instantiated in the source file of T (matvec's in matvec.cu, csr_matvec's in csr_matvec.cu), so
// that these plain C++ declarations are all device_reducer.cpp sees.
template <class T>
std::size_t workspace_bound();
template <class T>
std::size_t rows_workspace_bound();
template <class T>
std::size_t matvec_workspace_bound();
template <class T>
std::size_t segments_workspace_bound();
template <class T>
std::size_t csr_workspace_bound();

// A list of types: element types, or the operators offered on one.
template <class... Ts>
struct type_list {};

// Runs f, prefixing the public function's name to any tally::error it throws: the templates name
// themselves ("tally::sum: tally::reduce: cudaMallocAsync failed: ...").
template <class F>
void naming(const char* where, F f) {
  try {
    f();
  } catch (const error& e) {
    throw error(std::string(where) + ": " + e.what(), e.code());
  }
}

}  // namespace tally::detail
