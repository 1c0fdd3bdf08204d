// tally_bench_nccl: tally::nccl's all-reduce against the single-GPU tally::reduce and NCCL's own
// collectives, one process driving every visible GPU (ncclCommInitAll; one rank on a one-GPU
// machine), on the same buffers. For each case and n elements a rank, time per call (the best of 5
// batches of 10 calls back to back, after 3 warm-up calls; across ranks, the slowest rank's time):
//   single     tally::reducer on GPU 0 alone, n elements (what each rank would do alone)
//   all        tally::nccl::all_reduce_group: every rank's local reduce, the exchange, the fold
//   local      the local reduce alone (the local phase of the same reducers)
//   combine    exchange + fold alone (the states already local): the combine's cost
//   gather     ncclAllGather of the same record bytes: the "one small all-gather" of the target
//   ar1        ncclAllReduce of one state, where NCCL has the operator
//   arN        ncclAllReduce of the n elements themselves (elementwise; NCCL's own all-reduce of
//              the same data, for scale), where NCCL has the operator
// GB/s a rank = n * sizeof(T) / all. The targets (issue 24): all >= 95 % of single's throughput at
// 2^28 elements a rank, and combine <= gather + 10 us; the program prints whether each holds.
// --threads drives each rank from a thread of its own (no NCCL group; reducer::operator() a rank),
// as one process a GPU does: then the host's launches for R devices no longer queue behind each
// other, and small n measures the devices rather than one thread's issue rate.
//
//   tally_bench_nccl [--max-log2 K] [--ranks R] [--threads] [--json FILE]   (K = 28: n = 2^16, ..., 2^K)
#include <algorithm>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <type_traits>
#include <vector>

#include <tally/nccl.cuh>

#include "cuda_check.hpp"

namespace {

void nccl_check(ncclResult_t status, const char* call) {
  if (status != ncclSuccess) throw std::runtime_error(std::string(call) + " failed (" + ncclGetErrorString(status) + ")");
}
#define NCCL_CHECK(call) nccl_check((call), #call)

// Threads that wait for each other (C++17 has no std::barrier).
class thread_barrier {
 public:
  explicit thread_barrier(int count) : count_(count) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    const long generation = generation_;
    if (++arrived_ == count_) {
      arrived_ = 0;
      ++generation_;
      done_.notify_all();
    } else {
      done_.wait(lock, [&] { return generation_ != generation; });
    }
  }

 private:
  std::mutex mutex_;
  std::condition_variable done_;
  int count_, arrived_ = 0;
  long generation_ = 0;
};

// Ranks of one process, one a device, a stream and two events each.
struct ranks_t {
  std::vector<ncclComm_t> comms;
  std::vector<cudaStream_t> streams;
  std::vector<cudaEvent_t> start, stop;
  bool threaded = false;  // a host thread a rank (--threads), else one thread drives every rank
  int size() const { return static_cast<int>(comms.size()); }
  ranks_t(int count, bool threaded_) : threaded(threaded_) {
    comms.resize(static_cast<std::size_t>(count));
    NCCL_CHECK(ncclCommInitAll(comms.data(), count, nullptr));
    for (int r = 0; r < count; ++r) {
      BENCH_CHECK(cudaSetDevice(r));
      cudaStream_t s = nullptr;
      cudaEvent_t a = nullptr, b = nullptr;
      BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
      BENCH_CHECK(cudaEventCreate(&a));
      BENCH_CHECK(cudaEventCreate(&b));
      streams.push_back(s);
      start.push_back(a);
      stop.push_back(b);
    }
    BENCH_CHECK(cudaSetDevice(0));
  }
  ~ranks_t() {
    for (int r = 0; r < size(); ++r) {
      cudaSetDevice(r);
      cudaStreamSynchronize(streams[static_cast<std::size_t>(r)]);
      cudaEventDestroy(start[static_cast<std::size_t>(r)]);
      cudaEventDestroy(stop[static_cast<std::size_t>(r)]);
      cudaStreamDestroy(streams[static_cast<std::size_t>(r)]);
      ncclCommDestroy(comms[static_cast<std::size_t>(r)]);
    }
    cudaSetDevice(0);
  }

