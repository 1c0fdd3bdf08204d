// Before any timing: every algorithm that rows will time gives CUB's answer wherever the answer
// does not depend on the order of combination: int32 sums (exact integer arithmetic), min, and
// arg_min (value and lowest index) of every type. Float and double sums are not compared (their
// rounding depends on the order). Checked at n = 1000003 and at the largest n the algorithm's rows
// use. A mismatch throws: timing a wrong answer is pointless.
#pragma once
#include <vector>

#include "rows.hpp"

namespace bench {

// Returns the number of (algorithm, n) pairs compared.
int check_against_cub(const std::vector<row>& rows);

}  // namespace bench
