#!/usr/bin/env bash
# Builds tally_bench_sort and compares tally::sort / sort_by_key with cub::DeviceMergeSort,
# cub::DeviceRadixSort and thrust::sort on this machine's GPU, ending with seed 003's ladder and the
# Gkeys/s table. Flags, --save and what happens without a GPU: bench/run.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" sort "$@"
