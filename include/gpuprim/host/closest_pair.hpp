// Host backend of the closest-pair family (OpenMP): the bounding box, and
// the four algorithms, each returning the best pair in the order (squared
// distance, i, j) of gpuprim/detail/closest_pair/point_set.hpp.
//
//  1. brute_force: every pair, the outer loop over i spread over threads.
//  2. blocked: every pair, in blocks of points that stay in the L1 cache
//     (the thesis's blocked CPU brute force).
//  3. divide_and_conquer: sort by x once (radix sort); halves recursively; merge the
//     halves by y and check the strip around the split line (tasks for the
//     upper levels).
//  4. grid: cells of about one point over the bounding box, points sorted
//     by cell (radix sort); an upper bound from each point's next few
//     neighbours in cell order; if the cells are crowded (clustered data) a
//     second grid with that bound as the cell side; then every point
//     against its own and the forward neighbouring cells.
// Every filter compares squared quantities computed the way
// squared_distance computes them and keeps pairs at exactly the current
// best, so ties are seen and resolved by (i, j).
#pragma once

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <mutex>
#include <numeric>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/closest_pair/point_set.hpp"
#include "gpuprim/host/radix_sort.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim::host_impl {

using detail::better;
using detail::make_candidate;
using detail::pair_candidate;
using detail::point_set;

inline int closest_threads(host_backend backend) {
  return backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
}

template <int Dim, class T>
void load_point(const point_set<T>& s, std::size_t p, double* out) {
  for (int d = 0; d < Dim; ++d)
    out[d] = s.at(d, p);
}

// The points as packed doubles (scaled), in input order.
template <int Dim, class T>
std::vector<double> packed_points(host_backend backend, const point_set<T>& s) {
  std::vector<double> out(s.n * Dim);
  const auto n = static_cast<std::int64_t>(s.n);
#pragma omp parallel for num_threads(closest_threads(backend)) schedule(static)
  for (std::int64_t p = 0; p < n; ++p)
    load_point<Dim>(s, static_cast<std::size_t>(p), &out[p * Dim]);
  return out;
}

// Bounding box of the unscaled coordinates; the first non-finite point.
template <class T>
detail::point_bounds bounds(host_backend backend, const point_set<T>& s) {
  detail::point_bounds b;
  for (int d = 0; d < s.dim; ++d) {
    b.lo[d] = std::numeric_limits<double>::infinity();
    b.hi[d] = -std::numeric_limits<double>::infinity();
  }
  const auto n = static_cast<std::int64_t>(s.n);
#pragma omp parallel num_threads(closest_threads(backend))
  {
    detail::point_bounds mine = b;
#pragma omp for schedule(static) nowait
    for (std::int64_t p = 0; p < n; ++p) {
      for (int d = 0; d < s.dim; ++d) {
        const double v = static_cast<double>(s.coord[d][p * s.stride]);
        if (!std::isfinite(v)) {
          mine.first_non_finite = std::min<std::uint64_t>(mine.first_non_finite, p);
        } else {
          mine.lo[d] = std::min(mine.lo[d], v);
          mine.hi[d] = std::max(mine.hi[d], v);
        }
      }
    }
#pragma omp critical(gpuprim_closest_bounds)
    {
      b.first_non_finite = std::min(b.first_non_finite, mine.first_non_finite);
      for (int d = 0; d < s.dim; ++d) {
        b.lo[d] = std::min(b.lo[d], mine.lo[d]);
        b.hi[d] = std::max(b.hi[d], mine.hi[d]);
      }
    }
  }
  return b;
}

// Runs body(p, best) for p in [0, n) on the backend's threads, each thread
// keeping its own best candidate; returns the best of all.
template <class Body>
pair_candidate parallel_best(host_backend backend, std::size_t n, Body body, bool dynamic) {
  pair_candidate best;
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel num_threads(closest_threads(backend))
  {
    pair_candidate mine;
    if (dynamic) {
#pragma omp for schedule(dynamic, 64) nowait
      for (std::int64_t p = 0; p < count; ++p)
        body(static_cast<std::size_t>(p), mine);
    } else {
#pragma omp for schedule(static) nowait
      for (std::int64_t p = 0; p < count; ++p)
        body(static_cast<std::size_t>(p), mine);
    }
#pragma omp critical(gpuprim_closest_best)
    if (better(mine, best)) best = mine;
  }
  return best;
}

