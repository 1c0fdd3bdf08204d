#!/usr/bin/env python3
"""Turns tally_bench's JSON (--benchmark_out=FILE --benchmark_out_format=json) into PNGs.

    python3 bench/plot.py bench/results/<gpu>.json --out bench/results/

writes, named after the GPU in the JSON context (gpu_name) and the run mode (nothing for a full
run, _quick or _ladder otherwise):
    <gpu>_<type>.png          GB/s against n for tally_default, CUB and Thrust, back_to_back,
                              one panel per operator (sum, min, arg_min), read ceiling dashed;
                              the sum panel also shows the read_floor rows
    <gpu>_<type>_single.png   the same, single mode
    <gpu>_ladder.png          the ladder (int32 sum, back_to_back) as bars at 2^22 and 2^24
Each point is the median over repetitions (the JSON's median aggregate, or the median of the
repetitions when aggregates were not reported).
"""
import argparse
import collections
import json
import math
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

TYPES = ["float", "int32", "double"]
OPS = ["sum", "min", "arg_min"]
LIBS = {"tally_default": ("tally default", "tab:blue", "o"),
        "cub": ("CUB", "tab:orange", "s"),
        "thrust": ("Thrust", "tab:green", "^"),
        "read_floor": ("read floor (one launch, reads only)", "tab:gray", ".")}
RUNGS = ["baseline", "strided", "sequential", "first_add", "unroll_last_warp", "complete_unroll",
         "unroll4", "shuffle"]
LADDER_SIZES = [2 ** 22, 2 ** 24]


def load(path):
    """Returns (context, {(type, op, lib, mode, n): GB/s})."""
    with open(path) as f:
        doc = json.load(f)
    medians, samples = {}, collections.defaultdict(list)
    for b in doc.get("benchmarks", []):
        # tally_bench's reporters print bare row names; benchmark's own add these parts.
        name = re.sub(r"/(iterations:\d+|repeats:\d+|manual_time)", "", b.get("run_name", b["name"]))
        parts = name.split("/")
        if len(parts) != 6 or parts[0] != "reduce" or "GBps" not in b:
            continue
        key = (parts[1], parts[2], parts[3], parts[4], int(parts[5]))
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = b["GBps"]
        else:
            samples[key].append(b["GBps"])
    for key, values in samples.items():
        medians.setdefault(key, statistics.median(values))
    return doc.get("context", {}), medians


def file_prefix(context):
    gpu = re.sub(r"[^A-Za-z0-9.-]+", "_", context.get("gpu_name", "unknown_gpu")).strip("_") or "unknown_gpu"
    run_mode = context.get("run_mode", "full")
    return gpu if run_mode == "full" else f"{gpu}_{run_mode}"


def ceiling(context):
    try:
        return float(context["ceiling_read_GBps"])
    except (KeyError, ValueError):
        return None


def plot_type(data, context, type_, mode, path):
    ops = [op for op in OPS if any(k[0] == type_ and k[1] == op and k[3] == mode and k[2] in LIBS for k in data)]
    if not ops:
        return False
    fig, axes = plt.subplots(1, len(ops), figsize=(5.5 * len(ops), 4.2), squeeze=False)
    for ax, op in zip(axes[0], ops):
        for lib, (label, color, marker) in LIBS.items():
            points = sorted((k[4], v) for k, v in data.items() if k[:4] == (type_, op, lib, mode))
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=color, marker=marker,
                        markersize=4)
        if ceiling(context):
            ax.axhline(ceiling(context), color="grey", linestyle="--", linewidth=1, label="read ceiling")
        ax.set_xscale("log", base=2)
        lo, hi = min(k[4] for k in data), max(k[4] for k in data)
        ax.set_xticks([2 ** k for k in range(0, 64, 2) if lo <= 2 ** k <= hi])
        ax.set_xlabel("n (elements)")
        ax.set_ylabel("GB/s (n * sizeof(T) / time)")
        ax.set_title(f"{type_} {op}, {mode}")
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
    fig.suptitle(f"tally vs CUB vs Thrust on {context.get('gpu_name_raw', context.get('gpu_name', '?'))}")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def plot_ladder(data, context, path):
    sizes = [n for n in LADDER_SIZES if (("int32", "sum", "ladder_baseline", "back_to_back", n) in data)]
    if not sizes:
        return False
    bars = [("ladder_" + r, r) for r in RUNGS] + [("cub", "CUB"), ("tally_default", "tally default")]
    bars = [(lib, label) for lib, label in bars if any(("int32", "sum", lib, "back_to_back", n) in data for n in sizes)]
    width = 0.8 / len(sizes)
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(bars)), 4.5))
    for i, n in enumerate(sizes):
        values = [data.get(("int32", "sum", lib, "back_to_back", n), 0.0) for lib, _ in bars]
        xs = [j + (i - (len(sizes) - 1) / 2) * width for j in range(len(bars))]
        ax.bar(xs, values, width, label=f"n = 2^{int(math.log2(n))}")
    if ceiling(context):
        ax.axhline(ceiling(context), color="grey", linestyle="--", linewidth=1, label="read ceiling")
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([label for _, label in bars], rotation=30, ha="right")
    ax.set_ylabel("GB/s (n * 4 / time)")
    ax.set_title(f"The reduction ladder, int32 sum, back_to_back, {context.get('gpu_name_raw', '?')}")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="tally_bench JSON output")
    parser.add_argument("--out", default=".", help="directory for the PNGs")
    args = parser.parse_args()

    context, data = load(args.json)
    if not data:
        sys.exit(f"plot.py: no reduce/... rows with a GBps counter in {args.json}")
    os.makedirs(args.out, exist_ok=True)
    prefix = file_prefix(context)
    written = []
    for type_ in TYPES:
        for mode, suffix in (("back_to_back", ""), ("single", "_single")):
            path = os.path.join(args.out, f"{prefix}_{type_}{suffix}.png")
            if plot_type(data, context, type_, mode, path):
                written.append(path)
    path = os.path.join(args.out, f"{prefix}_ladder.png")
    if plot_ladder(data, context, path):
        written.append(path)
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
