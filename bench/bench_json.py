"""Reads the JSON the three benchmark programs write (--benchmark_out=FILE --benchmark_out_format=json)
for plot.py and check_targets.py: one median per row and field.

A row is named <program>/<part>/<part>/... (reduce/..., rows/..., transpose/...: harness.hpp); its
fields are real_time and the counters (GBps, pct_ceiling, vs_cub, ...).
"""
import collections
import json
import re
import statistics


def load(path):
    """Returns (context, {row name: {field: median}}), rows in the order they first appear.

    The median is the JSON's median aggregate, or the median of the repetitions where aggregates
    were not reported.
    """
    with open(path) as f:
        doc = json.load(f)
    medians, samples = {}, collections.defaultdict(lambda: collections.defaultdict(list))
    for b in doc.get("benchmarks", []):
        # The programs' reporters print bare row names; benchmark's own add these parts.
        name = re.sub(r"/(iterations:\d+|repeats:\d+|manual_time)", "", b.get("run_name", b["name"]))
        fields = {k: v for k, v in b.items() if isinstance(v, (int, float)) and not isinstance(v, bool)}
        if b.get("run_type") == "aggregate":
            if b.get("aggregate_name") == "median":
                medians[name] = fields
        else:
            for k, v in fields.items():
                samples[name][k].append(v)
    for name, values in samples.items():
        medians.setdefault(name, {k: statistics.median(v) for k, v in values.items()})
    return doc.get("context", {}), medians


def rows(medians, program):
    """{(parts of the name after '<program>/'): {field: median}} for the rows the program wrote."""
    out = {}
    for name, fields in medians.items():
        parts = name.split("/")
        if parts[0] == program:
            out[tuple(parts[1:])] = fields
    return out


def select(medians, program, field):
    """{(parts of the name after '<program>/'): median of field} for the program's rows that report it."""
    return {key: fields[field] for key, fields in rows(medians, program).items() if field in fields}


def gpu_prefix(context):
    """The GPU's name from the context, safe in file names: what every PNG and JSON is named after."""
    return re.sub(r"[^A-Za-z0-9.-]+", "_", context.get("gpu_name", "unknown_gpu")).strip("_") or "unknown_gpu"
