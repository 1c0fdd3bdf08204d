// tally_bench_segments: tally::reduce_segments against cub::DeviceSegmentedReduce (float sums over
// ragged segments, and half sums accumulated and written in float), and tally::csr_matvec against
// cuSPARSE's CSR SpMV, in one process, on the same buffers.
//
// Rows are named segments/<type>/<job>/<lib>/<distribution>:
//   type  float | half (sums: the float values rounded to half; CUB and tally sum in float) | double (SpMV)
//   job   sum (reduce_segments) | spmv (y = A x)
//   lib   cub_segmented | tally_default | tally_tiles (the default without row shares and short
//         shares: every share read in tiles) | tally_groups (the default, which walks every tile of
//         float sums and SpMV, with lane groups of 4 items for tiles of short segments) |
//         tally_planned (float sums and SpMV with the split planned once, before timing, as
//         cuSPARSE's preprocess is: segments_reducer::plan / plan_dot) |
//         tally_begin_end (the begin / end form over the same segments) | tally_rows (reduce_rows on
//         the same buffer, where every segment has one length)
//         | cusparse_alg1 | cusparse_alg2 (CUSPARSE_SPMV_CSR_ALG1 / ALG2)
// Distributions: the issue's table (uniform 1-8, 64, 0-128, 1000, 1-65536; power law; one long
// segment among short ones; three long ones) and uniform 0-4 and 2-12 (the short shares' range and
// its edge) and every segment 4 (short shares of one length) for sums; uniform and power-law rows,
// and one long row among short ones, for SpMV.
// Counters (harness.hpp): GBps = bytes / time with bytes = the values read, the offsets read
// ((S + 1) * 4), the outputs written (S * sizeof(T), 4 bytes for half sums) and for SpMV the column indices (4 bytes) and
// one x gather (sizeof(T)) a non-zero; pct_ceiling against the streaming-read ceiling measured at
// start-up; vs_cub and vs_cusparse (the better of the two algorithms) on tally rows; vs_rows on
// tally_default rows of one-length distributions (tally_rows' time / this row's).
// Every call reads the same buffers: a distribution whose bytes fit in L2 is read from L2.
//
//   tally_bench_segments [--target_ms=X] [--tiles] [--distributions=REGEX] [Google Benchmark flags]
// --tiles adds other tile shapes and lane-group sizes (tally_<Threads>x<Items>, tally_groups_of_<k>).
// --distributions builds and runs only the distributions whose names match (baselines included),
// so that a profiler sees one distribution's kernels and nothing else.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <regex>
#include <stdexcept>
#include <string>
#include <vector>

#include <cub/device/device_segmented_reduce.cuh>
#include <cuda/std/functional>
#include <cuda_fp16.h>
#include <cusparse.h>

#include <tally/csr_matvec.cuh>
#include <tally/reduce_rows.cuh>
#include <tally/reduce_segments.cuh>

#include "ceiling.hpp"
#include "cuda_check.hpp"
#include "device_buffer.hpp"
#include "env.hpp"
#include "harness.hpp"
#include "program.hpp"
#include "summary.hpp"
#include "timing.hpp"

