#!/usr/bin/env bash
# Builds tally_bench_transpose and times every tally transpose layout against cuBLAS geam and a
# device-to-device copy, float and double, 8192^2 and 16384^2 (about a minute on an H200).
# Flags, --save and what happens without a GPU: bench/run.sh.
exec bash "$(dirname "${BASH_SOURCE[0]}")/run.sh" transpose "$@"
