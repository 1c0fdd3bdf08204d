// tally::nccl on what this machine has: one NCCL communicator over every visible GPU driven by one
// process (ncclCommInitAll: one rank on a one-GPU machine), an explicit one-rank communicator
// (ncclCommInitRank), and 1 to 8 ranks' parts simulated on one GPU through the combine step itself
// (the local reduce of each part into its record, then the fold in rank order), and, with 2 GPUs or
// more, one process per GPU (this program started again once a rank, ncclCommInitRank). Every rank's result
// must have the bits of tally::reduce / reduce_rows / matvec of the whole input on one GPU (floating
// sums through accum::reproducible), ranks may hold no element and splits are uneven.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <doctest/doctest.h>

#include <tally/matvec.cuh>
#include <tally/nccl.cuh>

namespace {

#define CHECK_CUDA(call) REQUIRE((call) == cudaSuccess)
#define CHECK_NCCL(call) REQUIRE((call) == ncclSuccess)

using tally::index_t;

template <class T>
struct device_array {
  T* p = nullptr;
  explicit device_array(std::size_t n) { CHECK_CUDA(cudaMalloc(&p, (n > 0 ? n : 1) * sizeof(T))); }
  // A copy from pageable memory may return before its DMA lands (the CUDA runtime's synchronization
  // rules): work on the legacy stream waits for it, the world's non-blocking streams do not. Without
  // the wait, a rank's reduction read a part still being copied, beside a GPU load (docs/nccl.md).
  device_array(const std::vector<T>& h) : device_array(h.size()) {
    CHECK_CUDA(cudaMemcpy(p, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaDeviceSynchronize());
  }
  ~device_array() { cudaFree(p); }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
};

template <class T>
std::vector<T> to_host(const T* d, std::size_t n) {
  std::vector<T> h(n);
  CHECK_CUDA(cudaMemcpy(h.data(), d, n * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

template <class T>
bool same_bits(const T& a, const T& b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}
// arg<float> has padding between value and index, which no one writes on purpose.
template <class V>
bool same_bits(const tally::arg<V>& a, const tally::arg<V>& b) {
  return same_bits(a.value, b.value) && a.index == b.index;
}

// Floats over 2^-20 .. 2^20 of both signs, a few repeated values (ties for arg_*), and integers.
template <class T>
std::vector<T> make_data(index_t n, unsigned seed) {
  std::mt19937_64 g(seed);
  std::vector<T> v(static_cast<std::size_t>(n));
  for (T& x : v) {
    if constexpr (std::is_floating_point_v<T>) {
      const double m = std::ldexp(static_cast<double>(g() >> 11), -53) + 0.5;
      const int e = static_cast<int>(g() % 41) - 20;
      x = static_cast<T>((g() & 1 ? -1 : 1) * std::ldexp(m, e));
      if (g() % 64 == 0) x = static_cast<T>(1000);  // the largest value appears often
    } else {
      x = static_cast<T>(static_cast<std::int64_t>(g() % 2001) - 1000);
    }
  }
  return v;
}

// Uneven cut of n into `parts` counts; where parts >= 3, part 1 holds nothing.
std::vector<index_t> split(index_t n, int parts, unsigned seed) {
  std::mt19937 g(seed);
  std::vector<index_t> cuts{0, n};
  for (int k = 1; k < parts; ++k) cuts.push_back(static_cast<index_t>(g() % static_cast<unsigned>(n + 1)));
  std::sort(cuts.begin(), cuts.end());
  std::vector<index_t> counts;
  for (int k = 0; k < parts; ++k) counts.push_back(cuts[static_cast<std::size_t>(k) + 1] - cuts[static_cast<std::size_t>(k)]);
  if (parts >= 3) {
    counts[0] += counts[1];
    counts[1] = 0;
  }
  return counts;
}

// Leave NVLink multicast off (a machine-wide rule for these GPUs), unless the caller set it.
void no_multicast() { setenv("NCCL_NVLS_ENABLE", "0", 0); }

// One communicator a visible GPU, all from this process, with a stream each.
struct world {
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  int size() const { return static_cast<int>(comms.size()); }
  world() {
    no_multicast();
    int devices = 0;
    CHECK_CUDA(cudaGetDeviceCount(&devices));
    comms.resize(static_cast<std::size_t>(devices));
    CHECK_NCCL(ncclCommInitAll(comms.data(), devices, nullptr));
    for (int d = 0; d < devices; ++d) {
      CHECK_CUDA(cudaSetDevice(d));
      cudaStream_t s = nullptr;
      CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      streams.push_back(s);
    }
    CHECK_CUDA(cudaSetDevice(0));
  }
  ~world() {
    for (int d = 0; d < size(); ++d) {
      cudaSetDevice(d);
      cudaStreamSynchronize(streams[static_cast<std::size_t>(d)]);
      cudaStreamDestroy(streams[static_cast<std::size_t>(d)]);
      ncclCommDestroy(comms[static_cast<std::size_t>(d)]);
    }
    cudaSetDevice(0);
  }
  void sync() {
    for (int d = 0; d < size(); ++d) {
      CHECK_CUDA(cudaSetDevice(d));
      CHECK_CUDA(cudaStreamSynchronize(streams[static_cast<std::size_t>(d)]));
    }
    CHECK_CUDA(cudaSetDevice(0));
  }
};

// A one-rank communicator on the current device, made the multi-process way.
struct one_rank {
  ncclComm_t comm = nullptr;
  one_rank() {
    no_multicast();
    ncclUniqueId id;
    CHECK_NCCL(ncclGetUniqueId(&id));
    CHECK_NCCL(ncclCommInitRank(&comm, 1, id, 0));
  }
  ~one_rank() { ncclCommDestroy(comm); }
};

using float_repro = tally::default_reduce_policy<float>::with_accum<tally::accum::reproducible>;
using float_arg_min = tally::default_reduce_policy<float, tally::op::arg_min>;
using float_max = tally::default_reduce_policy<float, tally::op::max>;
using int_sum = tally::default_reduce_policy<int>;
using int_min = tally::default_reduce_policy<int, tally::op::min>;
using double_arg_max = tally::default_reduce_policy<double, tally::op::arg_max>;

// The single-GPU result of the whole input, on device 0.
template <class P, class Out, class T, class Op>
Out single_gpu(const std::vector<T>& h, Op op) {
  CHECK_CUDA(cudaSetDevice(0));
  device_array<T> in(h);
  device_array<Out> out(1);
  tally::reduce<P>(in.p, static_cast<index_t>(h.size()), out.p, op);
  return to_host(out.p, 1)[0];
}

// Every rank of the world holds one part (uneven; with 3 ranks or more, rank 1 holds none); every
// rank's result must have the bits of the single-GPU result.
template <class P, class Out, class T, class Op>
void check_world(world& w, const std::vector<T>& h, Op op, unsigned seed) {
  const std::vector<index_t> counts = split(static_cast<index_t>(h.size()), w.size(), seed);
  const Out expected = single_gpu<P, Out>(h, op);
  std::vector<std::unique_ptr<tally::nccl::reducer<P, T, Op>>> reducers;
  std::vector<std::unique_ptr<device_array<T>>> parts;
  std::vector<std::unique_ptr<device_array<Out>>> outs;
  std::vector<tally::nccl::reducer<P, T, Op>*> rs;
  std::vector<const T*> ins;
  std::vector<Out*> out_ptrs;
  index_t first = 0;
  for (int r = 0; r < w.size(); ++r) {
    CHECK_CUDA(cudaSetDevice(r));
    const index_t c = counts[static_cast<std::size_t>(r)];
    reducers.push_back(std::make_unique<tally::nccl::reducer<P, T, Op>>(w.comms[static_cast<std::size_t>(r)], op));
    parts.push_back(std::make_unique<device_array<T>>(std::vector<T>(h.begin() + first, h.begin() + first + c)));
    outs.push_back(std::make_unique<device_array<Out>>(1));
    rs.push_back(reducers.back().get());
    ins.push_back(parts.back()->p);
    out_ptrs.push_back(outs.back()->p);
    first += c;
  }
  CHECK_CUDA(cudaSetDevice(0));
  tally::nccl::all_reduce_group(rs.data(), w.size(), ins.data(), counts.data(), out_ptrs.data(), w.streams.data());
  w.sync();
  for (int r = 0; r < w.size(); ++r) {
    CHECK_CUDA(cudaSetDevice(r));
    const Out got = to_host(out_ptrs[static_cast<std::size_t>(r)], 1)[0];
    CHECK_MESSAGE(same_bits(got, expected), "rank " << r << " of " << w.size() << ", n = " << h.size());
  }
  CHECK_CUDA(cudaSetDevice(0));
}

// k parts of h simulated on one GPU: tally::reducer writes each part's state into its record (with
// its count), then the combine step's fold runs over the k records, as after an all-gather.
template <class P, class Out, class T, class Op>
Out simulated(const std::vector<T>& h, const std::vector<index_t>& counts, Op op) {
  using local = tally::reducer<P, T, Op>;
  using S = typename local::state_type;
  using combiner = tally::nccl::detail::combiner<typename local::accum_type, S, Op>;
  using layout = typename combiner::layout;
  const combiner combine{{}, op, "test"};
  const int k = static_cast<int>(counts.size());
  device_array<T> in(h);
  device_array<unsigned char> records(layout::bytes(1) * static_cast<std::size_t>(k));
  device_array<Out> out(1);
  local r(op);
  index_t first = 0;
  for (int part = 0; part < k; ++part) {
    unsigned char* record = records.p + layout::bytes(1) * static_cast<std::size_t>(part);
    const index_t c = counts[static_cast<std::size_t>(part)];
    r(in.p + first, c, reinterpret_cast<S*>(record), 0);
    combine.stamp(record, 1, c, 0);
    first += c;
  }
  combine.launch_fold(records.p, k, 1, out.p, 0);
  return to_host(out.p, 1)[0];
}

template <class P, class Out, class T, class Op>
void check_simulated(index_t n, Op op, unsigned seed) {
  const std::vector<T> h = make_data<T>(n, seed);
  const Out expected = single_gpu<P, Out>(h, op);
  for (int k = 1; k <= 8; ++k) {
    const std::vector<index_t> counts = split(n, k, seed + static_cast<unsigned>(k));
    CHECK_MESSAGE(same_bits(simulated<P, Out>(h, counts, op), expected), "n = " << n << ", " << k << " parts");
  }
}

}  // namespace

TEST_CASE("nccl: 1 to 8 parts simulated on one GPU give the single-GPU bits") {
  for (const index_t n : {index_t{0}, index_t{1}, index_t{7}, index_t{1000}, index_t{(1 << 20) + 3}}) {
    check_simulated<float_repro, float, float>(n, tally::op::sum{}, 11);
    check_simulated<float_arg_min, tally::arg<float>, float>(n, tally::op::arg_min{}, 12);
    check_simulated<float_max, float, float>(n, tally::op::max{}, 13);
    check_simulated<int_sum, int, int>(n, tally::op::sum{}, 14);
    check_simulated<double_arg_max, tally::arg<double>, double>(n, tally::op::arg_max{}, 15);
  }
}

TEST_CASE("nccl: arg_min across parts: ties go to the lowest global index, NaN wins, empty parts skipped") {
  std::vector<float> h(100, 5.0f);
  h[40] = h[80] = -1.0f;  // equal minima in different parts (2 and 3)
  CHECK(simulated<float_arg_min, tally::arg<float>>(h, {30, 0, 45, 25}, tally::op::arg_min{}).index == 40);
  h[90] = std::nanf("");
  const auto nan_case = simulated<float_arg_min, tally::arg<float>>(h, {60, 40}, tally::op::arg_min{});
  CHECK(nan_case.index == 90);
  const auto none = simulated<float_arg_min, tally::arg<float>>(std::vector<float>{}, {0, 0, 0}, tally::op::arg_min{});
  CHECK(none.index == -1);
}

TEST_CASE("nccl: every visible GPU from one process (ncclCommInitAll): the same bits on every rank") {
  world w;
  MESSAGE(w.size() << " rank(s)");
  const std::vector<float> f = make_data<float>((1 << 20) + 5, 21);
  check_world<float_repro, float>(w, f, tally::op::sum{}, 1);
  check_world<float_arg_min, tally::arg<float>>(w, f, tally::op::arg_min{}, 2);
  check_world<float_max, float>(w, f, tally::op::max{}, 3);
  const std::vector<int> i = make_data<int>(300001, 22);
  check_world<int_sum, int>(w, i, tally::op::sum{}, 4);  // native: ncclAllReduce
  check_world<int_min, int>(w, i, tally::op::min{}, 5);
  check_world<double_arg_max, tally::arg<double>>(w, make_data<double>(4099, 23), tally::op::arg_max{}, 6);
  check_world<float_repro, float>(w, std::vector<float>{}, tally::op::sum{}, 7);  // no rank holds an element
}

TEST_CASE("nccl: a one-rank communicator (ncclCommInitRank): reducer, one-off, a part of no element, errors") {
  CHECK_CUDA(cudaSetDevice(0));
  one_rank world1;
  const std::vector<float> h = make_data<float>(777777, 31);
  device_array<float> in(h);
  device_array<float> out(2);
  tally::nccl::reducer<float_repro, float> r(world1.comm);
  CHECK(r.rank() == 0);
  CHECK(r.ranks() == 1);
  r(in.p, static_cast<index_t>(h.size()), out.p);
  tally::nccl::all_reduce<float_repro>(world1.comm, in.p, static_cast<index_t>(h.size()), out.p + 1);
  CHECK_CUDA(cudaDeviceSynchronize());
  const float expected = single_gpu<float_repro, float>(h, tally::op::sum{});
  const std::vector<float> got = to_host(out.p, 2);
  CHECK(same_bits(got[0], expected));
  CHECK(same_bits(got[1], expected));
  // Against the host: the reproducible float sum of data within 2^56 is correctly rounded.
  long double exact = 0;
  for (float x : h) exact += x;
  CHECK(std::fabs(static_cast<long double>(got[0]) - exact) <= std::ldexp(std::fabs(exact), -23));

  // n_local = 0 with a null input: the identity.
  r(static_cast<const float*>(nullptr), 0, out.p);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(to_host(out.p, 1)[0] == 0.0f);

  // Native integer sum straight into the output, and through the one-off.
  const std::vector<int> hi = make_data<int>(100003, 32);
  device_array<int> ini(hi);
  device_array<int> outi(2);
  tally::nccl::reducer<int_sum, int> ri(world1.comm);
  ri(ini.p, static_cast<index_t>(hi.size()), outi.p);
  tally::nccl::all_reduce(world1.comm, ini.p, static_cast<index_t>(hi.size()), outi.p + 1);
  CHECK_CUDA(cudaDeviceSynchronize());
  long long sum = 0;
  for (int x : hi) sum += x;
  CHECK(to_host(outi.p, 2) == std::vector<int>{static_cast<int>(sum), static_cast<int>(sum)});

  // Errors name the argument and queue nothing.
  CHECK_THROWS_AS(r(in.p, -1, out.p), tally::error);
  CHECK_THROWS_AS(r(in.p, 4, static_cast<float*>(nullptr)), tally::error);
}

TEST_CASE("nccl: graph capture of the local part, then the exchange") {
  CHECK_CUDA(cudaSetDevice(0));
  one_rank world1;
  const std::vector<float> h = make_data<float>((1 << 22) + 1, 41);
  device_array<float> in(h);
  device_array<float> out(1);
  tally::nccl::reducer<float_repro, float> r(world1.comm);
  r.reserve(static_cast<index_t>(h.size()));
  cudaStream_t s = nullptr;
  CHECK_CUDA(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  cudaGraph_t graph = nullptr;
  cudaGraphExec_t exec = nullptr;
  CHECK_CUDA(cudaStreamBeginCapture(s, cudaStreamCaptureModeThreadLocal));
  r.local(in.p, static_cast<index_t>(h.size()), s);
  CHECK_CUDA(cudaStreamEndCapture(s, &graph));
  CHECK_CUDA(cudaGraphInstantiate(&exec, graph, 0));
  const float expected = single_gpu<float_repro, float>(h, tally::op::sum{});
  for (int replay = 0; replay < 3; ++replay) {
    CHECK_CUDA(cudaGraphLaunch(exec, s));
    r.exchange(s);
    r.finish(out.p, s);
    CHECK_CUDA(cudaStreamSynchronize(s));
    CHECK(same_bits(to_host(out.p, 1)[0], expected));
  }
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
  cudaStreamDestroy(s);
}

TEST_CASE("nccl: rows split by columns and matvec: every rank has the single-GPU bits") {
  world w;
  const index_t m = 37, n = 5003;
  const std::vector<float> a = make_data<float>(m * n, 51);
  // matvec: int (exact, so any split gives the single-GPU bits; accum::reproducible does not take products).
  const std::vector<int> ai = make_data<int>(m * n, 54), x = make_data<int>(n, 52);
  using rows_repro = tally::rows_policy<tally::rows::by_shape, tally::accum::reproducible>;
  using rows_arg = tally::default_rows_policy<float, tally::op::arg_max>;
  CHECK_CUDA(cudaSetDevice(0));
  std::vector<float> sums(static_cast<std::size_t>(m));
  std::vector<int> ys(static_cast<std::size_t>(m));
  std::vector<tally::arg<float>> where(static_cast<std::size_t>(m));
  {
    device_array<float> da(a), dsum(static_cast<std::size_t>(m));
    device_array<int> dai(ai), dx(x), dy(static_cast<std::size_t>(m));
    device_array<tally::arg<float>> dwhere(static_cast<std::size_t>(m));
    tally::reduce_rows<rows_repro>(da.p, m, n, n, dsum.p);
    tally::reduce_rows<rows_arg>(da.p, m, n, n, dwhere.p, tally::op::arg_max{});
    tally::matvec(dai.p, m, n, n, dx.p, dy.p);
    sums = to_host(dsum.p, sums.size());
    where = to_host(dwhere.p, where.size());
    ys = to_host(dy.p, ys.size());
  }
  const std::vector<index_t> cols = split(n, w.size(), 53);
  struct rank_data {
    std::unique_ptr<device_array<float>> a, sum;
    std::unique_ptr<device_array<int>> ai, x, y;
    std::unique_ptr<device_array<tally::arg<float>>> where;
    std::unique_ptr<tally::nccl::rows_reducer<rows_repro, float>> sum_r;
    std::unique_ptr<tally::nccl::rows_reducer<rows_arg, float, tally::op::arg_max>> arg_r;
    std::unique_ptr<tally::nccl::rows_reducer<tally::default_rows_policy<int>, int>> dot_r;
  };
  std::vector<rank_data> ranks(static_cast<std::size_t>(w.size()));
  index_t c0 = 0;
  for (int r = 0; r < w.size(); ++r) {
    CHECK_CUDA(cudaSetDevice(r));
    rank_data& d = ranks[static_cast<std::size_t>(r)];
    const index_t c = cols[static_cast<std::size_t>(r)];
    std::vector<float> block(static_cast<std::size_t>(m * c));  // this rank's columns, ld = c
    std::vector<int> block_i(block.size());
    for (index_t i = 0; i < m; ++i)
      for (index_t j = 0; j < c; ++j) {
        block[static_cast<std::size_t>(i * c + j)] = a[static_cast<std::size_t>(i * n + c0 + j)];
        block_i[static_cast<std::size_t>(i * c + j)] = ai[static_cast<std::size_t>(i * n + c0 + j)];
      }
    d.a = std::make_unique<device_array<float>>(block);
    d.ai = std::make_unique<device_array<int>>(block_i);
    d.x = std::make_unique<device_array<int>>(std::vector<int>(x.begin() + c0, x.begin() + c0 + c));
    d.sum = std::make_unique<device_array<float>>(static_cast<std::size_t>(m));
    d.y = std::make_unique<device_array<int>>(static_cast<std::size_t>(m));
    d.where = std::make_unique<device_array<tally::arg<float>>>(static_cast<std::size_t>(m));
    d.sum_r = std::make_unique<tally::nccl::rows_reducer<rows_repro, float>>(w.comms[static_cast<std::size_t>(r)]);
    d.arg_r = std::make_unique<tally::nccl::rows_reducer<rows_arg, float, tally::op::arg_max>>(w.comms[static_cast<std::size_t>(r)]);
    d.dot_r = std::make_unique<tally::nccl::rows_reducer<tally::default_rows_policy<int>, int>>(w.comms[static_cast<std::size_t>(r)]);
    c0 += c;
  }
  // Three collectives, each as local parts, one group of exchanges, then the folds.
  auto each = [&](auto f) {
    for (int r = 0; r < w.size(); ++r) {
      CHECK_CUDA(cudaSetDevice(r));
      f(r, ranks[static_cast<std::size_t>(r)], w.streams[static_cast<std::size_t>(r)], cols[static_cast<std::size_t>(r)]);
    }
  };
  auto exchange = [&](auto f) {
    CHECK_NCCL(ncclGroupStart());
    each(f);
    CHECK_NCCL(ncclGroupEnd());
  };
  each([&](int, rank_data& d, cudaStream_t s, index_t c) { d.sum_r->local(d.a->p, m, c, c, s); });
  exchange([&](int, rank_data& d, cudaStream_t s, index_t) { d.sum_r->exchange(m, s); });
  each([&](int, rank_data& d, cudaStream_t s, index_t) { d.sum_r->finish(m, d.sum->p, s); });
  each([&](int, rank_data& d, cudaStream_t s, index_t c) { d.arg_r->local(d.a->p, m, c, c, s); });
  exchange([&](int, rank_data& d, cudaStream_t s, index_t) { d.arg_r->exchange(m, s); });
  each([&](int, rank_data& d, cudaStream_t s, index_t) { d.arg_r->finish(m, d.where->p, s); });
  each([&](int, rank_data& d, cudaStream_t s, index_t c) { d.dot_r->local_dot(d.ai->p, m, c, c, d.x->p, s); });
  exchange([&](int, rank_data& d, cudaStream_t s, index_t) { d.dot_r->exchange(m, s); });  // native
  each([&](int, rank_data& d, cudaStream_t s, index_t) { d.dot_r->finish(m, d.y->p, s); });
  w.sync();
  for (int r = 0; r < w.size(); ++r) {
    CHECK_CUDA(cudaSetDevice(r));
    const rank_data& d = ranks[static_cast<std::size_t>(r)];
    const std::vector<float> got_sums = to_host(d.sum->p, sums.size());
    const std::vector<int> got_ys = to_host(d.y->p, ys.size());
    const std::vector<tally::arg<float>> got_where = to_host(d.where->p, where.size());
    for (index_t i = 0; i < m; ++i) {
      const auto k = static_cast<std::size_t>(i);
      CHECK_MESSAGE(same_bits(got_sums[k], sums[k]), "rank " << r << ", row " << i);
      CHECK_MESSAGE(same_bits(got_ys[k], ys[k]), "rank " << r << ", row " << i);
      CHECK_MESSAGE(same_bits(got_where[k], where[k]), "rank " << r << ", row " << i);
    }
  }
  CHECK_CUDA(cudaSetDevice(0));
}

TEST_CASE("nccl: one-off reduce_rows and matvec on a one-rank communicator") {
  CHECK_CUDA(cudaSetDevice(0));
  one_rank world1;
  const index_t m = 9, n = 301;
  const std::vector<int> a = make_data<int>(m * n, 61);
  device_array<int> da(a), sums(static_cast<std::size_t>(m)), expected(static_cast<std::size_t>(m));
  tally::nccl::reduce_rows(world1.comm, da.p, m, n, n, sums.p);  // native: integer sums
  tally::reduce_rows(da.p, m, n, n, expected.p);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(to_host(sums.p, static_cast<std::size_t>(m)) == to_host(expected.p, static_cast<std::size_t>(m)));
  const std::vector<float> af = make_data<float>(m * n, 62), xf = make_data<float>(n, 63);
  device_array<float> daf(af), dx(xf), y(static_cast<std::size_t>(m)), y1(static_cast<std::size_t>(m));
  tally::nccl::matvec(world1.comm, daf.p, m, n, n, dx.p, y.p);
  tally::matvec(daf.p, m, n, n, dx.p, y1.p);
  CHECK_CUDA(cudaDeviceSynchronize());
  CHECK(std::memcmp(to_host(y.p, static_cast<std::size_t>(m)).data(), to_host(y1.p, static_cast<std::size_t>(m)).data(),
                    static_cast<std::size_t>(m) * sizeof(float)) == 0);
}

namespace {

// One process per GPU: the parent starts this program once a rank with the test case below
// selected and the rank, the rank count and the unique id in the environment.
const char* const worker_case = "nccl: one process per GPU (worker)";

std::string hex(const ncclUniqueId& id) {
  std::string s;
  for (char c : id.internal) {
    char b[3];
    std::snprintf(b, sizeof b, "%02x", static_cast<unsigned char>(c));
    s += b;
  }
  return s;
}

ncclUniqueId unhex(const std::string& s) {
  ncclUniqueId id{};
  for (std::size_t i = 0; i < sizeof id.internal && 2 * i + 1 < s.size(); ++i)
    id.internal[i] = static_cast<char>(std::stoi(s.substr(2 * i, 2), nullptr, 16));
  return id;
}

}  // namespace

TEST_CASE("nccl: one process per GPU (worker)") {
  const char* rank_env = std::getenv("TALLY_NCCL_TEST_RANK");
  if (rank_env == nullptr) return;  // only in the processes the case below starts
  const int rank = std::atoi(rank_env), ranks = std::atoi(std::getenv("TALLY_NCCL_TEST_RANKS"));
  CHECK_CUDA(cudaSetDevice(rank));
  no_multicast();
  ncclComm_t comm = nullptr;
  CHECK_NCCL(ncclCommInitRank(&comm, ranks, unhex(std::getenv("TALLY_NCCL_TEST_ID")), rank));
  // Every process makes the whole input and the single-GPU answer on its own GPU, and takes its part.
  const std::vector<float> h = make_data<float>((1 << 21) + 9, 71);
  const std::vector<index_t> counts = split(static_cast<index_t>(h.size()), ranks, 72);
  index_t first = 0;
  for (int r = 0; r < rank; ++r) first += counts[static_cast<std::size_t>(r)];
  const index_t mine = counts[static_cast<std::size_t>(rank)];
  device_array<float> part(std::vector<float>(h.begin() + first, h.begin() + first + mine));
  device_array<float> sum(1), whole(h);
  device_array<tally::arg<float>> where(1), where1(1);
  tally::nccl::reducer<float_repro, float> r(comm);
  r(part.p, mine, sum.p);  // the caller's communicator, no group
  tally::nccl::all_reduce<float_arg_min>(comm, part.p, mine, where.p, tally::op::arg_min{});
  tally::reduce<float_arg_min>(whole.p, static_cast<index_t>(h.size()), where1.p, tally::op::arg_min{});
  CHECK_CUDA(cudaDeviceSynchronize());
  const float expected = [&] {
    device_array<float> out(1);
    tally::reduce<float_repro>(whole.p, static_cast<index_t>(h.size()), out.p);
    return to_host(out.p, 1)[0];
  }();
  CHECK_MESSAGE(same_bits(to_host(sum.p, 1)[0], expected), "rank " << rank << " of " << ranks);
  CHECK_MESSAGE(same_bits(to_host(where.p, 1)[0], to_host(where1.p, 1)[0]), "rank " << rank << " of " << ranks);
  ncclCommDestroy(comm);
}

TEST_CASE("nccl: one process per GPU: every process has the single-GPU bits") {
  if (std::getenv("TALLY_NCCL_TEST_RANK") != nullptr) return;  // a worker starts no workers
  int devices = 0;
  CHECK_CUDA(cudaGetDeviceCount(&devices));
  if (devices < 2) {
    MESSAGE("skipped: one GPU (one process per GPU is then the one-rank communicator case)");
    return;
  }
  ncclUniqueId id;
  CHECK_NCCL(ncclGetUniqueId(&id));
  std::vector<pid_t> workers;
  for (int rank = 0; rank < devices; ++rank) {
    std::vector<std::string> env_text;
    for (char** e = ::environ; *e != nullptr; ++e) env_text.emplace_back(*e);
    env_text.push_back("TALLY_NCCL_TEST_RANK=" + std::to_string(rank));
    env_text.push_back("TALLY_NCCL_TEST_RANKS=" + std::to_string(devices));
    env_text.push_back("TALLY_NCCL_TEST_ID=" + hex(id));
    std::vector<char*> env;
    for (std::string& e : env_text) env.push_back(e.data());
    env.push_back(nullptr);
    std::string exe = "/proc/self/exe", filter = std::string("--test-case=") + worker_case;
    char* argv[] = {exe.data(), filter.data(), nullptr};
    pid_t pid = 0;
    REQUIRE(posix_spawn(&pid, exe.c_str(), nullptr, nullptr, argv, env.data()) == 0);
    workers.push_back(pid);
  }
  for (int rank = 0; rank < devices; ++rank) {
    int status = 0;
    REQUIRE(waitpid(workers[static_cast<std::size_t>(rank)], &status, 0) == workers[static_cast<std::size_t>(rank)]);
    CHECK_MESSAGE((WIFEXITED(status) && WEXITSTATUS(status) == 0), "the process of rank " << rank << " failed");
  }
}