namespace bench {
namespace {

constexpr double batch_seconds = 1e-3;
constexpr int repetitions = 5;

const char* const usage =
    "tally_bench_segments: tally::reduce_segments vs cub::DeviceSegmentedReduce, tally::csr_matvec vs cuSPARSE\n"
    "  --target_ms=X  GPU time one repetition of a row aims at (10)\n"
    "  --tiles        also other tile shapes of the merge path (float sums)\n"
    "  --distributions=REGEX  only the distributions whose names match, baselines included\n"
    "Google Benchmark's flags follow (e.g. --benchmark_filter=spmv, --benchmark_out=FILE\n"
    "--benchmark_out_format=json).\n\n";

#define BENCH_CUSPARSE(call)                                                                                \
  do {                                                                                                      \
    const cusparseStatus_t s_ = (call);                                                                     \
    if (s_ != CUSPARSE_STATUS_SUCCESS) throw std::runtime_error(std::string(#call) + ": " + cusparseGetErrorString(s_)); \
  } while (0)

// A segment layout: lengths drawn by a rule, fixed seed.
struct distribution {
  std::string name;
  std::function<std::vector<std::int64_t>()> lengths;
  std::int64_t uniform = 0;  // every segment this long (reduce_rows compares), or 0
};

std::vector<std::int64_t> draw(std::int64_t count, std::uint64_t seed, const std::function<std::int64_t(std::mt19937_64&)>& f) {
  std::mt19937_64 g(seed);
  std::vector<std::int64_t> v(static_cast<std::size_t>(count));
  for (auto& x : v) x = f(g);
  return v;
}
std::function<std::int64_t(std::mt19937_64&)> uniform_in(std::int64_t lo, std::int64_t hi) {
  return [lo, hi](std::mt19937_64& g) { return lo + static_cast<std::int64_t>(g() % static_cast<std::uint64_t>(hi - lo + 1)); };
}
// Pareto(alpha) lengths >= 0 (x_min = 1, minus one), capped.
std::function<std::int64_t(std::mt19937_64&)> pareto(double alpha, std::int64_t cap) {
  return [alpha, cap](std::mt19937_64& g) {
    const double u = (static_cast<double>(g() >> 11) + 0.5) * 0x1p-53;
    return std::min<std::int64_t>(cap, static_cast<std::int64_t>(std::pow(u, -1.0 / alpha)) - 1);
  };
}

std::vector<distribution> sum_distributions() {
  return {
      {"uniform_1_8", [] { return draw(1 << 22, 1, uniform_in(1, 8)); }},
      {"uniform_0_4", [] { return draw(1 << 23, 11, uniform_in(0, 4)); }},
      {"uniform_2_12", [] { return draw(1 << 22, 12, uniform_in(2, 12)); }},
      {"uniform_4", [] { return std::vector<std::int64_t>(1 << 22, 4); }, 4},
      {"uniform_64", [] { return std::vector<std::int64_t>(1 << 20, 64); }, 64},
      {"uniform_0_128", [] { return draw(1 << 20, 2, uniform_in(0, 128)); }},
      {"uniform_1000", [] { return std::vector<std::int64_t>(1 << 16, 1000); }, 1000},
      {"uniform_1_65536", [] { return draw(2048, 3, uniform_in(1, 65536)); }},
      {"power_law_0.6", [] { return draw(48 * 1024, 4, pareto(0.6, std::int64_t{1} << 24)); }},
      {"one_2^26_among_2^20_of_0_4",
       [] {
         auto v = draw(1 << 20, 5, uniform_in(0, 4));
         v[v.size() / 3] = std::int64_t{1} << 26;
         return v;
       }},
      {"three_of_2^24", [] { return std::vector<std::int64_t>(3, std::int64_t{1} << 24); }, std::int64_t{1} << 24},
  };
}

std::vector<distribution> spmv_distributions() {
  return {
      {"rows_2^20_uniform_64", [] { return std::vector<std::int64_t>(1 << 20, 64); }, 64},
      {"rows_2^22_uniform_1_16", [] { return draw(1 << 22, 6, uniform_in(1, 16)); }},
      {"rows_2^20_power_law_1.2", [] { return draw(1 << 20, 7, pareto(1.2, 1 << 20)); }},
      {"rows_2^18_power_law_0.8", [] { return draw(1 << 18, 8, pareto(0.8, 1 << 22)); }},
      // The end weight's adversary: a share of short rows beside one long row's shares.
      {"rows_one_2^24_among_2^20_of_0_4",
       [] {
         auto v = draw(1 << 20, 9, uniform_in(0, 4));
         v[v.size() / 3] = std::int64_t{1} << 24;
         return v;
       }},
  };
}

__global__ void round_to_half(const float* f, __half* h, std::int64_t n) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x)
    h[i] = __float2half(f[i]);
}

__global__ void fill_values(float* f, double* d, std::int64_t n, std::uint64_t seed) {
  for (std::int64_t i = std::int64_t{blockIdx.x} * blockDim.x + threadIdx.x; i < n; i += std::int64_t{gridDim.x} * blockDim.x) {
    std::uint64_t z = seed + 0x9E3779B97F4A7C15ull * static_cast<std::uint64_t>(i + 1);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    const double v = (0.5 + static_cast<double>(z >> 11) * 0x1p-54) * ((z & 1) ? 1 : -1);  // +-[0.5, 1)
    if (f) f[i] = static_cast<float>(v);
    if (d) d[i] = v;
  }
}

// A distribution's buffers: offsets (int32), values (float and double), columns and x for SpMV.
struct segment_data {
  std::int64_t segments = 0, n = 0, cols = 0;
  device_buffer offsets, values_f, values_d, values_h, col_index, x_f, x_d, out;
  segment_data(const std::vector<std::int64_t>& lengths, bool spmv, cudaStream_t stream) {
    segments = static_cast<std::int64_t>(lengths.size());
    std::vector<int> o(lengths.size() + 1, 0);
    for (std::size_t s = 0; s < lengths.size(); ++s) {
      const std::int64_t next = o[s] + lengths[s];
      if (next > INT32_MAX) throw std::runtime_error("distribution beyond 32-bit offsets");
      o[s + 1] = static_cast<int>(next);
    }
    n = o.back();
    offsets = device_buffer(o.size() * sizeof(int));
    BENCH_CHECK(cudaMemcpy(offsets.get(), o.data(), o.size() * sizeof(int), cudaMemcpyHostToDevice));
    values_f = device_buffer(static_cast<std::size_t>(n) * sizeof(float));
    if (spmv) values_d = device_buffer(static_cast<std::size_t>(n) * sizeof(double));
    fill_values<<<2048, 256, 0, stream>>>(values_f.as<float>(), spmv ? values_d.as<double>() : nullptr, n, 42);
    if (!spmv) {
      values_h = device_buffer(static_cast<std::size_t>(n) * sizeof(__half));
      round_to_half<<<2048, 256, 0, stream>>>(values_f.as<float>(), values_h.as<__half>(), n);
    }
    out = device_buffer(static_cast<std::size_t>(segments) * sizeof(double));
    if (spmv) {  // a square matrix: columns uniform over the rows
      cols = segments;
      std::mt19937_64 g(9);
      std::vector<int> c(static_cast<std::size_t>(n));
      for (auto& v : c) v = static_cast<int>(g() % static_cast<std::uint64_t>(cols));
      col_index = device_buffer(c.size() * sizeof(int));
      BENCH_CHECK(cudaMemcpy(col_index.get(), c.data(), c.size() * sizeof(int), cudaMemcpyHostToDevice));
      x_f = device_buffer(static_cast<std::size_t>(cols) * sizeof(float));
      x_d = device_buffer(static_cast<std::size_t>(cols) * sizeof(double));
      fill_values<<<2048, 256, 0, stream>>>(x_f.as<float>(), x_d.as<double>(), cols, 7);
    }
    BENCH_CHECK(cudaStreamSynchronize(stream));
  }
};

struct algorithm_row {
  std::string type, job, lib, dist;
  bool baseline = false;
  double bytes = 0;
  std::function<launcher()> prepare;
  std::function<std::vector<double>()> result;  // the output, read back after one call
  std::string name() const { return "segments/" + type + "/" + job + "/" + lib + "/" + dist; }
};

// A row's result function: one call of what `make` prepares, then the distribution's output (type T).
template <class T>
std::function<std::vector<double>()> output_after_one_call(std::shared_ptr<segment_data> data,
                                                           std::function<launcher()> make, cudaStream_t stream) {
  return [data, make, stream] {
    make()(0);
    BENCH_CHECK(cudaStreamSynchronize(stream));
    std::vector<T> h(static_cast<std::size_t>(data->segments));
    BENCH_CHECK(cudaMemcpy(h.data(), data->out.get(), h.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return std::vector<double>(h.begin(), h.end());
  };
}

// A CUB device call as a launcher: `call(temp, size)` is the call with its temporary storage; asked
// once with none for the size, which is allocated here, and then run with it on every launch.
template <class Call>
launcher cub_launcher(Call call) {
  std::size_t size = 0;
  call(nullptr, size);
  auto temp = std::make_shared<device_buffer>(size);
  return launcher([call, temp, size](std::int64_t) mutable { call(temp->get(), size); });
}

template <class P>
std::function<launcher()> tally_sum_call(std::shared_ptr<segment_data> data, cudaStream_t stream) {
  return [data, stream] {
    auto r = std::make_shared<tally::segments_reducer<P, float>>();
    r->reserve();
    return launcher([data, r, stream](std::int64_t) {
      (*r)(data->values_f.as<float>(), data->offsets.as<int>(), data->segments, data->out.as<float>(), stream);
    });
  };
}

// The same with the split planned once, before timing (segments_reducer::plan).
template <class P>
std::function<launcher()> tally_planned_sum_call(std::shared_ptr<segment_data> data, cudaStream_t stream) {
  return [data, stream] {
    auto r = std::make_shared<tally::segments_reducer<P, float>>();
    r->reserve();
    auto plan = std::make_shared<tally::segments_plan<int>>(r->plan(data->offsets.as<int>(), data->segments, stream));
    return launcher([data, r, plan, stream](std::int64_t) { (*r)(data->values_f.as<float>(), *plan, data->out.as<float>(), stream); });
  };
}

// Rows of one sum distribution: CUB, tally, and reduce_rows where every segment has one length;
// with tiles, other tile shapes of the merge path (tally_<Threads>x<Items>).
void add_sum_rows(std::vector<algorithm_row>& rows, const distribution& d, std::shared_ptr<segment_data> data,
                  cudaStream_t stream, bool tiles) {
  const double bytes = 4.0 * static_cast<double>(data->n) + 4.0 * static_cast<double>(data->segments + 1) +
                       4.0 * static_cast<double>(data->segments);
  const auto cub_call = [data, stream] {
    const int* o = data->offsets.as<int>();
    return cub_launcher([data, o, stream](void* temp, std::size_t& size) {
      BENCH_CHECK(cub::DeviceSegmentedReduce::Sum(temp, size, data->values_f.as<float>(), data->out.as<float>(),
                                                  data->segments, o, o + 1, stream));
    });
  };
  const auto tally_call = tally_sum_call<tally::default_segments_policy<float>>(data, stream);
  const auto read = [&](std::function<launcher()> make) { return output_after_one_call<float>(data, make, stream); };
  rows.push_back({"float", "sum", "cub_segmented", d.name, true, bytes, cub_call, read(cub_call)});
  rows.push_back({"float", "sum", "tally_default", d.name, false, bytes, tally_call, read(tally_call)});
  const auto planned_call = tally_planned_sum_call<tally::default_segments_policy<float>>(data, stream);
  rows.push_back({"float", "sum", "tally_planned", d.name, false, bytes, planned_call, read(planned_call)});
  // The begin / end form on the same segments (begins = offsets, ends = offsets + 1), as CUB reads them.
  const auto begin_end_call = [data, stream] {
    auto r = std::make_shared<tally::segments_reducer<tally::default_segments_policy<float>, float>>();
    r->reserve(data->segments);
    return launcher([data, r, stream](std::int64_t) {
      const int* o = data->offsets.as<int>();
      (*r)(data->values_f.as<float>(), o, o + 1, data->segments, data->out.as<float>(), stream);
    });
  };
  rows.push_back({"float", "sum", "tally_begin_end", d.name, false, bytes, begin_end_call, read(begin_end_call)});
  // The default without row shares and short shares: every share in tiles (docs/segments.md).
  using def = tally::default_segments_policy<float>;
  using tiles_only = tally::segments_policy<256, 17, def::accum, tally::launch::pdl, def::group_items, false, false>;
  const auto tiles_call = tally_sum_call<tiles_only>(data, stream);
  rows.push_back({"float", "sum", "tally_tiles", d.name, false, bytes, tiles_call, read(tiles_call)});
  // The default with lane groups of 4 items for tiles of short segments (the default walks every
  // tile of float sums: docs/segments.md).
  using groups = tally::segments_policy<256, 17, def::accum, tally::launch::pdl, 4>;
  const auto groups_call = tally_sum_call<groups>(data, stream);
  rows.push_back({"float", "sum", "tally_groups", d.name, false, bytes, groups_call, read(groups_call)});
  if (tiles) {
    const auto tile = [&](const char* lib, std::function<launcher()> call) {
      rows.push_back({"float", "sum", lib, d.name, false, bytes, call, read(call)});
    };
    tile("tally_256x9", tally_sum_call<tally::segments_policy<256, 9>>(data, stream));
    tile("tally_256x13", tally_sum_call<tally::segments_policy<256, 13>>(data, stream));
    tile("tally_128x25", tally_sum_call<tally::segments_policy<128, 25>>(data, stream));
    tile("tally_512x9", tally_sum_call<tally::segments_policy<512, 9>>(data, stream));
    // Lane groups sized for 2 and 8 elements a lane (the default: 4).
    using accum = tally::default_segments_policy<float>::accum;
    tile("tally_groups_of_2", tally_sum_call<tally::segments_policy<256, 17, accum, tally::launch::pdl, 2>>(data, stream));
    tile("tally_groups_of_8", tally_sum_call<tally::segments_policy<256, 17, accum, tally::launch::pdl, 8>>(data, stream));
  }
  if (d.uniform > 0) {
    const std::int64_t len = d.uniform;
    const auto rows_call = [data, stream, len] {
      auto r = std::make_shared<tally::rows_reducer<tally::default_rows_policy<float>, float>>();
      return launcher([data, r, stream, len](std::int64_t) {
        (*r)(data->values_f.as<float>(), data->segments, len, len, data->out.as<float>(), stream);
      });
    };
    rows.push_back({"float", "sum", "tally_rows", d.name, true, bytes, rows_call, read(rows_call)});
  }
}

// Half sums of one distribution (accumulated and written in float): CUB's Reduce with plus<float>,
// tally's default. 16-bit elements take their own kernels (lane groups, 2-byte loads).
void add_half_sum_rows(std::vector<algorithm_row>& rows, const distribution& d, std::shared_ptr<segment_data> data,
                       cudaStream_t stream) {
  const double bytes = 2.0 * static_cast<double>(data->n) + 4.0 * static_cast<double>(data->segments + 1) +
                       4.0 * static_cast<double>(data->segments);
  const auto cub_call = [data, stream] {
    const int* o = data->offsets.as<int>();
    return cub_launcher([data, o, stream](void* temp, std::size_t& size) {
      BENCH_CHECK(cub::DeviceSegmentedReduce::Reduce(temp, size, data->values_h.as<__half>(), data->out.as<float>(),
                                                     data->segments, o, o + 1, cuda::std::plus<float>{}, 0.0f, stream));
    });
  };
  const auto tally_call = [data, stream] {
    auto r = std::make_shared<tally::segments_reducer<tally::default_segments_policy<__half>, __half>>();
    r->reserve();
    return launcher([data, r, stream](std::int64_t) {
      (*r)(data->values_h.as<__half>(), data->offsets.as<int>(), data->segments, data->out.as<float>(), stream);
    });
  };
  const auto read = [&](std::function<launcher()> make) { return output_after_one_call<float>(data, make, stream); };
  rows.push_back({"half", "sum", "cub_segmented", d.name, true, bytes, cub_call, read(cub_call)});
  rows.push_back({"half", "sum", "tally_default", d.name, false, bytes, tally_call, read(tally_call)});
}

// cuSPARSE CSR SpMV of one type with one algorithm (y = A x, alpha 1, beta 0).
// The matrix's values and x in T (the data holds float and double copies).
template <class T>
const T* spmv_values(const segment_data& data) {
  return static_cast<const T*>(std::is_same_v<T, float> ? data.values_f.get() : data.values_d.get());
}
template <class T>
const T* spmv_x(const segment_data& data) {
  return static_cast<const T*>(std::is_same_v<T, float> ? data.x_f.get() : data.x_d.get());
}

template <class T>
std::function<launcher()> cusparse_call(std::shared_ptr<segment_data> data, cusparseSpMVAlg_t alg, cudaStream_t stream) {
  return [data, alg, stream] {
    struct state {
      cusparseHandle_t handle = nullptr;
      cusparseSpMatDescr_t a = nullptr;
      cusparseDnVecDescr_t x = nullptr, y = nullptr;
      device_buffer buffer;
      ~state() {
        cusparseDestroyDnVec(x);
        cusparseDestroyDnVec(y);
        cusparseDestroySpMat(a);
        cusparseDestroy(handle);
      }
    };
    constexpr cudaDataType dt = std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F;
    auto s = std::make_shared<state>();
    const T* values = spmv_values<T>(*data);
    const T* x = spmv_x<T>(*data);
    BENCH_CUSPARSE(cusparseCreate(&s->handle));
    BENCH_CUSPARSE(cusparseSetStream(s->handle, stream));
    BENCH_CUSPARSE(cusparseCreateCsr(&s->a, data->segments, data->cols, data->n, data->offsets.get(), data->col_index.get(),
                                     const_cast<T*>(values), CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, dt));
    BENCH_CUSPARSE(cusparseCreateDnVec(&s->x, data->cols, const_cast<T*>(x), dt));
    BENCH_CUSPARSE(cusparseCreateDnVec(&s->y, data->segments, data->out.get(), dt));
    const T one = 1, zero = 0;
    std::size_t size = 0;
    BENCH_CUSPARSE(cusparseSpMV_bufferSize(s->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a, s->x, &zero, s->y, dt, alg, &size));
    s->buffer = device_buffer(size);
    BENCH_CUSPARSE(cusparseSpMV_preprocess(s->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a, s->x, &zero, s->y, dt, alg,
                                           s->buffer.get()));
    return launcher([s, alg](std::int64_t) {
      const T one = 1, zero = 0;
      BENCH_CUSPARSE(cusparseSpMV(s->handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, s->a, s->x, &zero, s->y,
                                  std::is_same_v<T, float> ? CUDA_R_32F : CUDA_R_64F, alg, s->buffer.get()));
    });
  };
}

template <class P, class T>
std::function<launcher()> tally_spmv_call(std::shared_ptr<segment_data> data, cudaStream_t stream) {
  return [data, stream] {
    auto r = std::make_shared<tally::segments_reducer<P, T>>();
    r->reserve();
    const T* values = spmv_values<T>(*data);
    const T* x = spmv_x<T>(*data);
    return launcher([data, r, values, x, stream](std::int64_t) {
      r->dot(values, data->col_index.as<int>(), data->offsets.as<int>(), data->segments, x, data->out.as<T>(), stream);
    });
  };
}

template <class P, class T>
std::function<launcher()> tally_planned_spmv_call(std::shared_ptr<segment_data> data, cudaStream_t stream) {
  return [data, stream] {
    auto r = std::make_shared<tally::segments_reducer<P, T>>();
    r->reserve();
    auto plan = std::make_shared<tally::segments_plan<int>>(r->plan_dot(data->offsets.as<int>(), data->segments, stream));
    const T* values = spmv_values<T>(*data);
    const T* x = spmv_x<T>(*data);
    return launcher([data, r, plan, values, x, stream](std::int64_t) {
      r->dot(values, data->col_index.as<int>(), *plan, x, data->out.as<T>(), stream);
    });
  };
}

template <class T>
void add_spmv_rows(std::vector<algorithm_row>& rows, const distribution& d, std::shared_ptr<segment_data> data,
                   cudaStream_t stream) {
  const double t = sizeof(T);
  const double bytes = (t + 4.0 + t) * static_cast<double>(data->n) + 4.0 * static_cast<double>(data->segments + 1) +
                       t * static_cast<double>(data->segments);
  const std::string type = std::is_same_v<T, float> ? "float" : "double";
  const auto tally_call = tally_spmv_call<tally::default_csr_policy<T>, T>(data, stream);
  // The default walks every tile; with lane groups for tiles of short rows (the sums' default).
  using D = tally::default_csr_policy<T>;
  const auto groups_call = tally_spmv_call<tally::segments_policy<D::threads, D::items, typename D::accum, typename D::launch, 4>, T>(data, stream);
  const auto read = [&](std::function<launcher()> make) { return output_after_one_call<T>(data, make, stream); };
  const auto alg1 = cusparse_call<T>(data, CUSPARSE_SPMV_CSR_ALG1, stream);
  const auto alg2 = cusparse_call<T>(data, CUSPARSE_SPMV_CSR_ALG2, stream);
  rows.push_back({type, "spmv", "cusparse_alg1", d.name, true, bytes, alg1, read(alg1)});
  rows.push_back({type, "spmv", "cusparse_alg2", d.name, true, bytes, alg2, read(alg2)});
  rows.push_back({type, "spmv", "tally_default", d.name, false, bytes, tally_call, read(tally_call)});
  const auto planned_call = tally_planned_spmv_call<tally::default_csr_policy<T>, T>(data, stream);
  rows.push_back({type, "spmv", "tally_planned", d.name, false, bytes, planned_call, read(planned_call)});
  rows.push_back({type, "spmv", "tally_groups", d.name, false, bytes, groups_call, read(groups_call)});
}

// Before timing: every row's output agrees with its distribution's first baseline, within
// 1e-4 relative plus 1e-5 * the longest segment (values are +-[0.5, 1)).
void sanity_check(const std::vector<algorithm_row>& rows, const std::vector<std::size_t>& lengths_of) {
  std::vector<double> reference;
  std::string key;
  int compared = 0;
  for (std::size_t r = 0; r < rows.size(); ++r) {
    const algorithm_row& a = rows[r];
    const std::string k = a.type + "/" + a.job + "/" + a.dist;
    const std::vector<double> got = a.result();
    if (k != key) {
      key = k;
      reference = got;
      continue;
    }
    for (std::size_t i = 0; i < got.size(); ++i)
      if (!(std::fabs(got[i] - reference[i]) <= 1e-4 * (1.0 + std::fabs(reference[i])) + 1e-5 * static_cast<double>(lengths_of[r])))
        throw std::runtime_error("sanity check: " + a.name() + " segment " + std::to_string(i) + " gives " +
                                 std::to_string(got[i]) + ", the baseline " + std::to_string(reference[i]));
    ++compared;
  }
  std::printf("tally_bench_segments: sanity check: %d rows agree with their baselines\n", compared);
}

int run(int argc, char** argv) {
  command_line cl(argc, argv, {"--target_ms=", "--tiles", "--distributions="}, usage);
  double target_ms = 10;
  bool tiles = false;
  for (const std::string& a : cl.own()) {
    if (a == "--tiles") tiles = true;
    else if (a.rfind("--target_ms=", 0) == 0) target_ms = positive_flag(a, "milliseconds");
  }
  const std::regex distributions(flag_value(cl.own(), "distributions").value_or("."));
  if (!cl.start_benchmark(repetitions)) return 1;

  bench_env env(require_device());
  env.set_ceiling(measure_ceiling(env.device(), env.stream()));
  const cudaStream_t stream = env.stream();

  std::vector<algorithm_row> rows;
  std::vector<std::size_t> longest;  // per row: the longest segment (sanity tolerance)
  std::vector<std::shared_ptr<segment_data>> keep;
  std::printf("| distribution | segments | elements | MB |\n|---|---|---|---|\n");
  const auto add = [&](const distribution& d, bool spmv) {
    if (!std::regex_search(d.name, distributions)) return;
    const std::vector<std::int64_t> lengths = d.lengths();
    auto data = std::make_shared<segment_data>(lengths, spmv, stream);
    keep.push_back(data);
    std::printf("| %s | %lld | %lld | %.0f |\n", d.name.c_str(), static_cast<long long>(data->segments),
                static_cast<long long>(data->n), 4e-6 * static_cast<double>(data->n + 2 * data->segments));
    if (spmv) {
      add_spmv_rows<float>(rows, d, data, stream);
      add_spmv_rows<double>(rows, d, data, stream);
    } else {
      add_sum_rows(rows, d, data, stream, tiles);
      add_half_sum_rows(rows, d, data, stream);
    }
    const std::size_t l = static_cast<std::size_t>(*std::max_element(lengths.begin(), lengths.end()));
    longest.resize(rows.size(), l);
  };
  for (const distribution& d : sum_distributions()) add(d, false);
  for (const distribution& d : spmv_distributions()) add(d, true);
  sanity_check(rows, longest);

  add_context("GBps_definition",
              "bytes / time per call, 1e9 bytes per GB; bytes = values read + (S+1)*4 offsets + S*sizeof(T) outputs, "
              "+ for spmv 4 bytes of column index and sizeof(T) of x gathered per non-zero");
  add_context("vs_definition",
              "on tally_default rows: the baseline's median time / this row's (vs_cub: cub_segmented; vs_cusparse: the "
              "faster of cusparse_alg1 and alg2; vs_rows: tally_rows, where every segment has one length); same process, "
              "same buffers");
  add_context("l2_policy", "every call reads the same buffers; distributions beyond L2 stream from device memory");
  add_context("timing", "CUDA events around a batch of back-to-back calls (about 1 ms), median of 5 repetitions");

  const std::string filter = cl.benchmark_flag("benchmark_filter").value_or("");
  const std::regex keep_re(filter.empty() || filter[0] == '-' ? std::string(".") : filter);
  std::vector<timed_row> timed;
  for (const algorithm_row& a : rows) {
    if (!a.baseline && !std::regex_search(a.name(), keep_re)) continue;
    // Calls per batch (about batch_seconds) and batches per repetition (about target_ms) from one probe.
    timed_call probe(a.prepare(), 1, stream);
    const double call = std::max(probe.measure(), 1e-6);
    const int calls = std::clamp(static_cast<int>(std::lround(batch_seconds / call)), 1, 50);
    const std::int64_t batches = std::clamp<std::int64_t>(std::llround(target_ms * 1e-3 / (call * calls)), 3, 100);
    timed_row t{a.name(), a.prepare, calls, batches, a.bytes, {}, {}};
    if (!a.baseline) {
      const std::string prefix = "segments/" + a.type + "/" + a.job + "/";
      if (a.job == "sum") {
        t.compare.push_back({"vs_cub", {prefix + "cub_segmented/" + a.dist}});
        for (const algorithm_row& b : rows)
          if (b.lib == "tally_rows" && b.dist == a.dist && b.type == a.type) t.compare.push_back({"vs_rows", {b.name()}});
      } else {
        t.compare.push_back({"vs_cusparse", {prefix + "cusparse_alg1/" + a.dist, prefix + "cusparse_alg2/" + a.dist}});
      }
    }
    timed.push_back(t);
  }
  const results store = run_rows(timed, env, cl.benchmark_args());

  std::printf("\nSegments on %s (GB/s; read ceiling %.0f GB/s)\n", env.device().name.c_str(), env.ceiling().read_GBps);
  std::printf("| type | job | distribution | tally | GB/s | baselines (GB/s) | vs best baseline | %% ceiling |\n"
              "|---|---|---|---|---|---|---|---|\n");
  for (const algorithm_row& a : rows) {
    if (a.baseline) continue;
    const auto mine = store.median(a.name());
    if (!mine) continue;
    std::string base;
    std::optional<double> best;
    for (const algorithm_row& b : rows)
      if (b.baseline && b.type == a.type && b.job == a.job && b.dist == a.dist) {
        const auto m = store.median(b.name());
        if (!m) continue;
        base += b.lib + " " + std::to_string(std::lround(a.bytes / *m * 1e-9)) + " ";
        if (b.lib != "tally_rows" && (!best || *m < *best)) best = *m;
      }
    std::printf("| %s | %s | %s | %s | %ld | %s| %.3f | %.1f |\n", a.type.c_str(), a.job.c_str(), a.dist.c_str(),
                a.lib.c_str(), std::lround(a.bytes / *mine * 1e-9), base.c_str(), best ? *best / *mine : 0.0,
                100.0 * a.bytes / *mine * 1e-9 / env.ceiling().read_GBps);
  }
  return 0;
}

}  // namespace
}  // namespace bench

int main(int argc, char** argv) { return bench::guarded_main("tally_bench_segments", bench::run, argc, argv); }
