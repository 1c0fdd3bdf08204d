// What a reduction must return: a host reference in higher precision (long double for floating
// sums, wrapping 64-bit integers for integer sums, exact values for min / max / arg_*), computed
// in parallel from the generator, and CUB's answer on the same device buffer.
#pragma once
#include <algorithm>
#include <cmath>
#include <thread>
#include <type_traits>
#include <vector>

#include <cub/device/device_reduce.cuh>
#include <cuda/std/functional>

#include <tally/policies/op.cuh>

#include "data.cuh"

namespace tally::test {

// Host value of element x: integers as themselves, floating types as double (exact for all).
template <class T>
auto host_value(const T& x) {
  if constexpr (std::is_integral_v<T> || std::is_same_v<T, double>) return x;
  else return static_cast<double>(static_cast<float>(x));
}
template <class T> using host_value_t = decltype(host_value(std::declval<T>()));

// Parallel left-to-right reduction of [0, n): chunks run on all cores, then combine in order.
template <class R, class Fold, class Combine>
R host_reduce(index_t n, R init, Fold fold, Combine combine) {
  const int workers = std::max(1u, std::min(64u, std::thread::hardware_concurrency()));
  const index_t chunk = n / workers + 1;
  std::vector<R> partial(workers, init);
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      const index_t begin = std::min(n, w * chunk), end = std::min(n, begin + chunk);
      R acc = init;
      for (index_t i = begin; i < end; ++i) acc = fold(acc, i);
      partial[w] = acc;
    });
  for (auto& t : threads) t.join();
  R total = init;
  for (const R& p : partial) total = combine(total, p);
  return total;
}

struct sum_truth {
  long double value = 0;    // floating inputs
  long double abs_sum = 0;  // sum of |x|, scales the rounding bound
  std::uint64_t wrapped = 0;  // integer inputs: the sum modulo 2^64
};

template <class V>
struct extreme_truth {
  V value{};
  index_t index = -1;
};

// The host reference for operator Op over a data set.
template <class Op, class T>
auto host_truth(const dataset<T>& d) {
  using H = host_value_t<T>;
  const index_t n = d.size();
  if constexpr (std::is_same_v<Op, op::sum>) {
    return host_reduce(
        n, sum_truth{},
        [&](sum_truth a, index_t i) {
          const H x = host_value(d.at(i));
          if constexpr (std::is_integral_v<H>) a.wrapped += static_cast<std::uint64_t>(x);
          else { a.value += x; a.abs_sum += std::fabs(static_cast<long double>(x)); }
          return a;
        },
        [](sum_truth a, const sum_truth& b) {
          a.value += b.value;
          a.abs_sum += b.abs_sum;
          a.wrapped += b.wrapped;
          return a;
        });
  } else {
    constexpr bool is_min = std::is_same_v<Op, op::min> || std::is_same_v<Op, op::arg_min>;
    // b beats a: strictly better value, or equal value at a lower index (-1 = none yet).
    auto better = [](const extreme_truth<H>& b, const extreme_truth<H>& a) {
      if (b.index < 0) return false;
      if (a.index < 0) return true;
      if (is_min ? b.value < a.value : a.value < b.value) return true;
      return b.value == a.value && b.index < a.index;
    };
    return host_reduce(
        n, extreme_truth<H>{},
        [&](extreme_truth<H> a, index_t i) {
          const extreme_truth<H> b{host_value(d.at(i)), i};
          return better(b, a) ? b : a;
        },
        [&](const extreme_truth<H>& a, const extreme_truth<H>& b) { return better(b, a) ? b : a; });
  }
}

template <class Acc>
struct cast_to {
  template <class T>
  __device__ Acc operator()(const T& x) const { return static_cast<Acc>(x); }
};

// Runs a CUB call twice (size query, then work) with its temporary storage. The storage is filled
// first: CUB's ArgMin / ArgMax over __half keep KeyValuePair<int, __half> partials there and read
// them back as whole 4-byte words, padding included, which compute-sanitizer's initcheck reports
// as reads of uninitialized memory unless every byte was written once.
template <class Call>
void run_cub(Call call) {
  std::size_t bytes = 0;
  TALLY_TEST_CHECK_CUDA(call(nullptr, bytes));
  device_buffer<unsigned char> temp(bytes);
  temp.poison();
  TALLY_TEST_CHECK_CUDA(call(temp.get(), bytes));
  TALLY_TEST_CHECK_CUDA(cudaDeviceSynchronize());
}

// cub::DeviceReduce's answer for Op over d, accumulating sums in Acc (TransformReduce casts each
// element to Acc, so a wide tally accumulator is compared with the same arithmetic in CUB).
template <class Op, class Acc, class T>
auto cub_result(const T* in, index_t n) {
  if constexpr (std::is_same_v<Op, op::sum>) {
    device_buffer<Acc> out(1);
    run_cub([&](void* t, std::size_t& b) {
      return cub::DeviceReduce::TransformReduce(t, b, in, out.get(), n, ::cuda::std::plus<Acc>{}, cast_to<Acc>{},
                                                Acc{});
    });
    return out.read();
  } else if constexpr (std::is_same_v<Op, op::min> || std::is_same_v<Op, op::max>) {
    device_buffer<T> out(1);
    run_cub([&](void* t, std::size_t& b) {
      if constexpr (std::is_same_v<Op, op::min>) return cub::DeviceReduce::Min(t, b, in, out.get(), n);
      else return cub::DeviceReduce::Max(t, b, in, out.get(), n);
    });
    return out.read();
  } else {
    device_buffer<T> value(1);
    device_buffer<index_t> index(1);
    run_cub([&](void* t, std::size_t& b) {
      if constexpr (std::is_same_v<Op, op::arg_min>) return cub::DeviceReduce::ArgMin(t, b, in, value.get(), index.get(), n);
      else return cub::DeviceReduce::ArgMax(t, b, in, value.get(), index.get(), n);
    });
    return arg<T>{value.read(), index.read()};
  }
}

template <class Op, class Acc, class T>
auto cub_result(const dataset<T>& d) {
  return cub_result<Op, Acc>(d.data(), d.size());
}

}  // namespace tally::test
