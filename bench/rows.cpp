#include "rows.hpp"

#include <algorithm>
#include <cmath>

namespace bench {

namespace {

constexpr double launch_floor_seconds = 5e-6;  // a call's launches, however small n is
constexpr double event_wait_seconds = 15e-6;   // two event records and a host wait per measurement
constexpr double host_return_seconds = 30e-6;  // a call that returns its result to the host
constexpr double batch_seconds = 2e-3;

}  // namespace

std::string row_name(const std::string& type, const std::string& op, const std::string& lib, mode m, std::int64_t n) {
  return "reduce/" + type + "/" + op + "/" + lib + "/" + mode_name(m) + "/" + std::to_string(n);
}

timed_row row::timed() const {
  const algorithm* a = alg;
  const std::int64_t size = n;
  timed_row t{name(), [a, size] { return a->prepare(size); }, calls, iterations,
              static_cast<double>(n) * static_cast<double>(alg->element_bytes), {}, {}};
  if (cub != nullptr) t.compare.push_back({"vs_cub", {row_name(cub->type, cub->op, cub->lib, m, n)}});
  return t;
}

row plan_row(const algorithm& alg, const algorithm* cub, std::int64_t n, mode m, const bandwidth_ceiling& ceiling,
             double target_seconds) {
  const double bytes = static_cast<double>(n) * static_cast<double>(alg.element_bytes);
  const double call = bytes / (ceiling.read_GBps * 1e9) + launch_floor_seconds +
                      (alg.waits_each_call ? host_return_seconds : 0.0);
  row r{&alg, alg.is_cub() ? nullptr : cub, n, m, 1, 1};
  if (m == mode::back_to_back) r.calls = std::clamp(static_cast<int>(std::ceil(batch_seconds / call)), 10, 100);
  const auto wanted = static_cast<std::int64_t>(std::llround(target_seconds / (r.calls * call + event_wait_seconds)));
  r.iterations = m == mode::single ? std::clamp<std::int64_t>(wanted, 10, 1000) : std::clamp<std::int64_t>(wanted, 5, 100);
  return r;
}

}  // namespace bench
