// One process driving every visible GPU, one NCCL rank each (ncclCommInitAll): each rank holds an
// uneven part of one array, and tally::nccl gives every rank the reproducible float sum and the
// arg_max of the whole array. Every rank's result must have the bits of tally::reduce of the whole
// array on GPU 0; the program prints them and returns 0 when they agree.
//
//   nccl_all_reduce [n]      (n elements in all, default 2^24 + 5)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <tally/nccl.cuh>

namespace {

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(status));
}
void check(ncclResult_t status, const char* call) {
  if (status != ncclSuccess) throw std::runtime_error(std::string(call) + ": " + ncclGetErrorString(status));
}
#define CHECK(call) check((call), #call)

using sum_policy = tally::default_reduce_policy<float>::with_accum<tally::accum::reproducible>;
using arg_policy = tally::default_reduce_policy<float, tally::op::arg_max>;

int run(tally::index_t n) {
  // NVLink multicast stays off on these machines; a value the caller set wins.
  setenv("NCCL_NVLS_ENABLE", "0", 0);
  int ranks = 0;
  CHECK(cudaGetDeviceCount(&ranks));
  if (ranks == 0) {
    std::printf("no CUDA device\n");
    return 1;
  }
  std::vector<float> h(static_cast<std::size_t>(n));
  for (tally::index_t i = 0; i < n; ++i) h[static_cast<std::size_t>(i)] = std::sin(0.001f * static_cast<float>(i)) * (1 + i % 7);

  std::vector<ncclComm_t> comms(static_cast<std::size_t>(ranks));
  CHECK(ncclCommInitAll(comms.data(), ranks, nullptr));  // rank r on device r

  // Rank r holds elements [first[r], first[r + 1]): uneven parts, the later ranks' larger.
  std::vector<tally::index_t> counts(static_cast<std::size_t>(ranks));
  tally::index_t weight = static_cast<tally::index_t>(ranks) * (ranks + 1) / 2, given = 0;
  for (int r = 0; r < ranks; ++r) {
    counts[static_cast<std::size_t>(r)] = r + 1 == ranks ? n - given : n / weight * (r + 1);
    given += counts[static_cast<std::size_t>(r)];
  }

  using sum_reducer = tally::nccl::reducer<sum_policy, float>;
  using arg_reducer = tally::nccl::reducer<arg_policy, float, tally::op::arg_max>;
  std::vector<std::unique_ptr<sum_reducer>> sums;
  std::vector<std::unique_ptr<arg_reducer>> args;
  std::vector<sum_reducer*> sum_ptrs;
  std::vector<arg_reducer*> arg_ptrs;
  std::vector<const float*> parts;
  std::vector<float*> sum_out;
  std::vector<tally::arg<float>*> arg_out;
  std::vector<cudaStream_t> streams;
  tally::index_t first = 0;
  for (int r = 0; r < ranks; ++r) {
    CHECK(cudaSetDevice(r));
    const tally::index_t c = counts[static_cast<std::size_t>(r)];
    float* part = nullptr;
    CHECK(cudaMalloc(&part, (c > 0 ? c : 1) * sizeof(float)));
    CHECK(cudaMemcpy(part, h.data() + first, c * sizeof(float), cudaMemcpyHostToDevice));
    float* s = nullptr;
    tally::arg<float>* a = nullptr;
    CHECK(cudaMalloc(&s, sizeof(float)));
    CHECK(cudaMalloc(&a, sizeof(tally::arg<float>)));
    cudaStream_t stream = nullptr;
    CHECK(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking));
    sums.push_back(std::make_unique<sum_reducer>(comms[static_cast<std::size_t>(r)]));  // on device r
    args.push_back(std::make_unique<arg_reducer>(comms[static_cast<std::size_t>(r)]));
    sum_ptrs.push_back(sums.back().get());
    arg_ptrs.push_back(args.back().get());
    parts.push_back(part);
    sum_out.push_back(s);
    arg_out.push_back(a);
    streams.push_back(stream);
    first += c;
  }

  // Each call: every rank's local reduce, one group of NCCL exchanges, every rank's fold.
  tally::nccl::all_reduce_group(sum_ptrs.data(), ranks, parts.data(), counts.data(), sum_out.data(), streams.data());
  tally::nccl::all_reduce_group(arg_ptrs.data(), ranks, parts.data(), counts.data(), arg_out.data(), streams.data());

  // The single-GPU answer of the whole array, on GPU 0.
  CHECK(cudaSetDevice(0));
  float* whole = nullptr;
  float* one_sum = nullptr;
  tally::arg<float>* one_arg = nullptr;
  CHECK(cudaMalloc(&whole, n * sizeof(float)));
  CHECK(cudaMalloc(&one_sum, sizeof(float)));
  CHECK(cudaMalloc(&one_arg, sizeof(tally::arg<float>)));
  CHECK(cudaMemcpy(whole, h.data(), n * sizeof(float), cudaMemcpyHostToDevice));
  tally::reduce<sum_policy>(whole, n, one_sum);
  tally::reduce<arg_policy>(whole, n, one_arg, tally::op::arg_max{});
  float expected_sum = 0;
  tally::arg<float> expected_arg{};
  CHECK(cudaMemcpy(&expected_sum, one_sum, sizeof(float), cudaMemcpyDeviceToHost));
  CHECK(cudaMemcpy(&expected_arg, one_arg, sizeof(expected_arg), cudaMemcpyDeviceToHost));
  std::printf("one GPU:  sum %.9g  arg_max %.9g at %lld  (%lld elements)\n", expected_sum, expected_arg.value,
              static_cast<long long>(expected_arg.index), static_cast<long long>(n));

  bool ok = true;
  for (int r = 0; r < ranks; ++r) {
    CHECK(cudaSetDevice(r));
    CHECK(cudaStreamSynchronize(streams[static_cast<std::size_t>(r)]));
    float got_sum = 0;
    tally::arg<float> got_arg{};
    CHECK(cudaMemcpy(&got_sum, sum_out[static_cast<std::size_t>(r)], sizeof(float), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&got_arg, arg_out[static_cast<std::size_t>(r)], sizeof(got_arg), cudaMemcpyDeviceToHost));
    // Compared field by field: arg<float> has padding bytes that carry nothing.
    const bool same = std::memcmp(&got_sum, &expected_sum, sizeof(float)) == 0 &&
                      std::memcmp(&got_arg.value, &expected_arg.value, sizeof(float)) == 0 &&
                      got_arg.index == expected_arg.index;
    ok = ok && same;
    std::printf("rank %d:   sum %.9g  arg_max %.9g at %lld  (%lld elements)  %s\n", r, got_sum, got_arg.value,
                static_cast<long long>(got_arg.index), static_cast<long long>(counts[static_cast<std::size_t>(r)]),
                same ? "same bits" : "DIFFERENT");
  }

  for (int r = 0; r < ranks; ++r) {
    CHECK(cudaSetDevice(r));
    sums[static_cast<std::size_t>(r)].reset();
    args[static_cast<std::size_t>(r)].reset();
    cudaFree(const_cast<float*>(parts[static_cast<std::size_t>(r)]));
    cudaFree(sum_out[static_cast<std::size_t>(r)]);
    cudaFree(arg_out[static_cast<std::size_t>(r)]);
    cudaStreamDestroy(streams[static_cast<std::size_t>(r)]);
    ncclCommDestroy(comms[static_cast<std::size_t>(r)]);
  }
  CHECK(cudaSetDevice(0));
  cudaFree(whole);
  cudaFree(one_sum);
  cudaFree(one_arg);
  std::printf("%s\n", ok ? "every rank has the single-GPU bits" : "MISMATCH");
  return ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const tally::index_t n = argc > 1 ? std::atoll(argv[1]) : (tally::index_t{1} << 24) + 5;
    return run(n);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "nccl_all_reduce: %s\n", e.what());
    return 1;
  }
}
