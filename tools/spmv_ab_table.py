#!/usr/bin/env python3
"""The comparison table of tools/device_spmv_ab.sh: DIR holds A1.json, B1.json,
A2.json, ... (saga-bench-spmv --json of the base tree, A, and of this tree, B,
run alternately). Prints, per SpMV matrix (binned ms), per fused pass of the cycle (ms), per problem's V(1,1)
cycle (ms; kernel by kernel and in a graph) and PCG solve (graph, ms), every round's A and B and the ratio of
their medians (B / A: below 1 is a gain); then B's own cycle variants where its bench has them (every sliced
copy made, the latency-aware floor)."""
import json
import statistics
import sys
from pathlib import Path


def rounds(directory, side):
    runs = []
    r = 1
    while (directory / f"{side}{r}.json").exists():
        runs.append(json.loads((directory / f"{side}{r}.json").read_text()))
        r += 1
    return runs


def series(runs, section, key, value):
    """{name: [value in round 1, round 2, ...]} for the entries of one section."""
    out = {}
    for run in runs:
        for entry in run.get(section, []):
            v = value(entry)
            if v is not None:
                out.setdefault(entry[key], []).append(v)
    return out


def table(title, a, b):
    lines = [f"### {title}", "", "| | A (base) | B (this tree) | B / A |", "|---|---|---|---:|"]
    for name in a:
        if name not in b:
            continue
        ratio = statistics.median(b[name]) / statistics.median(a[name])
        fa = " / ".join(f"{v:.3f}" for v in a[name])
        fb = " / ".join(f"{v:.3f}" for v in b[name])
        lines.append(f"| {name} | {fa} | {fb} | {ratio:.3f} |")
    return "\n".join(lines) + "\n\n" if len(lines) > 4 else ""


def within(runs):
    """B's own comparisons (saga-bench-spmv since the forty-seventh session): per problem the cycle in a graph,
    the same with every operator's sliced copy made (and their MB), and the cycle against the latency-aware
    floor; the medians over B's rounds. Empty where the runs lack them (an older tree)."""
    med = lambda key: {k: statistics.median(v) for k, v in series(runs, "solves", "problem", lambda e: e.get(key)).items()}
    graph, copies, mb = med("cycle_graph_ms"), med("cycle_graph_all_copies_ms"), med("cycle_extra_copies_mb")
    latency = med("cycle_latency_floor_ms")
    if not copies and not latency:
        return ""
    shortest = [r["shortest_pass_ms"] for r in runs if r.get("shortest_pass_ms")]
    lines = ["### This tree (B) alone: the cycle in a graph against its variants", ""]
    if shortest:
        lines += [f"Shortest pass (a 64-row product in a graph): {1e3 * statistics.median(shortest):.2f} us.", ""]
    lines += ["| | in a graph ms | every sliced copy made ms (MB) | copies / default | in a graph / latency-aware floor |",
              "|---|---:|---:|---:|---:|"]
    for name, g in graph.items():
        c = f"{copies[name]:.3f} ({mb.get(name, 0):.0f})" if name in copies else "-"
        r = f"{copies[name] / g:.3f}" if name in copies else "-"
        lf = f"{g / latency[name]:.2f}" if latency.get(name) else "-"
        lines.append(f"| {name} | {g:.3f} | {c} | {r} | {lf} |")
    return "\n".join(lines) + "\n\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: spmv_ab_table.py DIR (with A1.json, B1.json, ...)")
    directory = Path(sys.argv[1])
    a, b = rounds(directory, "A"), rounds(directory, "B")
    if not a or not b:
        sys.exit(f"spmv_ab_table.py: no A1.json / B1.json in {directory}")
    gpu = a[0].get("gpu", "?")
    print(f"GPU {gpu}; {len(a)} rounds of A, {len(b)} of B (alternated); ms\n")
    spmv = lambda e: e.get("ms", {}).get("binned")
    print(table("SpMV (binned)", series(a, "spmv", "matrix", spmv), series(b, "spmv", "matrix", spmv)), end="")
    ms = lambda e: e.get("ms")
    print(table("The cycle's fused passes", series(a, "passes", "pass", ms), series(b, "passes", "pass", ms)), end="")
    cycle = lambda e: e.get("cycle_ms")
    print(table("V(1,1) cycle", series(a, "solves", "problem", cycle), series(b, "solves", "problem", cycle)), end="")
    in_graph = lambda e: e.get("cycle_graph_ms")
    print(table("V(1,1) cycle in a graph", series(a, "solves", "problem", in_graph),
                series(b, "solves", "problem", in_graph)), end="")
    pcg = lambda e: e.get("solve_ms_graph")
    print(table("PCG solve (graph)", series(a, "solves", "problem", pcg), series(b, "solves", "problem", pcg)), end="")
    print(within(b), end="")


if __name__ == "__main__":
    main()
