#!/usr/bin/env python3
"""Reads a tally_bench JSON (bench/run_main.sh --full --save) and prints tally_default's ratio to CUB
(vs_cub = CUB median time / tally median time) for every type, operator, n and timing mode of the
speed targets, then whether each target holds:

  1. vs_cub >= 1.00 at every n from 2^10 to 2^28, both modes (float, int32, double sum; float min, arg_min)
  2. vs_cub >= 1.5 at n = 2^16 ... 2^22, back_to_back
  3. pct_ceiling >= 97 at n = 2^28 (tally_default, every listed type and operator, both modes)
  4. the best composition of the policies (the ladder's, tally_default, tally_no_pdl, tally_kahan: every
     row is a reduce_policy, none a special kernel) >= 90 % of the ceiling at n = 2^24

A target-2 miss also prints the read_floor row of the same type and n (a kernel that only reads
the input, bench/read_floor.hpp): CUB's time over it is the most any one-launch reduction reaches.

Usage: python3 bench/check_targets.py bench/results/NVIDIA_H200.json
Exit status 0 when every target holds, 1 otherwise.
"""
import sys

import bench_json

CASES = [("float", "sum"), ("int32", "sum"), ("double", "sum"), ("float", "min"), ("float", "arg_min")]
MODES = ("single", "back_to_back")


def load(path):
    """Returns (context, {(type, op, lib, mode, n): {field: median}}) for the reduce rows."""
    context, medians = bench_json.load(path)
    return context, {(t, op, lib, mode, int(n)): f for (t, op, lib, mode, n), f in bench_json.rows(medians, "reduce").items()}


def floor_note(rows, type_, n, cub_time, tally_time):
    """What a kernel that only reads the input (read_floor, the same bytes) reaches in the same run."""
    f = rows.get((type_, "sum", "read_floor", "back_to_back", n))
    if f is None:
        return ""
    return (f" (read_floor, one launch that only reads the {type_} input: {f['real_time']:.2f} us, "
            f"vs_cub {cub_time / f['real_time']:.3f}; tally {tally_time:.2f} us, CUB {cub_time:.2f} us)")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    context, rows = load(sys.argv[1])
    sizes = sorted({k[4] for k in rows if k[4] & (k[4] - 1) == 0 and 2**10 <= k[4] <= 2**28})
    print(f"tally_default vs cub::DeviceReduce on {context.get('gpu_name_raw', '?')}: vs_cub per n "
          f"(CUB median time / tally median time); read ceiling {float(context['ceiling_read_GBps']):.0f} GB/s")
    print(f"{'type':7} {'op':8} {'mode':13}" + "".join(f"{'2^%d' % (n.bit_length() - 1):>7}" for n in sizes))
    misses = []
    for type_, op in CASES:
        for mode in MODES:
            line = f"{type_:7} {op:8} {mode:13}"
            for n in sizes:
                t, c = rows.get((type_, op, "tally_default", mode, n)), rows.get((type_, op, "cub", mode, n))
                if t is None or c is None:
                    line += f"{'-':>7}"
                    continue
                ratio = c["real_time"] / t["real_time"]
                mark = ""
                if ratio < 1.0:
                    mark = "*"
                    misses.append(f"1: {type_} {op} {mode} 2^{n.bit_length() - 1}: vs_cub {ratio:.3f}")
                if mode == "back_to_back" and 2**16 <= n <= 2**22 and ratio < 1.5:
                    mark = "+" if not mark else mark
                    misses.append(f"2: {type_} {op} {mode} 2^{n.bit_length() - 1}: vs_cub {ratio:.3f} < 1.5"
                                  + floor_note(rows, type_, n, c["real_time"], t["real_time"]))
                line += f"{ratio:6.3f}{mark or ' '}"
            print(line)
    print("* below 1.00 (target 1); + below 1.5 where target 2 asks for it")

    for type_, op in CASES:
        for mode in MODES:
            t = rows.get((type_, op, "tally_default", mode, 2**28))
            if t is not None and t["pct_ceiling"] < 97:
                misses.append(f"3: {type_} {op} {mode} 2^28: {t['pct_ceiling']:.1f} % of the ceiling")
    compositions = [(b["pct_ceiling"], k) for k, b in rows.items()
                    if k[2].startswith(("ladder_", "tally_")) and k[4] == 2**24]
    if compositions:
        best, key = max(compositions)
        print(f"best composition at 2^24: {key[2]} ({key[0]} {key[1]}, {key[3]}) {best:.1f} % of the ceiling")
        if best < 90:
            misses.append(f"4: best composition at 2^24 reaches {best:.1f} % of the ceiling")
    print("\n".join(["targets: all met"] if not misses else ["targets not met:"] + ["  " + m for m in misses]))
    return 0 if not misses else 1


if __name__ == "__main__":
    sys.exit(main())
