#!/usr/bin/env bash
# Builds test/consumer against an installed tally (the plain C++ consumer with the C++ compiler
# alone, the C consumer with the C compiler alone, and every C and C++ code block of README.md and
# docs/), then runs the consumers and every snippet that is a program.
#
#   test/consumer/build_and_run.sh [--build-only] INSTALL_PREFIX
#
# INSTALL_PREFIX is where `cmake --install <build> --prefix INSTALL_PREFIX` put tally. Without a
# flag the programs must find a GPU and succeed (exit 0). With --build-only (CI, no GPU) the
# programs are built but not run, except the consumer, whose "no CUDA device" exit (77) counts as
# success. Exit 77 without --build-only means: built, but no GPU to run on (CTest: skipped).
# The build goes to $CONSUMER_BUILD_DIR (default: a fresh temporary directory); CXX picks the
# compiler (default g++); TALLY_CUDA_ARCHITECTURES the snippets' targets (default 90);
# TALLY_CONSUMER_CUDA_FLAGS extra nvcc flags (a TALLY_COMPILE_CHECK build passes -Xcicc=-O0).
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

cmake -S "$here" -B "$build" -DCMAKE_PREFIX_PATH="$(cd "$prefix" && pwd)" -DCMAKE_CXX_COMPILER="${CXX:-g++}" \
      -DCMAKE_C_COMPILER="${CC:-gcc}" \
      -DCMAKE_CUDA_ARCHITECTURES="${TALLY_CUDA_ARCHITECTURES:-90}" -DCMAKE_BUILD_TYPE=Release \
      ${TALLY_CONSUMER_CUDA_FLAGS:+-DCMAKE_CUDA_FLAGS="$TALLY_CONSUMER_CUDA_FLAGS"}
cmake --build "$build" --parallel

status=0
"$build/consumer" || status=$?
if [[ $status -eq 77 && $build_only -eq 1 ]]; then
  echo "build_and_run.sh: consumer and snippets built; no CUDA device here, so nothing else runs"
  exit 0
elif [[ $status -eq 77 ]]; then
  echo "build_and_run.sh: built; no CUDA device to run the consumer and the snippets on"
  exit 77
elif [[ $status -ne 0 ]]; then
  echo "build_and_run.sh: consumer failed (exit $status)" >&2
  exit "$status"
fi
echo "build_and_run.sh: consumer matched the host reference"
failed=0
if "$build/consumer_c"; then echo "build_and_run.sh: consumer_c matched the host reference"
else echo "build_and_run.sh: consumer_c failed (exit $?)" >&2; failed=1; fi
while read -r program; do
  [[ -n "$program" ]] || continue
  if "$build/$program"; then echo "build_and_run.sh: snippet $program passed"
  else echo "build_and_run.sh: snippet $program failed (exit $?)" >&2; failed=1; fi
done <"$build/snippet_programs.txt"
exit $failed
