// tally_bench's closing tables (summary.hpp says what they share with the other programs').
#pragma once
#include <string>

#include "ceiling.hpp"
#include "results.hpp"
#include "rows.hpp"

namespace bench {

// The optimisation ladder at n = 2^22 and 2^24, int32 sum, back_to_back: time, GB/s, step and
// cumulative speed-up per rung, next to Harris' G80 figures and seed 002's table.
void print_ladder_report(const results& r, const std::string& gpu);

// One line per type, op and n in {2^10, 2^16, 2^20, 2^24, 2^28}: tally_default and CUB GB/s and
// vs_cub, single and back_to_back.
void print_summary(const results& r, const std::string& gpu, const bandwidth_ceiling& ceiling);

// tally_kahan against tally_default for float and double sums, where both ran: the cost of
// compensated summation.
void print_kahan_cost(const results& r, const std::string& gpu);

}  // namespace bench
