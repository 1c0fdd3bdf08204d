#!/usr/bin/env python3
"""Turns a benchmark program's JSON (--benchmark_out=FILE --benchmark_out_format=json) into PNGs.

    python3 bench/plot.py bench/results/<gpu>[_quick|_ladder|_rows|_transpose|_segments|_sort].json --out bench/results/

The rows' prefix says which program wrote them (bench/run.sh reduce|rows|transpose|segments,
bench/run_sort.sh), and the PNGs are named after the GPU in the JSON context (gpu_name):
  reduce/     tally_bench, named <gpu> for a full run, <gpu>_quick or <gpu>_ladder otherwise:
                <gpu>_<type>.png         GB/s against n for tally_default, CUB and Thrust, back_to_back,
                                         one panel per operator (sum, min, arg_min), read ceiling dashed;
                                         the sum panel also shows the read_floor rows
                <gpu>_<type>_single.png  the same, single mode
                <gpu>_ladder.png         the ladder (int32 sum, back_to_back) as bars at 2^22 and 2^24
  rows/       tally_bench_rows: <gpu>_rows.png, GB/s per shape (float, double, half and bf16 row
              sums, a panel per type; the /l2 shapes, one buffer every call, after the others) for
              tally's default, CUB's DeviceSegmentedReduce, cuBLAS gemv and, for half and bf16,
              cuBLAS's gemvStridedBatched, the forced tally strategies as small markers, the read
              ceiling dashed
  segments/   tally_bench_segments: <gpu>_segments.png, GB/s per distribution, a panel per job
              and type, tally's default against CUB / cuSPARSE, other tile shapes as ticks
  sort/       tally_bench_sort: <gpu>_sort.png, Gkeys/s (GBps / (sizeof(K) + sizeof(V))) against n, one
              panel per job (keys, pairs) and key type, a line each for tally's default, CUB's merge
              sort, CUB's radix sort and Thrust
  transpose/  tally_bench_transpose: <gpu>_transpose.png, one panel per element type and size, a bar
              per method (GB/s = (read + write) / time), the D2D copy dashed, cuBLAS geam and
              tally's default layout highlighted
Each value is the median over repetitions (bench_json.py).
"""
import argparse
import math
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

import bench_json  # noqa: E402

TYPES = ["float", "int32", "double"]
OPS = ["sum", "min", "arg_min"]
LIBS = {"tally_default": ("tally default", "tab:blue", "o"),
        "cub": ("CUB", "tab:orange", "s"),
        "thrust": ("Thrust", "tab:green", "^"),
        "read_floor": ("read floor (one launch, reads only)", "tab:gray", ".")}
RUNGS = ["baseline", "strided", "sequential", "first_add", "unroll_last_warp", "complete_unroll",
         "unroll4", "shuffle"]
LADDER_SIZES = [2 ** 22, 2 ** 24]

ROWS_MAIN = {"tally_default": ("tally default", "tab:blue"),
             "cub_segmented": ("CUB DeviceSegmentedReduce", "tab:orange"),
             "cublas_gemv": ("cuBLAS gemv (x = ones)", "tab:green"),
             "cublas_gemv_batched": ("cuBLAS 16-bit gemvStridedBatched", "tab:olive")}
ROWS_FORCED = {"tally_thread_per_row": "v", "tally_warp_per_row": "^", "tally_block_per_row": "s",
               "tally_blocks_per_row": "D"}


def draw_ceiling(ax, context):
    """The read ceiling (ceiling.hpp) as a dashed line, where the run measured one."""
    try:
        ceiling = float(context["ceiling_read_GBps"])
    except (KeyError, ValueError):
        return
    if ceiling:
        ax.axhline(ceiling, color="grey", linestyle="--", linewidth=1, label="read ceiling")


def save(fig, path, dpi):
    fig.savefig(path, dpi=dpi)
    plt.close(fig)
    return path