// ---- 1. brute force ------------------------------------------------------

// With a progress report, each finished row i adds its n - 1 - i pairs to
// a shared count, and the first thread looks at the clock after each of
// its rows.
template <int Dim, class T>
pair_candidate brute_force(host_backend backend, const point_set<T>& s,
                           const closest_pair_progress& progress = {}) {
  const std::vector<double> pts = packed_points<Dim>(backend, s);
  const std::size_t n = s.n;
  const bool reporting = static_cast<bool>(progress.report) && progress.interval > 0;
  const double total = 0.5 * double(n) * double(n - 1);
  std::atomic<std::uint64_t> done{0};
  const auto started = std::chrono::steady_clock::now();
  // Whichever thread finishes a row when a report is due makes it, one at
  // a time (a thread that finds the lock taken skips); `next` and
  // `reported` are guarded by the lock.
  std::mutex reporting_lock;
  double next = progress.interval;
  std::uint64_t reported = 0;
  return parallel_best(
      backend, n,
      [&](std::size_t i, pair_candidate& best) {
        const double* a = &pts[i * Dim];
        for (std::size_t j = i + 1; j < n; ++j) {
          const double d2 = detail::squared_distance<Dim>(a, &pts[j * Dim]);
          if (d2 <= best.d2) {
            const pair_candidate c{d2, i, j};
            if (better(c, best)) best = c;
          }
        }
        if (!reporting) return;
        const std::uint64_t pairs =
            done.fetch_add(n - 1 - i, std::memory_order_relaxed) + (n - 1 - i);
        const std::unique_lock<std::mutex> lock(reporting_lock, std::try_to_lock);
        if (!lock.owns_lock()) return;
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        if (seconds >= next) {
          reported = std::max(reported, pairs);  // counts taken by other threads may be smaller
          progress.report(double(reported) / total, seconds);
          next = (std::floor(seconds / progress.interval) + 1) * progress.interval;
        }
      },
      true);
}

// ---- 2. blocked brute force ----------------------------------------------

inline constexpr std::size_t blocked_block = 256;  // 256 points x 24 bytes: in L1

template <int Dim, class T>
pair_candidate blocked(host_backend backend, const point_set<T>& s) {
  const std::vector<double> pts = packed_points<Dim>(backend, s);
  const std::size_t n = s.n;
  const std::size_t blocks = (n + blocked_block - 1) / blocked_block;
  // Block pairs (bi <= bj) in one list, so threads share the triangle evenly.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> tiles;
  tiles.reserve(blocks * (blocks + 1) / 2);
  for (std::size_t bi = 0; bi < blocks; ++bi)
    for (std::size_t bj = bi; bj < blocks; ++bj)
      tiles.emplace_back(static_cast<std::uint32_t>(bi), static_cast<std::uint32_t>(bj));
  return parallel_best(
      backend, tiles.size(),
      [&](std::size_t t, pair_candidate& best) {
        const std::size_t i0 = tiles[t].first * blocked_block;
        const std::size_t j0 = tiles[t].second * blocked_block;
        const std::size_t i1 = std::min(n, i0 + blocked_block);
        const std::size_t j1 = std::min(n, j0 + blocked_block);
        for (std::size_t i = i0; i < i1; ++i) {
          const double* a = &pts[i * Dim];
          for (std::size_t j = std::max(j0, i + 1); j < j1; ++j) {
            const double d2 = detail::squared_distance<Dim>(a, &pts[j * Dim]);
            if (d2 <= best.d2) {
              const pair_candidate c{d2, i, j};
              if (better(c, best)) best = c;
            }
          }
        }
      },
      true);
}

