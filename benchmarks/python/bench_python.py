"""saga from Python against `saga solve` on the same problem (issue 18's acceptance).

    PYTHONPATH=build/python python3 benchmarks/python/bench_python.py --saga build/tools/saga \
        --config configs/poisson_3d7_N128.yaml --out OUTDIR [--repeat 5]

For the config's Poisson problem (b = A x*, x* uniform in [0, 1) from NumPy's
default_rng(0), as the peers' figures use) it times, in one process after a
warm-up solve (CUDA context, library handles):
  - scipy: A built in SciPy, smoothed_aggregation_solver(A) + solve(b) with NumPy
    vectors (A copied to the GPU once, b in and x out once);
  - cupy: A and b as CuPy arrays already on the GPU, used in place (no copies);
and runs `saga solve CONFIG --backend cuda` (the same settings) for its reported
setup and solve seconds. Wall time of the Python calls against saga solve's
setup + solve; min over the repetitions. Writes OUTDIR/bench_python.{json,md}.
"""
import argparse
import json
import pathlib
import subprocess
import sys
import tempfile
import time

import numpy as np

import saga


def amg_keywords(amg):
    """The settings that differ from saga's defaults in a report's resolved amg
    section (`saga solve --report`), as smoothed_aggregation_solver keywords."""
    kw = {"theta": amg["theta"], "coarse_size": amg["coarse_size"], "max_levels": amg["max_levels"],
          "smoother": amg["smoother"]["name"], "cycle": amg["cycle"]["name"], "pre_sweeps": amg["pre_sweeps"],
          "post_sweeps": amg["post_sweeps"]}
    if amg["smoother"]["params"].get("omega", 0.0) != 0.0:
        kw["smoother__omega"] = amg["smoother"]["params"]["omega"]
    return kw


def timed_python(A, b, kw, repeat, device, backend):
    rows = []
    for _ in range(repeat):
        if device:
            import cupy

            cupy.cuda.get_current_stream().synchronize()
        t0 = time.perf_counter()
        ml = saga.smoothed_aggregation_solver(A, backend=backend, **kw)
        t1 = time.perf_counter()
        x, info = ml.solve(b, tol=1e-8, accel="cg", return_info=True)
        t2 = time.perf_counter()
        rows.append({"setup_wall": t1 - t0, "solve_wall": t2 - t1, "total_wall": t2 - t0,
                     "setup_seconds": ml.setup_timings()["setup_seconds"], "solve_seconds": info["seconds"],
                     "iterations": info["iterations"], "launch": info.get("launch", "")})
        del ml
    return min(rows, key=lambda r: r["total_wall"])


def timed_cli(saga_bin, config, repeat, backend):
    """saga solve's best reported setup + solve, and its resolved config."""
    best, resolved = None, None
    for _ in range(repeat):
        with tempfile.TemporaryDirectory() as d:
            report = pathlib.Path(d) / "r.json"
            subprocess.run([saga_bin, "solve", config, "--backend", backend, "--report", str(report)], check=True,
                           stdout=subprocess.DEVNULL)
            r = json.loads(report.read_text())
        resolved = r["config"]
        row = {"setup_seconds": r["setup"]["seconds"], "solve_seconds": r["solve"]["seconds"],
               "iterations": r["solve"]["iterations"]}
        row["total"] = row["setup_seconds"] + row["solve_seconds"]
        if best is None or row["total"] < best["total"]:
            best = row
    return best, resolved


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--saga", required=True, help="the saga CLI")
    ap.add_argument("--config", default="configs/poisson_3d7_N128.yaml")
    ap.add_argument("--out", required=True)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--backend", default="cuda", help="cuda (the measurement) or host (a smoke run)")
    args = ap.parse_args()
    cli, config = timed_cli(args.saga, args.config, args.repeat, args.backend)
    prob = config["problem"]["params"]
    kw = amg_keywords(config["amg"])
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)

    # warm-up: CUDA context, cuSPARSE handles, the module's first calls
    W = saga.gallery.poisson(prob["stencil"], 16)
    saga.smoothed_aggregation_solver(W, backend=args.backend, **kw).solve(W @ np.ones(W.shape[0]))

    t0 = time.perf_counter()
    A = saga.gallery.poisson(prob["stencil"], int(prob["N"]))
    x_star = np.random.default_rng(0).uniform(0, 1, A.shape[0])
    b = A @ x_star
    build = time.perf_counter() - t0
    result = {"problem": "%s N=%d" % (prob["stencil"], prob["N"]), "rows": A.shape[0], "nnz": int(A.nnz),
              "scipy_build_seconds": build, "amg": kw}
    result["scipy"] = timed_python(A, b, kw, args.repeat, False, args.backend)
    result["cupy"] = None
    try:
        if args.backend != "cuda":
            raise ImportError("no GPU backend")
        import cupy
        import cupyx.scipy.sparse as csp

        Ad, bd = csp.csr_matrix(A), cupy.asarray(b)
        saga.smoothed_aggregation_solver(csp.csr_matrix(W), **kw).solve(cupy.ones(W.shape[0]))
        result["cupy"] = timed_python(Ad, bd, kw, args.repeat, True, args.backend)
    except ImportError:
        pass
    result["cli"] = cli
    cli_total = result["cli"]["total"]
    result["scipy_over_cli"] = result["scipy"]["total_wall"] / cli_total
    if result["cupy"]:
        result["cupy_over_cli"] = result["cupy"]["total_wall"] / cli_total
    (out / "bench_python.json").write_text(json.dumps(result, indent=2))

    def row(name, r, wall):
        if r is None:
            return "| %s | not run (no CuPy) | | | | | |\n" % name
        if wall:
            return "| %s | %.1f | %.1f | %.1f | %.1f / %.1f | %d | %.2fx |\n" % (
                name, 1e3 * r["setup_wall"], 1e3 * r["solve_wall"], 1e3 * r["total_wall"],
                1e3 * r["setup_seconds"], 1e3 * r["solve_seconds"], r["iterations"], r["total_wall"] / cli_total)
        return "| %s | %.1f | %.1f | %.1f | (reported) | %d | 1.00x |\n" % (
            name, 1e3 * r["setup_seconds"], 1e3 * r["solve_seconds"], 1e3 * r["total"], r["iterations"])

    md = ("%s (%d unknowns, %d nonzeros), min of %d, setup + solve to 1e-8:\n\n"
          "| path | setup ms | solve ms | total ms | saga's own setup / solve ms | iterations | total / saga solve |\n"
          "|---|---:|---:|---:|---:|---:|---:|\n" % (result["problem"], result["rows"], result["nnz"], args.repeat))
    md += row("Python, SciPy matrix + NumPy vectors", result["scipy"], True)
    md += row("Python, CuPy matrix + vectors in place", result["cupy"], True)
    md += row("`saga solve` (its report)", result["cli"], False)
    (out / "bench_python.md").write_text(md)
    print(md)


if __name__ == "__main__":
    sys.exit(main())
