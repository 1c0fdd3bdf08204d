// A CUDA graph captured from the calls a test makes on a stream, instantiated: the GPU tests'
// graph-capture cases (reducers, rows, segments, sorts, merges, transposes, tally.hpp) share it.
#pragma once
#include <string>

#include <cuda_runtime_api.h>
#include <doctest/doctest.h>

#include <tally/error.hpp>

#include "data.cuh"

namespace tally::test {

class captured_graph {
 public:
  // Captures what queue() queues on `stream` in global mode (any allocation during the capture
  // fails, and the tally call behind it throws: the test fails with its message) and instantiates it.
  template <class Queue>
  captured_graph(cudaStream_t stream, Queue queue) : stream_(stream) {
    TALLY_TEST_CHECK_CUDA(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal));
    std::string failure;
    try {
      queue();
    } catch (const tally::error& e) {
      failure = e.what();
    }
    TALLY_TEST_CHECK_CUDA(cudaStreamEndCapture(stream, &graph_));
    REQUIRE_MESSAGE(failure.empty(), failure);
    TALLY_TEST_CHECK_CUDA(cudaGraphInstantiate(&exec_, graph_, 0));
  }
  ~captured_graph() {
    if (exec_ != nullptr) cudaGraphExecDestroy(exec_);
    if (graph_ != nullptr) cudaGraphDestroy(graph_);
  }
  captured_graph(const captured_graph&) = delete;
  captured_graph& operator=(const captured_graph&) = delete;

  // Launches the graph on its stream `launches` times and waits for each; before each launch every
  // output (a device_buffer) is poisoned, and after it check() looks at them.
  template <class Check, class... Outputs>
  void run(int launches, Check check, const Outputs&... outputs) const {
    for (int launch = 0; launch < launches; ++launch) {
      INFO("graph launch " << launch);
      (outputs.poison(), ...);
      TALLY_TEST_CHECK_CUDA(cudaGraphLaunch(exec_, stream_));
      TALLY_TEST_CHECK_CUDA(cudaStreamSynchronize(stream_));
      check();
    }
  }

  // Queues one launch on the stream and does not wait: for a test whose point is the stream order
  // between the graph and work it queues itself just before or after it, with no host wait between.
  void launch() const { TALLY_TEST_CHECK_CUDA(cudaGraphLaunch(exec_, stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace tally::test