// ---- 3. divide and conquer -----------------------------------------------

// A point in the recursion: scaled coordinates and its input index.
template <int Dim>
struct indexed_point {
  double x[Dim];
  std::uint64_t index;
};

template <int Dim>
bool y_before(const indexed_point<Dim>& a, const indexed_point<Dim>& b) {
  return a.x[1] < b.x[1] || (a.x[1] == b.x[1] && a.index < b.index);
}

template <int Dim>
void check_pair(const indexed_point<Dim>& a, const indexed_point<Dim>& b, pair_candidate& best) {
  const double d2 = detail::squared_distance<Dim>(a.x, b.x);
  if (d2 <= best.d2) {
    const pair_candidate c = make_candidate(d2, a.index, b.index);
    if (better(c, best)) best = c;
  }
}

inline constexpr std::size_t dc_leaf = 16;
inline constexpr std::size_t dc_task_cutoff = std::size_t{1} << 14;

// pts[lo, hi) are sorted by x on entry and by y on return; tmp is scratch
// of the same size.
template <int Dim>
pair_candidate dc_recurse(indexed_point<Dim>* pts, indexed_point<Dim>* tmp, std::size_t lo,
                          std::size_t hi) {
  pair_candidate best;
  if (hi - lo <= dc_leaf) {
    for (std::size_t a = lo; a < hi; ++a)
      for (std::size_t b = a + 1; b < hi; ++b)
        check_pair(pts[a], pts[b], best);
    std::sort(pts + lo, pts + hi, y_before<Dim>);
    return best;
  }
  const std::size_t mid = lo + (hi - lo) / 2;
  const double split_x = pts[mid].x[0];
  pair_candidate left, right;
  if (hi - lo >= dc_task_cutoff) {
#pragma omp task shared(left)
    left = dc_recurse(pts, tmp, lo, mid);
#pragma omp task shared(right)
    right = dc_recurse(pts, tmp, mid, hi);
#pragma omp taskwait
  } else {
    left = dc_recurse(pts, tmp, lo, mid);
    right = dc_recurse(pts, tmp, mid, hi);
  }
  best = better(left, right) ? left : right;
  std::merge(pts + lo, pts + mid, pts + mid, pts + hi, tmp + lo, y_before<Dim>);
  std::copy(tmp + lo, tmp + hi, pts + lo);
  // The strip: points whose squared x distance to the split is at most the
  // best (a pair across the split is at least that far apart in x), in y
  // order, each checked against those above it until dy^2 passes the best.
  std::size_t m = lo;
  for (std::size_t p = lo; p < hi; ++p) {
    const double dx = pts[p].x[0] - split_x;
    if (detail::mul_rn(dx, dx) <= best.d2) tmp[m++] = pts[p];
  }
  for (std::size_t a = lo; a < m; ++a) {
    for (std::size_t b = a + 1; b < m; ++b) {
      const double dy = tmp[b].x[1] - tmp[a].x[1];
      if (detail::mul_rn(dy, dy) > best.d2) break;
      check_pair(tmp[a], tmp[b], best);
    }
  }
  return best;
}

template <int Dim, class T>
pair_candidate divide_and_conquer(host_backend backend, const point_set<T>& s) {
  const std::size_t n = s.n;
  // Sort by x once: the parallel radix sort of the scaled x (stable).
  std::vector<double> x(n);
  std::vector<std::uint64_t> order(n);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for num_threads(closest_threads(backend)) schedule(static)
  for (std::int64_t p = 0; p < count; ++p) {
    x[p] = s.at(0, static_cast<std::size_t>(p));
    order[p] = static_cast<std::uint64_t>(p);
  }
  const detail::radix_sort_plan plan{n, 0, 64, false, 8};
  radix_sort<double, std::uint64_t>(backend, x.data(), x.data(), order.data(), order.data(), plan);
  std::vector<indexed_point<Dim>> pts(n), tmp(n);
#pragma omp parallel for num_threads(closest_threads(backend)) schedule(static)
  for (std::int64_t p = 0; p < count; ++p) {
    load_point<Dim>(s, static_cast<std::size_t>(order[p]), pts[p].x);
    pts[p].index = order[p];
  }
  pair_candidate best;
#pragma omp parallel num_threads(closest_threads(backend))
#pragma omp single
  best = dc_recurse(pts.data(), tmp.data(), 0, n);
  return best;
}

