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

// The workspace behind a device_reducer: allocated once, sized for every reduction of tally.hpp.
struct device_reducer_impl {
  device_workspace workspace;
  std::size_t bytes = 0;
  explicit device_reducer_impl(const char* where) : workspace(where) {}
};

// Bytes of workspace that the largest default-policy reduction of element type T needs, at any n,
// on the current device. Defined in default_reductions.cuh and explicitly instantiated in the
// source file of T, so that this plain C++ declaration is all device_reducer.cpp sees.
template <class T>
std::size_t workspace_bound();

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
