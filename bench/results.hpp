// Per-call times of every row that ran, kept in the process: the CUB baseline of vs_cub and the
// closing tables read them. Rows are named
//
//   reduce/<type>/<op>/<lib>/<mode>/<n>     e.g. reduce/float/sum/tally_default/back_to_back/1048576
//
// type: float | int32 | double; op: sum | min | arg_min; lib: cub | thrust | tally_default | tally_no_pdl |
// ladder_<rung>; mode: single | back_to_back; n: elements.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "timing.hpp"

namespace bench {

std::string row_name(const std::string& type, const std::string& op, const std::string& lib, mode m, std::int64_t n);

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
