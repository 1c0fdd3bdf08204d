#!/usr/bin/env bash
# Builds tally_bench_rows and compares tally::reduce_rows / tally::matvec with
# cub::DeviceSegmentedReduce and cuBLAS gemv on this machine's GPU, ending with the per-shape table.
#
#   bench/run_rows.sh                  every shape, float (with the forced strategies) and double
#   bench/run_rows.sh --save           also writes bench/results/<gpu>_rows.json and
#                                      bench/results/<gpu>_rows.png (bench/plot.py)
# Any other argument goes to tally_bench_rows (e.g. --benchmark_filter=rows/float, --no_double).
# Environment: TALLY_BUILD_DIR (default: build).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build}"
save=0
args=()
for a in "$@"; do
  case "$a" in
    --save) save=1 ;;
    *) args+=("$a") ;;
  esac
done

source "$root/.ci/deps.sh"
tally_install_deps || { echo "run_rows.sh: missing build dependencies" >&2; exit 1; }

mkdir -p "$build"
log="$build/tally_bench_rows_build.log"
echo "run_rows.sh: building tally_bench_rows in $build (log: $log)" >&2
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" --target tally_bench_rows -j "$(nproc 2>/dev/null || echo 4)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  echo "run_rows.sh: build failed (full log: $log)" >&2
  exit 1
fi

json="$build/tally_bench_rows_run.json"
out_args=()
if ((save)); then out_args=(--benchmark_out="$json" --benchmark_out_format=json); fi
"$build/bench/tally_bench_rows" ${args[@]+"${args[@]}"} ${out_args[@]+"${out_args[@]}"}

if ((save)); then
  gpu="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["gpu_name"])' "$json")"
  dest="$root/bench/results/${gpu}_rows.json"
  mkdir -p "$root/bench/results"
  mv "$json" "$dest"
  echo "run_rows.sh: wrote $dest"
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import matplotlib' 2>/dev/null; then
      "$py" "$root/bench/plot.py" "$dest" --out "$root/bench/results"
      exit 0
    fi
  done
  echo "run_rows.sh: matplotlib not found; plot later with: python3 bench/plot.py $dest --out bench/results/" >&2
fi
