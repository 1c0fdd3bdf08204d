// Every block x smem composition with one load policy, on float and int32 sums over every test
// size. Each (size, type) gets a fresh data set, shared by the 15 compositions.
#pragma once
#include "check.cuh"

namespace tally::test {

using all_blocks = type_list<block::interleaved, block::interleaved_strided, block::sequential,
                             block::sequential_unrolled, block::warp_shuffle>;
using all_smems = type_list<smem::static_array, smem::dynamic, smem::padded>;

template <class Load>
void check_compositions_with_load() {
  for (const index_t n : test_sizes()) {
    for_each_type(type_list<float, std::int32_t>{}, [&](auto t) {
      using T = typename decltype(t)::type;
      const dataset<T> d(n, next_seed());
      const auto truth = host_truth<op::sum>(d);
      for_each_type(all_blocks{}, [&](auto b) {
        for_each_type(all_smems{}, [&](auto s) {
          using P = reduce_policy<Load, typename decltype(b)::type, typename decltype(s)::type, 256>;
          check_reduce<P, op::sum>(d, truth);
        });
      });
    });
  }
}

}  // namespace tally::test
