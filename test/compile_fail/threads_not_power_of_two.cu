// Must not compile: block policies need a power-of-two block of 32 to 1024 threads.
#include <tally/reduce.cuh>

using bad = tally::reduce_policy<tally::load::single, tally::block::sequential, tally::smem::static_array, 100>;
static_assert(bad::threads == 100);
