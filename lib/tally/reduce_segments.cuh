// Segmented reduction over offsets: out[s] = op over in[offsets[s] .. offsets[s + 1]), for
// s < num_segments, with num_segments + 1 offsets (any integer type; 32- and 64-bit are tested).
//
//   tally::segments_reducer<P, float> r;              // owns its workspace: no allocation per call
//   r(d_in, d_offsets, S, d_out, stream);
//   r(d_in, n, d_offsets, S, d_out, stream);          // checked: offsets tested against n first
//   r(d_in, d_begins, d_ends, S, d_out, stream);      // begin / end: segments in any order or overlap
//   tally::reduce_segments(d_in, d_offsets, S, d_out);                          // default policy, sum
//   tally::reduce_segments<P>(d_in, d_offsets, S, d_out, tally::op::arg_max{}, stream);
//
// P is a segments_policy (segments_policy.cuh); csr_matvec.cuh builds CSR SpMV on the same kernel.
//   - The offsets stay on the device: no call reads them on the host or waits for them, except the
//     checked form. Every segment length, 0 to beyond 2^31, is balanced within one launch (merge
//     path, detail/segments_kernel.cuh; docs/segments.md).
//   - Precondition of the unchecked form: offsets[0] <= offsets[1] <= ... <= offsets[S], every one a
//     valid index of in. Offsets that break it give meaningless results, but nothing outside
//     in[offsets[0], offsets[S]), out[0, S) and the offsets themselves is read or written.
//   - The checked form takes n, the elements in `in`, tests 0 <= offsets[s] <= offsets[s + 1] <= n
//     on the device, and throws tally::error naming the first bad segment before anything is written.
//     It waits for that test (a stream synchronization), so it cannot be captured in a graph.
//   - out[s] has the caller's type, as in reduce_rows: an empty segment gives the operator's identity
//     (0, +-inf or the type's extremes, index -1 for arg_*); arg_min / arg_max report the index within
//     the segment, and the lowest wins ties.
//   - Errors throw tally::error before any work is queued: S < 0, a null offsets / out with S > 0, a
//     null in with S > 0 (unchecked) or n > 0 (checked), n < 0, a pointer not aligned to its type.
//   - The begin / end form: segment s is in[begins[s] .. ends[s]), empty where ends[s] <= begins[s];
//     segments may overlap and come in any order. A scan of the lengths (virtual offsets, S + 1 of
//     them in the workspace) runs first; reserve(S) sizes the workspace for graph capture. Its checked
//     form throws naming the first non-empty segment outside [0, n).
//   - Deterministic: the order of combination depends on the offsets and the device alone.
//   - Asynchronous; the unchecked forms are capturable in a CUDA graph once the reducer reserved.
//   - Planned calls, for many calls over the same offsets (a CSR matrix in an iterative solver, as
//     cuSPARSE's SpMV preprocess): `auto plan = r.plan(d_offsets, S, stream)` (r.plan_dot for
//     r.dot) splits the work among the grid once, on the stream; `r(d_in, plan, d_out, stream)` and
//     `r.dot(d_values, d_cols, plan, d_x, d_y, stream)` then skip each block's searches and share
//     tests (results bit-identical to the unplanned call's). The offsets must keep their values
//     while the plan is used; if they change, results are meaningless but reads and writes stay in
//     bounds.
#pragma once
#include <atomic>
#include <string>
#include <type_traits>

#include <cuda_runtime_api.h>

#include <cub/device/device_scan.cuh>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/transform_iterator.h>

#include <tally/detail/device_cache.hpp>
#include <tally/detail/pointer_checks.hpp>
#include <tally/detail/reduction_checks.cuh>
#include <tally/detail/segments_kernel.cuh>
#include <tally/detail/workspace.hpp>
#include <tally/error.hpp>
#include <tally/policies/determinism.cuh>
#include <tally/policies/op.cuh>
#include <tally/segments_policy.cuh>

