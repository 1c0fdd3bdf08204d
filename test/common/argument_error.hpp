// Shared by host and GPU tests: the message of the tally::error a call throws for a bad argument.
#pragma once
#include <string>

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <tally/error.hpp>

namespace tally::test {

// The message of the tally::error that f throws ("" if it throws none); argument errors carry no
// CUDA error code.
template <class F>
std::string argument_error_of(F f) {
  try {
    f();
  } catch (const tally::error& e) {
    CHECK(e.code() == cudaSuccess);
    return e.what();
  }
  return "";
}

inline bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace tally::test
