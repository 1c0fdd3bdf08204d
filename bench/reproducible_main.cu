// tally_bench_reproducible: the reproducible sum (accum::reproducible) next to tally_default and
// CUB's gpu_to_gpu DeviceReduce::Sum, float and double, n = 2^16 .. 2^28, in one process, on the same
// buffers, calls back to back.
//
// CUB's gpu_to_gpu determinism needs CCCL 3.1 or later; the system's CCCL is 3.0. CMake builds this
// program against the headers of the nvidia-cuda-cccl wheel when it finds them
// (TALLY_CCCL_GPU_TO_GPU_INCLUDE); without them the program still runs and says that row is skipped.
//
// Rows are named reproducible/<type>/<lib>/<n>, lib = tally_default | tally_reproducible |
// cub_gpu_to_gpu. Counters (harness.hpp): GBps = n * sizeof(T) / time; pct_ceiling; on
// tally_reproducible rows pct_default (100 * tally_default's time / this row's: the share of
// tally_default's throughput kept) and vs_cub_gpu_to_gpu (CUB's time / this row's).
//
//   tally_bench_reproducible [--target_ms=X] [Google Benchmark flags]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda/version>

#if CCCL_VERSION >= 3001000
#include <cub/device/device_reduce.cuh>
#include <cuda/execution>
#include <cuda/stream>
#define TALLY_BENCH_CUB_GPU_TO_GPU 1
#else
#define TALLY_BENCH_CUB_GPU_TO_GPU 0
#endif

#include <tally/reduce.cuh>

#include "ceiling.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "env.hpp"
#include "harness.hpp"
#include "program.hpp"
#include "timing.hpp"

namespace bench {
namespace {

constexpr double batch_seconds = 1e-3;
constexpr int repetitions = 5;

const char* const usage =
    "tally_bench_reproducible: accum::reproducible vs tally_default vs CUB gpu_to_gpu, float and double sums\n"
    "  --target_ms=X  GPU time one repetition of a row aims at (10)\n"
    "Google Benchmark's flags follow (e.g. --benchmark_filter=double, --benchmark_out=FILE\n"
    "--benchmark_out_format=json).\n\n";

// +-[2^-12, 1) with every mantissa bit random: typical data, on the fast path of every accumulator.
template <class T>
__global__ void fill(T* out, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double v = ldexp(1.0 + static_cast<double>(z >> 12) * 0x1p-52, -static_cast<int>(z % 12)) * ((z & 2048) ? 1 : -1);
    out[i] = static_cast<T>(v);
  }
}

template <class T>
using reproducible_policy = typename tally::default_reduce_policy<T>::template with_accum<tally::accum::reproducible>;

struct row {
  std::string type, lib;
  std::int64_t n = 0;
  std::function<launcher()> prepare;
  std::function<double()> result;  // one call's result, read back
  std::string name() const { return "reproducible/" + type + "/" + lib + "/" + std::to_string(n); }
};

template <class T>
struct buffers {
  std::int64_t n;
  device_buffer in, out;
  buffers(std::int64_t n_, cudaStream_t stream) : n(n_), in(static_cast<std::size_t>(n_) * sizeof(T)), out(sizeof(T)) {
    fill<T><<<1024, 256, 0, stream>>>(in.as<T>(), n, 42);
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaStreamSynchronize(stream));
  }
};

template <class T>
std::function<double()> read_back(std::shared_ptr<buffers<T>> b, std::function<launcher()> make, cudaStream_t stream) {
  return [b, make, stream] {
    make()(0);
    BENCH_CHECK(cudaStreamSynchronize(stream));
    T h;
    BENCH_CHECK(cudaMemcpy(&h, b->out.get(), sizeof h, cudaMemcpyDeviceToHost));
    return static_cast<double>(h);
  };
}

template <class P, class T>
std::function<launcher()> tally_call(std::shared_ptr<buffers<T>> b, cudaStream_t stream) {
  return [b, stream] {
    auto r = std::make_shared<tally::reducer<P, T>>();
    r->reserve(b->n);
    return launcher([b, r, stream](std::int64_t) { (*r)(b->in.template as<T>(), b->n, b->out.template as<T>(), stream); });
  };
}

