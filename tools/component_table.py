#!/usr/bin/env python3
"""Tables of tools/component_bench.sh: reads OUTDIR/runs/*.json (one saga solve
report per run, named GROUP__PROBLEM__VARIANT__REPEAT.json) and prints Markdown:
the regression table (baseline vs new: iterations, min setup and solve times)
and, per group (smoother, cycle, krylov), iterations and min total time."""
import json
import os
import sys
from collections import defaultdict


def profiles(folder):
    """profile-setup medians (ms) per problem and build, over the processes."""
    med = defaultdict(list)
    for f in sorted(os.listdir(folder)):
        if f.endswith(".json"):
            problem, build, _ = f[:-5].split("__")
            with open(os.path.join(folder, f)) as fh:
                med[(problem, build)].append(json.load(fh)[0]["setup"]["median"] * 1e3)
    print("\n## Setup regression: profile-setup medians of 10 setups (one value per process)\n")
    print("| problem | baseline ms | new ms | new/base (min over processes) |")
    print("|---|---|---|---:|")
    for p in sorted({k[0] for k in med}):
        b, n = med.get((p, "baseline"), []), med.get((p, "new"), [])
        if b and n:
            print(f"| {p} | {', '.join(f'{x:.2f}' for x in b)} | {', '.join(f'{x:.2f}' for x in n)} | {min(n) / min(b):.3f} |")


def main(folder, profile_folder=None):
    runs = defaultdict(list)
    device = ""
    for f in sorted(os.listdir(folder)):
        if not f.endswith(".json"):
            continue
        group, problem, variant, _ = f[:-5].split("__")
        with open(os.path.join(folder, f)) as fh:
            j = json.load(fh)
        device = j.get("device", device)
        runs[(group, problem, variant)].append(
            (j["solve"]["iterations"], j["solve"]["converged"], j["times"]["setup"], j["times"]["solve"]))
    problems = sorted({k[1] for k in runs}, key=lambda p: (p.split("_")[1], int(p.split("_N")[1])))
    print(f"GPU: {device}. Times are the minimum over the repeats, in ms.\n")

    print("## Regression: baseline (71fb8df) vs this build, seed configs on cuda\n")
    print("| problem | its base | its new | setup base | setup new | setup new/base | solve base | solve new | solve new/base |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for p in problems:
        b, n = runs.get(("reg", p, "baseline")), runs.get(("reg", p, "new"))
        if not b or not n:
            continue
        bs, ns = min(r[2] for r in b) * 1e3, min(r[2] for r in n) * 1e3
        bv, nv = min(r[3] for r in b) * 1e3, min(r[3] for r in n) * 1e3
        print(f"| {p} | {b[0][0]} | {n[0][0]} | {bs:.2f} | {ns:.2f} | {ns / bs:.3f} | {bv:.2f} | {nv:.2f} | {nv / bv:.3f} |")

    order = {}
    vpath = os.path.join(folder, "variants.txt")  # registry order, written by component_bench.sh
    if os.path.exists(vpath):
        for line in open(vpath):
            words = line.split()
            if words:
                order[words[0]] = words[1:]
    for group in ("smoother", "cycle", "krylov"):
        variants = order.get(group) or sorted({k[2] for k in runs if k[0] == group})
        print(f"\n## {group}: iterations / solve ms / total (setup + solve) ms\n")
        print("| problem | " + " | ".join(variants) + " |")
        print("|---|" + "---:|" * len(variants))
        for p in problems:
            cells = []
            for v in variants:
                r = runs.get((group, p, v))
                if not r:
                    cells.append("-")
                    continue
                its = r[0][0] if r[0][1] else f"{r[0][0]} (not converged)"
                solve = min(x[3] for x in r) * 1e3
                total = min(x[2] + x[3] for x in r) * 1e3
                cells.append(f"{its} / {solve:.1f} / {total:.1f}")
            print(f"| {p} | " + " | ".join(cells) + " |")


    if profile_folder and os.path.isdir(profile_folder):
        profiles(profile_folder)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else None)
