#!/usr/bin/env python3
"""Condenses the report of scripts/ncu-rows.sh (ncu --print-summary
per-kernel, one "## row" heading above each row's output) into one table
a row: for every kernel profiled, its launch shape, the average duration,
SM / memory / DRAM / L1 / L2 throughput (% of peak), achieved occupancy,
registers, and the three largest stall reasons (warp cycles per issued
instruction spent in each).

Usage: scripts/ncu_summary.py REPORT [REPORT ...] > summary.md
"""
import re
import sys

METRICS = {
    "Duration": "us",
    "Compute (SM) Throughput": "SM %",
    "Memory Throughput": "mem %",
    "DRAM Throughput": "DRAM %",
    "L1/TEX Cache Throughput": "L1 %",
    "L2 Cache Throughput": "L2 %",
    "Achieved Occupancy": "occ %",
    "Registers Per Thread": "regs",
    "Warp Cycles Per Issued Instruction": "cyc/issue",
}
STALL = re.compile(r"smsp__average_warps_issue_stalled_(\w+)_per_issue_active\.ratio\s+inst\s+"
                   r"[\d.,]+\s+[\d.,]+\s+([\d.,]+)")
KERNEL = re.compile(r"^  (?:void )?(.+?) \((\d+), (\d+), (\d+)\)x\((\d+), (\d+), (\d+)\), Device \d+, "
                    r"CC [\d.]+, Invocations (\d+)")


def short_name(signature):
    """The kernel's name without its namespace, template and parameters."""
    depth = 0
    name = ""
    for ch in signature:
        if ch in "<(":
            if depth == 0 and name:
                break
            depth += 1
        elif ch in ">)":
            depth -= 1
        elif depth == 0:
            name += ch
    return name.split("::")[-1].strip()


def parse(paths):
    rows = []
    row = kernel = None
    for path in paths:
        with open(path, errors="replace") as f:
            for line in f:
                if line.startswith("## ") and ": gpuprim bench " in line:
                    row = {"name": line[3:].split(":")[0].strip(), "kernels": []}
                    rows.append(row)
                    kernel = None
                    continue
                m = KERNEL.match(line)
                if m and row is not None:
                    grid = "x".join(g for g in m.groups()[1:4] if g != "1") or "1"
                    block = "x".join(b for b in m.groups()[4:7] if b != "1") or "1"
                    kernel = {"kernel": short_name(m.group(1)), "launch": f"{grid} x {block}",
                              "calls": m.group(8), "stalls": {}}
                    row["kernels"].append(kernel)
                    continue
                if kernel is None:
                    continue
                s = STALL.search(line)
                if s:
                    kernel["stalls"][s.group(1)] = float(s.group(2).replace(",", ""))
                    continue
                for metric, column in METRICS.items():
                    if re.match(rf"\s+{re.escape(metric)}\s", line) and column not in kernel:
                        words = line.split()
                        value = words[-1]
                        if column == "us":  # ncu picks ns, us or ms by the size
                            scale = {"ns": 1e-3, "us": 1.0, "ms": 1e3, "s": 1e6}[words[-4]]
                            value = f"{float(value.replace(',', '')) * scale:.1f}"
                        kernel[column] = value
    return rows


def main():
    columns = list(METRICS.values())
    for row in parse(sys.argv[1:]):
        print(f"### {row['name']}\n")
        print("| kernel | launch | calls | " + " | ".join(columns) + " | top stalls (cycles/issue) |")
        print("| --- | --- | ---: | " + " | ".join("---:" for _ in columns) + " | --- |")
        for k in row["kernels"]:
            top = sorted(k["stalls"].items(), key=lambda kv: -kv[1])
            stalls = ", ".join(f"{n} {v:.1f}" for n, v in top[:3] if n != "selected")
            print(f"| {k['kernel']} | {k['launch']} | {k['calls']} | "
                  + " | ".join(k.get(c, "") for c in columns) + f" | {stalls} |")
        print()


if __name__ == "__main__":
    main()
