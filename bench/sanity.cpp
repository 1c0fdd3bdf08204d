#include "sanity.hpp"

#include <algorithm>
#include <map>
#include <sstream>
#include <stdexcept>

namespace bench {

namespace {

bool order_independent(const algorithm& a) { return a.op != "sum" || a.type == "int32"; }

std::string describe(const host_result& r) {
  std::ostringstream s;
  s.precision(17);
  s << r.value;
  if (r.index >= 0) s << " at index " << r.index;
  return s.str();
}

}  // namespace

int check_against_cub(const std::vector<row>& rows) {
  std::map<const algorithm*, std::pair<const algorithm*, std::int64_t>> largest;  // alg -> (cub, max n)
  for (const row& r : rows) {
    if (r.cub == nullptr || !r.alg->result || !order_independent(*r.alg)) continue;
    auto& entry = largest[r.alg];
    entry = {r.cub, std::max(entry.second, r.n)};
  }
  std::map<std::pair<const algorithm*, std::int64_t>, host_result> cub_results;
  int compared = 0;
  for (const auto& [alg, entry] : largest) {
    const auto& [cub, max_n] = entry;
    for (const std::int64_t n : {std::min<std::int64_t>(1000003, max_n), max_n}) {
      auto it = cub_results.find({cub, n});
      if (it == cub_results.end()) it = cub_results.emplace(std::pair{cub, n}, cub->result(n)).first;
      const host_result got = alg->result(n);
      if (got.value != it->second.value || got.index != it->second.index)
        throw std::runtime_error("sanity check failed: reduce/" + alg->type + "/" + alg->op + "/" + alg->lib +
                                 " at n = " + std::to_string(n) + " gives " + describe(got) + ", CUB gives " +
                                 describe(it->second));
      ++compared;
    }
  }
  return compared;
}

}  // namespace bench
