#!/usr/bin/python3
"""Iteration counts of AMG-PCG on the hard variants: anisotropy (strength
epsilon, rotation) and jumping coefficients (contrast), for the structured
stencils and P1 finite elements. Writes a markdown table (stdout) and a CSV.

  /usr/bin/python3 tools/variant_sweep.py [--saga build/tools/saga] [--backend host|cuda] [--csv out.csv]
"""
import argparse, csv, json, os, subprocess, sys, tempfile

p = argparse.ArgumentParser()
p.add_argument("--saga", default="build/tools/saga")
p.add_argument("--backend", default="host")
p.add_argument("--csv", default=None)
args = p.parse_args()

CASES = []
for theta in (0.0, 0.25):
    for eps in (1, 1e-1, 1e-2, 1e-3):
        CASES.append(("2d5 N=256, -eps u_xx - u_yy", f"eps={eps:g}", theta,
                      f"{{type: poisson, stencil: 2d5, N: 256, anisotropy: {{epsilon: {eps}}}}}"))
    for eps in (1e-1, 1e-2, 1e-3):
        CASES.append(("2d9 N=256, rotated 30 deg", f"eps={eps:g}", theta,
                      f"{{type: poisson, stencil: 2d9, N: 256, anisotropy: {{epsilon: {eps}, angle: 30}}}}"))
        CASES.append(("P1 square 256, rotated 30 deg", f"eps={eps:g}", theta,
                      f"{{type: fe, mesh: square, cells: 256, anisotropy: {{epsilon: {eps}, angle: 30}}}}"))
for c in (1, 1e2, 1e4, 1e6):
    CASES.append(("3d7 N=48, checkerboard 4^3", f"contrast={c:g}", 0.0,
                  f"{{type: poisson, stencil: 3d7, N: 48, coefficient: {{type: checkerboard, contrast: {c}, blocks: 4}}}}"))
    CASES.append(("P1 square 256, checkerboard 8^2", f"contrast={c:g}", 0.0,
                  f"{{type: fe, mesh: square, cells: 256, coefficient: {{type: checkerboard, contrast: {c}, blocks: 8}}}}"))
    CASES.append(("P1 box 24, random 4^3", f"contrast={c:g}", 0.0,
                  f"{{type: fe, mesh: box, cells: 24, coefficient: {{type: random, contrast: {c}, blocks: 4, seed: 1}}}}"))

rows = []
with tempfile.TemporaryDirectory() as tmp:
    for problem, variant, theta, spec in CASES:
        cfg = os.path.join(tmp, "c.yaml")
        rep = os.path.join(tmp, "r.json")
        with open(cfg, "w") as f:
            f.write(f"problem: {spec}\namg: {{theta: {theta}}}\nsolver: {{type: pcg, tolerance: 1.0e-8, max_iterations: 1000}}\n")
        subprocess.run([args.saga, "-q", "solve", cfg, "--backend", args.backend, "--report", rep], check=True,
                       stdout=subprocess.DEVNULL)
        r = json.load(open(rep))
        rows.append(dict(problem=problem, variant=variant, theta=theta, rows=r["problem"]["rows"],
                         iterations=r["solve"]["iterations"], converged=r["solve"]["converged"],
                         op_complexity=round(r["hierarchy"]["operator_complexity"], 3),
                         factor=round(r["solve"]["convergence_factor"], 3)))
        print(f"{problem:34} {variant:15} theta={theta:<5} its={rows[-1]['iterations']}", file=sys.stderr)

if args.csv:
    with open(args.csv, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
print("| problem | variant | theta | rows | PCG iterations | convergence factor | op. complexity |")
print("|---|---|---|---|---|---|---|")
for r in rows:
    its = r["iterations"] if r["converged"] else f"{r['iterations']} (not converged)"
    print(f"| {r['problem']} | {r['variant']} | {r['theta']} | {r['rows']} | {its} | {r['factor']} | {r['op_complexity']} |")
