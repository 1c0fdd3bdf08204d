// An algorithm is one way of reducing: an element type, an operator and a library (CUB, Thrust) or
// a tally composition. The per-type translation units (catalog_*.cu) build them with nvcc;
// everything else (timing, registration, checks, reports) sees only this type-erased form.
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace bench {

// Enqueues one reduction of input slice number `call` (inputs.hpp) on the benchmark stream.
using launcher = std::function<void(std::int64_t call)>;

// A result read back for the sanity check. int32, float and double convert to double exactly;
// index is -1 for operators without one.
struct host_result {
  double value = 0;
  std::int64_t index = -1;
};

struct algorithm {
  std::string type;  // "float", "int32", "double"
  std::string op;    // "sum", "min", "arg_min"
  std::string lib;   // "cub", "thrust", "tally_default", "tally_kahan" (float, double sum), "ladder_<rung>",
                     // "read_floor" (sum; reads the input and reduces nothing, read_floor.hpp)
  std::size_t element_bytes = 0;
  bool waits_each_call = false;  // Thrust: every call returns its result to the host
  // Allocates what reductions of n elements need (workspace, output), outside any timing, and
  // returns the call; the launcher owns those allocations.
  std::function<launcher(std::int64_t n)> prepare;
  // Reduces slice 0 of n elements once, waits, and returns the result; empty for a reference row
  // that reduces nothing (read_floor.hpp).
  std::function<host_result(std::int64_t n)> result;

  bool is_cub() const { return lib == "cub"; }
  bool is_ladder() const { return lib.rfind("ladder_", 0) == 0; }
};

using catalog = std::vector<algorithm>;

class bench_env;
// One translation unit each (catalog_<type>.cu), so that the instantiations compile in parallel.
void add_float_algorithms(catalog&, const bench_env&);   // cub, thrust, tally_default x sum, min, arg_min
void add_int32_algorithms(catalog&, const bench_env&);
void add_double_algorithms(catalog&, const bench_env&);
void add_ladder_algorithms(catalog&, const bench_env&);  // tally::reduce_policies::* for int32 and float sum

}  // namespace bench
