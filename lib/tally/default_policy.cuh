// The default compositions of every algorithm: default_reduce_policy<T, Op> here,
// default_rows_policy<T, Op> (rows_policy.cuh) and default_transpose_policy<T> (transpose_policy.cuh).
//
// default_reduce_policy: 16-byte loads, four in flight a thread (64 bytes: what the streaming-read
// ceiling needs on H100 / H200), warp shuffles, a resident grid whose last block combines, launched
// with programmatic dependent launch. 16-bit float sums accumulate in float (a __half running sum
// loses all precision after a few thousand elements); everything else accumulates natively, as CUB
// does. docs/performance.md has the measurements behind each choice.
#pragma once
#include <type_traits>

#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <tally/policies/op.cuh>
#include <tally/reduce_policy.cuh>

namespace tally {

namespace detail {
template <class T>
inline constexpr bool is_16bit_float = std::is_same_v<T, __half> || std::is_same_v<T, __nv_bfloat16>;

// The accumulator a default composition uses for op Op on T.
template <class T, class Op>
using default_accum = std::conditional_t<is_16bit_float<T> && std::is_same_v<Op, op::sum>, accum::wide, accum::native>;
}  // namespace detail

template <class T, class Op = op::sum>
using default_reduce_policy = reduce_policy<load::vector<4>, block::warp_shuffle, smem::static_array, 256,
                                            detail::default_accum<T, Op>, grid::resident, launch::pdl>;

template <class T, class Op = op::sum>
using default_policy [[deprecated("tally::default_policy: use tally::default_reduce_policy")]] = default_reduce_policy<T, Op>;

}  // namespace tally
