// Shared-memory layout policies: where a block's N partial states live, and how a logical slot i
// maps to a physical one.
//
//   static_array  `__shared__` array sized at compile time
//   dynamic       `extern __shared__`, its bytes passed at launch (dynamic_bytes)
//   padded        static array with one pad element after every 128 bytes, so that strided access
//                 patterns (interleaved_strided's 2*s*tid) spread over the 32 banks. Conflict-free
//                 for 4-byte states at any block size; for 8-byte states up to 256 threads and for
//                 16-byte states up to 64 (beyond, lanes still share banks at the largest strides;
//                 never more than unpadded). test/host's bank model checks these limits.
//
// acquire<T, N>() returns a view; view[i] is slot i. A kernel calls acquire once.
#pragma once
#include <cstddef>

#include "config.cuh"

namespace tally {
namespace detail {
// One `extern __shared__` symbol for every kernel that takes its shared memory at launch.
extern __shared__ __align__(16) unsigned char dynamic_smem[];
}  // namespace detail

namespace smem {

// A pointer to N slots with a slot -> element index mapping.
template <class T, class Map>
struct view {
  T* data;
  TALLY_DEVICE T& operator[](int i) const { return data[Map::index(i)]; }
};

struct contiguous_map {
  TALLY_HD static constexpr int index(int i) { return i; }
};

// Elements per 128-byte row (32 banks of 4 bytes); one pad element is inserted after each row.
// Types smaller than a bank keep 32 elements per row ("one pad word per 32 elements").
template <class T>
inline constexpr int padded_row = sizeof(T) >= 4 ? static_cast<int>(128 / sizeof(T)) : 32;

template <class T>
struct padded_map {
  TALLY_HD static constexpr int index(int i) { return i + i / padded_row<T>; }
};

struct static_array {
  static constexpr const char* name = "static_array";
  template <class T, int N> static constexpr std::size_t static_bytes = N * sizeof(T);
  template <class T, int N> static constexpr std::size_t dynamic_bytes = 0;
  template <class T, int N>
  TALLY_DEVICE static view<T, contiguous_map> acquire() {
    __shared__ __align__(16) unsigned char raw[static_bytes<T, N>];
    return {reinterpret_cast<T*>(raw)};
  }
};

struct dynamic {
  static constexpr const char* name = "dynamic";
  template <class T, int N> static constexpr std::size_t static_bytes = 0;
  template <class T, int N> static constexpr std::size_t dynamic_bytes = N * sizeof(T);
  template <class T, int N>
  TALLY_DEVICE static view<T, contiguous_map> acquire() {
    return {reinterpret_cast<T*>(detail::dynamic_smem)};
  }
};

struct padded {
  static constexpr const char* name = "padded";
  // Slots needed for N logical elements (the last row's pad is never addressed, but kept for
  // a uniform formula).
  template <class T, int N> static constexpr int slots = N + N / padded_row<T>;
  template <class T, int N> static constexpr std::size_t static_bytes = slots<T, N> * sizeof(T);
  template <class T, int N> static constexpr std::size_t dynamic_bytes = 0;
  template <class T, int N>
  TALLY_DEVICE static view<T, padded_map<T>> acquire() {
    __shared__ __align__(16) unsigned char raw[static_bytes<T, N>];
    return {reinterpret_cast<T*>(raw)};
  }
};

}  // namespace smem
}  // namespace tally
