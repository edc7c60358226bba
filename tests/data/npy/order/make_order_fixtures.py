# Writes the inputs of the topk and searchsorted CLI cases (tests/cli/cases.txt)
# and NumPy's answers for them (expected/). Run from this folder:
# python3 make_order_fixtures.py
import math
import os

import numpy as np

rng = np.random.default_rng(45)
os.makedirs("expected", exist_ok=True)


def topk_order(row, largest):
    """Indices of row in top-k's order: NaN largest, ties by index."""
    def key(i):
        v = row[i]
        if math.isnan(v):
            return (0 if largest else 1, 0.0, i)
        return (1 if largest else 0, -v if largest else v, i)
    return sorted(range(len(row)), key=key)


# topk: a 4 x 50 float32 matrix with ties and NaNs, k = 5 largest.
x = rng.integers(0, 20, (4, 50)).astype(np.float32)
x[0, 7] = x[0, 30] = np.nan
x[2, 49] = np.nan
np.save("topk_float32_2d.npy", x)
idx = np.array([topk_order([float(v) for v in row], True)[:5] for row in x], dtype=np.int64)
np.save("expected/topk_float32_2d_values.npy", np.take_along_axis(x, idx, axis=1))
np.save("expected/topk_float32_2d_indices.npy", idx)

# topk --smallest of a 1-D int32 array with ties, k = 7.
y = rng.integers(-5, 5, 40).astype(np.int32)
np.save("topk_int32.npy", y)
order = topk_order([float(v) for v in y], False)[:7]
np.save("expected/topk_int32_smallest_values.npy", y[order])
np.save("expected/topk_int32_smallest_indices.npy", np.array(order, dtype=np.int64))

# searchsorted: a sorted float64 table with ties, infinities and NaNs last,
# 3 x 4 queries.
table = np.sort(np.concatenate([rng.integers(0, 10, 30).astype(np.float64),
                                [np.inf, -np.inf, np.nan, np.nan]]))
queries = np.array([[np.nan, 0, 3, 9.5], [-np.inf, np.inf, 10, -1], [4, 4.5, 0, np.nan]])
np.save("sorted_float64.npy", table)
np.save("queries_float64.npy", queries)
for side in ("left", "right"):
    found = np.searchsorted(table, queries, side=side).astype(np.int64)
    np.save(f"expected/searchsorted_{side}.npy", found)
np.save("unsorted_float64.npy", np.array([1.0, 2.0, 5.0, 3.0, 7.0]))
np.save("queries_int32.npy", np.array([1, 2, 3], dtype=np.int32))
