#!/usr/bin/env python3
"""Time to solution of record (issue 17): every seed config through `saga solve`,
setup by phase, iterations, time per iteration, total, peak device memory and
bytes per unknown, for several variants in one run (the default device SpGEMM,
`amg.spgemm: cusparse`, the host backend), so that their ratios come from the
same machine and build; optionally a 3D 7-pt scale ladder.

    /usr/bin/python3 tools/bench_amg.py --saga build/tools/saga --out OUTDIR \\
        [--variants cuda,cuda-cusparse,host] [--repeat 3] [--in-process 3] [--ladder 128,256,384,512] \\
        [--ladder-variants cuda,cuda-float] [--configs configs/poisson_2d5_N1024.yaml ...] [--commit REV]

Each (config, variant) runs `--repeat` times in separate processes; the run with
the smallest total is kept. Its first setup and solve are what a process that
solves once pays (GPU clocks ramping up, kernels loaded on first use, the memory
pool growing); each process also sets up and solves `--in-process` times
(`saga solve --repeat`), and the best of those is the warm time of a process
that solves many systems. Writes OUTDIR/bench_amg.json and bench_amg.md, and
OUTDIR/bench_amg_ladder.png when matplotlib is there and a ladder ran.
"""
import argparse
import datetime
import glob
import json
import pathlib
import subprocess
import sys
import tempfile

# variant name -> (backend, extra --set overrides)
VARIANTS = {
    "cuda": ("cuda", []),
    "cuda-cusparse": ("cuda", ["amg.spgemm=cusparse"]),
    # P, R and the coarse operators stored in single precision (docs/memory.md)
    "cuda-float": ("cuda", ["amg.hierarchy_precision=float"]),
    # the fine level's P applied as (I - wD^-1 A) T, not stored (docs/memory.md)
    "cuda-implicit": ("cuda", ["amg.implicit_prolongator=true"]),
    "cuda-float-implicit": ("cuda", ["amg.hierarchy_precision=float", "amg.implicit_prolongator=true"]),
    # the fine matrix kept in double even where its values are exact floats (the behaviour before amg.exact_single)
    "cuda-double-fine": ("cuda", ["amg.exact_single=false"]),
    # mixed precision (docs/memory.md): every matrix the cycle reads in float (the fine one as a copy where its
    # values are not floats already), the Krylov method in double; against cuda-double-fine, all in double
    "cuda-mixed": ("cuda", ["amg.hierarchy_precision=float", "amg.fine_cycle_precision=float"]),
    "cuda-fine-cycle-float": ("cuda", ["amg.fine_cycle_precision=float"]),
    # the room of the cycle's SpMV copies (amg.spmv_copies; the default is within_peak): the device's free
    # memory (past the setup's peak), or no copy at all
    "cuda-copies-free": ("cuda", ["amg.spmv_copies=free"]),
    "cuda-copies-none": ("cuda", ["amg.spmv_copies=none"]),
    "host": ("host", []),
}
PHASES = ["strength", "aggregation", "tentative", "spectral_radius", "AT", "smooth_update", "transpose", "AP",
          "PtAP", "coarse_factorisation", "other"]
SPGEMM_PHASES = ("AT", "AP", "PtAP")


def run_once(saga, config, backend, sets, in_process=1):
    """One `saga solve` process: the report's numbers of record, or the error."""
    with tempfile.TemporaryDirectory() as d:
        report = pathlib.Path(d) / "report.json"
        cmd = [saga, "solve", config, "--backend", backend, "--report", str(report), "--repeat", str(in_process)]
        for s in sets:
            cmd += ["--set", s]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if not report.exists():
            return {"error": (p.stdout.strip().splitlines() or ["no report"])[-1]}
        r = json.loads(report.read_text())
    rows = r["problem"]["rows"]
    its = r["solve"]["iterations"]
    peak = r["device_memory"]["peak_bytes"]
    warm = r.get("repeats", {}).get("best", r["times"])
    phase_peaks = r["device_memory"].get("setup_phase_peaks", [])
    # No hierarchy (null) where the config's solve applies no cycle (preconditioner none, a smoother, cg).
    hierarchy = r["hierarchy"] or {"levels": [], "operator_complexity": 0.0}
    fine = (hierarchy["levels"] or [{}])[0]
    top = max(phase_peaks, key=lambda x: x["bytes"]) if phase_peaks else None
    return {
        "rows": rows,
        "nnz": r["problem"]["nnz"],
        "device": r.get("device", ""),
        "setup_s": r["times"]["setup"],
        "solve_s": r["times"]["solve"],
        "total_s": r["times"]["total"],
        "iterations": its,
        "converged": r["solve"]["converged"],
        "ms_per_iteration": 1e3 * r["times"]["solve"] / its if its else 0.0,
        "phase_s": r["setup"]["phase_seconds"],
        "spgemm_share": r["setup"]["spgemm_share"],
        "spgemm": r.get("spgemm", ""),
        "launch": r["solve"].get("launch", ""),
        "levels": len(hierarchy["levels"]),
        "operator_complexity": hierarchy["operator_complexity"],
        "peak_device_bytes": peak,
        "bytes_per_unknown": peak / rows if rows and peak else 0.0,
        # The cycle's SpMV copies (within the room under the setup's peak; reports before the fifty-sixth session lack it)
        "spmv_copy_bytes_per_unknown": r["device_memory"].get("spmv_copy_bytes", 0) / rows if rows else 0.0,
        "setup_ns_per_unknown": 1e9 * r["times"]["setup"] / rows if rows else 0.0,
        "warm_setup_s": warm["setup"],
        "warm_solve_s": warm["solve"],
        "warm_total_s": warm["total"],
        "setup_peak_at": "L%d %s" % (top["level"], top["phase"]) if top else "",
        # The fine level's Galerkin product: in how many blocks of rows, after how many retries
        # (amg.galerkin_slices auto: by the device memory and the build's offsets, docs/memory.md).
        "l0_galerkin_blocks": fine.get("galerkin_slices", 1),
        "l0_galerkin_retries": fine.get("galerkin_retries", 0),
        "setup_phase_peaks": phase_peaks,
    }


