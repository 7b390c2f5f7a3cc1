#!/usr/bin/env python3
"""What 64-bit row offsets cost (docs/design.md, "Index widths"): two runs of
tools/bench_amg.py on the same machine in one device job, one with the default
build (32-bit offsets) and one with SAGA_OFFSET_BITS=64, side by side.

    /usr/bin/python3 tools/compare_offsets.py OUT32/bench_amg.json OUT64/bench_amg.json \\
        --out benchmarks/results/offsets64_h100 [--commit REV]

Writes OUT.json (both runs) and OUT.md: per problem and variant the warm setup,
solve and total of each build (the best in one process), their ratio 64/32, the
iterations and the peak device bytes per unknown; the same for the ladder rows.
"""
import argparse
import datetime
import json
import math
import pathlib


def rows_of(run):
    """(problem, variant) -> row, the suite and the ladder together."""
    out = {}
    for name, per in run.get("suite", {}).items():
        for v, x in per.items():
            out[(name, v)] = x
    for x in run.get("ladder", []):
        out[("3d7 N=%d" % x["N"], x["variant"])] = x
    return out


def ms(s):
    return "%.2f" % (1e3 * s) if s < 1 else "%.0f" % (1e3 * s)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("run32", help="bench_amg.json of the default (32-bit offset) build")
    ap.add_argument("run64", help="bench_amg.json of the SAGA_OFFSET_BITS=64 build")
    ap.add_argument("--out", required=True, help="output path without extension")
    ap.add_argument("--commit", default="")
    args = ap.parse_args()
    r32 = json.loads(pathlib.Path(args.run32).read_text())
    r64 = json.loads(pathlib.Path(args.run64).read_text())
    a, b = rows_of(r32), rows_of(r64)
    commit = args.commit or r32.get("commit", "")
    md = ["# 64-bit row offsets against the default 32-bit build (tools/compare_offsets.py)", "",
          "%s; commit %s; %s. Builds: `%s` and `%s`. Each row: tools/bench_amg.py's best of %d processes, "
          "warm = the best setup + solve of %d in one process; ratio = 64-bit / 32-bit (above 1: slower)."
          % (r32.get("device", ""), commit, datetime.date.today().isoformat(), r32.get("build", ""),
             r64.get("build", ""), r32.get("repeat", 0), r32.get("in_process", 0)), "",
          "| problem | variant | its 32 / 64 | warm setup ms 32 / 64 | warm solve ms 32 / 64 | "
          "warm total ms 32 / 64 | total ratio | solve ratio | B / unknown 32 / 64 |",
          "|---|---|---|---|---|---|---:|---:|---|"]
    ratios = []
    for key in a:
        if key not in b:
            continue
        x, y = a[key], b[key]
        if "error" in x or "error" in y:
            md.append("| %s | %s | %s |||||||" % (key[0], key[1], x.get("error") or y.get("error")))
            continue
        tr = y["warm_total_s"] / x["warm_total_s"]
        sr = y["warm_solve_s"] / x["warm_solve_s"]
        ratios.append((tr, sr))
        md.append("| %s | %s | %d / %d | %s / %s | %s / %s | %s / %s | %.3f | %.3f | %.0f / %.0f |" % (
            key[0], key[1], x["iterations"], y["iterations"], ms(x["warm_setup_s"]), ms(y["warm_setup_s"]),
            ms(x["warm_solve_s"]), ms(y["warm_solve_s"]), ms(x["warm_total_s"]), ms(y["warm_total_s"]), tr, sr,
            x["bytes_per_unknown"], y["bytes_per_unknown"]))
    if ratios:
        def gm(v):
            return math.exp(sum(math.log(t) for t in v) / len(v))
        md += ["", "Geometric mean over the rows: total %.3f, solve %.3f." % (gm([t for t, _ in ratios]),
                                                                            gm([s for _, s in ratios]))]
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps({"commit": commit, "run32": r32, "run64": r64}, indent=2))
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    print("\n".join(md))


if __name__ == "__main__":
    main()