  // Every timing: the best of `batches` batches of `calls` calls back to back, after `warmups`.
  static constexpr int warmups = 3, batches = 5, calls = 10;

  // Microseconds per call of call() (which queues one call on `ranks` ranks, 1: GPU 0 alone):
  // the slowest rank's time per batch, the best batch.
  template <class F>
  double best_us(int ranks, F call) {
    for (int i = 0; i < warmups; ++i) call();
    double best = 1e30;
    for (int batch = 0; batch < batches; ++batch) {
      for (int r = 0; r < ranks; ++r) {
        BENCH_CHECK(cudaSetDevice(r));
        BENCH_CHECK(cudaEventRecord(start[static_cast<std::size_t>(r)], streams[static_cast<std::size_t>(r)]));
      }
      for (int i = 0; i < calls; ++i) call();
      double slowest = 0;
      for (int r = 0; r < ranks; ++r) {
        BENCH_CHECK(cudaSetDevice(r));
        BENCH_CHECK(cudaEventRecord(stop[static_cast<std::size_t>(r)], streams[static_cast<std::size_t>(r)]));
      }
      for (int r = 0; r < ranks; ++r) {
        BENCH_CHECK(cudaSetDevice(r));
        BENCH_CHECK(cudaEventSynchronize(stop[static_cast<std::size_t>(r)]));
        slowest = std::max(slowest, elapsed_ms(r) / calls);
      }
      best = std::min(best, slowest);
    }
    BENCH_CHECK(cudaSetDevice(0));
    return best * 1e3;
  }

  // The same timing over every rank, each rank's calls queued by its own thread: call_rank(r)
  // queues rank r's part of one call. The threads meet before each batch.
  template <class F>
  double best_us_threaded(F call_rank) {
    const int ranks = size();
    std::vector<double> ms(static_cast<std::size_t>(ranks) * batches);
    thread_barrier meet(ranks);
    std::vector<std::thread> threads;
    for (int r = 0; r < ranks; ++r) {
      threads.emplace_back([&, r] {
        const auto k = static_cast<std::size_t>(r);
        try {
          BENCH_CHECK(cudaSetDevice(r));
          for (int i = 0; i < warmups; ++i) call_rank(r);
          for (int batch = 0; batch < batches; ++batch) {
            BENCH_CHECK(cudaStreamSynchronize(streams[k]));
            meet.arrive_and_wait();
            BENCH_CHECK(cudaEventRecord(start[k], streams[k]));
            for (int i = 0; i < calls; ++i) call_rank(r);
            BENCH_CHECK(cudaEventRecord(stop[k], streams[k]));
            BENCH_CHECK(cudaEventSynchronize(stop[k]));
            ms[k * batches + static_cast<std::size_t>(batch)] = elapsed_ms(r) / calls;
          }
        } catch (const std::exception& e) {
          // The other ranks' collectives would wait for this one for ever: report and quit.
          std::fprintf(stderr, "tally_bench_nccl: rank %d: %s\n", r, e.what());
          std::fflush(stderr);
          std::_Exit(1);
        }
      });
    }
    for (std::thread& t : threads) t.join();
    double best = 1e30;
    for (int batch = 0; batch < batches; ++batch) {
      double slowest = 0;
      for (int r = 0; r < ranks; ++r) slowest = std::max(slowest, ms[static_cast<std::size_t>(r) * batches + static_cast<std::size_t>(batch)]);
      best = std::min(best, slowest);
    }
    BENCH_CHECK(cudaSetDevice(0));
    return best * 1e3;
  }

  // Every rank: one thread queueing all of them (call_all), or a thread a rank (call_rank).
  template <class All, class Rank>
  double best_us_ranks(All call_all, Rank call_rank) {
    return threaded ? best_us_threaded(call_rank) : best_us(size(), call_all);
  }

