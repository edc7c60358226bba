#!/usr/bin/env python3
"""scripts/bench_charts.py reads the recorded bench results it is given.

Usage: bench_charts_test.py SCRIPT RESULTS_DIR

Reads recorded runs of bench/results (markdown and both JSON shapes) and
checks the rows the charts are drawn from. Where matplotlib is installed it
also draws every kind of chart into a temporary folder and checks the PNGs;
without it, it checks that the script says it needs matplotlib.
"""

import importlib.util
import subprocess
import sys
import tempfile
from pathlib import Path


def load(script):
    spec = importlib.util.spec_from_file_location("bench_charts", script)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def check(condition, what):
    if not condition:
        print(f"FAIL: {what}")
        sys.exit(1)


def main(script, results):
    charts = load(script)

    headline = charts.read(results / "h100-2026-11-26-headline.md")
    check(headline.device == "NVIDIA H100 80GB HBM3", f"headline device: {headline.device!r}")
    check(headline.date == "2026-11-26", f"headline date: {headline.date!r}")
    rows = charts.vendor_rows(headline)
    labels = [label for label, _ in rows]
    # Every row with a vendor, not the closest pair's (its vendor column is the CPU backend).
    check(len(rows) == 19, f"headline vendor rows: {len(rows)}")
    closest = [label for label in labels if label.startswith("closest_pair")]
    check(not closest, f"closest pair among the vendor rows: {closest}")
    check(("reduce: sum float, n = 2^28", 0.99) in rows, f"reduce 2^28 row: {rows[:2]}")
    check(("histogram: even, 1024 bins float, n = 2^28", 9.39) in rows, "float histogram row")
    # A variant that spells its size keeps it instead of n.
    check("transpose: 16384 x 16384 float" in labels, f"transpose label: {labels}")

    flat = charts.read(results / "h100-2026-11-24-all.json")
    check(flat.date == "2026-11-24", f"JSON date: {flat.date!r}")
    check(sum(len(r) for r in flat.tables.values()) == 49, "rows of the flat JSON")
    check(len(charts.vendor_rows(flat)) == 49, "vendor rows of the flat JSON")
    first = charts.vendor_rows(flat)[0][0]
    check(first == "reduce: sum float, n = 2^20", f"first row of the flat JSON: {first}")

    by_family = charts.read(results / "h100-2026-11-24-late-all.json")
    check(sum(len(r) for r in by_family.tables.values()) == 49, "rows of the per-family JSON")

    ladders = charts.read(results / "h100-2026-11-24-late-all.md")
    titles = [t for t in ladders.tables if "ladder" in t]
    check(len(titles) == 7, f"ladder tables: {titles}")
    reduce = ladders.tables["reduce ladder: sum of 2^26 float (cuda)"]
    check(reduce[0]["implementation"] == "reduce_interleaved_divergent", reduce[0])
    check(charts.number(reduce[0]["median_us"]) == 657.1, reduce[0]["median_us"])
    check(ladders.dates[titles[0]] == "2026-11-24", ladders.dates)

    dist = charts.read(results / "h200x4-2026-11-26-dist-multi_gpu.md")
    check(dist.device == "4 x NVIDIA H200", f"dist device: {dist.device!r}")
    scaling = [r for rows in dist.tables.values() for r in rows if "efficiency" in r]
    check(len(scaling) == 24, f"multi_gpu rows: {len(scaling)}")

    check(charts.size_text(268435456) == "2^28", charts.size_text(268435456))
    check(charts.size_text(100000000) == "100,000,000", charts.size_text(100000000))
    check(charts.number("-") is None and charts.number("1,914") == 1914.0, "number()")

    try:
        import matplotlib  # noqa: F401
    except ImportError:
        run = subprocess.run(
            [sys.executable, str(script), str(results / "h100-2026-11-26-headline.md")],
            capture_output=True,
            text=True,
        )
        check(run.returncode != 0 and "matplotlib" in run.stderr, f"without matplotlib: {run}")
        print("ok (tables read; charts not drawn: no matplotlib)")
        return

    with tempfile.TemporaryDirectory() as out:
        run = subprocess.run(
            [
                sys.executable,
                str(script),
                "--out",
                out,
                str(results / "h100-2026-11-26-headline.md") + "@commit a5eba6a",
                str(results / "h100-2026-11-24-late-all.md"),
                str(results / "h200x4-2026-11-26-dist-multi_gpu.md"),
            ],
            capture_output=True,
            text=True,
        )
        check(run.returncode == 0, f"drawing: {run.stderr}")
        names = sorted(p.name for p in Path(out).iterdir())
        check("vendor-ratios-h100-2026-11-26-headline.png" in names, names)
        check("ladder-reduce-sum-of-2-26-float.png" in names, names)
        check("scaling-multi_gpu.png" in names, names)
        for name in names:
            check((Path(out) / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n", f"{name} is no PNG")
        bad = subprocess.run(
            [
                sys.executable,
                str(script),
                "--out",
                out,
                "--charts",
                "pie",
                str(results / "h100-2026-11-26-headline.md"),
            ],
            capture_output=True,
            text=True,
        )
        check(bad.returncode == 2 and "--charts" in bad.stderr, f"--charts pie: {bad.stderr}")
    print("ok")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))