def best_of(saga, config, backend, sets, repeat, in_process=1):
    """The process with the smallest first total, with the smallest warm total of all processes."""
    runs = [run_once(saga, config, backend, sets, in_process) for _ in range(repeat)]
    ok = [x for x in runs if "error" not in x]
    if not ok:
        return runs[0]
    best = dict(min(ok, key=lambda x: x["total_s"]))
    warm = min(ok, key=lambda x: x["warm_total_s"])
    for k in ("warm_setup_s", "warm_solve_s", "warm_total_s"):
        best[k] = warm[k]
    return best


def backend_of(variant):
    return VARIANTS[variant][0]


def build_line(saga):
    p = subprocess.run([saga, "info"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("build:"):
            return line[len("build:"):].strip()
    return ""


def name_of(config):
    return pathlib.Path(config).stem


def ms(x):
    return "%.1f" % (1e3 * x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--saga", required=True, help="the saga CLI")
    ap.add_argument("--out", required=True)
    ap.add_argument("--configs", nargs="*", help="default: configs/poisson_*_N*.yaml (the seed suite)")
    ap.add_argument("--variants", default="cuda,cuda-cusparse,host")
    ap.add_argument("--repeat", type=int, default=3, help="processes per row")
    ap.add_argument("--in-process", type=int, default=3, help="setups and solves per process (saga solve --repeat)")
    ap.add_argument("--ladder", default="", help="3D 7-pt N values, e.g. 128,256,384,512")
    ap.add_argument("--ladder-variants", default="", help="variants the ladder runs (default: the first of --variants)")
    ap.add_argument("--commit", default="", help="the commit measured (the GPU machine's git metadata may be stale)")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                    help="a config override for every run, e.g. problem.cells=160 (repeatable)")
    args = ap.parse_args()
    variants = [v for v in args.variants.split(",") if v]
    ladder_variants = [v for v in args.ladder_variants.split(",") if v] or variants[:1]
    for v in variants + ladder_variants:
        if v not in VARIANTS:
            ap.error("unknown variant %s (known: %s)" % (v, ", ".join(VARIANTS)))
    configs = args.configs or sorted(glob.glob("configs/poisson_*_N*.yaml"))
    if not configs:
        ap.error("no configs (run from the repository root or pass --configs)")
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    commit = args.commit or subprocess.run(["git", "rev-parse", "--short", "HEAD"], stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, text=True).stdout.strip()
    result = {"build": build_line(args.saga), "commit": commit, "date": datetime.date.today().isoformat(), "sets": args.set,
              "repeat": args.repeat, "in_process": args.in_process, "suite": {}, "ladder": []}
    for c in configs:
        result["suite"][name_of(c)] = {}
        for v in variants:
            backend, sets = VARIANTS[v]
            result["suite"][name_of(c)][v] = best_of(args.saga, c, backend, sets + args.set, args.repeat,
                                                     args.in_process if backend == "cuda" else 1)
            print("  %s %s" % (name_of(c), v), file=sys.stderr)
    device = next((x["device"] for per in result["suite"].values() for x in per.values() if x.get("device")), "")
    result["device"] = device or "host only"
    if args.ladder:
        for n in [int(x) for x in args.ladder.split(",")]:
            for v in ladder_variants:
                backend, sets = VARIANTS[v]
                row = best_of(args.saga, "configs/poisson_3d7_N128.yaml", backend, sets + args.set + ["problem.N=%d" % n],
                              max(1, min(args.repeat, 2)), args.in_process if n <= 256 else 2)
                row["N"] = n
                row["variant"] = v
                result["ladder"].append(row)
                print("  ladder N=%d %s" % (n, v), file=sys.stderr)
    (out / "bench_amg.json").write_text(json.dumps(result, indent=2))

    md = ["# Time to solution (tools/bench_amg.py)", "",
          "%s; build %s; commit %s; %s; best of %d processes per row. PCG(AMG) to the config's tolerance; "
          "setup and solve as `saga solve` reports them: the first setup and solve of a process, and "
          "warm = the best of %d in one process (`saga solve --repeat`; GPU variants only); peak = device "
          "memory in use at its highest (problem included)."
          % (result["device"], result["build"], commit, result["date"], args.repeat, args.in_process), ""]
    md += ["| problem | variant | setup ms | SpGEMM share | solve ms | its | ms / it | total ms | "
           "warm total ms (setup + solve) | peak MiB | B / unknown | total vs %s |" % variants[0],
           "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for name, per in result["suite"].items():
        first = per.get(variants[0], {})
        for v in variants:
            x = per[v]
            if "error" in x:
                md.append("| %s | %s | failed: %s ||||||||||" % (name, v, x["error"]))
                continue
            ratio = x["total_s"] / first["total_s"] if first.get("total_s") else 0.0
            md.append("| %s | %s | %s | %.0f%% | %s | %d%s | %.3f | %s | %s | %s | %s | %.2fx |" % (
                name, v, ms(x["setup_s"]), 100 * x["spgemm_share"], ms(x["solve_s"]), x["iterations"],
                "" if x["converged"] else " (not converged)", x["ms_per_iteration"], ms(x["total_s"]),
                "%s (%s + %s)" % (ms(x["warm_total_s"]), ms(x["warm_setup_s"]), ms(x["warm_solve_s"]))
                if backend_of(v) == "cuda" else "-",
                "%.0f" % (x["peak_device_bytes"] / 2**20) if x["peak_device_bytes"] else "-",
                "%.0f" % x["bytes_per_unknown"] if x["bytes_per_unknown"] else "-", ratio))
    md += ["", "Setup by phase (ms, variant %s):" % variants[0], "",
           "| problem | " + " | ".join(PHASES) + " |", "|---|" + "---:|" * len(PHASES)]
    for name, per in result["suite"].items():
        x = per.get(variants[0], {})
        if "phase_s" in x:
            md.append("| %s | " % name + " | ".join(ms(x["phase_s"].get(p, 0.0)) for p in PHASES) + " |")
    if result["ladder"]:
        md += ["", "3D 7-pt scale ladder:", "",
               "| N | variant | unknowns | setup s | solve s | its | total s | warm total s (setup + solve) "
               "| setup ns / unknown | peak GiB | B / unknown | SpMV copies B / unknown | setup peak at | L0 Galerkin blocks |",
               "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|"]
        for x in result["ladder"]:
            if "error" in x:
                md.append("| %d | %s | failed: %s ||||||||||||" % (x["N"], x["variant"], x["error"]))
                continue
            blocks = x.get("l0_galerkin_blocks", 1)
            retries = x.get("l0_galerkin_retries", 0)
            md.append("| %d | %s | %d | %.3f | %.3f | %d | %.3f | %.3f (%.3f + %.3f) | %.1f | %.2f | %.0f | %.0f | %s | %s |" % (
                x["N"], x["variant"], x["rows"], x["setup_s"], x["solve_s"], x["iterations"], x["total_s"],
                x["warm_total_s"], x["warm_setup_s"], x["warm_solve_s"],
                x["setup_ns_per_unknown"], x["peak_device_bytes"] / 2**30, x["bytes_per_unknown"],
                x.get("spmv_copy_bytes_per_unknown", 0.0),
                x["setup_peak_at"] or "-", "%d%s" % (blocks, " (%d retries)" % retries if retries else "")))
        try:
            import matplotlib
            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            fig, ax = plt.subplots(1, 2, figsize=(9, 3.5))
            for v in ladder_variants:
                ok = [x for x in result["ladder"] if "error" not in x and x["variant"] == v]
                ax[0].plot([x["N"] for x in ok], [1e9 * x["total_s"] / x["rows"] for x in ok], "o-",
                           label="total (%s)" % v)
                ax[0].plot([x["N"] for x in ok], [x["setup_ns_per_unknown"] for x in ok], "s-", label="setup (%s)" % v)
                ax[1].plot([x["N"] for x in ok], [x["bytes_per_unknown"] for x in ok], "o-", label=v)
            ax[0].set_xlabel("N (3D 7-pt, N^3 unknowns)")
            ax[0].set_ylabel("ns per unknown")
            ax[0].legend(fontsize=7)
            ax[1].legend(fontsize=7)
            ax[1].set_xlabel("N")
            ax[1].set_ylabel("peak device bytes per unknown")
            fig.suptitle("%s, commit %s" % (result["device"], commit))
            fig.tight_layout()
            fig.savefig(out / "bench_amg_ladder.png", dpi=110)
        except ImportError:
            pass
    (out / "bench_amg.md").write_text("\n".join(md) + "\n")
    print("\n".join(md))
    failed = [name for name, per in result["suite"].items() for x in per.values() if "error" in x]
    failed += ["ladder N=%d %s" % (x["N"], x["variant"]) for x in result["ladder"] if "error" in x]
    if failed:  # the tables are written; the exit status says that some runs did not finish
        print("bench_amg: failed runs: " + ", ".join(failed), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
