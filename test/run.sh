#!/usr/bin/env bash
# Builds every target and runs the test suites: host tests everywhere, GPU tests where a CUDA
# device is present (elsewhere CTest lists them as skipped, and the reason is printed below).
# Usage: bash test/run.sh [build-dir] [extra ctest args...]
set -euo pipefail
cd "$(dirname "$0")/.."
source .ci/deps.sh
tally_install_deps
build=${1:-build}
shift || true
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${TALLY_CMAKE_ARGS:-}
cmake --build "$build" -j"$(nproc)"
status=0
# The sanitizer sweep (label sanitize) takes long: run it on its own with
# `ctest --test-dir build -L sanitize --output-on-failure` or `bash test/sanitize.sh build`.
ctest --test-dir "$build" --output-on-failure -LE sanitize "$@" || status=$?
# CTest shows a skipped test only as "Skipped": print each one's reason from the test log.
awk '/^[0-9]+\/[0-9]+ Test: / {name = $3} /^SKIPPED:/ {print "  " name ": " $0}' \
  "$build/Testing/Temporary/LastTest.log"
exit $status