namespace tally {

namespace detail {

template <class U>
void check_segments_pointer(const U* p, bool needed, const char* what, const char* where, index_t segments) {
  if (p == nullptr && needed)
    throw error(std::string(where) + ": " + what + " pointer is null but num_segments = " + std::to_string(segments));
  check_aligned(p, what, where);
}

// The offsets' checks of every segment entry point and of a plan; no CUDA call.
template <class Off>
void validate_offsets(const Off* offsets, index_t segments, const char* where) {
  static_assert(std::is_integral_v<Off>, "tally::reduce_segments: offsets must be of an integer type");
  if (segments < 0) throw error(std::string(where) + ": num_segments = " + std::to_string(segments) + " is negative");
  check_segments_pointer(offsets, segments > 0, "offsets", where, segments);
}

// Argument checks of every segment entry point; no CUDA call. n < 0 means "not given" (unchecked).
template <class T, class Off, class Out>
void validate_segments(const T* in, const Off* offsets, index_t segments, const Out* out, const char* where,
                       index_t n = -1, bool checked = false) {
  validate_offsets(offsets, segments, where);
  if (checked && n < 0) throw error(std::string(where) + ": n = " + std::to_string(n) + " is negative");
  check_segments_pointer(out, segments > 0, "output", where, segments);
  check_segments_pointer(in, checked ? segments > 0 && n > 0 : segments > 0, "input", where, segments);
}

// Argument checks of csr_matvec and segments_reducer::dot; errors name `where`.
template <class T, class Col, class Off, class Out>
void validate_csr(const T* values, const Col* cols, const Off* offsets, index_t rows, const T* x, const Out* y,
                  const char* where = "tally::csr_matvec") {
  static_assert(std::is_integral_v<Col>, "tally::csr_matvec: column indices must be of an integer type");
  validate_segments(values, offsets, rows, y, where);
  check_segments_pointer(cols, rows > 0, "column index", where, rows);
  check_segments_pointer(x, rows > 0, "vector x", where, rows);
}

}  // namespace detail

template <class P, class T, class Op, class Determinism>
class segments_reducer;

// The merge-path split of one offsets array among a grid of blocks, made once by
// segments_reducer::plan or plan_dot for many calls over the same offsets, with each share's path
// (whether it is read a segment a thread). Owns device memory (17 bytes a block); move-only. The offsets must keep their values while the plan is used.
template <class Off>
class segments_plan {
 public:
  segments_plan() : points_("tally::segments_plan") {}

  const Off* offsets() const { return offsets_; }
  index_t segments() const { return segments_; }

 private:
  template <class, class, class, class>
  friend class segments_reducer;

  detail::device_workspace points_;  // grid + 1 merge_points, then a path byte a share
  const Off* offsets_ = nullptr;
  index_t segments_ = 0;
  int grid_ = 0;
  index_t weight_ = 0;          // the end weight it was split for: the plain or the CSR form
  const char* made_by_ = "";  // "plan" or "plan_dot"
};

template <class P, class T, class Op = op::sum, class Determinism = determinism::run_to_run>
class segments_reducer {
 public:
  using policy = P;
  using input_type = T;
  using accum_type = typename P::accum::template type<T>;
  using state_type = typename Op::template state<accum_type>;

  static_assert(detail::check_reduction<Op, T, accum_type, Determinism, P::fixed_order>());

  explicit segments_reducer(Op op = Op{}) : op_(op), workspace_(where) {
    const int device = workspace_.device();
    sm_count_ = detail::sm_count(device, where);
    programmatic_ = detail::programmatic_launch(P::launch::programmatic, device, where);
  }

  int device() const { return workspace_.device(); }

  // Workspace bytes of any call: a ticket, the checked form's flag and two entries a block of the
  // largest resident grid. It depends on the device alone, not on n or the segments.
  std::size_t workspace_bytes() const { return need().total; }

  // Allocates the workspace. Call it before capturing a graph.
  void reserve() { workspace_.reserve(workspace_bytes()); }

