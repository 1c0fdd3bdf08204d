// tally::nccl: reductions over the ranks of an NCCL communicator (docs/nccl.md). Needs <nccl.h> and
// libnccl: link the tally::nccl CMake target.
//   all_reduce.cuh   reducer, all_reduce, all_reduce_group: device-wide reductions
//   reduce_rows.cuh  rows_reducer, reduce_rows, matvec: a matrix split by columns
//   combine.cuh      how the ranks' states become one result
#pragma once
#include <tally/nccl/all_reduce.cuh>
#include <tally/nccl/reduce_rows.cuh>
