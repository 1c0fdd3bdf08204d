#include "results.hpp"

#include <algorithm>

namespace bench {

std::string row_name(const std::string& type, const std::string& op, const std::string& lib, mode m, std::int64_t n) {
  return "reduce/" + type + "/" + op + "/" + lib + "/" + mode_name(m) + "/" + std::to_string(n);
}

std::optional<double> results::median(const std::string& name) const {
  const auto it = times_.find(name);
  if (it == times_.end() || it->second.empty()) return std::nullopt;
  std::vector<double> v = it->second;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace bench
