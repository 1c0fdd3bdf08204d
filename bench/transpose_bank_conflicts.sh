#!/usr/bin/env bash
# Shared-memory bank conflicts of every tally transpose layout, measured with Nsight Compute on one
# launch each at 8192 x 8192 float (tally_bench_transpose --ncu_launches), clocks left alone.
#
#   bash bench/transpose_bank_conflicts.sh BUILD_DIR [--csv FILE]
#
# Prints a table: per layout, the shared loads and stores executed (warp instructions) and their
# bank conflicts (l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}.sum: wavefronts beyond
# the conflict-free count), and conflicts per instruction. --csv keeps ncu's raw CSV.
# Needs ncu on the PATH (or $NCU) and permission to read the GPU's performance counters.
set -euo pipefail

build="${1:?usage: bash bench/transpose_bank_conflicts.sh BUILD_DIR [--csv FILE]}"
shift
keep_csv=""
if [[ "${1:-}" == "--csv" ]]; then keep_csv="${2:?--csv needs a file}"; fi
exe="$build/bench/tally_bench_transpose"
ncu="${NCU:-ncu}"
[[ -x "$exe" ]] || { echo "transpose_bank_conflicts.sh: $exe not built (cmake --build $build --target tally_bench_transpose)" >&2; exit 1; }
command -v "$ncu" >/dev/null 2>&1 || { echo "transpose_bank_conflicts.sh: ncu not found (set NCU=/path/to/ncu)" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
metrics=l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum

# Only tally's transpose kernels are profiled (the fill kernel and cuBLAS's setup are not), one
# launch per layout: the driver makes exactly one launch of each, in the order it prints.
"$ncu" --clock-control none --kernel-name-base demangled --kernel-name regex:transpose_kernel \
  --metrics "$metrics" --csv --log-file "$work/ncu.csv" \
  "$exe" --ncu_launches >"$work/launches.txt"
[[ -z "$keep_csv" ]] || cp "$work/ncu.csv" "$keep_csv"

python3 - "$work/launches.txt" "$work/ncu.csv" <<'PY'
import csv, sys

names = {}
for line in open(sys.argv[1]):
    parts = line.split()
    if len(parts) == 3 and parts[0] == "ncu_launch":
        names[int(parts[1])] = parts[2]

lines = open(sys.argv[2]).read().splitlines()
start = next((i for i, l in enumerate(lines) if l.startswith('"ID"')), None)
if start is None:
    sys.exit("transpose_bank_conflicts.sh: no CSV table in ncu's output:\n" + "\n".join(lines[-20:]))
values = {}  # launch index -> {metric: value}
for row in csv.DictReader(lines[start:]):
    v = row["Metric Value"].replace(",", "")
    values.setdefault(int(row["ID"]), {})[row["Metric Name"]] = float(v) if v else 0.0

print("shared-memory bank conflicts, one launch per layout, 8192 x 8192 float (Nsight Compute, clocks not locked)")
print("| layout | shared ld (warp instr) | ld bank conflicts | per ld | shared st (warp instr) | st bank conflicts | per st |")
print("|---|---:|---:|---:|---:|---:|---:|")
for i in sorted(values):
    m = values[i]
    ld = m.get("smsp__sass_inst_executed_op_shared_ld.sum", 0)
    st = m.get("smsp__sass_inst_executed_op_shared_st.sum", 0)
    cld = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", 0)
    cst = m.get("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", 0)
    per = lambda c, n: f"{c / n:.2f}" if n else "-"
    print(f"| {names.get(i, f'launch {i}')} | {ld:.0f} | {cld:.0f} | {per(cld, ld)} | {st:.0f} | {cst:.0f} | {per(cst, st)} |")
if len(values) != len(names):
    print(f"warning: {len(names)} launches made, {len(values)} profiled", file=sys.stderr)
PY