  // out[s] = op over in[offsets[s] .. offsets[s + 1]).
  template <class Off, class Out>
  void operator()(const T* in, const Off* offsets, index_t segments, Out* out, cudaStream_t stream = 0) {
    detail::validate_segments(in, offsets, segments, out, where);
    workspace_.check_device();
    if (segments == 0) return;
    launch(plain(in), offsets, segments, out, workspace_.prepare(need(), stream), stream);
  }

  // The checked form: in holds n elements; throws naming the first segment whose offsets are not
  // 0 <= offsets[s] <= offsets[s + 1] <= n, with out untouched. Synchronizes the stream.
  template <class Off, class Out>
  void operator()(const T* in, index_t n, const Off* offsets, index_t segments, Out* out, cudaStream_t stream = 0) {
    detail::validate_segments(in, offsets, segments, out, where, n, true);
    workspace_.check_device();
    if (segments == 0) return;
    void* ws = workspace_.prepare(need(), stream);
    check_offsets(offsets, segments, n, ws, stream);
    launch(plain(in), offsets, segments, out, ws, stream);
  }

  // Segments that need not be contiguous: out[s] = op over in[begins[s] .. ends[s]), empty where
  // ends[s] <= begins[s] (as CUB's begin / end form). The running sum of the lengths goes to the
  // workspace first (a scan on the stream), so the workspace grows with S: reserve(S) before capture.
  template <class Off, class Out>
  void operator()(const T* in, const Off* begins, const Off* ends, index_t segments, Out* out,
                  cudaStream_t stream = 0) {
    detail::validate_segments(in, begins, segments, out, where);
    detail::check_segments_pointer(ends, segments > 0, "end offsets", where, segments);
    workspace_.check_device();
    if (segments == 0) return;
    launch_gathered(in, begins, ends, segments, out, workspace_.prepare(need(begins, ends, segments), stream), stream);
  }

  // The checked begin / end form: in holds n elements; throws naming the first non-empty segment
  // that begins before 0 or ends beyond n, with out untouched. Synchronizes the stream.
  template <class Off, class Out>
  void operator()(const T* in, index_t n, const Off* begins, const Off* ends, index_t segments, Out* out,
                  cudaStream_t stream = 0) {
    detail::validate_segments(in, begins, segments, out, where, n, true);
    detail::check_segments_pointer(ends, segments > 0, "end offsets", where, segments);
    workspace_.check_device();
    if (segments == 0) return;
    void* ws = workspace_.prepare(need(begins, ends, segments), stream);
    check_ranges(begins, ends, segments, n, ws, stream);
    launch_gathered(in, begins, ends, segments, out, ws, stream);
  }

  // Workspace bytes of a begin / end call over `segments` segments; reserve(segments) allocates it.
  std::size_t workspace_bytes(index_t segments) const {
    return need(static_cast<const index_t*>(nullptr), static_cast<const index_t*>(nullptr), segments).total;
  }
  void reserve(index_t segments) { workspace_.reserve(workspace_bytes(segments)); }

  // y[s] = op over j in segment s of values[j] * x[cols[j]] (with op::sum: CSR y = A x).
  // csr_matvec.cuh's entry point.
  template <class Col, class Off, class Out>
  void dot(const T* values, const Col* cols, const Off* offsets, index_t rows, const T* x, Out* y,
           cudaStream_t stream = 0) {
    detail::validate_csr(values, cols, offsets, rows, x, y);
    workspace_.check_device();
    if (rows == 0) return;
    launch(csr(values, cols, x), offsets, rows, y, workspace_.prepare(need(), stream), stream);
  }

  // A plan of the calls r(in, plan, out) over these offsets: each block's merge-path points, found
  // once by a small kernel on the stream (no host wait) instead of by every call's blocks. Out: the
  // calls' output type (the plan takes the grid of their kernel: r.plan<float>(...) for 16-bit sums
  // into float, as tally.hpp's).
  template <class Out = T, class Off>
  segments_plan<Off> plan(const Off* offsets, index_t segments, cudaStream_t stream = 0) const {
    return make_plan<kernel_types<detail::plain_elements<T>, Off, Out>>(offsets, segments, "plan", where, stream);
  }
  // The same for r.dot(values, cols, plan, x, y) (CSR rows weigh differently in the split).
  template <class Col = int, class Off>
  segments_plan<Off> plan_dot(const Off* row_offsets, index_t rows, cudaStream_t stream = 0) const {
    return make_plan<kernel_types<detail::csr_elements<T, Col, accum_type>, Off, T>>(row_offsets, rows, "plan_dot",
                                                                                     dot_where, stream);
  }

