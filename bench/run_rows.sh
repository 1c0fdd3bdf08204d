#!/usr/bin/env bash
# Builds tally_bench_rows and compares tally::reduce_rows / tally::matvec with
# cub::DeviceSegmentedReduce and cuBLAS gemv on this machine's GPU (float, double, half, bf16; rotating
# inputs and the /l2 rows that read one buffer every call), ending with the per-shape table.
# Flags, --save and what happens without a GPU: bench/run.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" rows "$@"
