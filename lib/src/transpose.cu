// The <tally/tally.hpp> transposes: one instantiation per element size (2, 4, 8 bytes), bits copied,
// behind one typed function per element type.
#include <cstdint>

#include <tally/transpose.cuh>
#include <tally/tally.hpp>

namespace tally {

namespace detail {

template <std::size_t Bytes>
using bits_of_size = std::conditional_t<Bytes == 2, std::uint16_t, std::conditional_t<Bytes == 4, std::uint32_t, std::uint64_t>>;

// Moved as the unsigned word of its size, which has its alignment: the template's checks and
// messages ("tally::transpose: ...") are the same for both.
template <class T>
void transpose_bits(const T* in, T* out, index_t rows, index_t cols, cudaStream_t stream) {
  using B = bits_of_size<sizeof(T)>;
  static_assert(sizeof(B) == sizeof(T) && alignof(B) == alignof(T), "tally: a transposed type is moved as its bits");
  tally::transpose<default_transpose_policy<B>>(reinterpret_cast<const B*>(in), reinterpret_cast<B*>(out), rows, cols,
                                                stream);
}

}  // namespace detail

#define TALLY_DEFINE_TRANSPOSE(T)                                                            \
  void transpose(const T* in, T* out, index_t rows, index_t cols, cudaStream_t stream) {   \
    detail::transpose_bits(in, out, rows, cols, stream);                                     \
  }
TALLY_DEFINE_TRANSPOSE(std::int16_t)
TALLY_DEFINE_TRANSPOSE(std::uint16_t)
TALLY_DEFINE_TRANSPOSE(__half)
TALLY_DEFINE_TRANSPOSE(__nv_bfloat16)
TALLY_DEFINE_TRANSPOSE(std::int32_t)
TALLY_DEFINE_TRANSPOSE(std::uint32_t)
TALLY_DEFINE_TRANSPOSE(float)
TALLY_DEFINE_TRANSPOSE(std::int64_t)
TALLY_DEFINE_TRANSPOSE(std::uint64_t)
TALLY_DEFINE_TRANSPOSE(double)
#undef TALLY_DEFINE_TRANSPOSE

}  // namespace tally
