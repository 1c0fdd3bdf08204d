#include "summary.hpp"

#include <cstdio>

namespace bench {

std::optional<double> gbps(std::optional<double> seconds, double bytes) {
  if (!seconds) return std::nullopt;
  return bytes / *seconds * 1e-9;
}

std::optional<double> ratio(std::optional<double> a, std::optional<double> b) {
  if (!a || !b) return std::nullopt;
  return *a / *b;
}

std::string cell(std::optional<double> v, int width, int precision) {
  char buf[64];
  if (v && *v > 0)
    std::snprintf(buf, sizeof buf, "%*.*f", width, precision, *v);
  else
    std::snprintf(buf, sizeof buf, "%*s", width, "-");
  return buf;
}

std::string size_label(std::int64_t n) {
  for (int k = 0; k < 63; ++k)
    if (n == std::int64_t{1} << k) return "2^" + std::to_string(k);
  return std::to_string(n);
}

}  // namespace bench
