#!/usr/bin/env bash
# Builds tally_bench_segments and compares tally::reduce_segments / tally::csr_matvec with
# cub::DeviceSegmentedReduce and cuSPARSE SpMV on this machine's GPU, ending with the per-distribution
# table. Flags, --save and what happens without a GPU: bench/run.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" segments "$@"
