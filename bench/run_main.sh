#!/usr/bin/env bash
# The README's main job: builds tally_bench and compares tally with cub::DeviceReduce and
# thrust::reduce on this machine's GPU, ending with the ladder report and a compact table.
#
#   bench/run_main.sh                  quick run (--quick: n = 2^10, 2^16, 2^20, 2^24, 2^28)
#   bench/run_main.sh --full           every n, type, operator and ladder row (several minutes)
#   bench/run_main.sh --ladder         only the ladder report
#   bench/run_main.sh --save ...       also writes bench/results/<gpu>[_quick|_ladder].json and its
#                                      PNGs (bench/plot.py)
# Any other argument goes to tally_bench (e.g. --benchmark_filter=float/sum, --target_ms=10).
# Environment: TALLY_BUILD_DIR (default: build).
# With no CUDA device it exits non-zero with one line on stderr, before building when it can tell.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build}"
run_kind=--quick
save=0
args=()
for a in "$@"; do
  case "$a" in
    --full) run_kind=--full ;;
    --quick | --ladder) run_kind="$a" ;;
    --save) save=1 ;;
    *) args+=("$a") ;;
  esac
done

fail() {
  echo "run_main.sh: $*" >&2
  exit 1
}

# Ask the driver directly (no build needed); tally_bench checks again with the runtime.
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
log="$build/tally_bench_build.log"
echo "run_main.sh: building tally_bench in $build (log: $log)" >&2
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" --target tally_bench -j "$(nproc 2>/dev/null || echo 4)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  fail "build failed (full log: $log)"
fi

results="$root/bench/results"
json="$build/tally_bench_run.json"  # renamed after the GPU once the run is done
out_args=()
if ((save)); then out_args=(--benchmark_out="$json" --benchmark_out_format=json); fi

"$build/bench/tally_bench" "$run_kind" ${args[@]+"${args[@]}"} ${out_args[@]+"${out_args[@]}"}

if ((save)); then
  read -r gpu run_mode < <(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["context"]; print(c["gpu_name"], c["run_mode"])' "$json")
  suffix=""
  [[ "$run_mode" == full ]] || suffix="_$run_mode"
  dest="$results/$gpu$suffix.json"
  mkdir -p "$results"
  mv "$json" "$dest"
  echo "run_main.sh: wrote $dest"
  # The first python3 with matplotlib (a pyenv or venv python3 may lack the system's).
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import matplotlib' 2>/dev/null; then
      "$py" "$root/bench/plot.py" "$dest" --out "$results"
      exit 0
    fi
  done
  echo "run_main.sh: matplotlib not found; plot later with: python3 bench/plot.py $dest --out bench/results/" >&2
fi
