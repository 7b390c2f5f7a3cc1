#!/usr/bin/env python3
"""The table of tools/device_spmv_ncu.sh: FILE is `ncu --csv --page raw` output
(the bench's own lines before it are skipped). One line per kernel and grid
size, in launch order (the last launch of each is shown, with how many there
were): time, registers, achieved occupancy, issue slots busy, L1 hit rate, L2
and DRAM throughput (% of peak), L2 read and write sectors (millions), DRAM
bytes read and written (MB; the raw page in base units, ncu --print-units
base), executed warp instructions and the four largest stall reasons in warp
cycles per issued instruction."""
import csv
import re
import sys

import cycle_profile_table


def short_name(name):
    """cycle_profile_table's short kernel name, also without std::integral_constant (cuSPARSE's template arguments)."""
    return cycle_profile_table.short_name(name.replace("std::integral_constant", ""))


COLUMNS = [("µs", "gpu__time_duration.sum", 1e-3), ("regs", "launch__registers_per_thread", 1),
           ("occupancy %", "sm__warps_active.avg.pct_of_peak_sustained_active", 1),
           ("issue %", "smsp__issue_active.avg.pct_of_peak_sustained_active", 1),
           ("L1 hit %", "l1tex__t_sector_hit_rate.pct", 1),
           ("L2 %", "lts__throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("DRAM %", "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed", 1),
           ("L2 read sectors (M)", "lts__t_sectors_op_read.sum", 1e-6),
           ("L2 write sectors (M)", "lts__t_sectors_op_write.sum", 1e-6),
           ("DRAM read MB", "dram__bytes_read.sum", 1e-6), ("DRAM write MB", "dram__bytes_write.sum", 1e-6),
           ("warp inst (M)", "smsp__inst_executed.sum", 1e-6)]
STALL = re.compile(r"smsp__average_warps_issue_stalled_(.*)_per_issue_active\.ratio$")


def number(text):
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def table(lines):
    """The Markdown table's lines from the lines of an ncu raw CSV (bench output before the header is skipped)."""
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        raise ValueError("no ncu CSV header (did ncu profile any kernel?)")
    rows = list(csv.reader(lines[start:]))
    header = rows[0]
    seen = {}
    for row in rows[2:]:  # rows[1] holds the units
        if len(row) != len(header):
            continue
        d = dict(zip(header, row))
        key = (short_name(d["Kernel Name"]), d.get("launch__grid_size", "?"))
        seen.setdefault(key, []).append(d)
    out = ["| kernel | grid | launches | " + " | ".join(c[0] for c in COLUMNS) +
           " | largest stalls (cycles an instruction) |",
           "|---|---:|---:|" + "---:|" * len(COLUMNS) + "---|"]
    for (name, grid), ds in seen.items():
        d = ds[-1]
        cells = []
        for _, metric, scale in COLUMNS:
            v = number(d.get(metric, ""))
            cells.append("?" if v is None else f"{int(v)}" if metric == "launch__registers_per_thread" else f"{v * scale:.1f}")
        stalls = sorted(((number(v) or 0.0, STALL.match(k).group(1)) for k, v in d.items() if STALL.match(k)),
                        reverse=True)
        worst = ", ".join(f"{n} {v:.1f}" for v, n in stalls[:4])
        out.append(f"| {name[:60]} | {grid} | {len(ds)} | " + " | ".join(cells) + f" | {worst} |")
    return out


def main(path):
    lines = open(path, encoding="utf-8", errors="replace").read().splitlines()
    try:
        print("\n".join(table(lines)))
    except ValueError as e:
        sys.exit(f"{path}: {e}")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: spmv_ncu_table.py NCU_RAW.csv")
    main(sys.argv[1])
