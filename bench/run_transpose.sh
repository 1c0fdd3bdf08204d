#!/usr/bin/env bash
# Builds tally_bench_transpose and times every tally transpose layout against cuBLAS geam and a
# device-to-device copy, float and double, 8192^2 and 16384^2 (about a minute on an H200).
#
#   bash bench/run_transpose.sh [--save] [tally_bench_transpose flags...]
#
# --save also writes bench/results/<gpu>_transpose.json and bench/results/<gpu>_transpose.png
# (bench/plot.py). Environment: TALLY_BUILD_DIR (default: build).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build}"
save=0
args=()
for a in "$@"; do
  if [[ "$a" == "--save" ]]; then save=1; else args+=("$a"); fi
done

source "$root/.ci/deps.sh"
tally_install_deps || { echo "run_transpose.sh: missing build dependencies" >&2; exit 1; }
log="$build/tally_bench_transpose_build.log"
mkdir -p "$build"
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" --target tally_bench_transpose -j "$(nproc 2>/dev/null || echo 4)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "run_transpose.sh: build failed (full log: $log)" >&2
  exit 1
fi

json="$build/tally_bench_transpose_run.json"
out_args=()
if ((save)); then out_args=(--benchmark_out="$json" --benchmark_out_format=json); fi
"$build/bench/tally_bench_transpose" ${args[@]+"${args[@]}"} ${out_args[@]+"${out_args[@]}"}

if ((save)); then
  gpu="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["gpu_name"])' "$json")"
  dest="$root/bench/results/${gpu}_transpose.json"
  mkdir -p "$root/bench/results"
  mv "$json" "$dest"
  echo "run_transpose.sh: wrote $dest"
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import matplotlib' 2>/dev/null; then
      "$py" "$root/bench/plot.py" "$dest" --out "$root/bench/results"
      exit 0
    fi
  done
  echo "run_transpose.sh: matplotlib not found; plot later with: python3 bench/plot.py $dest --out bench/results/" >&2
fi
