// Must not compile: a __device__ lambda that cannot combine two states of the accumulator type.
// nvcc cannot check it in host code, so the device pass does, in a sentence.
#include <tally/reduce.cuh>

void f(const float* in, float* out) {
  auto bad = tally::op::make_op([] __device__(const float* a, float b) { return b + *a; }, 0.0f);
  tally::reduce<tally::default_reduce_policy<float, decltype(bad)>>(in, 10, out, bad);
}