  // r(in, offsets, S, out) and r.dot(...) over a plan's offsets, with its split.
  template <class Off, class Out>
  void operator()(const T* in, const segments_plan<Off>& plan, Out* out, cudaStream_t stream = 0) {
    detail::validate_segments(in, plan.offsets(), plan.segments(), out, where);
    workspace_.check_device();
    if (plan.segments() == 0) return;
    launch(plain(in), plan, out, workspace_.prepare(need(), stream), stream);
  }
  template <class Col, class Off, class Out>
  void dot(const T* values, const Col* cols, const segments_plan<Off>& plan, const T* x, Out* y, cudaStream_t stream = 0) {
    detail::validate_csr(values, cols, plan.offsets(), plan.segments(), x, y);
    workspace_.check_device();
    if (plan.segments() == 0) return;
    launch(csr(values, cols, x), plan, y, workspace_.prepare(need(), stream), stream);
  }

  // As operator() and dot with caller-provided workspace of at least workspace_bytes() bytes, 16-byte
  // aligned (cudaMalloc's is), whose first 16 bytes (the ticket) are 0 when the call starts
  // (cudaMemset); a call leaves them 0.
  template <class Off, class Out>
  void run(const T* in, const Off* offsets, index_t segments, Out* out, void* workspace, std::size_t workspace_size,
           cudaStream_t stream) const {
    detail::validate_segments(in, offsets, segments, out, where);
    detail::check_workspace(workspace, workspace_size, need(), where, "a segmented reduction");
    if (segments > 0) launch(plain(in), offsets, segments, out, workspace, stream);
  }
  // The checked form with caller-provided workspace (as above): throws naming the first bad segment,
  // with out untouched. Synchronizes the stream.
  template <class Off, class Out>
  void run(const T* in, index_t n, const Off* offsets, index_t segments, Out* out, void* workspace,
           std::size_t workspace_size, cudaStream_t stream) const {
    detail::validate_segments(in, offsets, segments, out, where, n, true);
    detail::check_workspace(workspace, workspace_size, need(), where, "a segmented reduction");
    if (segments == 0) return;
    check_offsets(offsets, segments, n, workspace, stream);
    launch(plain(in), offsets, segments, out, workspace, stream);
  }
  template <class Col, class Off, class Out>
  void run_dot(const T* values, const Col* cols, const Off* offsets, index_t rows, const T* x, Out* y, void* workspace,
               std::size_t workspace_size, cudaStream_t stream) const {
    detail::validate_csr(values, cols, offsets, rows, x, y);
    detail::check_workspace(workspace, workspace_size, need(), dot_where, "a CSR matrix-vector product");
    if (rows > 0) launch(csr(values, cols, x), offsets, rows, y, workspace, stream);
  }
  // Planned calls with caller-provided workspace (as above).
  template <class Off, class Out>
  void run(const T* in, const segments_plan<Off>& plan, Out* out, void* workspace, std::size_t workspace_size,
           cudaStream_t stream) const {
    detail::validate_segments(in, plan.offsets(), plan.segments(), out, where);
    detail::check_workspace(workspace, workspace_size, need(), where, "a segmented reduction");
    if (plan.segments() > 0) launch(plain(in), plan, out, workspace, stream);
  }
  template <class Col, class Off, class Out>
  void run_dot(const T* values, const Col* cols, const segments_plan<Off>& plan, const T* x, Out* y, void* workspace,
               std::size_t workspace_size, cudaStream_t stream) const {
    detail::validate_csr(values, cols, plan.offsets(), plan.segments(), x, y);
    detail::check_workspace(workspace, workspace_size, need(), dot_where, "a CSR matrix-vector product");
    if (plan.segments() > 0) launch(csr(values, cols, x), plan, y, workspace, stream);
  }

