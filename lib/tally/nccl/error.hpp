// NCCL failures and communicator checks of tally::nccl. Plain C++: <nccl.h> and <tally/error.hpp>.
#pragma once
#include <string>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include <tally/detail/device_cache.hpp>
#include <tally/error.hpp>

namespace tally::nccl {

// A failed NCCL call: a tally::error (code() is cudaSuccess: no CUDA error behind it) that also
// carries NCCL's result.
class error : public tally::error {
 public:
  error(const std::string& what, ncclResult_t result) : tally::error(what), result_(result) {}
  ncclResult_t result() const noexcept { return result_; }

 private:
  ncclResult_t result_;
};

namespace detail {

inline void check_nccl(ncclResult_t result, const char* where, const char* call) {
  if (result == ncclSuccess) return;
  throw error(std::string(where) + ": " + call + " failed: " + ncclGetErrorString(result), result);
}

// What a call needs to know of its communicator. of() checks, before any work is queued, that the
// communicator is there and that the current device is its device: tally's kernels run on the
// current device and NCCL's on the communicator's, and the stream must serve both.
struct comm_facts {
  ncclComm_t comm = nullptr;
  int rank = 0;
  int ranks = 1;
  int device = 0;

  static comm_facts of(ncclComm_t comm, const char* where) {
    if (comm == nullptr) throw tally::error(std::string(where) + ": communicator is null");
    comm_facts f;
    f.comm = comm;
    check_nccl(ncclCommCount(comm, &f.ranks), where, "ncclCommCount");
    check_nccl(ncclCommUserRank(comm, &f.rank), where, "ncclCommUserRank");
    check_nccl(ncclCommCuDevice(comm, &f.device), where, "ncclCommCuDevice");
    const int current = tally::detail::current_device(where);
    if (current != f.device)
      throw tally::error(std::string(where) + ": the current device (" + std::to_string(current) +
                         ") is not the communicator's device (" + std::to_string(f.device) + "): call cudaSetDevice first");
    return f;
  }
};

}  // namespace detail
}  // namespace tally::nccl
