#!/usr/bin/env bash
# Builds tally_bench_sort and compares tally::sorter with cub::DeviceMergeSort, cub::DeviceRadixSort
# and thrust::sort on this machine's GPU, keys and pairs, ending with the Gkeys/s table. It writes
# bench/results/<gpu>_sort.json (Google Benchmark's JSON), <gpu>_sort.txt (the program's output) and
# <gpu>_sort.png (bench/plot.py, where a python3 with matplotlib is found).
#
#   bash bench/run_sort.sh [tally_bench_sort flags]
#
# e.g. --types=float,uint64 --max_log2=24 --target_ms=10 --benchmark_filter=pairs (the program's
# header says what they do). The default run (4 key types, keys and pairs, n = 2^16 .. 2^28) takes
# several minutes, most of it at 2^26 and 2^28.
# Environment: TALLY_BUILD_DIR (default: build).
# With no CUDA device it exits non-zero with one line on stderr, before building when it can tell.
# (bench/run.sh does the same for the reduce, rows, transpose and segments programs.)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build}"
target=tally_bench_sort

fail() {
  echo "run_sort.sh: $*" >&2
  exit 1
}

# Ask the driver directly (no build needed); the program checks again with the runtime.
if command -v python3 >/dev/null 2>&1; then
  why="$(python3 - <<'PY' 2>/dev/null || true
import ctypes
try:
    cuda = ctypes.CDLL("libcuda.so.1")
except OSError:
    print("no NVIDIA driver: libcuda.so.1 not found")
    raise SystemExit
count = ctypes.c_int(0)
status = cuda.cuInit(0)
if status != 0:
    print(f"cuInit failed with CUresult {status}")
elif cuda.cuDeviceGetCount(ctypes.byref(count)) != 0 or count.value == 0:
    print("the driver reports no device")
PY
)"
  [[ -z "$why" ]] || fail "no CUDA device ($why)"
fi

# Fresh machine: CMake, doctest and Google Benchmark from apt where missing, nvcc on the PATH.
source "$root/.ci/deps.sh"
tally_install_deps || fail "missing build dependencies"

mkdir -p "$build"
log="$build/${target}_build.log"
echo "run_sort.sh: building $target in $build (log: $log)" >&2
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" --target "$target" -j "$(nproc 2>/dev/null || echo 4)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  fail "build failed (full log: $log)"
fi

results="$root/bench/results"
json="$build/${target}_run.json"  # renamed after the GPU once the run is done
text="$build/${target}_run.txt"
"$build/bench/$target" "$@" --benchmark_out="$json" --benchmark_out_format=json | tee "$text"

gpu="$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["context"]["gpu_name"])' "$json")"
mkdir -p "$results"
mv "$json" "$results/${gpu}_sort.json"
mv "$text" "$results/${gpu}_sort.txt"
echo "run_sort.sh: wrote $results/${gpu}_sort.json and $results/${gpu}_sort.txt"
# The first python3 with matplotlib (a pyenv or venv python3 may lack the system's).
for py in python3 /usr/bin/python3; do
  if "$py" -c 'import matplotlib' 2>/dev/null; then
    "$py" "$root/bench/plot.py" "$results/${gpu}_sort.json" --out "$results"
    exit 0
  fi
done
echo "run_sort.sh: matplotlib not found; plot later with: python3 bench/plot.py $results/${gpu}_sort.json --out bench/results/" >&2
