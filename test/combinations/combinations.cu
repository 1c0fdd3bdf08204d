// Every element type x accumulator x operator that reduce accepts (can_reduce), through the ragged and
// row algorithms: reduce_segments in its three forms (offsets, checked offsets, begin / end) over 32-
// and 64-bit offsets, reduce_rows, and for floating sums into a plain accumulator matvec and
// csr_matvec (kahan and reproducible ones are refused: test/compile_fail). Compiled to PTX only,
// never run: a combination the contract promises but a kernel does not compile fails the build (as
// 16-bit reproducible segment sums did between 8ff4192 and 6f251fb).
#include <cstdint>
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tally/csr_matvec.cuh>
#include <tally/matvec.cuh>
#include <tally/reduce_rows.cuh>
#include <tally/reduce_segments.cuh>

namespace {

using namespace tally;

template <class T>
constexpr bool is_floating = std::is_floating_point_v<T> || std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

template <class T, class Op, class A, class Off>
void one(const T* in, const Off* offsets, void* out) {
  using Acc = typename A::template type<T>;
  if constexpr (can_reduce<Op, T, Acc>::value) {
    constexpr bool is_sum = std::is_same_v<Op, op::sum>;
    constexpr bool is_arg = std::is_same_v<Op, op::arg_min> || std::is_same_v<Op, op::arg_max>;
    using Out = std::conditional_t<is_sum, accum::value_t<Acc>, std::conditional_t<is_arg, arg<T>, T>>;
    Out* y = static_cast<Out*>(out);
    segments_reducer<typename default_segments_policy<T, Op>::template with_accum<A>, T, Op> segments;
    segments(in, offsets, 1, y);
    segments(in, 1, offsets, 1, y);
    segments(in, offsets, offsets + 1, 1, y);
    rows_reducer<typename default_rows_policy<T, Op>::template with_accum<A>, T, Op> rows;
    rows(in, 1, 1, 1, y);
    // Products form in a plain accumulator (native, wide); CSR's default tile of 17 float items
    // holds no double states, so CSR is checked with its own accumulator.
    if constexpr (is_sum && is_floating<T> && accum::is_plain<Acc>) {
      rows.dot(in, 1, 1, 1, in, y);
      if constexpr ((std::is_same_v<T, float> || std::is_same_v<T, double>) && std::is_same_v<A, accum::native>)
        segments_reducer<default_csr_policy<T>, T>{}.dot(in, offsets, offsets, 1, in, y);
    }
  }
}

template <class T, class A, class Off>
void operators(const T* in, const Off* offsets, void* out) {
  one<T, op::sum, A>(in, offsets, out);
  one<T, op::min, A>(in, offsets, out);
  one<T, op::max, A>(in, offsets, out);
  one<T, op::arg_min, A>(in, offsets, out);
  one<T, op::arg_max, A>(in, offsets, out);
}

template <class T, class Off>
void accumulators(const T* in, const Off* offsets, void* out) {
  operators<T, accum::native>(in, offsets, out);
  operators<T, accum::wide>(in, offsets, out);
  if constexpr (is_floating<T>) {  // kahan and reproducible name floating types only (a static_assert)
    operators<T, accum::kahan>(in, offsets, out);
    operators<T, accum::reproducible>(in, offsets, out);
  }
}

template <class T>
void element(const void* in, const void* offsets, void* out) {
  accumulators<T>(static_cast<const T*>(in), static_cast<const int*>(offsets), out);
  accumulators<T>(static_cast<const T*>(in), static_cast<const std::int64_t*>(offsets), out);
}

}  // namespace

void tally_combinations(const void* in, const void* offsets, void* out) {
  element<float>(in, offsets, out);
  element<double>(in, offsets, out);
  element<__half>(in, offsets, out);
  element<__nv_bfloat16>(in, offsets, out);
  element<std::int32_t>(in, offsets, out);
  element<std::uint32_t>(in, offsets, out);
  element<std::int64_t>(in, offsets, out);
  element<std::uint64_t>(in, offsets, out);
}
