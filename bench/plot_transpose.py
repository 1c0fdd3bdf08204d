#!/usr/bin/env python3
"""Turns tally_bench_transpose's JSON (--benchmark_out=FILE --benchmark_out_format=json) into a PNG.

    python3 bench/plot_transpose.py bench/results/<gpu>_transpose.json --out bench/results/

writes <gpu>_transpose.png (gpu_name from the JSON context): one panel per element type and size,
a bar per method (GB/s = (read + write) / time, median over repetitions), the D2D copy dashed,
cuBLAS geam and tally's default layout highlighted.
"""
import argparse
import collections
import json
import os
import re
import statistics

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)


def load(path):
    """Returns (context, {(type, size): {method: GB/s}}) in the order rows appear."""
    with open(path) as f:
        doc = json.load(f)
    medians, samples = {}, collections.defaultdict(list)
    for b in doc.get("benchmarks", []):
        name = re.sub(r"/(iterations:\d+|repeats:\d+|manual_time)", "", b.get("run_name", b["name"]))
        parts = name.split("/")
        if len(parts) != 4 or parts[0] != "transpose" or "GBps" not in b:
            continue
        key = (parts[1], parts[3], parts[2])
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[key] = b["GBps"]
        else:
            samples[key].append(b["GBps"])
    for key, values in samples.items():
        medians.setdefault(key, statistics.median(values))
    panels = collections.OrderedDict()
    for (type_, size, method), gbps in medians.items():
        panels.setdefault((type_, size), collections.OrderedDict())[method] = gbps
    return doc.get("context", {}), panels


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json")
    ap.add_argument("--out", default=".")
    args = ap.parse_args()
    context, panels = load(args.json)
    if not panels:
        raise SystemExit(f"plot_transpose.py: no transpose rows in {args.json}")
    gpu = context.get("gpu_name", "gpu")
    defaults = {k[len("default_"):]: v for k, v in context.items() if k.startswith("default_")}
    keys = sorted(panels, key=lambda k: (k[0] != "float", int(k[1].split("x")[0])))
    cols = 2
    rows = (len(keys) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(7 * cols, 4.2 * rows), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        methods = panels[key]
        names = [m for m in methods if m != "copy"]
        values = [methods[m] for m in names]
        colors = ["tab:orange" if m == "cublas_geam" else "tab:blue" if m == defaults.get(key[0]) else "tab:gray"
                  for m in names]
        y = range(len(names))
        ax.barh(list(y), values, color=colors)
        ax.set_yticks(list(y))
        ax.set_yticklabels(names, fontsize=8)
        ax.invert_yaxis()
        if "copy" in methods:
            ax.axvline(methods["copy"], color="black", linestyle="--", linewidth=1)
            ax.text(methods["copy"], len(names) - 0.4, f" copy {methods['copy']:.0f}", fontsize=8, va="bottom")
            for i, v in enumerate(values):
                ax.text(v, i, f" {v:.0f} ({100 * v / methods['copy']:.0f}%)", va="center", fontsize=7)
        ax.set_xlabel("GB/s (read + write)")
        ax.set_title(f"{key[0]} {key[1]}")
        ax.set_xlim(0, 1.25 * max(values + [methods.get("copy", 0)]))
    for ax in list(axes.flat)[len(keys):]:
        ax.axis("off")
    fig.suptitle(f"tally::transpose on {context.get('gpu_name_raw', gpu)}: orange cuBLAS geam, blue tally default")
    fig.tight_layout()
    os.makedirs(args.out, exist_ok=True)
    dest = os.path.join(args.out, f"{gpu}_transpose.png")
    fig.savefig(dest, dpi=120)
    print(f"plot_transpose.py: wrote {dest}")


if __name__ == "__main__":
    main()
