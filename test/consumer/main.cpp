// Through <tally/tally.hpp>, compiled by g++ alone: sums a vector, then reduces the rows of a
// matrix, multiplies it by a vector and transposes it, and checks every answer against the host.
// Exit status: 0 = everything matches, 1 = a mismatch or an error, 77 = no CUDA device to run on.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include <tally/tally.hpp>

namespace {

constexpr int no_device = 77;

void check(cudaError_t status, const char* call) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(call) + ": " + cudaGetErrorString(status));
}

// Device memory for count elements, freed at scope exit.
template <class T>
class device_array {
 public:
  explicit device_array(std::size_t count) {
    void* p = nullptr;  // the typed cudaMalloc overload lives in cuda_runtime.h, which is nvcc's
    check(cudaMalloc(&p, count * sizeof(T)), "cudaMalloc");
    ptr_ = static_cast<T*>(p);
  }
  explicit device_array(const std::vector<T>& host) : device_array(host.size()) {
    check(cudaMemcpy(ptr_, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice), "cudaMemcpy");
  }
  ~device_array() { cudaFree(ptr_); }
  device_array(const device_array&) = delete;
  device_array& operator=(const device_array&) = delete;
  T* get() const { return ptr_; }
  T read_first() const {
    T v{};
    check(cudaMemcpy(&v, ptr_, sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return v;
  }
  std::vector<T> read(std::size_t count) const {
    std::vector<T> v(count);
    check(cudaMemcpy(v.data(), ptr_, count * sizeof(T), cudaMemcpyDeviceToHost), "cudaMemcpy");
    return v;
  }

 private:
  T* ptr_ = nullptr;
};

// Row maxima (and where they are), y = A x and A's transpose of a 300 x 1000 matrix of small
// integers held in doubles, so that every answer is exact.
bool rows_matvec_transpose() {
  const tally::index_t m = 300, n = 1000;
  std::vector<double> a(m * n), x(n);
  for (tally::index_t i = 0; i < m * n; ++i) a[i] = static_cast<double>((i * 7919) % 2001 - 1000);
  for (tally::index_t j = 0; j < n; ++j) x[j] = static_cast<double>(j % 5 - 2);
  const device_array<double> d_a(a), d_x(x), d_y(m), d_t(m * n);
  const device_array<tally::arg<double>> d_max(m);
  tally::device_reducer reducer;
  reducer.row_arg_max(d_a.get(), m, n, n, d_max.get());
  tally::matvec(d_a.get(), m, n, n, d_x.get(), d_y.get());
  tally::transpose(d_a.get(), d_t.get(), m, n);
  const std::vector<tally::arg<double>> got_max = d_max.read(m);
  const std::vector<double> y = d_y.read(m), t = d_t.read(m * n);
  bool ok = true;
  for (tally::index_t i = 0; i < m; ++i) {
    tally::index_t where = 0;
    double dot = 0;
    for (tally::index_t j = 0; j < n; ++j) {
      if (a[i * n + j] > a[i * n + where]) where = j;
      dot += a[i * n + j] * x[j];
      ok &= t[j * m + i] == a[i * n + j];
    }
    ok &= got_max[i].index == where && got_max[i].value == a[i * n + where] && y[i] == dot;
  }
  std::printf("consumer: row_arg_max, matvec and transpose of a %lld x %lld matrix: %s\n", static_cast<long long>(m),
              static_cast<long long>(n), ok ? "ok" : "MISMATCH");
  return ok;
}

}  // namespace

int main() {
  int devices = 0;
  const cudaError_t status = cudaGetDeviceCount(&devices);
  if (status != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "consumer: no CUDA device (cudaGetDeviceCount: %s)\n",
                 status != cudaSuccess ? cudaGetErrorString(status) : "0 devices");
    return no_device;
  }

  try {
    // Not a power of two, more than one block's worth, and every value non-zero.
    const tally::index_t n = (tally::index_t{1} << 20) + 12345;
    std::mt19937_64 rng(20240601);
    std::uniform_real_distribution<double> real(0.5, 1.5);
    std::uniform_int_distribution<std::int64_t> integer(1, 1'000'000);
    std::vector<double> reals(n);
    std::vector<std::int64_t> integers(n);
    for (tally::index_t i = 0; i < n; ++i) {
      reals[i] = (i % 2 ? -1.0 : 1.0) * real(rng);
      integers[i] = (i % 3 ? 1 : -1) * integer(rng);
    }

    // Host references: exact for the integers, long double for the reals.
    long double real_ref = 0, real_abs = 0;
    std::int64_t integer_ref = 0;
    for (tally::index_t i = 0; i < n; ++i) {
      real_ref += reals[i];
      real_abs += std::fabs(reals[i]);
      integer_ref += integers[i];
    }

    const device_array<double> d_reals(reals);
    const device_array<std::int64_t> d_integers(integers);
    const device_array<double> d_real_sum(1);
    const device_array<std::int64_t> d_integer_sum(1);

    tally::sum(d_reals.get(), n, d_real_sum.get());  // one-off, default stream
    tally::device_reducer reducer;                     // owns its workspace; calls allocate nothing
    reducer.sum(d_integers.get(), n, d_integer_sum.get());
    check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

    const double real_sum = d_real_sum.read_first();
    const std::int64_t integer_sum = d_integer_sum.read_first();
    // Any order of n - 1 double additions is within (n - 1) * 2^-53 * sum|x| of the exact sum.
    const long double bound = static_cast<long double>(n) * 0x1p-53L * real_abs;
    const long double real_error = std::fabs(real_sum - real_ref);
    const bool real_ok = real_error <= bound;
    const bool integer_ok = integer_sum == integer_ref;

    std::printf("consumer: tally::sum of %lld doubles = %.17g (host %.17Lg, |difference| %.3Lg <= %.3Lg: %s)\n",
                static_cast<long long>(n), real_sum, real_ref, real_error, bound, real_ok ? "ok" : "MISMATCH");
    std::printf("consumer: device_reducer::sum of %lld int64 = %lld (host %lld: %s)\n", static_cast<long long>(n),
                static_cast<long long>(integer_sum), static_cast<long long>(integer_ref),
                integer_ok ? "ok" : "MISMATCH");
    return real_ok && integer_ok && rows_matvec_transpose() ? 0 : 1;
  } catch (const std::exception& e) {  // tally::error included: its message names the call and the problem
    std::fprintf(stderr, "consumer: %s\n", e.what());
    return 1;
  }
}
