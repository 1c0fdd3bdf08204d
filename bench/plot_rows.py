#!/usr/bin/env python3
"""Turns tally_bench_rows's JSON into one PNG: GB/s per shape (float and double row sums) for
tally's default, CUB's DeviceSegmentedReduce and cuBLAS gemv, with the forced tally strategies
as small markers and the read ceiling dashed.

    python3 bench/plot_rows.py bench/results/<gpu>_rows.json --out bench/results/

writes <out>/<gpu>_rows.png. Each value is the median aggregate (or the median of the repetitions).
"""
import argparse
import collections
import json
import os
import re
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

MAIN = {"tally_default": ("tally default", "tab:blue"),
        "cub_segmented": ("CUB DeviceSegmentedReduce", "tab:orange"),
        "cublas_gemv": ("cuBLAS gemv (x = ones)", "tab:green")}
FORCED = {"tally_thread_per_row": "v", "tally_warp_per_row": "^", "tally_block_per_row": "s",
          "tally_blocks_per_row": "D"}


def load(path):
    with open(path) as f:
        doc = json.load(f)
    medians, samples = {}, collections.defaultdict(list)
    for b in doc.get("benchmarks", []):
        name = re.sub(r"/(iterations:\d+|repeats:\d+|manual_time)", "", b.get("run_name", b["name"]))
        parts = name.split("/")
        if len(parts) != 5 or parts[0] != "rows" or "GBps" not in b:
            continue
        key = tuple(parts[1:])  # type, job, lib, shape
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = b["GBps"]
        else:
            samples[key].append(b["GBps"])
    for key, values in samples.items():
        medians.setdefault(key, statistics.median(values))
    return doc.get("context", {}), medians


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("json")
    ap.add_argument("--out", default=".")
    a = ap.parse_args()
    ctx, gbps = load(a.json)
    gpu = ctx.get("gpu_name", "gpu")
    ceiling = float(ctx.get("ceiling_read_GBps", "0") or 0)
    types = [t for t in ("float", "double") if any(k[0] == t for k in gbps)]
    fig, axes = plt.subplots(len(types), 1, figsize=(11, 4.2 * len(types)), squeeze=False)
    for ax, t in zip(axes[:, 0], types):
        shapes = []
        for k in gbps:
            if k[0] == t and k[1] == "sum" and k[3] not in shapes:
                shapes.append(k[3])
        x = range(len(shapes))
        width = 0.26
        for i, (lib, (label, color)) in enumerate(MAIN.items()):
            ax.bar([p + (i - 1) * width for p in x], [gbps.get((t, "sum", lib, s), 0) for s in shapes], width,
                   label=label, color=color)
        for lib, marker in FORCED.items():
            pts = [(p - width, gbps[(t, "sum", lib, s)]) for p, s in zip(x, shapes) if (t, "sum", lib, s) in gbps]
            if pts:
                ax.scatter(*zip(*pts), marker=marker, color="black", s=22, zorder=3, label=lib.replace("tally_", "forced "))
        if ceiling:
            ax.axhline(ceiling, color="gray", linestyle="--", linewidth=1, label="read ceiling")
        ax.set_xticks(list(x))
        ax.set_xticklabels([s.replace("x", " x ") for s in shapes], fontsize=8)
        ax.set_ylabel("GB/s")
        ax.set_title(f"{t} row sums, {ctx.get('gpu_name_raw', gpu)} (M x N, ld = N)")
        ax.legend(fontsize=7, ncol=3, loc="upper right")
    fig.tight_layout()
    os.makedirs(a.out, exist_ok=True)
    dest = os.path.join(a.out, f"{gpu}_rows.png")
    fig.savefig(dest, dpi=110)
    print(f"plot_rows.py: wrote {dest}")


if __name__ == "__main__":
    main()
