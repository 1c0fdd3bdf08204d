#include "results.hpp"

#include <algorithm>

namespace bench {

std::optional<double> results::median(const std::string& name) const {
  const auto it = times_.find(name);
  if (it == times_.end() || it->second.empty()) return std::nullopt;
  std::vector<double> v = it->second;
  std::sort(v.begin(), v.end());
  const std::size_t m = v.size() / 2;
  return v.size() % 2 == 1 ? v[m] : 0.5 * (v[m - 1] + v[m]);
}

}  // namespace bench
