// The device workspace of a reducer object (reducer, rows_reducer, tally.hpp's device_reducer), and
// the one-off workspace of a free function, written once for all of them. Plain C++.
//
// A workspace starts with ticket counters (the "last block combines" pattern, detail/last_block.cuh)
// followed by partial states. A kernel needs its tickets to be 0 when it starts and leaves them 0;
// it leaves the partials behind it. A later call may put its tickets where an earlier call left
// partials (row reductions size both by M), so the owner tracks how many leading bytes are known
// to be zero and clears the rest of a call's tickets on the stream before the call.
#pragma once
#include <cstddef>
#include <cstdint>
#include <mutex>  // std::call_once
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include <tally/detail/device_cache.hpp>
#include <tally/error.hpp>

namespace tally::detail {

// What a call needs: `tickets` leading bytes that must be 0, `total` bytes in all (0: none).
struct workspace_need {
  std::size_t tickets = 0;
  std::size_t total = 0;
};

class device_workspace {
 public:
  // Bound to the current device; allocates nothing yet.
  explicit device_workspace(const char* where) : where_(where), device_(current_device(where)) {}
  ~device_workspace() { release(); }
  device_workspace(const device_workspace&) = delete;
  device_workspace& operator=(const device_workspace&) = delete;
  device_workspace(device_workspace&& o) noexcept { *this = std::move(o); }
  device_workspace& operator=(device_workspace&& o) noexcept {
    if (this != &o) {
      release();
      where_ = o.where_;
      device_ = o.device_;
      data_ = std::exchange(o.data_, nullptr);
      capacity_ = std::exchange(o.capacity_, 0);
      zero_prefix_ = std::exchange(o.zero_prefix_, 0);
    }
    return *this;
  }

  int device() const { return device_; }
  void* data() const { return data_; }
  std::size_t capacity() const { return capacity_; }

  // Throws unless the current device is the one this workspace belongs to.
  void check_device() const {
    if (current_device(where_) != device_)
      throw error(std::string(where_) + ": the current device is not the one this object was made on (device " +
                  std::to_string(device_) + ")");
  }

  // Grows to at least `bytes`, all zero once this returns, whatever stream uses it next. Call it
  // before capturing a graph: calls then allocate and clear nothing.
  void reserve(std::size_t bytes) {
    if (bytes <= capacity_) return;
    allocate(bytes);
    check_cuda(cudaMemsetAsync(data_, 0, bytes, cudaStreamLegacy), where_, "cudaMemsetAsync(workspace)");
    check_cuda(cudaStreamSynchronize(cudaStreamLegacy), where_, "cudaStreamSynchronize");
    zero_prefix_ = bytes;
  }

  // Readies the workspace for a call that needs `need` on `stream`: grows it if needed, and clears,
  // on the stream, the part of the call's tickets not known to be 0. Returns the workspace.
  void* prepare(workspace_need need, cudaStream_t stream) {
    if (need.total > capacity_) allocate(need.total);
    if (need.tickets > zero_prefix_) {
      check_cuda(cudaMemsetAsync(static_cast<unsigned char*>(data_) + zero_prefix_, 0, need.tickets - zero_prefix_, stream),
                 where_, "cudaMemsetAsync(workspace tickets)");
      zero_prefix_ = need.tickets;
    }
    // After the call its tickets are 0 again, and what follows them may hold partials.
    if (need.total > need.tickets) zero_prefix_ = need.tickets;
    return data_;
  }

 private:
  void allocate(std::size_t bytes) {
    release();
    check_cuda(cudaMalloc(&data_, bytes), where_, "cudaMalloc(workspace)");
    capacity_ = bytes;
  }

  void release() noexcept {
    // cudaFree waits for work still using the memory; a failure cannot be reported from here.
    if (data_ != nullptr) cudaFree(data_);
    data_ = nullptr;
    capacity_ = 0;
    zero_prefix_ = 0;
  }

