// The transpose's two phases (detail::transpose_tile) run on the host, thread by thread and tile by
// tile, for every named composition, 2-, 4- and 8-byte elements and odd shapes: the kernel's index
// arithmetic, bounds, tile layouts and the choice of vector or element-wise path are checked for
// real here, where there is no GPU. Vector accesses must be aligned (the emulation throws if not).
#include <doctest/doctest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include <cuda_fp16.h>

#include <tally/transpose.cuh>

using namespace tally;

namespace {

constexpr unsigned char poison = 0xA5;

// 16-byte aligned storage for `count` elements.
template <class T>
struct aligned_buffer {
  std::vector<uint4> words;
  explicit aligned_buffer(std::size_t count) : words((count * sizeof(T) + 15) / 16 + 1) {
    std::memset(words.data(), poison, words.size() * sizeof(uint4));
  }
  T* data() { return reinterpret_cast<T*>(words.data()); }
};

std::uint64_t mix(std::uint64_t i) {
  std::uint64_t z = 0x9E3779B97F4A7C15ull * (i + 1);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

template <class T>
T element(index_t i) {  // arbitrary bits, never the poison pattern's
  const std::uint64_t h = mix(static_cast<std::uint64_t>(i)) & 0x5A5A5A5A5A5A5A5Aull;
  T v;
  std::memcpy(static_cast<void*>(&v), &h, sizeof(T));
  return v;
}

// tally::transpose<P>, with the kernel's phases run on the host.
template <class P, class T, int V>
void emulate_path(const T* in, T* out, const transpose_plan& p) {
  using agent = detail::transpose_tile<P, T, V>;
  for (index_t b = 0; b < p.tiles; ++b) {
    const detail::tile_origin o = detail::origin_of_block<P>(b, p.tile_rows, p.tile_cols);
    if constexpr (P::smem::has_tile) {
      using Map = typename P::smem::template tile_map<P::tile, V>;
      aligned_buffer<T> shared(Map::slots);  // poisoned: a slot read before it is written shows up
      const smem::tile_view<T, Map> tile{shared.data()};
      for (unsigned t = 0; t < P::threads; ++t) agent::load(in, p.rows, p.cols, o, t, tile);
      for (unsigned t = 0; t < P::threads; ++t) agent::store(out, p.rows, p.cols, o, t, tile);
    } else {
      for (unsigned t = 0; t < P::threads; ++t) agent::copy_direct(in, out, p.rows, p.cols, o, t);
    }
  }
}

template <class P, class T>
bool emulate(const T* in, T* out, index_t rows, index_t cols) {
  detail::validate_transpose(in, out, rows, cols, "emulate");
  const transpose_plan p =
      plan_transpose<P, T>(rows, cols, reinterpret_cast<std::uintptr_t>(in), reinterpret_cast<std::uintptr_t>(out));
  constexpr int v = P::template vector_elems<T>;
  if constexpr (v > 1) {
    if (p.vectorized) {
      emulate_path<P, T, v>(in, out, p);
      return true;
    }
  }
  emulate_path<P, T, 1>(in, out, p);
  return false;
}

// Transposes a rows x cols input placed in_offset elements into its buffer to an output
// out_offset elements into a guarded buffer; every output element and every guard byte is checked.
template <class P, class T>
void check_emulated(index_t rows, index_t cols, index_t in_offset, index_t out_offset) {
  CAPTURE(P::name());
  CAPTURE(sizeof(T));
  CAPTURE(rows);
  CAPTURE(cols);
  CAPTURE(in_offset);
  CAPTURE(out_offset);
  const index_t n = rows * cols, guard = 16;
  aligned_buffer<T> in(static_cast<std::size_t>(n + in_offset));
  for (index_t i = 0; i < n; ++i) in.data()[in_offset + i] = element<T>(i);
  aligned_buffer<T> out(static_cast<std::size_t>(guard + out_offset + n + guard));
  T* o = out.data() + guard + out_offset;
  const bool vectors = emulate<P>(in.data() + in_offset, o, rows, cols);
  constexpr int v = P::template vector_elems<T>;
  CHECK(vectors == (v > 1 && rows % v == 0 && cols % v == 0 && in_offset == 0 && out_offset == 0));
  index_t bad = 0;
  for (index_t j = 0; j < cols; ++j)
    for (index_t i = 0; i < rows; ++i) {
      const T want = element<T>(i * cols + j);
      bad += std::memcmp(&o[j * rows + i], &want, sizeof(T)) != 0;
    }
  CHECK(bad == 0);
  const auto* bytes = reinterpret_cast<const unsigned char*>(out.data());
  index_t touched = 0;
  for (index_t k = 0; k < (guard + out_offset) * static_cast<index_t>(sizeof(T)); ++k) touched += bytes[k] != poison;
  const auto* after = reinterpret_cast<const unsigned char*>(o + n);
  for (index_t k = 0; k < guard * static_cast<index_t>(sizeof(T)); ++k) touched += after[k] != poison;
  CHECK(touched == 0);
}

struct shape {
  index_t rows, cols;
};

// Every shape through every composition, from aligned buffers (vectors where the dimensions allow)
// and from buffers one element off (element-wise).
template <class T, class... Ps>
void check_all(policy_list<Ps...>) {
  const shape shapes[] = {{1, 1},   {0, 7},   {7, 0},    {0, 8},    {1, 200}, {200, 1},  {33, 65},
                          {65, 33}, {4097, 3}, {3, 4097}, {32, 32},  {31, 33}, {64, 64},  {63, 65},
                          {96, 160}, {8, 8},   {136, 72}, {100, 36}, {4, 12},  {200, 8},  {8, 200}};
  for (const shape& s : shapes) {
    (check_emulated<Ps, T>(s.rows, s.cols, 0, 0), ...);
    (check_emulated<Ps, T>(s.rows, s.cols, 1, 0), ...);
    (check_emulated<Ps, T>(s.rows, s.cols, 0, 1), ...);
  }
}

}  // namespace

TEST_CASE("emulated transpose, 4-byte elements: every composition, every shape, both paths") {
  check_all<float>(transpose_policies::all{});
}

TEST_CASE("emulated transpose, 8-byte elements") { check_all<double>(transpose_policies::all{}); }

TEST_CASE("emulated transpose, 2-byte elements") { check_all<__half>(transpose_policies::all{}); }

TEST_CASE("emulated transpose: a tall matrix (more than 65535 tiles down) and a wide one") {
  check_emulated<default_transpose_policy<float>, float>((index_t{1} << 18) + 4, 4, 0, 0);
  check_emulated<transpose_policies::padded_32, float>((index_t{1} << 21) + 1, 3, 0, 0);
  check_emulated<transpose_policies::swizzled_32_v16, double>(2, (index_t{1} << 21) + 2, 0, 0);
}

TEST_CASE("emulated transpose: more seed-style compositions (32 x 32 threads, 8-byte vectors)") {
  check_emulated<transpose_policy<smem::static_array, 32, 1024>, float>(65, 97, 0, 0);
  check_emulated<transpose_policy<smem::padded, 64, 1024>, float>(65, 97, 0, 0);
  check_emulated<transpose_policy<smem::padded, 32, 256, 16>, float>(64, 96, 0, 0);  // vectors into a padded tile
  check_emulated<transpose_policy<smem::swizzled, 32, 256, 8>, float>(62, 98, 0, 0);
  check_emulated<transpose_policy<smem::dynamic, 64, 128, 16>, double>(130, 66, 0, 0);
  // banded tile orders, bands that do and do not divide the tile rows
  check_emulated<transpose_policy<smem::swizzled, 32, 128, 16, tile_order::banded<8>>, double>(330, 97, 0, 0);
  check_emulated<transpose_policy<smem::padded, 32, 256, 0, tile_order::banded<3>>, float>(230, 65, 0, 1);
  check_emulated<transpose_policy<smem::swizzled, 64, 256, 16, tile_order::banded<32>>, float>(96, 4100, 0, 0);
}
