// check_transpose<P, T>(rows, cols): one transpose through tally::transpose<P> of random data (never
// zeros: data.cuh's generator) into a poisoned output with guard elements on both sides, compared
// bit for bit with a host transpose of the same data; the guards and the input must be unchanged.
// Inputs beyond 2^31 elements are compared on the device, element by element against the generator.
#pragma once
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include <tally/transpose.cuh>

#include "data.cuh"

namespace tally::test {

template <class P> struct policy_tag { using type = P; };
template <class... Ps, class F>
void for_each_policy(policy_list<Ps...>, F&& f) {
  (f(policy_tag<Ps>{}), ...);
}

struct shape {
  index_t rows, cols;
};

// Odd and edge shapes: single rows and columns, partial tiles on either side, shapes whose
// dimensions are multiples of 4 and 8 (the vector paths) and not, and a tall and a wide matrix
// with far more than 65535 tiles down (gridDim.y's limit) or across.
inline std::vector<shape> transpose_shapes() {
  std::vector<shape> kept;
  for (const shape s : {shape{1, 1}, shape{0, 7}, shape{7, 0}, shape{1, 1000}, shape{1000, 1}, shape{33, 65},
                        shape{65, 33}, shape{4097, 3}, shape{3, 4097}, shape{32, 32}, shape{31, 33}, shape{64, 64},
                        shape{63, 65}, shape{100, 36}, shape{96, 160}, shape{8, 8}, shape{260, 516}, shape{2048, 2056},
                        shape{index_t{1} << 20, 3}, shape{3, index_t{1} << 20}, shape{(index_t{1} << 18) + 8, 8}})
    if (s.rows * s.cols <= max_test_size()) kept.push_back(s);
  return kept;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Output element (j, i) of a transpose of data set d (rows x cols) must be input element (i, j).
// Returns the number of mismatches; reports the first. Output rows are split over host threads.
template <class T>
index_t count_host_mismatches(const std::vector<T>& got, const dataset<T>& d, index_t rows, index_t cols) {
  const int workers = static_cast<int>(std::max(1u, std::min(32u, std::thread::hardware_concurrency())));
  std::vector<index_t> bad(workers, 0), first(workers, -1);
  std::vector<std::thread> pool;
  for (int w = 0; w < workers; ++w)
    pool.emplace_back([&, w] {
      for (index_t j = w; j < cols; j += workers)
        for (index_t i = 0; i < rows; ++i)
          if (!same_bits(got[static_cast<std::size_t>(j * rows + i)], d.at(i * cols + j))) {
            if (bad[w]++ == 0) first[w] = j * rows + i;
          }
    });
  for (auto& t : pool) t.join();
  index_t total = 0, first_bad = -1;
  for (int w = 0; w < workers; ++w) {
    total += bad[w];
    if (first[w] >= 0 && (first_bad < 0 || first[w] < first_bad)) first_bad = first[w];
  }
  if (total > 0)
    MESSAGE("first mismatch at output row " << first_bad / rows << ", column " << first_bad % rows);
  return total;
}

template <class T>
__global__ void count_device_mismatches(const T* out, index_t rows, index_t cols, std::uint64_t seed, index_t offset,
                                        unsigned long long* bad) {
  unsigned long long local = 0;
  const index_t n = rows * cols;
  for (index_t o = index_t{blockIdx.x} * blockDim.x + threadIdx.x; o < n; o += index_t{gridDim.x} * blockDim.x) {
    const index_t j = o / rows, i = o % rows;
    const T expected = value_at<T>(seed, i * cols + j + offset);
    const T actual = out[o];
    const auto* a = reinterpret_cast<const unsigned char*>(&actual);
    const auto* e = reinterpret_cast<const unsigned char*>(&expected);
    bool same = true;
    for (unsigned b = 0; b < sizeof(T); ++b) same &= a[b] == e[b];
    local += !same;
  }
  if (local) atomicAdd(bad, local);
}

// Guard elements on each side of the output: they must keep the poison.
inline constexpr index_t guard = 16;

// Bytes of out outside [base, base + n) that lost the poison: out holds base + n + guard elements.
template <class T>
index_t count_guard_changes(const device_buffer<T>& out, index_t base, index_t n) {
  std::vector<unsigned char> before(static_cast<std::size_t>(base) * sizeof(T)), after(guard * sizeof(T));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(before.data(), out.get(), before.size(), cudaMemcpyDeviceToHost));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(after.data(), out.get() + base + n, after.size(), cudaMemcpyDeviceToHost));
  index_t changed = 0;
  for (const unsigned char b : before) changed += b != poison_byte;
  for (const unsigned char b : after) changed += b != poison_byte;
  return changed;
}

// One transpose of a rows x cols input that starts `in_offset` elements into its buffer, into an
// output `out_offset` elements after the guard (offsets misalign the vector paths). Skipped above
// TALLY_TEST_MAX_N elements.
template <class P, class T>
void check_transpose(index_t rows, index_t cols, index_t in_offset = 0, index_t out_offset = 0) {
  const index_t n = rows * cols;
  if (n > max_test_size()) return;  // TALLY_TEST_MAX_N (the sanitizer runs) caps every case
  const dataset<T> d(n, next_seed(), in_offset);
  INFO(P::name() << ", " << sizeof(T) << "-byte elements, " << rows << " x " << cols << ", offsets " << in_offset
                 << "/" << out_offset << ", seed = " << d.seed());
  const index_t base = guard + out_offset;
  device_buffer<T> out(static_cast<std::size_t>(base + n + guard));
  out.poison(poison_byte);
  transpose<P>(d.data(), out.get() + base, rows, cols);
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  if (n > (index_t{1} << 31)) {
    device_buffer<unsigned long long> bad(1);
    TALLY_TEST_CHECK_CUDA(cudaMemset(bad.get(), 0, sizeof(unsigned long long)));
    count_device_mismatches<T><<<4096, 256>>>(out.get() + base, rows, cols, d.seed(), in_offset, bad.get());
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    CHECK(bad.read() == 0);
  } else if (n > 0) {
    std::vector<T> got(static_cast<std::size_t>(n));
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(got.data(), out.get() + base, n * sizeof(T), cudaMemcpyDeviceToHost));
    CHECK(count_host_mismatches(got, d, rows, cols) == 0);
  }
  // Nothing outside the output was written (for n == 0: nothing at all); the input is unchanged.
  CHECK(count_guard_changes(out, base, n) == 0);
  CHECK(d.changed() == 0);
}

// Every shape through every named composition for element type T, plus misaligned buffers (the
// vector paths fall back to elements) for shapes whose dimensions allow vectors.
template <class T>
void check_all_compositions() {
  for (const shape s : transpose_shapes())
    for_each_policy(transpose_policies::all{}, [&](auto p) { check_transpose<typename decltype(p)::type, T>(s.rows, s.cols); });
  for_each_policy(transpose_policies::all{}, [&](auto p) {
    using P = typename decltype(p)::type;
    check_transpose<P, T>(96, 160, 1, 0);
    check_transpose<P, T>(96, 160, 0, 1);
    check_transpose<P, T>(260, 516, 2, 3);
  });
}

}  // namespace tally::test
