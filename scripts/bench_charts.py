#!/usr/bin/env python3
"""Charts for docs/performance.md, drawn from recorded bench results.

Usage:
    scripts/bench_charts.py [--out DIR] [--charts KINDS] FILE[@SOURCE]...

Each FILE is a result of the bench, as recorded under bench/results/, and
SOURCE what the run measured, as the charts' titles should name it (for
example "commit a5eba6a"):
  - the JSON that `gpuprim bench --json FILE` writes ({"run": ..., "rows": [...]},
    or one such object per family under the family's name);
  - the markdown report that `gpuprim bench` or `gpuprim bench dist` prints.

From whatever tables the files hold, it writes into DIR (default docs/img):
  vendor-ratios.png    vendor time / gpuprim time of every row measured beside
                       a vendor library (one bar a row; above 1: gpuprim faster)
  ladder-<name>.png    each ladder: every rung's speed-up over the first rung,
                       the production path and the vendor drawn in grey
  scaling-multi_gpu.png  `gpuprim bench dist` rows of gp::multi_gpu: weak-scaling
                       efficiency and strong-scaling speed-up over 1, 2, ... GPUs
When several files hold vendor rows, each gets its own vendor-ratios-<file>.png.
--charts names the kinds to draw, comma-separated (default: ratios,ladders,scaling).
Every chart's title names the run it shows (device and date from the file,
the source from FILE@SOURCE).

Needs matplotlib (python3 -m venv venv && venv/bin/pip install matplotlib).
"""

import argparse
import json
import math
import re
import sys
import textwrap
from pathlib import Path

# Markdown column headers of the bench's tables, mapped to the JSON keys.
MD_COLUMNS = {
    "implementation": "implementation",
    "rung": "implementation",
    "fixes": "fixes",
    "op": "variant",
    "type": "type",
    "n": "n",
    "median (us)": "median_us",
    "time (us)": "median_us",
    "vendor": "vendor",
    "vendor (us)": "vendor_us",
    "vendor / gpuprim": "ratio_to_vendor",
    "check": "check",
}


def number(text):
    """The float a table cell holds, or None for '-', '' and words."""
    if text is None:
        return None
    if isinstance(text, (int, float)):
        return float(text)
    try:
        return float(str(text).replace(",", "").strip())
    except ValueError:
        return None


class Run:
    """One run of the bench: where and when, and its tables in file order."""

    def __init__(self, source):
        self.source = source
        self.device = ""
        self.date = ""
        self.measured = ""
        self.tables = {}  # title -> list of row dicts
        self.dates = {}  # title -> date of the run that printed the table

    def add(self, title, row, date=""):
        self.tables.setdefault(title, []).append(row)
        self.dates.setdefault(title, date)

    def label(self, title=None):
        date = self.dates.get(title) or self.date
        if not date:
            found = re.search(r"\d{4}-\d\d-\d\d", self.source.name)
            date = found.group(0) if found else ""
        parts = [p for p in (self.device, date, self.measured) if p]
        return ", ".join(parts) if parts else self.source.name


def read_json(path):
    data = json.loads(path.read_text())
    objects = [data] if "rows" in data else [v for v in data.values() if isinstance(v, dict)]
    run = Run(path)
    for obj in objects:
        info = obj.get("run", {})
        run.device = run.device or info.get("device", "")
        run.date = run.date or info.get("date_utc", "")[:10]
        for row in obj.get("rows", []):
            run.add(row.get("table", ""), dict(row))
    return run


def split_cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def read_markdown(path):
    run = Run(path)
    title = ""
    date = ""
    header = None
    devices = []
    for line in path.read_text().splitlines():
        if line.startswith("GPU: ") and not run.device:
            run.device = line[5:].split(" (")[0].strip()
        elif line.startswith("Date: "):
            date = line[6:16]
            run.date = run.date or date
        elif re.match(r"device \d+: ", line):
            devices.append(line.split(": ", 1)[1].split(" (")[0])
        if line.startswith("## "):
            title, header = line[3:].strip(), None
        elif line.rstrip().endswith(":") and not line.startswith("|"):
            title, header = line.rstrip()[:-1].strip(), None
        elif line.startswith("|"):
            cells = split_cells(line)
            if header is None:
                header = cells
            elif all(set(c) <= set("-: ") for c in cells):
                continue
            else:
                row = {"table": title}
                for name, cell in zip(header, cells):
                    row[MD_COLUMNS.get(name, name)] = cell
                run.add(title, row, date)
        else:
            header = None
    if devices and not run.device:
        run.device = f"{len(devices)} x {devices[0]}"
    return run