// ---- 4. grid ---------------------------------------------------------------

// Points in cell order: keys ascending, coordinates packed, input indices.
// Keys and indices are 32 bits wide when they fit (half the sort's traffic).
template <class Key, class Index>
struct cell_sorted_points {
  std::vector<Key> keys;
  std::vector<Index> index;
  std::vector<double> x;  // n * dim
};

template <int Dim, class Key, class Index, class T>
cell_sorted_points<Key, Index> sort_by_cell(host_backend backend, const point_set<T>& s,
                                            const detail::grid_plan& g) {
  const std::size_t n = s.n;
  cell_sorted_points<Key, Index> c;
  c.keys.resize(n);
  c.index.resize(n);
  const auto count = static_cast<std::int64_t>(n);
#pragma omp parallel for num_threads(closest_threads(backend)) schedule(static)
  for (std::int64_t p = 0; p < count; ++p) {
    double x[Dim];
    load_point<Dim>(s, static_cast<std::size_t>(p), x);
    c.keys[p] = static_cast<Key>(g.template key_of<Dim>(x));
    c.index[p] = static_cast<Index>(p);
  }
  const detail::radix_sort_plan plan{n, 0, g.key_bits, false, static_cast<int>(sizeof(Index))};
  radix_sort<Key, Index>(backend, c.keys.data(), c.keys.data(), c.index.data(), c.index.data(),
                         plan);
  c.x.resize(n * Dim);
#pragma omp parallel for num_threads(closest_threads(backend)) schedule(static)
  for (std::int64_t p = 0; p < count; ++p)
    load_point<Dim>(s, static_cast<std::size_t>(c.index[p]), &c.x[p * Dim]);
  return c;
}

inline constexpr std::size_t grid_window = 3;     // next points in cell order for the bound
inline constexpr double grid_crowding_limit = 8;  // sum of squared cell counts per point

// An upper bound of the closest squared distance (pairs of points at most
// grid_window apart in cell order), and the sum over cells of count^2.
template <int Dim, class Key, class Index>
void bound_and_crowding(host_backend backend, const cell_sorted_points<Key, Index>& c,
                        double& bound, double& crowding) {
  const std::size_t n = c.keys.size();
  const auto count = static_cast<std::int64_t>(n);
  double b = std::numeric_limits<double>::infinity();
  double w = 0;
#pragma omp parallel for num_threads(closest_threads(backend)) schedule(static) \
    reduction(min : b) reduction(+ : w)
  for (std::int64_t p = 0; p < count; ++p) {
    const std::size_t q_end = std::min<std::size_t>(n, p + 1 + grid_window);
    for (std::size_t q = p + 1; q < q_end; ++q)
      b = std::min(b, detail::squared_distance<Dim>(&c.x[p * Dim], &c.x[q * Dim]));
    if (p == 0 || c.keys[p] != c.keys[p - 1]) {
      std::size_t e = p + 1;
      while (e < n && c.keys[e] == c.keys[p])
        ++e;
      const double k = static_cast<double>(e - p);
      w += k * k;
    }
  }
  bound = b;
  crowding = w;
}

inline constexpr std::size_t grid_chunk = 4096;  // points per scheduling unit of the check