  // What every call needs: [ticket: 16 bytes][first bad segment: 16 bytes][2 entries a block].
  detail::workspace_need need() const {
    return {ticket_bytes, entries_offset + 2 * static_cast<std::size_t>(max_blocks()) * sizeof(entry)};
  }
  // A begin / end call, after that: [the S + 1 virtual offsets][the scan's temporary storage].
  template <class Off>
  detail::workspace_need need(const Off* begins, const Off* ends, index_t segments) const {
    const std::size_t virtual_offsets = round_up(need().total);
    const std::size_t scan = round_up(virtual_offsets + (static_cast<std::size_t>(segments) + 1) * sizeof(index_t));
    return {ticket_bytes, scan + scan_bytes(begins, ends, segments)};
  }

 private:
  static constexpr const char* where = "tally::reduce_segments";
  static constexpr const char* dot_where = "tally::csr_matvec";
  static constexpr std::size_t ticket_bytes = 16;
  static constexpr std::size_t entries_offset = 32;
  using entry = detail::segment_entry<state_type>;
  static std::size_t round_up(std::size_t bytes) { return (bytes + 255) / 256 * 256; }

  template <class Off>
  static auto lengths(const Off* begins, const Off* ends) {
    return thrust::make_transform_iterator(thrust::counting_iterator<index_t>(0), detail::segment_length<Off>{begins, ends});
  }
  // Temporary bytes of the scan of `segments` lengths (a size query: no CUDA work).
  template <class Off>
  static std::size_t scan_bytes(const Off* begins, const Off* ends, index_t segments) {
    std::size_t bytes = 0;
    detail::check_cuda(cub::DeviceScan::InclusiveSum(nullptr, bytes, lengths(begins, ends), static_cast<index_t*>(nullptr),
                                                     segments),
                       where, "cub::DeviceScan::InclusiveSum (size)");
    return bytes;
  }

  // The begin / end form: virtual offsets (0, then the running sum of the lengths), then the kernel
  // over them, reading element k of segment s at in[begins[s] + k].
  template <class Off, class Out>
  void launch_gathered(const T* in, const Off* begins, const Off* ends, index_t segments, Out* out, void* workspace,
                       cudaStream_t stream) const {
    auto* bytes = static_cast<unsigned char*>(workspace);
    const std::size_t voff_at = round_up(need().total);
    const std::size_t scan_at = round_up(voff_at + (static_cast<std::size_t>(segments) + 1) * sizeof(index_t));
    auto* voff = reinterpret_cast<index_t*>(bytes + voff_at);
    std::size_t temp = scan_bytes(begins, ends, segments);
    detail::check_cuda(cudaMemsetAsync(voff, 0, sizeof(index_t), stream), where, "cudaMemsetAsync");
    detail::check_cuda(cub::DeviceScan::InclusiveSum(bytes + scan_at, temp, lengths(begins, ends), voff + 1, segments, stream),
                       where, "cub::DeviceScan::InclusiveSum");
    launch(detail::gathered_elements<T, Off>{in, begins}, static_cast<const index_t*>(voff), segments, out, workspace,
           stream);
  }

  static detail::plain_elements<T> plain(const T* in) { return {in}; }
  template <class Col>
  static detail::csr_elements<T, Col, accum_type> csr(const T* values, const Col* cols, const T* x) {
    return {values, cols, x};
  }

  // Resident blocks the grid may hold: threads a multiprocessor runs over threads a block.
  int max_blocks() const {
    const int per_sm = detail::max_threads_per_sm(workspace_.device(), where) / P::threads;
    return sm_count_ * (per_sm > 0 ? per_sm : 1);
  }

  template <class Elements, class Off, class Out>
  using kernel_types = detail::segments_types<typename P::launch, accum_type, Off, Out, Op, Elements>;