def read(path):
    return read_json(path) if path.suffix == ".json" else read_markdown(path)


def size_text(n):
    value = number(n)
    if value is None or value <= 0 or value != int(value):
        return str(n)
    value = int(value)
    if value & (value - 1) == 0:
        return f"2^{value.bit_length() - 1}"
    return f"{value:,}"


def family(title):
    return title.split(" (")[0]


def slug(text):
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def figure(rows, width=8.0):
    import matplotlib.pyplot as plt

    return plt.subplots(figsize=(width, 0.9 + 0.27 * max(rows, 3)), dpi=100)


def save(fig, path):
    fig.tight_layout()
    fig.savefig(path)
    import matplotlib.pyplot as plt

    plt.close(fig)
    print(path)


def vendor_rows(run):
    """Rows timed beside a vendor library (not ladders, not the CPU backend)."""
    out = []
    for title, rows in run.tables.items():
        if "ladder" in title:
            continue
        for row in rows:
            ratio = number(row.get("ratio_to_vendor"))
            vendor = str(row.get("vendor") or "")
            if ratio is None or vendor.startswith("gpuprim"):
                continue
            variant = str(row.get("variant", ""))
            label = f"{family(title)}: {variant} {row.get('type', '')}"
            # Rows whose variant spells the size (a shape, a grid, 2^k arrays) keep it;
            # the others show the element count.
            if not re.search(r"\^|\d x \d", variant):
                label += f", n = {size_text(row.get('n'))}"
            out.append((label, ratio))
    return out


def chart_vendor_ratios(run, path):
    rows = vendor_rows(run)
    if not rows:
        return False
    fig, ax = figure(len(rows), width=9.0)
    labels = [r[0] for r in rows][::-1]
    ratios = [r[1] for r in rows][::-1]
    colors = ["#2a7ab0" if r >= 1 else "#d0782a" for r in ratios]
    ax.barh(range(len(rows)), ratios, color=colors)
    ax.set_xscale("log")
    ax.axvline(1.0, color="black", linewidth=0.8)
    for i, r in enumerate(ratios):
        ax.text(r, i, f" {r:.2f}", va="center", fontsize=7)
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels(labels, fontsize=7)
    ax.set_xlim(min(0.5, min(ratios) / 1.2), max(ratios) * 2.0)
    ax.set_xlabel("vendor time / gpuprim time (log scale; above 1: gpuprim faster)")
    ax.set_title(f"gpuprim against the vendor libraries\n{run.label()}", fontsize=9)
    save(fig, path)
    return True


def chart_ladder(run, title, rows, out_dir):
    times = [number(r.get("median_us")) for r in rows]
    if not rows or times[0] is None:
        return None
    first = times[0]
    names, speedups, colors = [], [], []
    for row, t in zip(rows, times):
        if t is None:
            continue
        fixes = str(row.get("fixes", ""))
        reference = fixes.startswith("(reference)") or fixes.startswith("production")
        # A rung's name may carry the check's remark in bold parentheses.
        names.append(re.sub(r"\s*\(\*\*.*$", "", str(row.get("implementation", ""))))
        speedups.append(first / t)
        colors.append("#9a9a9a" if reference else "#2a7ab0")
    fig, ax = figure(len(names))
    ax.barh(range(len(names)), speedups[::-1], color=colors[::-1])
    if max(speedups) > 20:
        ax.set_xscale("log")
    for i, s in enumerate(speedups[::-1]):
        ax.text(s, i, f" {s:.2f}x", va="center", fontsize=7)
    ax.set_xlim(right=max(speedups) * (2.0 if max(speedups) > 20 else 1.15))
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names[::-1], fontsize=7)
    ax.set_xlabel("speed-up over the first rung (time of the first rung / time)")
    caption = f"{run.label(title)}; grey: production path and vendor"
    ax.set_title(textwrap.fill(title, 75) + "\n" + textwrap.fill(caption, 75), fontsize=9)
    path = out_dir / f"ladder-{slug(title.replace(' (cuda)', '').replace('ladder', ''))}.png"
    save(fig, path)
    return path


