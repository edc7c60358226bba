#!/usr/bin/env python3
"""Compares the rows of two builds' bench results (the JSON of
`gpuprim bench --json`), each build run one or more times in turn.

For every row both builds have (same table, implementation, variant, type
and n), it prints the median time of each build (the median over its
rounds), after / before, and the spread of each build's own rounds
((slowest - fastest) / fastest): a difference within the larger spread is
noise. The last lines count the rows outside the noise, slower and faster.
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
    rows = {}
    for run in runs:
        for row in run.get("rows", []):
            if row.get("error") or not row.get("median_us"):
                continue
            key = (row.get("table", ""), row.get("implementation", ""), row.get("variant", ""),
                   row.get("type", ""), row.get("n", 0))
            rows[key] = row["median_us"]
    return rows


def gather(paths):
    runs = [rows_of(p) for p in paths]
    keys = set().union(*runs) if runs else set()
    return {k: [r[k] for r in runs if k in r] for k in keys}


def spread(times):
    return (max(times) - min(times)) / min(times) if len(times) > 1 else 0.0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", nargs="+", required=True, help="the first build's JSON files")
    parser.add_argument("--after", nargs="+", required=True, help="the second build's JSON files")
    parser.add_argument("--noise-floor", type=float, default=0.02,
                        help="the least spread counted as noise (default 0.02)")
    args = parser.parse_args()
    before, after = gather(args.before), gather(args.after)
    print("| table | implementation | variant | type | n | before (us) | after (us) | after / before "
          "| spread before | spread after | verdict |")
    print("| --- | --- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |")
    slower = faster = same = 0
    for key in sorted(set(before) & set(after), key=str):
        b, a = statistics.median(before[key]), statistics.median(after[key])
        noise = max(spread(before[key]), spread(after[key]), args.noise_floor)
        ratio = a / b
        if ratio > 1 + noise:
            verdict, slower = "slower", slower + 1
        elif ratio < 1 / (1 + noise):
            verdict, faster = "faster", faster + 1
        else:
            verdict, same = "within noise", same + 1
        table, impl, variant, dtype, n = key
        print(f"| {table} | {impl} | {variant} | {dtype} | {n} | {b:.2f} | {a:.2f} | {ratio:.3f} "
              f"| {spread(before[key]):.1%} | {spread(after[key]):.1%} | {verdict} |")
    print()
    print(f"rows in both: {slower + faster + same}; within noise: {same}; slower: {slower}; "
          f"faster: {faster}; only before: {len(set(before) - set(after))}; "
          f"only after: {len(set(after) - set(before))}")


if __name__ == "__main__":
    main()
