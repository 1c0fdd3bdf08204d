#!/usr/bin/env python3
"""Reads a tally_bench_segments JSON and a tally_bench_rows JSON (bench/run_segments.sh --save,
bench/run_rows.sh --save) and prints, for every row the targets of ragged segments, CSR SpMV and
16-bit rows / matvec name, tally_default's ratio or share and whether it holds:

  1. reduce_segments (every sum distribution and element type of the bench):
     a. pct_ceiling >= 85 where the call's bytes (values, offsets, outputs) exceed the L2
     b. vs_cub >= 1.0
     c. vs_rows >= 0.95 where every segment has one length (tally_rows on the same data)
  2. rows: half and bf16 row sums, and matvec in every type: vs_best >= 1.0 on every shape
     (the best of CUB's segmented reduce and cuBLAS gemv; for matvec CUB's is a row *sum*)
  3. CSR SpMV: vs_cusparse >= 1.0 on every matrix (stretch: 1.2 on power-law rows, reported only),
     on tally_planned where the run has it: cuSPARSE's partition runs in its preprocess, outside
     the timed call, and tally's plan likewise (tally_default, which splits in every call, printed
     beside it)

Usage: python3 bench/check_segment_targets.py bench/results/NVIDIA_H200_segments.json \\
           bench/results/NVIDIA_H200_rows.json
Exit status 0 when every target holds, 1 otherwise. Either file may be given alone (its targets only).
"""
import json
import sys

import bench_json

UNITS_TO_US = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}


def time_unit(path):
    """The unit of real_time (bench_json keeps the numbers only)."""
    with open(path) as f:
        benchmarks = json.load(f).get("benchmarks", [])
    return benchmarks[0].get("time_unit", "ns") if benchmarks else "ns"


class Report:
    def __init__(self):
        self.misses = 0

    def check(self, label, value, op, bound, note=""):
        ok = value >= bound if op == ">=" else value <= bound
        self.misses += not ok
        print(f"  {'ok  ' if ok else 'MISS'}  {label:58} {value:9.3f} {op} {bound}{('  ' + note) if note else ''}")


def segments_targets(path, context, medians, report):
    l2 = float(context.get("l2_bytes", 0))
    to_us = UNITS_TO_US[time_unit(path)]
    rows = bench_json.rows(medians, "segments")
    print(f"Segments ({context.get('gpu_name', '?')}, {path}; read ceiling "
          f"{float(context.get('ceiling_read_GBps', 0)):.0f} GB/s, L2 {l2 / 2**20:.0f} MiB)")
    stretch = []
    for (dtype, job, lib, dist), f in rows.items():
        if lib != "tally_default":
            continue
        name = f"{dtype} {job} {dist}"
        if job == "spmv":
            planned = rows.get((dtype, job, "tally_planned", dist))
            ratio = planned["vs_cusparse"] if planned else f["vs_cusparse"]
            note = f"planned; unplanned {f['vs_cusparse']:.3f}" if planned else ""
            report.check(name + ": vs_cusparse", ratio, ">=", 1.0, note)
            if "power_law" in dist:
                stretch.append((name, ratio))
            continue
        data_bytes = f["GBps"] * 1e9 * f["real_time"] * to_us * 1e-6
        if data_bytes > l2:
            report.check(name + ": pct_ceiling", f["pct_ceiling"], ">=", 85, f"{data_bytes / 2**20:.0f} MiB")
        report.check(name + ": vs_cub", f["vs_cub"], ">=", 1.0)
        if "vs_rows" in f:
            report.check(name + ": vs_rows", f["vs_rows"], ">=", 0.95)
    for name, value in stretch:
        print(f"  {'met ' if value >= 1.2 else 'not '}  stretch {name + ': vs_cusparse':50} {value:9.3f} >= 1.2")


def rows_targets(path, context, medians, report):
    rows = bench_json.rows(medians, "rows")
    print(f"Rows ({context.get('gpu_name', '?')}, {path})")
    for key, f in rows.items():
        dtype, job, lib = key[0], key[1], key[2]
        shape = "/".join(key[3:])
        if lib != "tally_default" or "vs_best" not in f:
            continue
        if job == "matvec" or (job == "sum" and dtype in ("half", "bf16")):
            report.check(f"{dtype} {job} {shape}: vs_best", f["vs_best"], ">=", 1.0)


def main(argv):
    if len(argv) < 2 or any(a in ("-h", "--help") for a in argv[1:]):
        print(__doc__)
        return 2
    report = Report()
    for path in argv[1:]:
        context, medians = bench_json.load(path)
        program = next(iter(medians), "").split("/")[0]
        if program == "segments":
            segments_targets(path, context, medians, report)
        elif program == "rows":
            rows_targets(path, context, medians, report)
        else:
            print(f"check_segment_targets: {path}: neither a segments nor a rows run")
            return 2
    print(f"{report.misses} target(s) missed" if report.misses else "every target holds")
    return 1 if report.misses else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
