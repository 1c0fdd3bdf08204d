// Shared-memory layouts: bytes per layout and type, the padded index mapping, and a model of the
// 32 banks that shows which access patterns conflict in which layout.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include <tally/reduce.cuh>

#include "bank_model.hpp"

using namespace tally;
using tally::test::conflict_ways;

TEST_CASE("shared-memory bytes per layout and state type") {
  CHECK(smem::static_array::static_bytes<float, 256> == 1024);
  CHECK(smem::static_array::dynamic_bytes<float, 256> == 0);
  CHECK(smem::dynamic::static_bytes<double, 256> == 0);
  CHECK(smem::dynamic::dynamic_bytes<double, 256> == 2048);
  // padded: one extra element per 128-byte row (per 32 elements for types under 4 bytes).
  CHECK(smem::padded::static_bytes<float, 256> == (256 + 8) * 4);
  CHECK(smem::padded::static_bytes<double, 256> == (256 + 16) * 8);
  CHECK(smem::padded::static_bytes<arg<double>, 256> == (256 + 32) * 16);
  CHECK(smem::padded::static_bytes<__half, 256> == (256 + 8) * 2);
  using P = reduce_policy<load::single, block::warp_shuffle, smem::dynamic, 512>;
  CHECK(P::dynamic_smem_bytes<arg<float>> == 16 * sizeof(arg<float>));
}

TEST_CASE("padded mapping: one pad element after each 128-byte row") {
  using M = smem::padded_map<float>;
  CHECK(M::index(0) == 0);
  CHECK(M::index(31) == 31);
  CHECK(M::index(32) == 33);
  CHECK(M::index(64) == 66);
  CHECK(smem::padded_map<double>::index(16) == 17);
  CHECK(smem::padded_map<arg<double>>::index(8) == 9);
  CHECK(smem::padded_map<__half>::index(32) == 33);
}

namespace {

// Worst conflict over every step and warp of interleaved_strided's accesses: slot 2*s*tid and its
// partner 2*s*tid + s, mapped through layout Map.
template <class T, class Map>
int strided_worst(int threads) {
  int worst = 1;
  for (int s = 1; s < threads; s *= 2)
    for (int warp = 0; warp < threads / 32; ++warp)
      for (int partner = 0; partner <= 1; ++partner) {
        std::vector<long> idx(32, -1);
        for (int lane = 0; lane < 32; ++lane) {
          const int i = 2 * s * (warp * 32 + lane);
          if (i < threads) idx[lane] = Map::index(i + partner * s);
        }
        worst = std::max(worst, conflict_ways<T>(idx));
      }
  return worst;
}

// Worst conflict of sequential addressing: slot tid and tid + s for tid < s.
template <class T, class Map>
int sequential_worst(int threads) {
  int worst = 1;
  for (int s = threads / 2; s > 0; s /= 2)
    for (int warp = 0; warp < threads / 32; ++warp)
      for (int partner = 0; partner <= 1; ++partner) {
        std::vector<long> idx(32, -1);
        for (int lane = 0; lane < 32; ++lane) {
          const int tid = warp * 32 + lane;
          if (tid < s) idx[lane] = Map::index(tid + partner * s);
        }
        worst = std::max(worst, conflict_ways<T>(idx));
      }
  return worst;
}

// conflict_free_up_to: the largest block for which padded promises a conflict-free strided
// pattern (smem.cuh states the same limits).
template <class T>
void check_layouts(int conflict_free_up_to) {
  for (int threads : {64, 128, 256, 512, 1024}) {
    CAPTURE(threads);
    // The unpadded strided pattern conflicts (the model can see a conflict) ...
    CHECK(strided_worst<T, smem::contiguous_map>(threads) >= 2);
    // ... and padding removes every conflict within its promise, and is never worse beyond it.
    if (threads <= conflict_free_up_to) CHECK(strided_worst<T, smem::padded_map<T>>(threads) == 1);
    else CHECK(strided_worst<T, smem::padded_map<T>>(threads) <= strided_worst<T, smem::contiguous_map>(threads));
    // Sequential addressing is conflict-free in both layouts.
    CHECK(sequential_worst<T, smem::contiguous_map>(threads) == 1);
    CHECK(sequential_worst<T, smem::padded_map<T>>(threads) == 1);
  }
}

}  // namespace

TEST_CASE("bank model: padded removes interleaved_strided's conflicts, 4-byte states, any block") {
  check_layouts<float>(1024);
}
TEST_CASE("bank model: padded removes interleaved_strided's conflicts, 8-byte states, up to 256 threads") {
  check_layouts<double>(256);
}
TEST_CASE("bank model: padded removes interleaved_strided's conflicts, 16-byte states, up to 64 threads") {
  check_layouts<arg<double>>(64);
}
