// What the closing tables share: printed after the benchmarks from the medians the rows left
// (results.hpp), so that they agree with the JSON's median rows, as GB/s and ratios in
// fixed-width cells, "-" where a row did not run.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

namespace bench {

// bytes / seconds, 1e9 bytes per GB.
std::optional<double> gbps(std::optional<double> seconds, double bytes);

// a / b.
std::optional<double> ratio(std::optional<double> a, std::optional<double> b);

// v right-aligned in `width` characters with `precision` decimals; "-" where v is missing or not positive.
std::string cell(std::optional<double> v, int width, int precision);

// "2^k" for a power of two, the number otherwise.
std::string size_label(std::int64_t n);

}  // namespace bench