# reduce/<type>/<op>/<lib>/<mode>/<n>: data is {(type, op, lib, mode, n): GB/s}.

def plot_type(data, context, type_, mode, path):
    ops = [op for op in OPS if any(k[0] == type_ and k[1] == op and k[3] == mode and k[2] in LIBS for k in data)]
    if not ops:
        return None
    fig, axes = plt.subplots(1, len(ops), figsize=(5.5 * len(ops), 4.2), squeeze=False)
    for ax, op in zip(axes[0], ops):
        for lib, (label, color, marker) in LIBS.items():
            points = sorted((k[4], v) for k, v in data.items() if k[:4] == (type_, op, lib, mode))
            if points:
                ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=color, marker=marker,
                        markersize=4)
        draw_ceiling(ax, context)
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
    return save(fig, path, 120)


def plot_ladder(data, context, path):
    sizes = [n for n in LADDER_SIZES if (("int32", "sum", "ladder_baseline", "back_to_back", n) in data)]
    if not sizes:
        return None
    bars = [("ladder_" + r, r) for r in RUNGS] + [("cub", "CUB"), ("tally_default", "tally default")]
    bars = [(lib, label) for lib, label in bars if any(("int32", "sum", lib, "back_to_back", n) in data for n in sizes)]
    width = 0.8 / len(sizes)
    fig, ax = plt.subplots(figsize=(max(8, 1.1 * len(bars)), 4.5))
    for i, n in enumerate(sizes):
        values = [data.get(("int32", "sum", lib, "back_to_back", n), 0.0) for lib, _ in bars]
        xs = [j + (i - (len(sizes) - 1) / 2) * width for j in range(len(bars))]
        ax.bar(xs, values, width, label=f"n = 2^{int(math.log2(n))}")
    draw_ceiling(ax, context)
    ax.set_xticks(range(len(bars)))
    ax.set_xticklabels([label for _, label in bars], rotation=30, ha="right")
    ax.set_ylabel("GB/s (n * 4 / time)")
    ax.set_title(f"The reduction ladder, int32 sum, back_to_back, {context.get('gpu_name_raw', '?')}")
    ax.grid(True, axis="y", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    return save(fig, path, 120)


def plot_reduce(context, medians, out):
    data = {(t, op, lib, mode, int(n)): v for (t, op, lib, mode, n), v in bench_json.select(medians, "reduce", "GBps").items()}
    if not data:
        return []
    run_mode = context.get("run_mode", "full")
    prefix = os.path.join(out, bench_json.gpu_prefix(context) + ("" if run_mode == "full" else f"_{run_mode}"))
    written = []
    for type_ in TYPES:
        for mode, suffix in (("back_to_back", ""), ("single", "_single")):
            written.append(plot_type(data, context, type_, mode, f"{prefix}_{type_}{suffix}.png"))
    written.append(plot_ladder(data, context, f"{prefix}_ladder.png"))
    return [p for p in written if p]


# rows/<type>/<job>/<lib>/<M>x<N>[/l2]: gbps is {(type, job, lib, shape): GB/s}, shape "<M>x<N>" or
# "<M>x<N>/l2" (the rows that read one buffer every call; their GB/s may pass the DRAM ceiling).

def plot_rows(context, medians, out):
    gbps = {(k[0], k[1], k[2], "/".join(k[3:])): v for k, v in bench_json.select(medians, "rows", "GBps").items()
            if len(k) >= 4}
    if not gbps:
        return []
    gpu = context.get("gpu_name", "gpu")
    types = [t for t in ("float", "double", "half", "bf16") if any(k[0] == t for k in gbps)]
    fig, axes = plt.subplots(len(types), 1, figsize=(12, 4.2 * len(types)), squeeze=False)
    for ax, t in zip(axes[:, 0], types):
        shapes = []
        for k in gbps:
            if k[0] == t and k[1] == "sum" and k[3] not in shapes:
                shapes.append(k[3])
        x = range(len(shapes))
        libs = [lib for lib in ROWS_MAIN if any(k[0] == t and k[1] == "sum" and k[2] == lib for k in gbps)]
        width = 0.78 / max(len(libs), 1)
        offset = {lib: (i - (len(libs) - 1) / 2) * width for i, lib in enumerate(libs)}
        for lib in libs:
            label, color = ROWS_MAIN[lib]
            ax.bar([p + offset[lib] for p in x], [gbps.get((t, "sum", lib, s), 0) for s in shapes], width,
                   label=label, color=color)
        for lib, marker in ROWS_FORCED.items():
            at = offset.get("tally_default", 0)
            pts = [(p + at, gbps[(t, "sum", lib, s)]) for p, s in zip(x, shapes) if (t, "sum", lib, s) in gbps]
            if pts:
                ax.scatter(*zip(*pts), marker=marker, color="black", s=22, zorder=3, label=lib.replace("tally_", "forced "))
        draw_ceiling(ax, context)
        ax.set_xticks(list(x))
        ax.set_xticklabels([s.replace("x", " x ").replace("/l2", "\n(one buffer, L2)") for s in shapes], fontsize=8)
        ax.set_ylabel("GB/s")
        ax.set_title(f"{t} row sums, {context.get('gpu_name_raw', gpu)} (M x N, ld = N)")
        ax.legend(fontsize=7, ncol=3, loc="upper right")
    fig.tight_layout()
    return [save(fig, os.path.join(out, f"{bench_json.gpu_prefix(context)}_rows.png"), 110)]


# transpose/<type>/<method>/<rows>x<cols>: panels is {(type, size): {method: GB/s}}, rows in run order.

def plot_transpose(context, medians, out):
    panels = {}
    for (type_, method, size), gbps in bench_json.select(medians, "transpose", "GBps").items():
        panels.setdefault((type_, size), {})[method] = gbps
    if not panels:
        return []
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
    return [save(fig, os.path.join(out, f"{bench_json.gpu_prefix(context)}_transpose.png"), 120)]


def plot_segments(context, medians, out):
    """tally_bench_segments: GB/s per distribution, one panel per job and type (float sums, float and
    double SpMV): tally's default against CUB / cuSPARSE (and reduce_rows where segments have one
    length), the other tile shapes as small markers, the read ceiling dashed."""
    data = bench_json.rows(medians, "segments")
    if not data:
        return []
    panels = {}
    for (type_, job, lib, dist), fields in data.items():
        if "GBps" in fields:
            panels.setdefault((job, type_), {}).setdefault(dist, {})[lib] = fields["GBps"]
    colors = {"tally_default": "tab:blue", "cub_segmented": "tab:orange", "tally_rows": "tab:purple",
              "cusparse_alg1": "tab:green", "cusparse_alg2": "tab:olive"}
    keys = sorted(panels)
    fig, axes = plt.subplots(len(keys), 1, figsize=(11, 4.2 * len(keys)), squeeze=False)
    for ax, key in zip(axes.flat, keys):
        dists = list(panels[key])
        libs = [lib for lib in colors if any(lib in panels[key][d] for d in dists)]
        width = 0.8 / max(1, len(libs))
        for k, lib in enumerate(libs):
            xs = [i + (k - (len(libs) - 1) / 2) * width for i in range(len(dists))]
            ys = [panels[key][d].get(lib, 0) for d in dists]
            ax.bar(xs, ys, width, color=colors[lib], label=lib)
        for i, d in enumerate(dists):
            for lib, v in panels[key][d].items():
                if lib.startswith("tally_") and lib not in colors:
                    ax.plot(i, v, "k_", markersize=10)
        draw_ceiling(ax, context)
        ax.set_xticks(range(len(dists)))
        ax.set_xticklabels(dists, fontsize=8, rotation=15)
        ax.set_ylabel("GB/s")
        ax.set_title(f"{key[1]} {key[0]} (black ticks: other tile shapes)")
        ax.legend(fontsize=8, loc="upper left")
    fig.suptitle(f"tally segments on {context.get('gpu_name_raw', bench_json.gpu_prefix(context))}")
    fig.tight_layout()
    return [save(fig, os.path.join(out, f"{bench_json.gpu_prefix(context)}_segments.png"), 110)]


# sort/<job>/<type>/<lib>/<n>: GBps counts n * (sizeof(K) + sizeof(V)) bytes, V the key's size for pairs.
SORT_KEY_BYTES = {"uint32": 4, "int32": 4, "float": 4, "uint64": 8, "int64": 8, "double": 8}
SORT_LIBS = {"tally_default": ("tally default", "tab:blue", "o"),
             "cub_merge_sort": ("CUB merge sort", "tab:orange", "s"),
             "cub_radix_sort": ("CUB radix sort", "tab:red", "D"),
             "thrust": ("Thrust (includes a copy)", "tab:green", "^")}


def plot_sort(context, medians, out):
    """tally_bench_sort: Gkeys/s (n / time) against n, one panel per job and key type."""
    gkeys = {}
    for (job, type_, lib, n), fields in bench_json.rows(medians, "sort").items():
        if "GBps" in fields and type_ in SORT_KEY_BYTES and lib in SORT_LIBS:
            per_key = SORT_KEY_BYTES[type_] * (2 if job == "pairs" else 1)
            gkeys[(job, type_, lib, int(n))] = fields["GBps"] / per_key
    if not gkeys:
        return []
    jobs = [j for j in ("keys", "pairs") if any(k[0] == j for k in gkeys)]
    types = [t for t in SORT_KEY_BYTES if any(k[1] == t for k in gkeys)]
    fig, axes = plt.subplots(len(jobs), len(types), figsize=(4.6 * len(types), 3.9 * len(jobs)), squeeze=False)
    lo, hi = min(k[3] for k in gkeys), max(k[3] for k in gkeys)
    for r, job in enumerate(jobs):
        for c, type_ in enumerate(types):
            ax = axes[r][c]
            for lib, (label, color, marker) in SORT_LIBS.items():
                points = sorted((k[3], v) for k, v in gkeys.items() if k[:3] == (job, type_, lib))
                if points:
                    ax.plot([p[0] for p in points], [p[1] for p in points], label=label, color=color, marker=marker,
                            markersize=4)
            ax.set_xscale("log", base=2)
            ax.set_xticks([2 ** k for k in range(0, 64, 2) if lo <= 2 ** k <= hi])
            ax.set_ylim(bottom=0)
            ax.set_xlabel("n (keys)")
            ax.set_ylabel("Gkeys/s (n / time)")
            ax.set_title(f"{type_} {job}" + (f" ({type_} + {'uint32' if SORT_KEY_BYTES[type_] == 4 else 'uint64'} values)"
                                             if job == "pairs" else ""), fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            ax.legend(fontsize=7)
    fig.suptitle(f"tally::sorter vs CUB and Thrust on {context.get('gpu_name_raw', bench_json.gpu_prefix(context))}")
    fig.tight_layout()
    return [save(fig, os.path.join(out, f"{bench_json.gpu_prefix(context)}_sort.png"), 110)]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("json", help="JSON output of tally_bench, tally_bench_rows, tally_bench_transpose, tally_bench_segments "
                                     "or tally_bench_sort")
    parser.add_argument("--out", default=".", help="directory for the PNGs")
    args = parser.parse_args()

    context, medians = bench_json.load(args.json)
    os.makedirs(args.out, exist_ok=True)
    written = []
    for plot in (plot_reduce, plot_rows, plot_transpose, plot_segments, plot_sort):
        written += plot(context, medians, args.out)
    if not written:
        sys.exit(f"plot.py: no reduce/, rows/, transpose/, segments/ or sort/ rows with a GBps counter in {args.json}")
    for p in written:
        print(p)


if __name__ == "__main__":
    main()
