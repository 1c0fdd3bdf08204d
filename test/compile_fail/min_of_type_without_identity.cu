// Must not compile: the type is ordered but min has no identity (largest value) for it; the user
// must wrap a functor with tally::op::make_op(f, identity) instead.
#include <tally/reduce.cuh>

struct ordered {
  int x;
  __host__ __device__ bool operator<(const ordered& o) const { return x < o.x; }
};

void f(const ordered* in, ordered* out) { tally::reduce<tally::default_reduce_policy<ordered>>(in, 10, out, tally::op::min{}); }
