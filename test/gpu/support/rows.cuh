// Row-reduction test support: a matrix generated on the device from (seed, index) with poisoned
// padding, its host reference per row (long double sums, exact min / max / arg), CUB's
// DeviceSegmentedReduce on the same buffer, and check_rows, which runs one policy and compares.
//
// Padding (columns N..ld-1, and elements before a deliberately misaligned start) holds +-1e30,
// + on even rows and - on odd ones: a kernel that reads it changes sums, and max (even rows) or
// min (odd rows), so reading outside the rows is caught by every operator.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <cub/device/device_segmented_reduce.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <tally/matvec.cuh>
#include <tally/reduce_rows.cuh>

#include "check.cuh"

namespace tally::test {

template <class T>
__host__ __device__ inline T matrix_value(std::uint64_t seed, index_t i, index_t ld, index_t n) {
  if (ld > 0 && i >= 0 && i % ld < n) return value_at<T>(seed, i);
  const index_t row = i >= 0 && ld > 0 ? i / ld : 1;
  return static_cast<T>(row % 2 == 0 ? 1e30 : -1e30);
}

// Fills or verifies elements [-offset, count) relative to the matrix start.
template <class T>
__global__ void matrix_fill_kernel(T* base, index_t offset, index_t count, std::uint64_t seed, index_t ld, index_t n) {
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count + offset; i += index_t{gridDim.x} * blockDim.x)
    base[i] = matrix_value<T>(seed, i - offset, ld, n);
}
template <class T>
__global__ void matrix_changed_kernel(const T* base, index_t offset, index_t count, std::uint64_t seed, index_t ld,
                                      index_t n, unsigned long long* changed) {
  unsigned long long local = 0;
  for (index_t i = index_t{blockIdx.x} * blockDim.x + threadIdx.x; i < count + offset; i += index_t{gridDim.x} * blockDim.x) {
    const T e = matrix_value<T>(seed, i - offset, ld, n);
    local += !(base[i] == e);
  }
  if (local) atomicAdd(changed, local);
}

template <class T>
class test_matrix {
 public:
  test_matrix(index_t m, index_t n, index_t ld, std::uint64_t seed, index_t offset = 0)
      : m_(m), n_(n), ld_(ld), seed_(seed), offset_(offset), count_(m * ld), buffer_(static_cast<std::size_t>(m * ld + offset)) {
    matrix_fill_kernel<T><<<4096, 256>>>(buffer_.get(), offset_, count_, seed_, ld_, n_);
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  }
  const T* data() const { return buffer_.get() + offset_; }
  index_t m() const { return m_; }
  index_t n() const { return n_; }
  index_t ld() const { return ld_; }
  std::uint64_t seed() const { return seed_; }
  T at(index_t r, index_t c) const { return value_at<T>(seed_, r * ld_ + c); }
  unsigned long long changed() const {
    device_buffer<unsigned long long> count(1);
    TALLY_TEST_CHECK_CUDA(cudaMemset(count.get(), 0, sizeof(unsigned long long)));
    matrix_changed_kernel<T><<<4096, 256>>>(buffer_.get(), offset_, count_, seed_, ld_, n_, count.get());
    TALLY_TEST_CHECK_CUDA(cudaGetLastError());
    return count.read();
  }
  std::string describe() const {
    return "M = " + std::to_string(m_) + ", N = " + std::to_string(n_) + ", ld = " + std::to_string(ld_) +
           (offset_ ? ", start offset " + std::to_string(offset_) + " elements" : std::string()) +
           ", seed = " + std::to_string(seed_);
  }

 private:
  index_t m_, n_, ld_;
  std::uint64_t seed_;
  index_t offset_, count_;
  device_buffer<T> buffer_;
};

// A test matrix shape: M rows of N columns, leading dimension ld, starting `offset` elements past
// an allocation's (256-byte aligned) start.
struct rows_shape {
  index_t m, n, ld, offset;
};

// Everything the checks need about one row, in one pass.
struct row_truth {
  long double sum = 0, abs_sum = 0;  // of A[i][j]
  long double dot = 0, abs_dot = 0;  // of A[i][j] * x[j]
  double min = 0, max = 0;
  index_t arg_min = -1, arg_max = -1;  // lowest column at the extreme
};

inline row_truth fold_truth(row_truth t, double a, double x, index_t j) {
  t.sum += a;
  t.abs_sum += std::fabs(static_cast<long double>(a));
  const long double p = static_cast<long double>(a) * x;
  t.dot += p;
  t.abs_dot += std::fabs(p);
  if (t.arg_min < 0 || a < t.min || (a == t.min && j < t.arg_min)) t.min = a, t.arg_min = j;
  if (t.arg_max < 0 || a > t.max || (a == t.max && j < t.arg_max)) t.max = a, t.arg_max = j;
  return t;
}