  double elapsed_ms(int r) const {
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, start[static_cast<std::size_t>(r)], stop[static_cast<std::size_t>(r)]));
    return static_cast<double>(ms);
  }

  // f(r) on every rank's device; then back to device 0.
  template <class F>
  void each(F f) {
    for (int r = 0; r < size(); ++r) {
      BENCH_CHECK(cudaSetDevice(r));
      f(r);
    }
    BENCH_CHECK(cudaSetDevice(0));
  }
  template <class F>
  void group(F f) {
    NCCL_CHECK(ncclGroupStart());
    for (int r = 0; r < size(); ++r) f(r);
    NCCL_CHECK(ncclGroupEnd());
  }
};

// Data: floats in (-1, 1) of varied magnitude; small integers (sums stay exact).
template <class T>
__global__ void fill(T* x, tally::index_t n, unsigned seed) {
  for (tally::index_t i = blockIdx.x * static_cast<tally::index_t>(blockDim.x) + threadIdx.x; i < n;
       i += static_cast<tally::index_t>(gridDim.x) * blockDim.x) {
    unsigned h = static_cast<unsigned>(i) * 2654435761u ^ seed;
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    if constexpr (std::is_floating_point_v<T>) x[i] = static_cast<T>(static_cast<int>(h >> 8) - (1 << 23)) * T(0x1p-23);
    else x[i] = static_cast<T>(h % 201) - 100;
  }
}

template <class T>
struct buffer {
  T* p = nullptr;
  explicit buffer(std::size_t n) { BENCH_CHECK(cudaMalloc(&p, (n > 0 ? n : 1) * sizeof(T))); }
  ~buffer() { cudaFree(p); }
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;
};

template <class T> constexpr ncclDataType_t nccl_type();
template <> constexpr ncclDataType_t nccl_type<float>() { return ncclFloat32; }
template <> constexpr ncclDataType_t nccl_type<int>() { return ncclInt32; }

struct row {
  std::string name;
  int log2n = 0;
  double single = 0, all = 0, local = 0, combine = 0, gather = 0, ar1 = -1, arn = -1;
  std::size_t bytes = 0;  // a rank's input
};

