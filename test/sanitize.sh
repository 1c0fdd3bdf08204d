#!/usr/bin/env bash
# Runs compute-sanitizer (memcheck, racecheck, synccheck, initcheck) over every GPU test program of
# a build, at small sizes, so every kernel tally ships runs under each tool; exits non-zero on any
# report. Usage: bash test/sanitize.sh BUILD_DIR [TOOL...]
#
# Programs: every executable under BUILD_DIR/test/gpu (the reduce, rows and transpose suites, the
# fuzz test, libtally.a through tally_hpp), unless TALLY_SANITIZE_TESTS lists some.
# Before the tests, each tool runs on BUILD_DIR/test/sanitize/sanitize_canary, which holds one
# deliberate bug of the kind that tool looks for: the tool must report it, or a clean run proves
# nothing (TALLY_SANITIZE_CANARY=0 skips this).
# TALLY_TEST_MAX_N caps the sizes (default 4097); TALLY_FUZZ_CASES the fuzz cases (default 200).
# Exit 77 (skipped, reason printed) without compute-sanitizer or a CUDA device.
set -uo pipefail
build=${1:?usage: sanitize.sh BUILD_DIR [TOOL...]}
shift
tools=("$@")
[ ${#tools[@]} -gt 0 ] || tools=(memcheck racecheck synccheck initcheck)
export TALLY_TEST_MAX_N=${TALLY_TEST_MAX_N:-4097}
export TALLY_FUZZ_CASES=${TALLY_FUZZ_CASES:-200}

sanitizer=$(command -v compute-sanitizer || true)
[ -n "$sanitizer" ] || [ ! -x /usr/local/cuda/bin/compute-sanitizer ] || sanitizer=/usr/local/cuda/bin/compute-sanitizer
if [ -z "$sanitizer" ]; then
  echo "SKIPPED: compute-sanitizer not found (it ships with the CUDA toolkit)"
  exit 77
fi
programs=${TALLY_SANITIZE_TESTS:-$(find "$build/test/gpu" -type f -executable -not -path "*/CMakeFiles/*" 2>/dev/null | sort)}
if [ -z "$programs" ]; then
  echo "sanitize.sh: no GPU test programs under $build/test/gpu (build them first)" >&2
  exit 1
fi
# Without a device every test program exits 77; ask one.
first=$(echo "$programs" | head -n1)
"$first" --list-test-cases >/dev/null 2>&1
if [ $? -eq 77 ]; then
  echo "SKIPPED: no CUDA device ($(basename "$first") says: $("$first" 2>/dev/null | head -n1))"
  exit 77
fi

# "<reports> <reports outside NCCL's kernels>" of an initcheck log (the second -1 where the printed
# reports do not add up to the summaries' counts).
nccl_only_reports() {
  awk '/^========= ERROR SUMMARY: [0-9]+ error/ { summed += $4 }
       /^========= Uninitialized/ { reports++; if ((getline at) > 0 && at !~ /^=========     at nccl/) outside++ }
       END { print summed + 0, (reports == summed ? outside + 0 : -1) }' "$1"
}

failed=0
canary="$build/test/sanitize/sanitize_canary"
if [ "${TALLY_SANITIZE_CANARY:-1}" != 0 ]; then
  for tool in "${tools[@]}"; do
    if [ ! -x "$canary" ]; then
      echo "canary     missing: $canary (build target sanitize_canary)"
      failed=1
      break
    fi
    log=$(mktemp)
    "$sanitizer" --tool "$tool" --error-exitcode 86 "$canary" "$tool" >"$log" 2>&1
    status=$?
    summary=$(grep -m1 "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" || echo "no summary")
    if [ "$status" -eq 86 ]; then
      printf '%-10s canary reported, as it must: %s\n' "$tool" "$summary"
    else
      printf '%-10s canary NOT reported (exit %s): %s\n' "$tool" "$status" "$summary"
      tail -n 20 "$log"
      failed=1
    fi
    rm -f "$log"
  done
fi

for tool in "${tools[@]}"; do
  for exe in $programs; do
    log=$(mktemp)
    start=$SECONDS
    # NCCL probes its kernels with cudaFuncGetAttributes and expects the ones built for other GPUs to
    # fail (cudaErrorNoKernelImageForDevice): not an error of the program, so API errors are not
    # reported for the NCCL test. Memory errors still are.
    api_errors=explicit nccl_initcheck=0 print_limit=20
    case "$(basename "$exe")" in nccl*) api_errors=no; [ "$tool" = initcheck ] && nccl_initcheck=1 ;; esac
    # Every initcheck report of the NCCL test is printed, so that each one's kernel can be read below.
    [ "$nccl_initcheck" = 1 ] && print_limit=1000000
    "$sanitizer" --tool "$tool" --error-exitcode 86 --print-limit "$print_limit" --report-api-errors "$api_errors" "$exe" >"$log" 2>&1
    status=$?
    summary=$(grep -m1 "ERROR SUMMARY\|RACECHECK SUMMARY" "$log" || echo "no summary")
    # With two ranks or more, NCCL's own kernels read device memory they never initialized: its LL
    # protocol polls 16-byte lines of data and flags before the peer writes them (docs/nccl.md). Those
    # reports (their kernel's name begins with nccl) are counted and set aside; any other fails, and
    # so does a log whose reports do not add up to its summaries.
    if [ "$status" -eq 86 ] && [ "$nccl_initcheck" = 1 ]; then
      read -r reported outside < <(nccl_only_reports "$log")
      if [ "$outside" = 0 ]; then
        summary="$reported reports, all in NCCL's own kernels (set aside: docs/nccl.md)"
        status=0
      fi
    fi
    tests=$(grep "test cases:" "$log" | tail -n1)  # the last: the program's own (a test that starts workers prints theirs first)
    printf '%-10s %-22s exit %-3s %4ss  %s | %s\n' "$tool" "$(basename "$exe")" "$status" "$((SECONDS - start))" \
      "$summary" "$tests"
    if [ "$status" -ne 0 ]; then
      failed=1
      grep -m40 "=========\|ERROR" "$log"
    fi
    rm -f "$log"
  done
done
exit $failed
