// Must not compile: a row strategy that plans but cannot launch breaks the row-strategy contract,
// and rows_policy names the missing member.
#include <tally/reduce_rows.cuh>

struct plans_only {
  static constexpr const char* name = "plans_only";
  static constexpr bool fixed_order = true;
  template <class T>
  static constexpr void plan(tally::rows_plan& p, const tally::rows_device&) { p.blocks = 1; }
};

void f(const float* a, float* out) { tally::reduce_rows<plans_only>(a, 4, 4, 4, out); }