  const char* where_ = "tally";
  int device_ = 0;
  void* data_ = nullptr;
  std::size_t capacity_ = 0;
  std::size_t zero_prefix_ = 0;  // leading bytes known to be 0 when the next call starts
};

// Throws unless caller-provided workspace of `size` bytes at `workspace` holds what a call needs
// and is 16-byte aligned (cudaMalloc's is; partials and entries are read in 16-byte vectors);
// `call` says which call ("a reduction of n = 10").
inline constexpr std::size_t workspace_alignment = 16;
inline void check_workspace(const void* workspace, std::size_t size, workspace_need need, const char* where,
                            const std::string& call) {
  if (size < need.total || (need.total > 0 && workspace == nullptr))
    throw error(std::string(where) + ": workspace of " + std::to_string(size) + " bytes is smaller than the " +
                std::to_string(need.total) + " bytes " + call + " needs");
  if (need.total > 0 && reinterpret_cast<std::uintptr_t>(workspace) % workspace_alignment != 0)
    throw error(std::string(where) + ": workspace is not " + std::to_string(workspace_alignment) +
                "-byte aligned (cudaMalloc's is)");
}

// The stream-ordered pool one-off calls take their workspace from: tally's own, one a device,
// made on first use and kept for the process, whose release threshold keeps pool_kept_bytes mapped
// across synchronizations. (The device's default pool, threshold 0, handed its memory back at each
// synchronization and the next one-off mapped it again: 45 - 60 us of host time a call, docs/plain.md.)
// Beyond that, a large workspace (a sort's) is handed back as before. nullptr where the device has
// no memory pools or one cannot be made: the default pool then. Made in relaxed capture mode, so
// that another thread's graph capture neither forbids it nor is broken by it.
inline constexpr std::uint64_t pool_kept_bytes = std::uint64_t{64} << 20;

inline cudaMemPool_t workspace_pool(int device) {
  static std::once_flag made[max_devices];
  static cudaMemPool_t pools[max_devices] = {};
  std::call_once(made[device], [device] {
    cudaStreamCaptureMode mode = cudaStreamCaptureModeRelaxed;
    if (cudaThreadExchangeStreamCaptureMode(&mode) != cudaSuccess) return;
    int supported = 0;
    cudaMemPoolProps props{};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = device;
    std::uint64_t kept = pool_kept_bytes;
    cudaMemPool_t pool = nullptr;
    if (cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, device) == cudaSuccess && supported != 0 &&
        cudaMemPoolCreate(&pool, &props) == cudaSuccess) {
      if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &kept) == cudaSuccess) pools[device] = pool;
      else cudaMemPoolDestroy(pool);
    }
    cudaThreadExchangeStreamCaptureMode(&mode);  // the caller's mode again
  });
  return pools[device];
}

// A one-off call: workspace of need.total bytes from workspace_pool (cudaMallocFromPoolAsync /
// cudaFreeAsync on `stream`), its tickets zeroed on the stream; call(workspace, bytes) queues the
// work. While `stream` is captured, cudaMallocAsync as before: the graph owns that allocation, and
// no pool is made during a capture.
template <class Call>
void with_pool_workspace(workspace_need need, cudaStream_t stream, const char* where, Call call) {
  void* workspace = nullptr;
  if (need.total > 0) {
    cudaStreamCaptureStatus capture = cudaStreamCaptureStatusNone;
    check_cuda(cudaStreamIsCapturing(stream, &capture), where, "cudaStreamIsCapturing");
    const cudaMemPool_t pool = capture == cudaStreamCaptureStatusNone ? workspace_pool(current_device(where)) : nullptr;
    if (pool != nullptr)
      check_cuda(cudaMallocFromPoolAsync(&workspace, need.total, pool, stream), where, "cudaMallocFromPoolAsync");
    else
      check_cuda(cudaMallocAsync(&workspace, need.total, stream), where, "cudaMallocAsync");
  }
  try {
    if (need.tickets > 0) check_cuda(cudaMemsetAsync(workspace, 0, need.tickets, stream), where, "cudaMemsetAsync");
    call(workspace, need.total);
  } catch (...) {
    if (workspace != nullptr) cudaFreeAsync(workspace, stream);
    throw;
  }
  if (workspace != nullptr) check_cuda(cudaFreeAsync(workspace, stream), where, "cudaFreeAsync");
}

}  // namespace tally::detail