inline row_truth combine_truth(row_truth a, const row_truth& b) {
  a.sum += b.sum;
  a.abs_sum += b.abs_sum;
  a.dot += b.dot;
  a.abs_dot += b.abs_dot;
  if (b.arg_min >= 0 && (a.arg_min < 0 || b.min < a.min || (b.min == a.min && b.arg_min < a.arg_min)))
    a.min = b.min, a.arg_min = b.arg_min;
  if (b.arg_max >= 0 && (a.arg_max < 0 || b.max > a.max || (b.max == a.max && b.arg_max < a.arg_max)))
    a.max = b.max, a.arg_max = b.arg_max;
  return a;
}

// The x of matvec tests: element j of data set x_seed.
template <class T>
std::vector<row_truth> host_rows_truth(const test_matrix<T>& a, std::uint64_t x_seed) {
  const index_t m = a.m(), n = a.n();
  std::vector<row_truth> out(static_cast<std::size_t>(m));
  const auto row = [&](index_t i, index_t begin, index_t end) {
    row_truth t;
    for (index_t j = begin; j < end; ++j)
      t = fold_truth(t, host_value(a.at(i, j)), host_value(value_at<T>(x_seed, j)), j);
    return t;
  };
  if (m < 64) {  // few rows: each row in parallel
    for (index_t i = 0; i < m; ++i)
      out[i] = host_reduce(n, row_truth{}, [&](row_truth t, index_t j) { return fold_truth(t, host_value(a.at(i, j)), host_value(value_at<T>(x_seed, j)), j); },
                           combine_truth);
  } else {
    const int workers = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
    std::vector<std::thread> threads;
    for (int w = 0; w < workers; ++w)
      threads.emplace_back([&, w] {
        for (index_t i = w; i < m; i += workers) out[i] = row(i, 0, n);
      });
    for (auto& t : threads) t.join();
  }
  return out;
}

// Offsets of row i for CUB: i * ld + shift.
struct row_offset {
  index_t ld, shift;
  __host__ __device__ index_t operator()(index_t i) const { return i * ld + shift; }
};

// cub::DeviceSegmentedReduce's answer per row, as host values: sums in Acc, min / max in T,
// arg_* as {value, column}.
template <class Op, class Acc, class T>
auto cub_rows(const test_matrix<T>& a) {
  const index_t m = a.m();
  const auto begin = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), row_offset{a.ld(), 0});
  const auto end = thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), row_offset{a.ld(), a.n()});
  const int segments = static_cast<int>(m);
  if constexpr (std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>) {
    device_buffer<cub::KeyValuePair<int, T>> out(static_cast<std::size_t>(m));
    out.poison();  // CUB writes key and value, not the padding the copy below reads (initcheck)
    run_cub([&](void* t, std::size_t& b) {
      if constexpr (std::is_same_v<Op, op::arg_min>) return cub::DeviceSegmentedReduce::ArgMin(t, b, a.data(), out.get(), segments, begin, end);
      else return cub::DeviceSegmentedReduce::ArgMax(t, b, a.data(), out.get(), segments, begin, end);
    });
    std::vector<cub::KeyValuePair<int, T>> host(static_cast<std::size_t>(m));
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(host.data(), out.get(), host.size() * sizeof(host[0]), cudaMemcpyDeviceToHost));
    std::vector<arg<T>> r;
    for (const auto& kv : host) r.push_back({kv.value, kv.key});
    return r;
  } else {
    using R = std::conditional_t<std::is_same_v<Op, op::sum>, Acc, T>;
    device_buffer<R> out(static_cast<std::size_t>(m));
    run_cub([&](void* t, std::size_t& b) {
      if constexpr (std::is_same_v<Op, op::sum>)
        return cub::DeviceSegmentedReduce::Reduce(t, b, thrust::make_transform_iterator(a.data(), cast_to<Acc>{}), out.get(),
                                                  segments, begin, end, ::cuda::std::plus<Acc>{}, Acc{});
      else if constexpr (std::is_same_v<Op, op::min>) return cub::DeviceSegmentedReduce::Min(t, b, a.data(), out.get(), segments, begin, end);
      else return cub::DeviceSegmentedReduce::Max(t, b, a.data(), out.get(), segments, begin, end);
    });
    std::vector<R> host(static_cast<std::size_t>(m));
    TALLY_TEST_CHECK_CUDA(cudaMemcpy(host.data(), out.get(), host.size() * sizeof(R), cudaMemcpyDeviceToHost));
    return host;
  }
}

// Additions an element may pass through in plan p (sequential per lane, then trees), for the
// first-order bound k * u * sum|x| on a floating sum.
inline index_t plan_additions(const rows_plan& p) {
  const bool spans = p.lanes == 0;  // blocks reduce spans of rows
  const index_t per_lane_items = spans ? p.items_per_split / p.threads + 1 : p.items / p.lanes + 1;
  const index_t per_lane = per_lane_items * p.item_elems + p.item_elems;  // + the tail
  return per_lane + 2 * 10 + (spans ? p.splits / p.threads + 1 : 0);
}

