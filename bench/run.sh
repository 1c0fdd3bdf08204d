#!/usr/bin/env bash
# Builds one of the benchmark programs and runs it on this machine's GPU; it ends with the
# program's closing tables.
#
#   bash bench/run.sh reduce    [--save] [--quick | --full | --ladder] [tally_bench flags]
#   bash bench/run.sh rows      [--save] [tally_bench_rows flags]
#   bash bench/run.sh transpose [--save] [tally_bench_transpose flags]
#   bash bench/run.sh segments  [--save] [tally_bench_segments flags]
#   bash bench/run.sh sort      [--save] [tally_bench_sort flags]
#   bash bench/run.sh nccl      [--save] [tally_bench_nccl flags]
#
# reduce:    tally_bench, tally vs cub::DeviceReduce and thrust::reduce; --quick unless --full or
#            --ladder is given (n = 2^10, 2^16, 2^20, 2^24, 2^28; --full: every n, type, operator
#            and ladder row, several minutes; --ladder: only the ladder report)
# rows:      tally_bench_rows, reduce_rows / matvec vs cub::DeviceSegmentedReduce and cuBLAS gemv,
#            float, double, half and bf16, input rotating over 4x L2 and, on the /l2 rows, one buffer
#            every call (--no_double, --no_16bit, --no_l2 leave rows out)
# transpose: tally_bench_transpose, every layout vs cuBLAS geam and a D2D copy (about a minute on
#            an H200)
# segments:  tally_bench_segments, reduce_segments vs cub::DeviceSegmentedReduce and csr_matvec vs
#            cuSPARSE SpMV over ragged distributions
# sort:      tally_bench_sort, sort / sort_by_key vs cub::DeviceMergeSort, cub::DeviceRadixSort and
#            thrust::sort, and seed 003's ladder (about a minute on an H100)
# nccl:      tally_bench_nccl, tally::nccl's all_reduce over every visible GPU (--ranks R: fewer)
#            against the single-GPU reduce and NCCL's all-gather / all-reduce (built where NCCL is
#            found; --threads: a host thread a rank); its JSON is its own, not Google Benchmark's,
#            and is saved without a plot
# --save also writes bench/results/<gpu><suffix>.json and its PNGs (bench/plot.py); the suffix is
# _quick or _ladder for reduce runs other than --full, _rows, _transpose, _segments, _sort and
# _nccl<ranks>[_threads] for the others.
# Any other argument goes to the program (e.g. --benchmark_filter=float/sum, --target_ms=10).
# Environment: TALLY_BUILD_DIR (default: build).
# With no CUDA device it exits non-zero with one line on stderr, before building when it can tell.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${TALLY_BUILD_DIR:-$root/build}"

fail() {
  echo "run.sh: $*" >&2
  exit 1
}

program="${1:-}"
shift || true
case "$program" in
  # tally_bench takes the last of --quick, --full and --ladder: the user's come after this one.
  reduce) target=tally_bench defaults=(--quick) ;;
  rows) target=tally_bench_rows defaults=() ;;
  transpose) target=tally_bench_transpose defaults=() ;;
  segments) target=tally_bench_segments defaults=() ;;
  sort) target=tally_bench_sort defaults=() ;;
  nccl) target=tally_bench_nccl defaults=() ;;
  *) fail "usage: bash bench/run.sh reduce|rows|transpose|segments|sort|nccl [--save] [program flags]" ;;
esac
save=0
args=()
for a in "$@"; do
  if [[ "$a" == "--save" ]]; then save=1; else args+=("$a"); fi
done

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
echo "run.sh: building $target in $build (log: $log)" >&2
if ! { cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release &&
  cmake --build "$build" --target "$target" -j "$(nproc 2>/dev/null || echo 4)"; } >"$log" 2>&1; then
  tail -n 40 "$log" >&2
  fail "build failed (full log: $log)"
fi

results="$root/bench/results"
json="$build/${target}_run.json"  # renamed after the GPU once the run is done
out_args=()
if ((save)); then
  if [[ "$program" == nccl ]]; then out_args=(--json "$json"); else out_args=(--benchmark_out="$json" --benchmark_out_format=json); fi
fi

"$build/bench/$target" ${defaults[@]+"${defaults[@]}"} ${args[@]+"${args[@]}"} ${out_args[@]+"${out_args[@]}"}

if ((save)) && [[ "$program" == nccl ]]; then
  read -r gpu ranks < <(python3 -c 'import json, sys; c = json.load(open(sys.argv[1])); print(c["device"].replace(" ", "_"), str(c["ranks"]) + ("_threads" if c.get("threads") else ""))' "$json")
  dest="$results/${gpu}_nccl$ranks.json"
  mkdir -p "$results"
  mv "$json" "$dest"
  echo "run.sh: wrote $dest"
  exit 0
fi
if ((save)); then
  read -r gpu run_mode < <(python3 -c 'import json, sys; c = json.load(open(sys.argv[1]))["context"]; print(c["gpu_name"], c.get("run_mode", "full"))' "$json")
  suffix="_$program"
  [[ "$program" != reduce ]] || { suffix=""; [[ "$run_mode" == full ]] || suffix="_$run_mode"; }
  dest="$results/$gpu$suffix.json"
  mkdir -p "$results"
  mv "$json" "$dest"
  echo "run.sh: wrote $dest"
  # The first python3 with matplotlib (a pyenv or venv python3 may lack the system's).
  for py in python3 /usr/bin/python3; do
    if "$py" -c 'import matplotlib' 2>/dev/null; then
      "$py" "$root/bench/plot.py" "$dest" --out "$results"
      exit 0
    fi
  done
  echo "run.sh: matplotlib not found; plot later with: python3 bench/plot.py $dest --out bench/results/" >&2
fi