  // The begin / end form (gathered elements) has its own lane groups' size.
  template <class K>
  static constexpr auto kernel =
      detail::segments_kernel<K, P::threads, P::items,
                              K::elements::gathered ? P::begin_end_group_items : P::group_items, P::row_shares,
                              P::short_shares>;
  template <class K, detail::split_mode Split>
  static constexpr auto planned_kernel =
      detail::segments_kernel<K, P::threads, P::items,
                              K::elements::gathered ? P::begin_end_group_items : P::group_items, P::row_shares,
                              P::short_shares, Split>;

  // Resident blocks of the kernel for these types, at most max_blocks().
  template <class K>
  int grid_blocks() const {
    static std::atomic<int> cache[detail::max_devices] = {};
    const int per_sm = detail::cached_per_device(cache, workspace_.device(), [](int) {
      int blocks = 0;
      detail::check_cuda(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel<K>, P::threads, 0), where,
                         "cudaOccupancyMaxActiveBlocksPerMultiprocessor");
      return blocks > 0 ? blocks : 1;
    });
    const int blocks = sm_count_ * per_sm;
    return blocks < max_blocks() ? blocks : max_blocks();
  }

  // The plan of K's calls: grid_blocks<K>() + 1 points.
  template <class K, class Off>
  segments_plan<Off> make_plan(const Off* offsets, index_t segments, const char* made_by, const char* call,
                               cudaStream_t stream) const {
    detail::validate_offsets(offsets, segments, call);
    workspace_.check_device();
    segments_plan<Off> plan;
    plan.made_by_ = made_by;
    plan.offsets_ = offsets;
    plan.segments_ = segments;
    plan.grid_ = grid_blocks<K>();
    plan.weight_ = K::elements::end_weight;
    if (segments == 0) return plan;
    // grid + 1 points, then a path byte a share.
    plan.points_.reserve((static_cast<std::size_t>(plan.grid_) + 1) * sizeof(detail::merge_point) + plan.grid_);
    auto* points = static_cast<detail::merge_point*>(plan.points_.data());
    const index_t warps_a_block = 256 / detail::warp_size;
    detail::queue_kernel(detail::segments_split_kernel<K::elements::end_weight, Off>,
                         (plan.grid_ + 1 + warps_a_block - 1) / warps_a_block, 256, 0, stream, false, where, offsets,
                         segments, plan.grid_, points);
    // The shares' paths, where the kernel has short shares: the blocks run their tests and stop.
    if constexpr (P::short_shares && K::elements::short_shares)
      detail::queue_kernel(planned_kernel<K, detail::split_mode::planning>, plan.grid_, P::threads, 0, stream, false,
                           where, typename K::args{offsets, segments, nullptr, typename K::elements{}}, op_,
                           static_cast<entry*>(nullptr), static_cast<unsigned*>(nullptr), points);
    return plan;
  }

  template <class Elements, class Off, class Out>
  void launch(Elements elements, const Off* offsets, index_t segments, Out* out, void* workspace,
              cudaStream_t stream) const {
    using K = kernel_types<Elements, Off, Out>;
    auto* bytes = static_cast<unsigned char*>(workspace);
    detail::queue_kernel(kernel<K>, grid_blocks<K>(), P::threads, 0, stream, programmatic_, where,
                         typename K::args{offsets, segments, out, elements}, op_,
                         reinterpret_cast<entry*>(bytes + entries_offset), reinterpret_cast<unsigned*>(bytes),
                         static_cast<detail::merge_point*>(nullptr));
  }
  // The planned kernel on the plan's grid (a template of its own: only planned calls instantiate it).
  template <class Elements, class Off, class Out>
  void launch(Elements elements, const segments_plan<Off>& plan, Out* out, void* workspace, cudaStream_t stream) const {
    using K = kernel_types<Elements, Off, Out>;
    check_plan(plan, K::elements::end_weight);
    auto* bytes = static_cast<unsigned char*>(workspace);
    detail::queue_kernel(planned_kernel<K, detail::split_mode::planned>, plan.grid_, P::threads, 0, stream,
                         programmatic_, where, typename K::args{plan.offsets(), plan.segments(), out, elements}, op_,
                         reinterpret_cast<entry*>(bytes + entries_offset), reinterpret_cast<unsigned*>(bytes),
                         static_cast<detail::merge_point*>(plan.points_.data()));
  }

