#!/usr/bin/env python3
"""The table of tools/device_cycle_profile.sh: DIR holds pN.name (the problem),
pN.json (saga-bench-spmv's timed cycle) and pN.csv (ncu --csv --page raw of one
cycle's kernels, the bench's own output lines mixed in). Prints, per problem,
each kernel in launch order (name, grid, µs, DRAM MB, GB/s and % of the bench's copy bandwidth: DRAM bytes
over the kernel's own time; bytes the L2 serves do not count, so a small problem's working set that stays
in L2 shows low percentages) and the sum of the
kernels' times against the cycle's measured time: the rest is the time between
kernels (launch, dependency wait, ramp and tail of each grid)."""
import csv
import io
import json
import sys
from pathlib import Path


def short_name(name):
    """'void ns::<unnamed>::rows_kernel<ns::AxpbyOut, double, ns::DirectX>(int, ...)' -> 'rows_kernel<AxpbyOut, double, DirectX>'."""
    for junk in ("void ", "(anonymous namespace)::", "<unnamed>::", "saga::cuda::", "saga::"):
        name = name.replace(junk, "")
    depth = 0
    for i, ch in enumerate(name):  # cut the parameter list: the first '(' outside the template arguments
        depth += ch == "<"
        depth -= ch == ">"
        if ch == "(" and depth == 0:
            return name[:i]
    return name


def kernels(csv_path):
    """The ncu rows of the file: [{name, grid, block, us, dram_mb}], in launch order."""
    lines = [l for l in csv_path.read_text(errors="replace").splitlines() if l.startswith('"')]
    if not lines:
        return []
    rows = list(csv.DictReader(io.StringIO("\n".join(lines))))
    out = []
    for r in rows:
        t = r.get("gpu__time_duration.sum", "")
        try:
            t = float(t.replace(",", ""))
        except ValueError:  # the units row
            continue
        def num(key):
            try:
                return float(r.get(key, "0").replace(",", ""))
            except ValueError:
                return 0.0
        name = r.get("Kernel Name", "?")
        out.append({"name": short_name(name), "grid": r.get("launch__grid_size", "?"),
                    "block": r.get("launch__block_size", "?"), "us": t / 1e3,  # ns -> µs
                    "dram_mb": (num("dram__bytes_read.sum") + num("dram__bytes_write.sum")) / 1e6})
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: cycle_profile_table.py DIR")
    d = Path(sys.argv[1])
    gpu = (d / "gpu.txt").read_text().strip() if (d / "gpu.txt").exists() else "?"
    print(f"GPU {gpu}; one V(1,1) cycle, each kernel timed by ncu (clocks and caches left alone)\n")
    i = 1
    while (d / f"p{i}.name").exists():
        name = (d / f"p{i}.name").read_text().strip()
        ks = kernels(d / f"p{i}.csv") if (d / f"p{i}.csv").exists() else []
        cyc = graph = floor = None
        bw = 0.0  # the bench's copy bandwidth, GB/s
        if (d / f"p{i}.json").exists():
            j = json.loads((d / f"p{i}.json").read_text())
            bw = j.get("copy_bandwidth_gbs", 0.0)
            for s in j.get("solves", []):
                cyc, graph, floor = s.get("cycle_ms"), s.get("cycle_graph_ms"), s.get("cycle_floor_ms")
        print(f"### {name}\n\n| # | kernel | grid | block | µs | DRAM MB | GB/s | % of copy |\n"
              "|---:|---|---:|---:|---:|---:|---:|---:|")
        for n, k in enumerate(ks, 1):
            gbs = k["dram_mb"] / k["us"] * 1e3 if k["us"] > 0 else 0.0  # MB per µs is TB/s: x 1000 for GB/s
            pct = f"{100 * gbs / bw:.0f}%" if bw else "-"
            print(f"| {n} | {k['name']} | {k['grid']} | {k['block']} | {k['us']:.1f} | {k['dram_mb']:.1f} | {gbs:.0f} | {pct} |")
        total = sum(k["us"] for k in ks)
        print()
        line = f"{len(ks)} kernels, {total:.1f} µs together"
        if cyc:
            line += f"; the cycle takes {cyc * 1e3:.1f} µs kernel by kernel"
        if graph:
            line += f", {graph * 1e3:.1f} µs in a graph"
        if floor:
            line += f" (floor {floor * 1e3:.1f} µs)"
        if cyc and ks:
            line += f": {cyc * 1e3 - total:.1f} µs between kernels ({(cyc * 1e3 - total) / len(ks):.1f} a kernel)"
        print(line + "\n")
        i += 1


if __name__ == "__main__":
    main()