#if TALLY_BENCH_CUB_GPU_TO_GPU
// CUB's public gpu_to_gpu entry point: the environment names the stream and the requirement; CUB
// takes its temporary storage from the stream-ordered pool on each call.
template <class T>
std::function<launcher()> cub_call(std::shared_ptr<buffers<T>> b, cudaStream_t stream) {
  return [b, stream] {
    return launcher([b, stream](std::int64_t) {
      const auto env = cuda::std::execution::env{cuda::stream_ref{stream},
                                                 cuda::execution::require(cuda::execution::determinism::gpu_to_gpu)};
      BENCH_CHECK(cub::DeviceReduce::Sum(b->in.template as<T>(), b->out.template as<T>(), b->n, env));
    });
  };
}
#endif

template <class T>
void add_rows(std::vector<row>& rows, std::int64_t n, cudaStream_t stream, std::vector<std::shared_ptr<void>>& keep) {
  auto b = std::make_shared<buffers<T>>(n, stream);
  keep.push_back(b);
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  const auto add = [&](const char* lib, std::function<launcher()> make) {
    rows.push_back({type, lib, n, make, read_back<T>(b, make, stream)});
  };
  add("tally_default", tally_call<tally::default_reduce_policy<T>, T>(b, stream));
  add("tally_reproducible", tally_call<reproducible_policy<T>, T>(b, stream));
#if TALLY_BENCH_CUB_GPU_TO_GPU
  add("cub_gpu_to_gpu", cub_call<T>(b, stream));
#endif
}

// Before timing: every row agrees with tally_reproducible within 1e-5 relative (float) of the sum of
// |x|; and tally_reproducible gives the same bits at every n as the states of two halves merged.
void sanity_check(const std::vector<row>& rows) {
  int compared = 0;
  for (const row& a : rows) {
    if (a.lib == "tally_reproducible") continue;
    for (const row& r : rows)
      if (r.lib == "tally_reproducible" && r.type == a.type && r.n == a.n) {
        const double want = r.result(), got = a.result();
        const double tol = (a.type == "float" ? 1e-4 : 1e-10) * std::sqrt(static_cast<double>(a.n));
        if (!(std::fabs(got - want) <= tol))
          throw std::runtime_error("sanity check: " + a.name() + " gives " + std::to_string(got) + ", tally_reproducible " + std::to_string(want));
        ++compared;
      }
  }
  std::printf("tally_bench_reproducible: sanity check: %d rows agree with tally_reproducible\n", compared);
}

int run(int argc, char** argv) {
  command_line cl(argc, argv, {"--target_ms="}, usage);
  double target_ms = 10;
  for (const std::string& a : cl.own()) target_ms = positive_flag(a, "milliseconds");
  if (!cl.start_benchmark(repetitions)) return 1;

  bench_env env(require_device());
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));
  const cudaStream_t stream = env.stream();
#if !TALLY_BENCH_CUB_GPU_TO_GPU
  std::printf("tally_bench_reproducible: built against CCCL %d.%d, which has no gpu_to_gpu determinism: the "
              "cub_gpu_to_gpu rows are skipped (configure with -DTALLY_CCCL_GPU_TO_GPU_INCLUDE=<the nvidia-cuda-cccl "
              "wheel's include/cccl>)\n",
              CCCL_MAJOR_VERSION, CCCL_MINOR_VERSION);
  add_context("cub_gpu_to_gpu", "skipped: built against a CCCL without gpu_to_gpu");
#else
  add_context("cub_gpu_to_gpu", "CCCL " + std::to_string(CCCL_MAJOR_VERSION) + "." + std::to_string(CCCL_MINOR_VERSION) + "." +
                                    std::to_string(CCCL_PATCH_VERSION) + ", cub::DeviceReduce::Sum with env{stream, require(gpu_to_gpu)}");
