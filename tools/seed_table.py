#!/usr/bin/env python3
"""Markdown table of saga's seed-suite reports (tools/seed_suite.sh) beside the
peers' column C (parallel MIS-2), copied into REF_C below (docs/results.md §1)."""
import json, pathlib, sys

# Column C of the reference (PCG iterations, operator complexity), b = A x*.
REF_C = {("2d5", 512): (22, 1.33), ("2d5", 1024): (24, 1.33), ("2d9", 512): (20, 1.11), ("2d9", 1024): (22, 1.11),
         ("3d7", 64): (15, 1.44), ("3d7", 101): (16, 1.44), ("3d7", 128): (17, 1.45), ("3d27", 64): (14, 1.04),
         ("3d27", 101): (14, 1.04)}
REF_B = {("2d5", 512): 11, ("2d5", 1024): 13, ("2d9", 512): 10, ("2d9", 1024): 10, ("3d7", 64): 13,
         ("3d7", 101): 13, ("3d7", 128): 14, ("3d27", 64): 9, ("3d27", 101): 9}

rows = {}
for f in sorted(pathlib.Path(sys.argv[1]).glob("poisson_*_N*_*.json")):  # the seed configs, not the variants
    r = json.loads(f.read_text())
    p = r["config"]["problem"]
    key = (p["params"]["stencil"], p["params"]["N"])
    rows.setdefault(key, {})[(r["backend"], p["rhs"])] = r

print("| problem | N | backend | levels | op. cx (C) | PCG its b=Ax* (C / B) | PCG its b=1 | setup s | "
      "SpGEMM share | solve s | total s | error |")
print("|---|---:|---|---:|---|---|---:|---:|---:|---:|---:|---:|")
order = {"2d5": 0, "2d9": 1, "3d7": 2, "3d27": 3}
for key in sorted(rows, key=lambda k: (order.get(k[0], 9), k[1])):
    for backend in ("cuda", "host"):
        a = rows[key].get((backend, "random_solution"))
        o = rows[key].get((backend, "ones"))
        if not a:
            continue
        c = REF_C.get(key)
        b = REF_B.get(key)
        h = a["hierarchy"]
        its = a["solve"]["iterations"] if a["solve"]["converged"] else f"{a['solve']['iterations']} (not converged)"
        print(f"| {key[0]} | {key[1]} | {backend} | {len(h['levels'])} | {h['operator_complexity']:.3f}"
              f" ({c[1] if c else '-'}) | {its} ({c[0] if c else '-'} / {b if b else '-'}) | "
              f"{o['solve']['iterations'] if o else '-'} | {a['times']['setup']:.4f} | "
              f"{100 * a['setup']['spgemm_share']:.1f}% | {a['times']['solve']:.4f} | {a['times']['total']:.4f} | "
              f"{a['error']:.1e} |")