def chart_scaling(run, out_dir):
    rows = [
        r
        for rows in run.tables.values()
        for r in rows
        if "GPUs" in r and "efficiency" in r and number(r.get("time ms")) is not None
    ]
    if not rows:
        return None
    import matplotlib.pyplot as plt

    fig, (weak, strong) = plt.subplots(1, 2, figsize=(9.0, 3.6), dpi=100)
    algorithms = list(dict.fromkeys(r["algorithm"] for r in rows))
    top = 1
    for algorithm in algorithms:
        for kind, ax in (("weak", weak), ("strong", strong)):
            points = sorted(
                (int(number(r["GPUs"])), number(r["time ms"]))
                for r in rows
                if r["algorithm"] == algorithm and r["scaling"] == kind
            )
            if not points or points[0][0] != 1:
                continue
            gpus = [p for p, _ in points]
            top = max(top, gpus[-1])
            one = points[0][1]
            if kind == "weak":
                ax.plot(gpus, [100.0 * one / t for _, t in points], marker="o", label=algorithm)
            else:
                ax.plot(gpus, [one / t for _, t in points], marker="o", label=algorithm)
    ticks = list(range(1, top + 1))
    weak.axhline(100.0, color="black", linewidth=0.8)
    weak.set_ylim(0, 110)
    weak.set_xticks(ticks)
    weak.set_xlabel("GPUs (the same elements per GPU)")
    weak.set_ylabel("efficiency: time on 1 GPU / time (%)")
    weak.set_title("weak scaling", fontsize=9)
    strong.plot(ticks, ticks, color="black", linewidth=0.8, linestyle="--", label="ideal")
    strong.set_xticks(ticks)
    strong.set_xlabel("GPUs (the same elements in all)")
    strong.set_ylabel("speed-up: time on 1 GPU / time")
    strong.set_title("strong scaling", fontsize=9)
    strong.legend(fontsize=7)
    fig.suptitle(f"gp::multi_gpu, one process\n{run.label()}", fontsize=9)
    path = out_dir / "scaling-multi_gpu.png"
    save(fig, path)
    return path


KINDS = ("ratios", "ladders", "scaling")


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "files", nargs="+", metavar="FILE[@SOURCE]", help="bench results (.json or .md)"
    )
    parser.add_argument("--out", type=Path, default=Path("docs/img"), help="folder of the PNGs")
    parser.add_argument("--charts", default=",".join(KINDS), help="kinds to draw, comma-separated")
    args = parser.parse_args(argv)
    kinds = set(args.charts.split(","))
    if not kinds <= set(KINDS):
        parser.error(f"--charts: {args.charts}: the kinds are {', '.join(KINDS)}")

    try:
        import matplotlib

        matplotlib.use("Agg")
    except ImportError:
        sys.exit("bench_charts.py: needs matplotlib (pip install matplotlib)")

    args.out.mkdir(parents=True, exist_ok=True)
    runs = []
    for arg in args.files:
        path, _, measured = arg.partition("@")
        try:
            run = read(Path(path))
        except (OSError, ValueError) as error:
            sys.exit(f"bench_charts.py: {path}: {error}")
        run.measured = measured
        runs.append(run)

    with_vendor = [run for run in runs if "ratios" in kinds and vendor_rows(run)]
    drawn = 0
    for run in with_vendor:
        name = "vendor-ratios.png"
        if len(with_vendor) > 1:
            name = f"vendor-ratios-{slug(run.source.stem)}.png"
        drawn += chart_vendor_ratios(run, args.out / name)
    for run in runs:
        for title, rows in run.tables.items():
            if "ladders" in kinds and "ladder" in title:
                drawn += chart_ladder(run, title, rows, args.out) is not None
        if "scaling" in kinds:
            drawn += chart_scaling(run, args.out) is not None
    if drawn == 0:
        sys.exit("bench_charts.py: no table of the bench found in " + ", ".join(args.files))


if __name__ == "__main__":
    main(sys.argv[1:])
