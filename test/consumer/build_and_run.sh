#!/usr/bin/env bash
# Builds test/consumer with the C++ compiler alone against an installed tally, then runs it.
#
#   test/consumer/build_and_run.sh [--build-only] INSTALL_PREFIX
#
# INSTALL_PREFIX is where `cmake --install <build> --prefix INSTALL_PREFIX` put tally. Without a
# flag the consumer must find a GPU and print the right sums (exit 0). With --build-only (CI, no
# GPU) the consumer still runs, and its "no CUDA device" exit (77) counts as success; a machine that
# does have a GPU must then print the right sums as well.
# The build goes to $CONSUMER_BUILD_DIR (default: a fresh temporary directory); CXX picks the
# compiler (default g++).
set -euo pipefail

usage() { echo "usage: $0 [--build-only] INSTALL_PREFIX" >&2; exit 2; }

build_only=0
prefix=
for arg in "$@"; do
  case "$arg" in
    --build-only) build_only=1 ;;
    -*) usage ;;
    *) [[ -z "$prefix" ]] || usage; prefix=$arg ;;
  esac
done
[[ -n "$prefix" ]] || usage
[[ -f "$prefix/lib/cmake/tally/tallyConfig.cmake" || -n "$(find "$prefix" -name tallyConfig.cmake -print -quit 2>/dev/null)" ]] ||
  { echo "build_and_run.sh: no tallyConfig.cmake under $prefix (run cmake --install first)" >&2; exit 2; }

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${CONSUMER_BUILD_DIR:-$(mktemp -d "${TMPDIR:-/tmp}/tally-consumer.XXXXXX")}

# C++ only: the consumer's project() enables CXX alone, so nvcc is never asked for.
cmake -S "$here" -B "$build" -DCMAKE_PREFIX_PATH="$(cd "$prefix" && pwd)" -DCMAKE_CXX_COMPILER="${CXX:-g++}" \
      -DCMAKE_BUILD_TYPE=Release
cmake --build "$build" --parallel

status=0
"$build/consumer" || status=$?
if [[ $status -eq 0 ]]; then
  echo "build_and_run.sh: consumer matched the host reference"
elif [[ $status -eq 77 && $build_only -eq 1 ]]; then
  echo "build_and_run.sh: consumer built; no CUDA device here, so it exited 77 as expected"
  status=0
else
  echo "build_and_run.sh: consumer failed (exit $status)" >&2
fi
exit "$status"
