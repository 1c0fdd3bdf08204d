// Must not compile: a struct with no operator+ cannot be summed.
#include <tally/reduce.cuh>

struct opaque {
  int x;
};

void f(const opaque* in, opaque* out) { tally::reduce<tally::default_reduce_policy<opaque>>(in, 10, out); }
