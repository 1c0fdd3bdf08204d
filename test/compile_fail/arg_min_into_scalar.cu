// Must not compile: arg_min produces a value and an index, so its output is tally::arg<V>.
#include <tally/reduce.cuh>

void f(const float* in, float* out) {
  tally::reduce<tally::default_reduce_policy<float, tally::op::arg_min>>(in, 10, out, tally::op::arg_min{});
}