// One case at n elements a rank; nccl_op: NCCL's operator for the ar1 / arN columns, where has_nccl_op.
template <class P, class T, class Out, class Op>
row measure(ranks_t& w, const char* name, int log2n, Op op, bool has_nccl_op, ncclRedOp_t nccl_op) {
  const tally::index_t n = tally::index_t{1} << log2n;
  using R = tally::nccl::reducer<P, T, Op>;
  std::vector<std::unique_ptr<buffer<T>>> in;
  std::vector<std::unique_ptr<buffer<Out>>> out;
  std::vector<std::unique_ptr<R>> reducers;
  std::vector<R*> rs;
  std::vector<const T*> ins;
  std::vector<Out*> outs;
  const std::vector<tally::index_t> counts(static_cast<std::size_t>(w.size()), n);
  w.each([&](int r) {
    in.push_back(std::make_unique<buffer<T>>(static_cast<std::size_t>(n)));
    fill<<<1024, 256, 0, w.streams[static_cast<std::size_t>(r)]>>>(in.back()->p, n, 7u + static_cast<unsigned>(r));
    BENCH_CHECK(cudaGetLastError());
    out.push_back(std::make_unique<buffer<Out>>(1));
    reducers.push_back(std::make_unique<R>(w.comms[static_cast<std::size_t>(r)], op));
    reducers.back()->reserve(n);
    rs.push_back(reducers.back().get());
    ins.push_back(in.back()->p);
    outs.push_back(out.back()->p);
  });
  row x;
  x.name = name;
  x.log2n = log2n;
  x.bytes = static_cast<std::size_t>(n) * sizeof(T);
  {
    tally::reducer<P, T, Op> single(op);
    single.reserve(n);
    x.single = w.best_us(1, [&] { single(ins[0], n, outs[0], w.streams[0]); });
  }
  auto at = [](int r) { return static_cast<std::size_t>(r); };
  // Each measured call as rank r's part (NCCL calls ungrouped: a thread a rank) and as every rank's
  // from one thread (NCCL calls inside one group).
  auto local = [&](int r) { rs[at(r)]->local(ins[at(r)], n, w.streams[at(r)]); };
  auto exchange = [&](int r) { rs[at(r)]->exchange(w.streams[at(r)]); };
  auto finish = [&](int r) { rs[at(r)]->finish(outs[at(r)], w.streams[at(r)]); };
  x.all = w.best_us_ranks(
      [&] { tally::nccl::all_reduce_group(rs.data(), w.size(), ins.data(), counts.data(), outs.data(), w.streams.data()); },
      [&](int r) { (*rs[at(r)])(ins[at(r)], n, outs[at(r)], w.streams[at(r)]); });
  x.local = w.best_us_ranks([&] { w.each(local); }, local);
  x.combine = w.best_us_ranks([&] { w.group(exchange); w.each(finish); },
                              [&](int r) { exchange(r); finish(r); });
  // The same bytes as the combine's all-gather: one record a rank.
  using layout = tally::nccl::detail::record_layout<typename R::state_type>;
  const std::size_t record = layout::bytes(1);
  std::vector<std::unique_ptr<buffer<unsigned char>>> gathered;
  w.each([&](int) { gathered.push_back(std::make_unique<buffer<unsigned char>>(record * (1 + static_cast<std::size_t>(w.size())))); });
  auto gather = [&](int r) {
    unsigned char* g = gathered[at(r)]->p;
    NCCL_CHECK(ncclAllGather(g, g + record, record, ncclUint8, w.comms[at(r)], w.streams[at(r)]));
  };
  x.gather = w.best_us_ranks([&] { w.group(gather); }, gather);
  if (has_nccl_op) {
    auto all_reduce_one = [&](int r) {
      unsigned char* g = gathered[at(r)]->p;
      NCCL_CHECK(ncclAllReduce(g, g + record, 1, nccl_type<T>(), nccl_op, w.comms[at(r)], w.streams[at(r)]));
    };
    x.ar1 = w.best_us_ranks([&] { w.group(all_reduce_one); }, all_reduce_one);
    std::vector<std::unique_ptr<buffer<T>>> elementwise;
    w.each([&](int) { elementwise.push_back(std::make_unique<buffer<T>>(static_cast<std::size_t>(n))); });
    auto all_reduce_n = [&](int r) {
      NCCL_CHECK(ncclAllReduce(ins[at(r)], elementwise[at(r)]->p, static_cast<std::size_t>(n), nccl_type<T>(), nccl_op,
                               w.comms[at(r)], w.streams[at(r)]));
    };
    x.arn = w.best_us_ranks([&] { w.group(all_reduce_n); }, all_reduce_n);
    w.each([&](int r) { BENCH_CHECK(cudaStreamSynchronize(w.streams[static_cast<std::size_t>(r)])); });
  }
  w.each([&](int r) {
    BENCH_CHECK(cudaStreamSynchronize(w.streams[static_cast<std::size_t>(r)]));
    reducers[static_cast<std::size_t>(r)].reset();
    in[static_cast<std::size_t>(r)].reset();
    out[static_cast<std::size_t>(r)].reset();
    gathered[static_cast<std::size_t>(r)].reset();
  });
  return x;
}

// A time, or "-" (JSON: null) where the column does not apply.
std::string cell(double us, const char* none = "-") {
  if (us < 0) return none;
  char b[32];
  std::snprintf(b, sizeof b, "%.3f", us);
  return b;
}

std::string table_cell(double us) {
  if (us < 0) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f", us);
  return b;
}