#endif

  std::vector<row> rows;
  std::vector<std::shared_ptr<void>> keep;
  for (int lg = 16; lg <= 28; lg += 2) {
    add_rows<float>(rows, std::int64_t{1} << lg, stream, keep);
    add_rows<double>(rows, std::int64_t{1} << lg, stream, keep);
  }
  sanity_check(rows);

  add_context("GBps_definition", "n * sizeof(T) / time per call, 1e9 bytes per GB");
  add_context("pct_default_definition", "on tally_reproducible rows: 100 * tally_default's median time / this row's");
  add_context("vs_cub_gpu_to_gpu_definition", "on tally_reproducible rows: cub_gpu_to_gpu's median time / this row's");
  add_context("data", "+-[2^-12, 1), random mantissas; every call reads the same buffer (from L2 where it fits)");
  add_context("timing", "CUDA events around a batch of back-to-back calls (about 1 ms), median of 5 repetitions");

  const std::string filter = cl.benchmark_flag("benchmark_filter").value_or("");
  const std::regex keep_re(filter.empty() || filter[0] == '-' ? std::string(".") : filter);
  std::vector<timed_row> timed;
  for (const row& a : rows) {
    if (a.lib == "tally_reproducible" && !std::regex_search(a.name(), keep_re)) continue;
    timed_call probe(a.prepare(), 1, stream);
    const double call = std::max(probe.measure(), 1e-6);
    const int calls = std::clamp(static_cast<int>(std::lround(batch_seconds / call)), 1, 200);
    const std::int64_t batches = std::clamp<std::int64_t>(std::llround(target_ms * 1e-3 / (call * calls)), 3, 100);
    timed_row t{a.name(), a.prepare, calls, batches, static_cast<double>(a.n) * (a.type == "float" ? 4 : 8), {}, {}};
    if (a.lib == "tally_reproducible") {
      const std::string prefix = "reproducible/" + a.type + "/";
      t.compare.push_back({"pct_default", {prefix + "tally_default/" + std::to_string(a.n)}, 100});
#if TALLY_BENCH_CUB_GPU_TO_GPU
      t.compare.push_back({"vs_cub_gpu_to_gpu", {prefix + "cub_gpu_to_gpu/" + std::to_string(a.n)}});
#endif
    }
    timed.push_back(t);
  }
  const results store = run_rows(timed, env, cl.benchmark_args());

  std::printf("\nReproducible sums on %s (GB/s, back to back)\n", env.device().name.c_str());
  std::printf("| type | n | tally_default | tally_reproducible | cub_gpu_to_gpu | %% of default | vs CUB gpu_to_gpu |\n"
              "|---|---|---|---|---|---|---|\n");
  for (const row& a : rows) {
    if (a.lib != "tally_reproducible") continue;
    const auto gbps = [&](const std::string& lib) -> std::optional<double> {
      const auto t = store.median("reproducible/" + a.type + "/" + lib + "/" + std::to_string(a.n));
      if (!t) return std::nullopt;
      return static_cast<double>(a.n) * (a.type == "float" ? 4 : 8) / *t * 1e-9;
    };
    const auto d = gbps("tally_default"), r = gbps("tally_reproducible"), c = gbps("cub_gpu_to_gpu");
    const auto cell = [](std::optional<double> v, const char* fmt) {
      char s[32] = "-";
      if (v) std::snprintf(s, sizeof s, fmt, *v);
      return std::string(s);
    };
    std::printf("| %s | 2^%d | %s | %s | %s | %s | %s |\n", a.type.c_str(), static_cast<int>(std::lround(std::log2(static_cast<double>(a.n)))),
                cell(d, "%.0f").c_str(), cell(r, "%.0f").c_str(), cell(c, "%.0f").c_str(),
                cell(d && r ? std::optional<double>(100 * *r / *d) : std::nullopt, "%.1f").c_str(),
                cell(c && r ? std::optional<double>(*r / *c) : std::nullopt, "%.2f").c_str());
  }
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::guarded_main("tally_bench_reproducible", bench::run, argc, argv); }