  // A plan serves calls of the form it was made for, on its device, on a grid the workspace holds.
  template <class Off>
  void check_plan(const segments_plan<Off>& plan, index_t weight) const {
    if (plan.points_.device() != workspace_.device())
      throw error(std::string(where) + ": the plan was made on device " + std::to_string(plan.points_.device()) +
                  ", this reducer on device " + std::to_string(workspace_.device()));
    if (plan.weight_ != weight)
      throw error(std::string(where) + ": a plan made by " + plan.made_by_ +
                  " cannot serve this call (plan serves r(in, plan, out), plan_dot serves r.dot)");
    if (plan.grid_ > max_blocks())
      throw error(std::string(where) + ": the plan's grid of " + std::to_string(plan.grid_) +
                  " blocks exceeds this reducer's " + std::to_string(max_blocks()));
  }

  // Runs test(first_bad, ...) over the segments on the stream and waits for its answer: the lowest
  // bad segment, or ~0 when there is none. first_bad lives in the workspace, after the ticket.
  template <class... Params, class... Args>
  unsigned long long first_bad_segment(void (*test)(Params...), index_t segments, void* workspace, cudaStream_t stream,
                                       Args... args) const {
    auto* first_bad = reinterpret_cast<unsigned long long*>(static_cast<unsigned char*>(workspace) + ticket_bytes);
    detail::check_cuda(cudaMemsetAsync(first_bad, 0xff, sizeof(*first_bad), stream), where, "cudaMemsetAsync");
    const index_t blocks = segments / 256 + 1 < 4 * index_t{sm_count_} ? segments / 256 + 1 : 4 * index_t{sm_count_};
    detail::queue_kernel(test, blocks, 256, 0, stream, false, where, args..., segments, first_bad);
    unsigned long long bad = 0;
    detail::check_cuda(cudaMemcpyAsync(&bad, first_bad, sizeof(bad), cudaMemcpyDeviceToHost, stream), where,
                       "cudaMemcpyAsync");
    detail::check_cuda(cudaStreamSynchronize(stream), where, "cudaStreamSynchronize");
    return bad;
  }

  // Element i of a device array, read back for an error message.
  template <class Off>
  static index_t offset_at(const Off* p, unsigned long long i) {
    Off v{};
    detail::check_cuda(cudaMemcpy(&v, p + i, sizeof(v), cudaMemcpyDeviceToHost), where, "cudaMemcpy");
    return static_cast<index_t>(v);
  }

  // The checked form's test; throws naming the first bad segment.
  template <class Off>
  void check_offsets(const Off* offsets, index_t segments, index_t n, void* workspace, cudaStream_t stream) const {
    const unsigned long long bad = first_bad_segment(detail::find_bad_segment<Off>, segments, workspace, stream, offsets, n);
    if (bad == ~0ull) return;
    const index_t b = offset_at(offsets, bad), e = offset_at(offsets, bad + 1);
    const std::string s = std::to_string(bad);
    const std::string at = std::string(where) + ": segment " + s + " (offsets[" + s + "] = " + std::to_string(b) +
                           ", offsets[" + std::to_string(bad + 1) + "] = " + std::to_string(e) + ")";
    if (b < 0) throw error(at + " begins before element 0");
    if (e < b) throw error(at + " ends before it begins: offsets must not decrease");
    throw error(at + " ends beyond n = " + std::to_string(n));
  }

