#!/usr/bin/python3
"""Plots of saga's setup profiles and solve reports (PNG, matplotlib from
Debian's python3-matplotlib; run it with /usr/bin/python3).

  /usr/bin/python3 tools/plot_setup.py --sweep setup.csv --out DIR
      stacked setup breakdown per problem and SpGEMM (000_... Fig. 1 style):
      DIR/setup_breakdown_<backend>.png and a markdown table
      DIR/setup_breakdown_<backend>.md
  /usr/bin/python3 tools/plot_setup.py --report report.json --out DIR
      DIR/residual_history.png (log scale) and DIR/hierarchy_levels.png
      (rows and nnz per level), from `saga solve --report report.json`
"""
import argparse, collections, csv, json, math, os, re

import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

PHASES = ["strength", "aggregation", "tentative", "spectral_radius", "AT", "smooth_update", "transpose", "AP",
          "PtAP", "coarse_factorisation", "other"]
LABELS = {"AT": "A·T (SpGEMM)", "AP": "A·P (SpGEMM)", "PtAP": "Pᵀ(AP) (SpGEMM)", "spectral_radius": "ρ(D⁻¹A)",
          "smooth_update": "P = T − ωD⁻¹AT, unfused", "coarse_factorisation": "coarse factorisation", "other": "other"}
SPGEMM = {"AT", "AP", "PtAP"}


def short_name(config, problem):
    m = re.search(r"([^/]+)\.yaml$", config)
    return m.group(1) if m else problem


def plot_sweep(path, out):
    rows = [r for r in csv.DictReader(open(path)) if r["level"] == "all"]
    by_backend = collections.defaultdict(lambda: collections.OrderedDict())
    for r in rows:
        key = (short_name(r["config"], r["problem"]), r["spgemm"])
        by_backend[r["backend"]].setdefault(key, {})[r["phase"]] = r
    for backend, runs in by_backend.items():
        keys = list(runs.keys())
        fig, ax = plt.subplots(figsize=(max(8, 0.7 * len(keys)), 5.5))
        bottom = [0.0] * len(keys)
        cmap = plt.get_cmap("tab20")
        for i, ph in enumerate(PHASES):
            vals = [100 * float(runs[k][ph]["share"]) if ph in runs[k] else 0.0 for k in keys]
            hatch = "//" if ph in SPGEMM else None
            ax.bar(range(len(keys)), vals, bottom=bottom, color=cmap(i), hatch=hatch, label=LABELS.get(ph, ph),
                   edgecolor="white", linewidth=0.3)
            bottom = [b + v for b, v in zip(bottom, vals)]
        ax.set_xticks(range(len(keys)))
        ax.set_xticklabels([f"{p}\n{s}" for p, s in keys], rotation=60, ha="right", fontsize=7)
        ax.set_ylabel("share of AMG setup time (%)")
        device = next(iter(runs.values()))["setup"]["device"] or "host CPU"
        ax.set_title(f"saga SA-AMG setup breakdown, {backend} backend ({device}); hatched = SpGEMM")
        ax.set_ylim(0, 100)
        ax.legend(fontsize=7, bbox_to_anchor=(1.01, 1), loc="upper left")
        fig.tight_layout()
        png = os.path.join(out, f"setup_breakdown_{backend}.png")
        fig.savefig(png, dpi=120)
        plt.close(fig)
        md = os.path.join(out, f"setup_breakdown_{backend}.md")
        with open(md, "w") as f:
            f.write(f"Setup breakdown, {backend} backend ({device}), median of {next(iter(runs.values()))['setup']['repeat']}"
                    " setups after a warm-up. Shares in % of the setup; spread = (max − min) / median of the setup.\n\n")
            f.write("| problem | SpGEMM | setup (s) | spread | SpGEMM share | A·T | A·P | Pᵀ(AP) | ρ | aggregation | other phases |\n")
            f.write("|---|---|---|---|---|---|---|---|---|---|---|\n")
            for (p, s), ph in runs.items():
                share = lambda n: 100 * float(ph[n]["share"]) if n in ph else 0.0
                rest = 100 - sum(share(n) for n in ("AT", "AP", "PtAP", "spectral_radius", "aggregation"))
                f.write(f"| {p} | {s} | {float(ph['setup']['median_s']):.4f} | {100 * float(ph['setup']['spread']):.1f}% "
                        f"| **{share('spgemm_total'):.1f}%** | {share('AT'):.1f} | {share('AP'):.1f} | {share('PtAP'):.1f} "
                        f"| {share('spectral_radius'):.1f} | {share('aggregation'):.1f} | {rest:.1f} |\n")
        print(png)
        print(md)


def plot_report(path, out):
    r = json.load(open(path))
    # Non-finite residuals are written "NaN" / "Infinity" (JSON has no such numbers): float() reads them;
    # matplotlib leaves gaps for them.
    hist = [float(h) for h in r["solve"]["residual_history"]]
    hist = [h if math.isfinite(h) else float("nan") for h in hist]
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogy(range(len(hist)), [max(h, 1e-300) if h == h else h for h in hist], marker="o", markersize=3)
    ax.set_xlabel("iteration")
    ax.set_ylabel("relative residual ‖r‖/‖b‖")
    ax.set_title(f"{r['problem']['description'][:60]}\n{r['config']['solver']['type']}, {r['backend']}", fontsize=8)
    ax.grid(True, which="both", alpha=0.3)
    fig.tight_layout()
    png = os.path.join(out, "residual_history.png")
    fig.savefig(png, dpi=120)
    plt.close(fig)
    print(png)
    if r["hierarchy"] is None:  # solver.preconditioner none / a smoother / cg: no hierarchy was set up
        return
    levels = r["hierarchy"]["levels"]
    fig, ax = plt.subplots(figsize=(6, 4))
    x = range(len(levels))
    ax.bar([i - 0.2 for i in x], [l["rows"] for l in levels], width=0.4, label="rows")
    ax.bar([i + 0.2 for i in x], [l["nnz"] for l in levels], width=0.4, label="nnz")
    ax.set_yscale("log")
    ax.set_xticks(list(x))
    ax.set_xlabel("level")
    ax.set_title(f"hierarchy: grid complexity {r['hierarchy']['grid_complexity']:.3f}, "
                 f"operator complexity {r['hierarchy']['operator_complexity']:.3f}", fontsize=9)
    ax.legend()
    fig.tight_layout()
    png = os.path.join(out, "hierarchy_levels.png")
    fig.savefig(png, dpi=120)
    plt.close(fig)
    print(png)


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--sweep", help="CSV from saga sweep / profile-setup --csv")
    p.add_argument("--report", help="JSON from saga solve --report")
    p.add_argument("--out", default=".", help="output folder")
    a = p.parse_args()
    if not a.sweep and not a.report:
        p.error("give --sweep and/or --report")
    os.makedirs(a.out, exist_ok=True)
    if a.sweep:
        plot_sweep(a.sweep, a.out)
    if a.report:
        plot_report(a.report, a.out)


if __name__ == "__main__":
    main()
