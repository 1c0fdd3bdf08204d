// Pointer checks shared by the entry points that name each pointer in their errors (reduce_rows,
// matvec, reduce_segments, csr_matvec). Plain C++.
#pragma once
#include <cstdint>
#include <string>

#include <tally/error.hpp>

namespace tally::detail {

// Throws unless p is aligned to its type: "<where>: <what> pointer is not aligned to its type (N bytes)".
template <class U>
void check_aligned(const U* p, const char* what, const char* where) {
  if (reinterpret_cast<std::uintptr_t>(p) % alignof(U) != 0)
    throw error(std::string(where) + ": " + what + " pointer is not aligned to its type (" + std::to_string(alignof(U)) +
                " bytes)");
}

}  // namespace tally::detail