  // The checked begin / end form's test: the first non-empty segment outside [0, n).
  template <class Off>
  void check_ranges(const Off* begins, const Off* ends, index_t segments, index_t n, void* workspace,
                    cudaStream_t stream) const {
    const unsigned long long bad =
        first_bad_segment(detail::find_bad_range<Off>, segments, workspace, stream, begins, ends, n);
    if (bad == ~0ull) return;
    const index_t b = offset_at(begins, bad), e = offset_at(ends, bad);
    const std::string s = std::to_string(bad);
    const std::string at = std::string(where) + ": segment " + s + " (begins[" + s + "] = " + std::to_string(b) +
                           ", ends[" + s + "] = " + std::to_string(e) + ")";
    if (b < 0) throw error(at + " begins before element 0");
    throw error(at + " ends beyond n = " + std::to_string(n));
  }

  Op op_{};
  detail::device_workspace workspace_;
  int sm_count_ = 0;
  bool programmatic_ = false;  // launch with PDL: the policy asks for it and the device has it
};

// One-off segmented reduction with policy P: workspace from the stream-ordered pool.
template <class P, class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, const Off* offsets, index_t segments, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  detail::validate_segments(in, offsets, segments, out, "tally::reduce_segments");
  if (segments == 0) return;
  segments_reducer<P, T, Op> r(op);
  detail::with_pool_workspace(r.need(), stream, "tally::reduce_segments", [&](void* ws, std::size_t bytes) {
    r.run(in, offsets, segments, out, ws, bytes, stream);
  });
}

// The checked form, one-off (it synchronizes the stream to read the test's answer): workspace from
// the stream-ordered pool.
template <class P, class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, index_t n, const Off* offsets, index_t segments, Out* out, Op op = Op{},
                     cudaStream_t stream = 0) {
  detail::validate_segments(in, offsets, segments, out, "tally::reduce_segments", n, true);
  if (segments == 0) return;
  segments_reducer<P, T, Op> r(op);
  detail::with_pool_workspace(r.need(), stream, "tally::reduce_segments", [&](void* ws, std::size_t bytes) {
    r.run(in, n, offsets, segments, out, ws, bytes, stream);
  });
}

// The begin / end forms, one-off (the checked one synchronizes the stream).
template <class P, class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, const Off* begins, const Off* ends, index_t segments, Out* out, Op op = Op{},
                     cudaStream_t stream = 0) {
  detail::validate_segments(in, begins, segments, out, "tally::reduce_segments");
  detail::check_segments_pointer(ends, segments > 0, "end offsets", "tally::reduce_segments", segments);
  if (segments == 0) return;
  segments_reducer<P, T, Op> r(op);
  r(in, begins, ends, segments, out, stream);
}
template <class P, class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, index_t n, const Off* begins, const Off* ends, index_t segments, Out* out,
                     Op op = Op{}, cudaStream_t stream = 0) {
  detail::validate_segments(in, begins, segments, out, "tally::reduce_segments", n, true);
  detail::check_segments_pointer(ends, segments > 0, "end offsets", "tally::reduce_segments", segments);
  if (segments == 0) return;
  segments_reducer<P, T, Op> r(op);
  r(in, n, begins, ends, segments, out, stream);
}

// The same with default_segments_policy<T, Op>.
template <class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, const Off* offsets, index_t segments, Out* out, Op op = Op{}, cudaStream_t stream = 0) {
  reduce_segments<default_segments_policy<T, Op>>(in, offsets, segments, out, op, stream);
}
template <class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, index_t n, const Off* offsets, index_t segments, Out* out, Op op = Op{},
                     cudaStream_t stream = 0) {
  reduce_segments<default_segments_policy<T, Op>>(in, n, offsets, segments, out, op, stream);
}

template <class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, const Off* begins, const Off* ends, index_t segments, Out* out, Op op = Op{},
                     cudaStream_t stream = 0) {
  reduce_segments<default_segments_policy<T, Op>>(in, begins, ends, segments, out, op, stream);
}
template <class T, class Off, class Out, class Op = op::sum>
void reduce_segments(const T* in, index_t n, const Off* begins, const Off* ends, index_t segments, Out* out,
                     Op op = Op{}, cudaStream_t stream = 0) {
  reduce_segments<default_segments_policy<T, Op>>(in, n, begins, ends, segments, out, op, stream);
}

}  // namespace tally
