// The default-policy sorts and merges behind <tally/tally.hpp>, and the macros that stamp the
// public functions of one key type into its source file (sort_4byte.cu, sort_8byte.cu, merge.cu).
// Each public function checks its arguments (the template's checks, then alignment) and calls the
// one-off template with its default policy: libtally's bits are the template's.
#pragma once
#include <cstdint>
#include <string>

#include <tally/detail/pointer_checks.hpp>
#include <tally/merge.cuh>
#include <tally/sort.cuh>
#include <tally/tally.hpp>

namespace tally::detail {

// Values travel as words of their size (std::uint32_t, std::uint64_t); a value type of that size
// may be less aligned (a struct of two floats), so the pointer is checked against the word.
template <class Word>
void check_word_aligned(const Word* p, const char* what, const char* where) {
  if (reinterpret_cast<std::uintptr_t>(p) % sizeof(Word) != 0)
    throw error(std::string(where) + ": " + what + " pointer is not aligned to " + std::to_string(sizeof(Word)) +
                " bytes (values are moved as " + std::to_string(sizeof(Word)) + "-byte words)");
}

template <class K>
void sort_once(const K* keys, K* keys_out, index_t n, cudaStream_t stream) {
  constexpr const char* where = "tally::sort";
  using P = default_sort_policy<K>;
  sorter<K, void, P>::validate(keys, nullptr, keys_out, nullptr, n, where);
  if (n == 0) return;
  check_aligned(keys, "keys", where);
  check_aligned(static_cast<const K*>(keys_out), "keys output", where);
  tally::sort<P>(keys, keys_out, n, stream);
}

template <class K, class V>
void sort_by_key_once(const K* keys, const V* values, K* keys_out, V* values_out, index_t n, cudaStream_t stream) {
  constexpr const char* where = "tally::sort_by_key";
  using P = default_sort_policy<K, V>;
  sorter<K, V, P>::validate(keys, values, keys_out, values_out, n, where);
  if (n == 0) return;
  check_aligned(keys, "keys", where);
  check_aligned(static_cast<const K*>(keys_out), "keys output", where);
  check_word_aligned(values, "values", where);
  check_word_aligned(static_cast<const V*>(values_out), "values output", where);
  tally::sort_by_key<P>(keys, values, keys_out, values_out, n, stream);
}

template <class K, class Offset>
void merge_once(const K* keys, const Offset* offsets, index_t num_lists, index_t n, K* out, cudaStream_t stream) {
  constexpr const char* where = "tally::merge";
  using P = default_merge_policy;
  merger<K, P>::validate(keys, offsets, num_lists, n, out, where);
  if (num_lists > 0) check_aligned(offsets, "offsets", where);
  if (n == 0) return;
  check_aligned(keys, "keys", where);
  check_aligned(static_cast<const K*>(out), "output", where);
  tally::merge<P>(keys, offsets, num_lists, n, out, stream);
}

}  // namespace tally::detail

// sort and sort_by_key (4- and 8-byte values) on key type K. Used inside namespace tally.
#define TALLY_DEFINE_SORTS(K)                                                                                     \
  void sort(const K* keys, K* keys_out, index_t n, cudaStream_t stream) {                                        \
    detail::sort_once(keys, keys_out, n, stream);                                                                \
  }                                                                                                              \
  void sort_by_key(const K* keys, const std::uint32_t* values, K* keys_out, std::uint32_t* values_out, index_t n, \
                   cudaStream_t stream) {                                                                        \
    detail::sort_by_key_once(keys, values, keys_out, values_out, n, stream);                                     \
  }                                                                                                              \
  void sort_by_key(const K* keys, const std::uint64_t* values, K* keys_out, std::uint64_t* values_out, index_t n, \
                   cudaStream_t stream) {                                                                        \
    detail::sort_by_key_once(keys, values, keys_out, values_out, n, stream);                                     \
  }

// merge on key type K with 32- and 64-bit offsets. Used inside namespace tally.
#define TALLY_DEFINE_MERGES(K)                                                                                       \
  void merge(const K* keys, const std::int32_t* offsets, index_t num_lists, index_t n, K* out, cudaStream_t stream) { \
    detail::merge_once(keys, offsets, num_lists, n, out, stream);                                                    \
  }                                                                                                                  \
  void merge(const K* keys, const std::int64_t* offsets, index_t num_lists, index_t n, K* out, cudaStream_t stream) { \
    detail::merge_once(keys, offsets, num_lists, n, out, stream);                                                    \
  }
