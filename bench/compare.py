"""A/B of benchmark runs: several trees' JSONs from one session, run alternately, row by row.

    python3 bench/compare.py [--field GBps] [--match REGEX] NAME=FILE[,FILE...] NAME=FILE[,FILE...] ...
    python3 bench/compare.py [--field GBps] [--match REGEX] --dir DIR NAME NAME ...   (DIR/NAME_*.json)

Each NAME is one tree (binary), each FILE one round of it (--benchmark_out=FILE
--benchmark_out_format=json). For every row the first NAME's rounds ran, prints each NAME's mean of
the field's medians over its rounds and, after the first, the ratio of that mean to the first NAME's
with the range of the round-by-round ratios (round r against round r). GBps and the vs_* fields are
higher-is-better; real_time is lower-is-better and its ratio is inverted, so > 1 is faster
everywhere. Exit 1 if a FILE is missing or a NAME has no rounds.
"""
import argparse
import glob
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_json  # noqa: E402


def round_files(args):
    """Returns [(name, [file, ...])] in the order given."""
    if args.dir:
        def key(path):  # NAME_<round>.json, rounds in numeric order
            m = re.search(r"_(\d+)\.json$", path)
            return int(m.group(1)) if m else 0
        return [(n, sorted(glob.glob(os.path.join(args.dir, f"{glob.escape(n)}_*.json")), key=key)) for n in args.trees]
    out = []
    for t in args.trees:
        if "=" not in t:
            sys.exit(f"compare.py: '{t}' is not NAME=FILE[,FILE...] (or give --dir DIR)")
        name, files = t.split("=", 1)
        out.append((name, [f for f in files.split(",") if f]))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--field", default="GBps", help="the field to compare (GBps, real_time, vs_cub, ...)")
    ap.add_argument("--match", default="", help="only rows whose names match this regular expression")
    ap.add_argument("--dir", help="take NAME's rounds from DIR/NAME_*.json")
    ap.add_argument("trees", nargs="+")
    args = ap.parse_args()
    trees = round_files(args)
    runs = {}
    for name, files in trees:
        if not files:
            sys.exit(f"compare.py: no rounds for {name}")
        for f in files:
            if not os.path.exists(f):
                sys.exit(f"compare.py: {f} not found")
        runs[name] = [bench_json.load(f)[1] for f in files]
    lower_better = args.field in ("real_time", "cpu_time")
    base_name = trees[0][0]
    pattern = re.compile(args.match)
    rows = [r for r in runs[base_name][0] if pattern.search(r)]
    width = max([len(r) for r in rows] + [4])

    def values(name, row):
        return [rnd[row][args.field] for rnd in runs[name] if row in rnd and args.field in rnd[row]]

    print(f"{'row':{width}}  " + "  ".join(f"{n:>26}" for n, _ in trees) + f"   ({args.field}; ratio > 1: faster than {base_name})")
    for row in rows:
        base = values(base_name, row)
        if not base:
            continue
        cells = []
        for name, _ in trees:
            vals = values(name, row)
            if not vals:
                cells.append(f"{'-':>26}")
                continue
            mean = statistics.mean(vals)
            if name == base_name:
                cells.append(f"{mean:>26.4g}")
                continue
            ratio = statistics.mean(base) / mean if lower_better else mean / statistics.mean(base)
            per_round = [(b / v if lower_better else v / b) for b, v in zip(base, vals)]
            cells.append(f"{mean:>9.4g} {ratio:6.3f} [{min(per_round):.3f}-{max(per_round):.3f}]")
        print(f"{row:{width}}  " + "  ".join(cells))


if __name__ == "__main__":
    main()
