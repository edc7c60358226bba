#!/usr/bin/env python3
"""Compares the rows of two builds' bench results (the JSON of
`gpuprim bench --json`), each build run one or more times in turn.

For every row both builds have (same table, implementation, variant, type
and n), it prints the median time of each build (the median over its
rounds), after / before, and the spread of each build's own rounds
((slowest - fastest) / fastest): a difference within the larger spread is
noise. The vendor's row (CUB, cuBLAS, ...: the same library code in both
builds) is timed in the same runs, so its after / before measures how far
the machine itself moved between the runs: a row outside the noise whose
vendor moved the same way as far or farther (or whose ratio divided by the
vendor's is within the noise) is marked "machine drift". The
last lines count the rows outside the noise, slower and faster.
"""
import argparse
import json
import statistics


def rows_of(path):
    with open(path) as f:
        results = json.load(f)
    # One run ({"run": ..., "rows": [...]}), or several families' runs
    # gathered under their names.
    runs = [results] if "rows" in results else [r for r in results.values() if isinstance(r, dict)]
    rows, vendor = {}, {}
    for run in runs:
        for row in run.get("rows", []):
            if row.get("error") or not row.get("median_us"):
                continue
            key = (row.get("table", ""), row.get("implementation", ""), row.get("variant", ""),
                   row.get("type", ""), row.get("n", 0))
            rows[key] = row["median_us"]
            if row.get("vendor_us"):
                vendor[key] = row["vendor_us"]
    return rows, vendor


def gather(paths):
    """Each row's times over the runs, and its vendor's times where it has one."""
    runs = [rows_of(p) for p in paths]
    keys = set().union(*(r for r, _ in runs)) if runs else set()
    times = {k: [r[k] for r, _ in runs if k in r] for k in keys}
    vendor = {k: [v[k] for _, v in runs if k in v] for k in keys}
    return times, {k: v for k, v in vendor.items() if v}


def spread(times):
    return (max(times) - min(times)) / min(times) if len(times) > 1 else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs="+", required=True, help="the first build's JSON files")
    parser.add_argument("--after", nargs="+", required=True, help="the second build's JSON files")
    parser.add_argument("--noise-floor", type=float, default=0.02,
                        help="the least spread counted as noise (default 0.02)")
    args = parser.parse_args()
    (before, vendor_before), (after, vendor_after) = gather(args.before), gather(args.after)
    print("| table | implementation | variant | type | n | before (us) | after (us) | after / before "
          "| vendor after / before | spread before | spread after | verdict |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    slower = faster = same = drift = 0
    for key in sorted(set(before) & set(after), key=str):
        b, a = statistics.median(before[key]), statistics.median(after[key])
        noise = max(spread(before[key]), spread(after[key]), args.noise_floor)
        ratio = a / b
        vendor_ratio = None
        if key in vendor_before and key in vendor_after:
            vendor_ratio = statistics.median(vendor_after[key]) / statistics.median(vendor_before[key])
        outside = ratio > 1 + noise or ratio < 1 / (1 + noise)
        # The vendor moved the same way, as far or farther: the machine moved.
        drifted = vendor_ratio and (1 / (1 + noise) <= ratio / vendor_ratio <= 1 + noise or
                                    1 < ratio <= vendor_ratio or vendor_ratio <= ratio < 1)
        if outside and drifted:
            verdict, drift = "machine drift", drift + 1
        elif ratio > 1 + noise:
            verdict, slower = "slower", slower + 1
        elif ratio < 1 / (1 + noise):
            verdict, faster = "faster", faster + 1
        else:
            verdict, same = "within noise", same + 1
        table, impl, variant, dtype, n = key
        vendor_text = f"{vendor_ratio:.3f}" if vendor_ratio else "-"
        print(f"| {table} | {impl} | {variant} | {dtype} | {n} | {b:.2f} | {a:.2f} | {ratio:.3f} "
              f"| {vendor_text} | {spread(before[key]):.1%} | {spread(after[key]):.1%} | {verdict} |")
    print()
    print(f"rows in both: {slower + faster + same + drift}; within noise: {same}; "
          f"machine drift (the vendor moved alike): {drift}; slower: {slower}; faster: {faster}; "
          f"only before: {len(set(before) - set(after))}; only after: {len(set(after) - set(before))}")


if __name__ == "__main__":
    main()
