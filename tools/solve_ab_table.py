#!/usr/bin/env python3
"""The table of a solve A/B (tools/device_ab.sh with SAGA_AB_SOLVE=1): for every
config, the warm solve time of each round's `saga solve --repeat R --report`
on the base (A) and this tree (B), and B / A of the medians and of the best rounds.

A round's solve time is the best of its repeats after the first (the first
pays CUDA's lazy loading and the pool's first allocations: the time a process
that solves many systems sees). Iterations must agree between A and B where a
change keeps the numerics; a difference is shown.

Why two ratios: on problems of ~1 ms whole processes fall in one of two modes
about 10% apart (forty-eighth session, H200: poisson_2d5_N512's best warm solve
1.09 or 1.21 ms, in A and B alike), so the median of 5-6 rounds moves with how
many of them landed in the fast mode. The best round of each side compares the
fast mode with the fast mode wherever each side has one; where the two ratios
disagree by more than the change's expected size, the A/B decides nothing.

    python3 tools/solve_ab_table.py OUTDIR     # reads OUTDIR/ab_<config>_<A|B>_<round>.json
"""
import glob
import json
import os
import re
import statistics
import sys


def warm_solve(report):
    runs = report["repeats"]["runs"]
    warm = runs[1:] if len(runs) > 1 else runs
    best = min(warm, key=lambda r: r["solve"])
    return best["solve"] * 1e3, best["iterations"], best["setup"] * 1e3


def main(outdir):
    found = {}
    for path in glob.glob(os.path.join(outdir, "ab_*_*_*.json")):
        m = re.match(r"ab_(.+)_([AB])_(\d+)\.json$", os.path.basename(path))
        if not m:
            continue
        with open(path) as f:
            found.setdefault(m.group(1), {}).setdefault(m.group(2), {})[int(m.group(3))] = warm_solve(json.load(f))
    if not found:
        sys.exit(f"solve_ab_table.py: no ab_<config>_<A|B>_<round>.json in {outdir}")
    print("| config | iterations A / B | warm solve ms A (rounds) | B (rounds) | B / A | B / A, best rounds | "
          "setup ms A / B |")
    print("|---|---|---|---|---:|---:|---|")
    for name in sorted(found):
        sides = found[name]
        if "A" not in sides or "B" not in sides:
            print(f"| {name} | (missing {'A' if 'A' not in sides else 'B'}) | | | | | |")
            continue
        cells = {}
        for s in "AB":
            rounds = [sides[s][r] for r in sorted(sides[s])]
            cells[s] = {
                "solve": [x[0] for x in rounds],
                "its": sorted({x[1] for x in rounds}),
                "setup": statistics.median(x[2] for x in rounds),
            }
        ratio = statistics.median(cells["B"]["solve"]) / statistics.median(cells["A"]["solve"])
        best_ratio = min(cells["B"]["solve"]) / min(cells["A"]["solve"])
        its = "/".join(str(i) for i in cells["A"]["its"]) + " / " + "/".join(str(i) for i in cells["B"]["its"])
        fmt = lambda v: " / ".join(f"{x:.3f}" for x in v)
        print(f"| {name} | {its} | {fmt(cells['A']['solve'])} | {fmt(cells['B']['solve'])} | {ratio:.3f} | {best_ratio:.3f} | "
              f"{cells['A']['setup']:.2f} / {cells['B']['setup']:.2f} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: solve_ab_table.py OUTDIR")
    main(sys.argv[1])
