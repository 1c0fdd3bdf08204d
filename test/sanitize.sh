#!/usr/bin/env bash
# Runs compute-sanitizer over the GPU test programs at small sizes; exits non-zero on any report.
# Usage: bash test/sanitize.sh BUILD_DIR [TOOL...]   (tools: memcheck racecheck synccheck initcheck)
# TALLY_TEST_MAX_N caps the sizes (default 4097); TALLY_SANITIZE_TESTS picks the programs
# (default: every program under BUILD_DIR/test/gpu).
set -uo pipefail
build=${1:?usage: sanitize.sh BUILD_DIR [TOOL...]}
shift
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
export TALLY_TEST_MAX_N=${TALLY_TEST_MAX_N:-4097}
programs=${TALLY_SANITIZE_TESTS:-$(find "$build/test/gpu" -maxdepth 1 -type f -executable | sort)}
failed=0
for tool in "${tools[@]}"; do
  for exe in $programs; do
    log=$(mktemp)
    compute-sanitizer --tool "$tool" --error-exitcode 86 --print-limit 20 "$exe" >"$log" 2>&1
    status=$?
    summary=$(grep -m1 "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" || echo "no summary")
    tests=$(grep -m1 "test cases:" "$log" || echo "")
    printf '%-10s %-22s exit %-3s %s | %s\n' "$tool" "$(basename "$exe")" "$status" "$summary" "$tests"
    if [ "$status" -ne 0 ]; then
      failed=1
      grep -m40 "=========\|ERROR" "$log"
    fi
    rm -f "$log"
  done
done
exit $failed