int run(int argc, char** argv) {
  int max_log2 = 28, ranks = 0;
  bool threaded = false;
  std::string json;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--max-log2" && i + 1 < argc) max_log2 = std::atoi(argv[++i]);
    else if (a == "--ranks" && i + 1 < argc) ranks = std::atoi(argv[++i]);
    else if (a == "--threads") threaded = true;
    else if (a == "--json" && i + 1 < argc) json = argv[++i];
    else throw std::runtime_error("usage: tally_bench_nccl [--max-log2 K] [--ranks R] [--threads] [--json FILE]");
  }
  // NVLink multicast stays off on these machines; a value the caller set wins.
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  int devices = 0;
  BENCH_CHECK(cudaGetDeviceCount(&devices));
  if (ranks <= 0 || ranks > devices) ranks = devices;
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  int nccl_version = 0;
  NCCL_CHECK(ncclGetVersion(&nccl_version));
  ranks_t w(ranks, threaded);
  std::printf("tally::nccl on %d x %s, %s, NCCL %d, NCCL_NVLS_ENABLE=%s; us per call, GB/s a rank\n\n", ranks,
              prop.name, threaded ? "a thread a rank" : "one thread driving every rank", nccl_version,
              std::getenv("NCCL_NVLS_ENABLE"));
  std::printf("| case | n a rank | single | all | GB/s a rank | all / single speed | local | combine | gather | ar1 | arN |\n");
  std::printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
  using repro = tally::default_reduce_policy<float>::with_accum<tally::accum::reproducible>;
  std::vector<row> rows;
  for (int k = 16; k <= max_log2; k += 2) {
    rows.push_back(measure<repro, float, float>(w, "float sum reproducible", k, tally::op::sum{}, true, ncclSum));
    rows.push_back(measure<tally::default_reduce_policy<float>, float, float>(w, "float sum", k, tally::op::sum{}, true, ncclSum));
    rows.push_back(measure<tally::default_reduce_policy<float, tally::op::max>, float, float>(w, "float max", k, tally::op::max{}, true, ncclMax));
    rows.push_back(measure<tally::default_reduce_policy<float, tally::op::arg_min>, float, tally::arg<float>>(w, "float arg_min", k, tally::op::arg_min{}, false, ncclSum));
    rows.push_back(measure<tally::default_reduce_policy<int>, int, int>(w, "int32 sum (native)", k, tally::op::sum{}, true, ncclSum));
    for (std::size_t i = rows.size() - 5; i < rows.size(); ++i) {
      const row& x = rows[i];
      std::printf("| %s | 2^%d | %s | %s | %.0f | %.3f | %s | %s | %s | %s | %s |\n", x.name.c_str(), x.log2n,
                  table_cell(x.single).c_str(), table_cell(x.all).c_str(), static_cast<double>(x.bytes) / x.all / 1e3,
                  x.single / x.all, table_cell(x.local).c_str(), table_cell(x.combine).c_str(), table_cell(x.gather).c_str(),
                  table_cell(x.ar1).c_str(), table_cell(x.arn).c_str());
      std::fflush(stdout);
    }
  }
  std::printf("\nTargets: at 2^%d a rank, all >= 95 %% of single's throughput; everywhere, combine <= gather + 10 us.\n", max_log2);
  for (const row& x : rows) {
    if (x.log2n == max_log2)
      std::printf("  %-24s 2^%d throughput %s\n", x.name.c_str(), x.log2n, x.single / x.all >= 0.95 ? "holds" : "MISSED");
    if (x.combine > x.gather + 10) std::printf("  %-24s 2^%d combine above gather + 10 us\n", x.name.c_str(), x.log2n);
  }
  if (!json.empty()) {
    FILE* f = std::fopen(json.c_str(), "w");
    if (f == nullptr) throw std::runtime_error("cannot write " + json);
    std::fprintf(f, "{\n  \"device\": \"%s\",\n  \"ranks\": %d,\n  \"threads\": %s,\n  \"nccl_version\": %d,\n  \"rows\": [\n",
                 prop.name, ranks, threaded ? "true" : "false", nccl_version);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const row& x = rows[i];
      std::fprintf(f,
                   "    {\"case\": \"%s\", \"log2_n_per_rank\": %d, \"bytes_per_rank\": %zu, \"single_us\": %.3f, \"all_us\": %.3f, "
                   "\"local_us\": %.3f, \"combine_us\": %.3f, \"gather_us\": %.3f, \"allreduce_one_us\": %s, "
                   "\"allreduce_n_us\": %s}%s\n",
                   x.name.c_str(), x.log2n, x.bytes, x.single, x.all, x.local, x.combine, x.gather,
                   cell(x.ar1, "null").c_str(), cell(x.arn, "null").c_str(),
                   i + 1 < rows.size() ? "," : "");
    }
    std::fprintf(f, "  ]\n}\n");
    std::fclose(f);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tally_bench_nccl: %s\n", e.what());
    return 1;
  }
}