inline long double cub_segment_bound_additions(index_t n) { return static_cast<long double>(n / 128 + 64 + 20); }

enum class rows_job { plain, dot };

// Runs policy P's rows_reducer for Op on a (plain, or dot with x) into a poisoned output of M + 1
// entries, compares row by row with the host truth and with CUB's rows (empty: not compared), and
// checks that the entry after the last row and the input are untouched.
template <class P, class Op, class T, class CubRows = std::vector<int>>
void check_rows(const test_matrix<T>& a, const std::vector<row_truth>& truth, const CubRows& cub = {},
                rows_job call = rows_job::plain, const T* x = nullptr, Op op = Op{}) {
  using R = rows_reducer<P, T, Op>;
  using Acc = typename R::accum_type;
  constexpr bool is_sum = std::is_same_v<Op, op::sum>;
  constexpr bool is_arg_op = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
  using Out = std::conditional_t<is_sum, Acc, std::conditional_t<is_arg_op, arg<T>, T>>;
  const index_t m = a.m();

  R r(op);
  const rows_plan p = r.plan(a.data(), m, a.n(), a.ld(), x);
  INFO("policy " << as_rows_policy_t<P>::name() << " -> " << p.strategy()
                 << std::string(p.vectorized ? " (16-byte items)" : " (scalar)") << ", op " << std::string(Op::name)
                 << std::string(call == rows_job::dot ? " (matvec)" : "") << ", " << a.describe());
  device_buffer<Out> out(static_cast<std::size_t>(m + 1));
  out.poison();
  if (call == rows_job::dot) r.dot(a.data(), m, a.n(), a.ld(), x, out.get());
  else r(a.data(), m, a.n(), a.ld(), out.get());
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
  std::vector<Out> got(static_cast<std::size_t>(m + 1));
  TALLY_TEST_CHECK_CUDA(cudaMemcpy(got.data(), out.get(), got.size() * sizeof(Out), cudaMemcpyDeviceToHost));

  const long double u = unit_roundoff<Acc>();
  const long double k = 1.01L * static_cast<long double>(plan_additions(p));
  index_t bad = 0;
  for (index_t i = 0; i < m && bad < 5; ++i) {
    const row_truth& t = truth[i];
    bool ok = true;
    std::string seen;
    if constexpr (is_sum) {
      const long double v = static_cast<long double>(host_value(got[i]));
      const long double want = call == rows_job::dot ? t.dot : t.sum;
      const long double bound = k * u * (call == rows_job::dot ? t.abs_dot : t.abs_sum);
      ok = std::fabs(v - want) <= bound;
      seen = "tally " + show(got[i]) + ", host " + std::to_string(static_cast<double>(want)) + ", bound " +
             std::to_string(static_cast<double>(bound));
      if constexpr (!std::is_same_v<CubRows, std::vector<int>>) {
        if (!cub.empty()) {
          const long double c = static_cast<long double>(host_value(cub[i]));
          ok = ok && std::fabs(v - c) <= bound + cub_segment_bound_additions(a.n()) * u * t.abs_sum;
          seen += ", cub " + show(cub[i]);
        }
      }
    } else {
      constexpr bool is_min = std::is_same_v<Op, op::min> || std::is_same_v<Op, op::arg_min>;
      if (a.n() == 0) {
        if constexpr (is_arg_op)
          ok = got[i].index == -1 && host_value(got[i].value) == host_value(static_cast<T>(op.template identity<Acc>().value));
        else
          ok = host_value(got[i]) == host_value(static_cast<T>(op.template identity<Acc>()));
      } else if constexpr (is_arg_op) {
        ok = host_value(got[i].value) == (is_min ? t.min : t.max) && got[i].index == (is_min ? t.arg_min : t.arg_max);
        if constexpr (!std::is_same_v<CubRows, std::vector<int>>)
          if (!cub.empty()) ok = ok && host_value(cub[i].value) == host_value(got[i].value) && cub[i].index == got[i].index;
      } else {
        ok = host_value(got[i]) == (is_min ? t.min : t.max);
        if constexpr (!std::is_same_v<CubRows, std::vector<int>>)
          if (!cub.empty()) ok = ok && host_value(cub[i]) == host_value(got[i]);
      }
      seen = "tally " + show(got[i]) + ", host min " + std::to_string(t.min) + " at " + std::to_string(t.arg_min) +
             ", max " + std::to_string(t.max) + " at " + std::to_string(t.arg_max);
    }
    if (!ok) {
      ++bad;
      FAIL_CHECK("row " << i << ": " << seen);
    }
  }
  CHECK(bad == 0);
  // Nothing written past the last row: every byte of that entry still holds the poison.
  CHECK(device_buffer<Out>::all_bytes(got[static_cast<std::size_t>(m)]));
  CHECK(a.changed() == 0);
}

}  // namespace tally::test
