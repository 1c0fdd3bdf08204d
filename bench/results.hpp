// Per-call times of every row that ran, kept in the process: the comparisons of harness.hpp and
// the closing tables read them.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace bench {

class results {
 public:
  // One repetition's mean time per call.
  void add(const std::string& name, double seconds_per_call) { times_[name].push_back(seconds_per_call); }
  // Median over the repetitions recorded so far.
  std::optional<double> median(const std::string& name) const;

 private:
  std::map<std::string, std::vector<double>> times_;
};

}  // namespace bench