// Every point against the rest of its own cell, the next cell and the
// forward neighbouring cells. Threads take chunks of consecutive points;
// since the keys rise along a chunk, so do the starts of its key ranges:
// one binary search per range and chunk, then a cursor that only moves
// forward.
template <int Dim, class Key, class Index>
pair_candidate check_neighbour_cells(host_backend backend, const cell_sorted_points<Key, Index>& c,
                                     const detail::grid_plan& g) {
  const std::size_t n = c.keys.size();
  const Key* keys = c.keys.data();
  const std::size_t chunks = (n + grid_chunk - 1) / grid_chunk;
  return parallel_best(
      backend, chunks,
      [&](std::size_t chunk, pair_candidate& best) {
        const std::size_t p0 = chunk * grid_chunk;
        const std::size_t p1 = std::min(n, p0 + grid_chunk);
        std::size_t cursor[4];
        bool started = false;
        for (std::size_t p = p0; p < p1; ++p) {
          const double* a = &c.x[p * Dim];
          auto check = [&](std::size_t q) {
            const double d2 = detail::squared_distance<Dim>(a, &c.x[q * Dim]);
            if (d2 <= best.d2) {
              const pair_candidate cand = make_candidate(d2, c.index[p], c.index[q]);
              if (better(cand, best)) best = cand;
            }
          };
          const std::uint64_t k = keys[p];
          for (std::size_t q = p + 1; q < n && keys[q] <= k + 1; ++q)
            check(q);
          std::int64_t first[4], last[4];
          const int ranges = detail::forward_ranges(g, k, first, last);
          for (int r = 0; r < ranges; ++r) {
            const auto lo = static_cast<std::uint64_t>(first[r]);
            const auto below = [](Key key, std::uint64_t v) { return key < v; };
            if (!started) {
              cursor[r] =
                  static_cast<std::size_t>(std::lower_bound(keys, keys + n, lo, below) - keys);
            } else {
              while (cursor[r] < n && keys[cursor[r]] < lo)
                ++cursor[r];
            }
            for (std::size_t q = cursor[r]; q < n && keys[q] <= static_cast<std::uint64_t>(last[r]);
                 ++q)
              if (q != p) check(q);  // a range wraps onto the own cell in grids one cell wide
          }
          started = true;
        }
      },
      true);
}

// One grid: sort into cells and check the neighbours.
template <int Dim, class Key, class Index, class T>
pair_candidate grid_pass(host_backend backend, const point_set<T>& s, const detail::grid_plan& g) {
  return check_neighbour_cells<Dim>(backend, sort_by_cell<Dim, Key, Index>(backend, s, g), g);
}

template <int Dim, class Index, class T>
pair_candidate grid_with_index(host_backend backend, const point_set<T>& s, const double* lo,
                               const double* hi) {
  const double first_cell = detail::initial_cell(lo, hi, Dim, s.n);
  const detail::grid_plan g = detail::make_grid_plan(lo, hi, Dim, first_cell);
  auto first = [&]<class Key>() -> pair_candidate {
    const cell_sorted_points<Key, Index> c = sort_by_cell<Dim, Key, Index>(backend, s, g);
    double bound = 0, crowding = 0;
    bound_and_crowding<Dim>(backend, c, bound, crowding);
    if (bound <= g.cell * g.cell && crowding <= grid_crowding_limit * static_cast<double>(s.n)) {
      return check_neighbour_cells<Dim>(backend, c, g);
    }
    // The second grid: cells as wide as the bound.
    const detail::grid_plan g2 = detail::make_grid_plan(lo, hi, Dim, std::sqrt(bound));
    return g2.wide_keys ? grid_pass<Dim, std::uint64_t, Index>(backend, s, g2)
                        : grid_pass<Dim, std::uint32_t, Index>(backend, s, g2);
  };
  return g.wide_keys ? first.template operator()<std::uint64_t>()
                     : first.template operator()<std::uint32_t>();
}

// The grid's cell sides, chosen from the scaled bounds; see the top of the
// file. Returns the best pair.
template <int Dim, class T>
pair_candidate grid(host_backend backend, const point_set<T>& s, const double* lo,
                    const double* hi) {
  if (s.n < (std::size_t{1} << 32)) return grid_with_index<Dim, std::uint32_t>(backend, s, lo, hi);
  return grid_with_index<Dim, std::uint64_t>(backend, s, lo, hi);
}

}  // namespace gpuprim::host_impl
