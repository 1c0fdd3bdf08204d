#!/usr/bin/env bash
# The README's main job: builds tally_bench and compares tally with cub::DeviceReduce and
# thrust::reduce on this machine's GPU, ending with the ladder report and a compact table.
# Flags, --save and what happens without a GPU: bench/run.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" reduce "$@"
