// Point sets for the closest-pair family: n points in 2-D or 3-D, given as
// an array of structs (x, y[, z] interleaved, a row of a matrix view) or as
// separate coordinate arrays, and the pieces every backend and algorithm of
// the family shares so that they all give the same answer:
//  - squared_distance: the one way a pair's squared distance is computed
//    (in double, ((dx*dx + dy*dy) + dz*dz), each operation rounded on its
//    own: no fused multiply-add on the GPU either);
//  - pair_candidate / better: pairs ordered by (squared distance, i, j), so
//    ties go to the lexicographically smallest (i, j) on every backend;
//  - point_bounds / coordinate_scale / grid_plan: the bounding box, the
//    power-of-two scale that keeps double coordinates far from overflow and
//    underflow, and the cells of the grid method.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "gpuprim/closest_pair_types.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim {

namespace detail {

// n points of dimension 2 or 3: coordinate d of point p is
// coord[d][p * stride]. An array of structs has coord = {p, p + 1, p + 2}
// and stride = the row length; separate arrays have stride 1.
template <class T>
struct point_set {
  const T* coord[3] = {nullptr, nullptr, nullptr};
  std::size_t n = 0;
  std::size_t stride = 1;
  int dim = 2;
  // A power of two every coordinate is multiplied by before differences are
  // taken (exact): 1 except for double coordinates beyond +-2^500 or all
  // below 2^-500 (coordinate_scale).
  double scale = 1.0;

  GPUPRIM_HD double at(int d, std::size_t p) const {
    return static_cast<double>(coord[d][p * stride]) * scale;
  }
};

GPUPRIM_HD inline double mul_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dmul_rn(a, b);
#else
  return a * b;
#endif
}
GPUPRIM_HD inline double add_rn(double a, double b) {
#if defined(__CUDA_ARCH__)
  return __dadd_rn(a, b);
#else
  return a + b;
#endif
}

// The squared distance of two points given by their (scaled) coordinates.
// Float coordinates are converted to double first: their differences are
// then exact whenever the two coordinates are within a factor 2^29 of each
// other, and the squares and sums carry at most three roundings of 2^-53,
// far below float's resolution; double coordinates carry one rounding more
// (the difference). The same function on every backend makes the answer
// independent of the algorithm.
template <int Dim>
GPUPRIM_HD inline double squared_distance(const double* a, const double* b) {
  const double dx = a[0] - b[0];
  const double dy = a[1] - b[1];
  double d2 = add_rn(mul_rn(dx, dx), mul_rn(dy, dy));
  if constexpr (Dim == 3) {
    const double dz = a[2] - b[2];
    d2 = add_rn(d2, mul_rn(dz, dz));
  }
  return d2;
}

// One examined pair, i < j (indices into the input).
struct pair_candidate {
  double d2 = std::numeric_limits<double>::infinity();
  std::uint64_t i = ~std::uint64_t{0};
  std::uint64_t j = ~std::uint64_t{0};
};

// Whether a comes before b in the order (d2, i, j).
GPUPRIM_HD inline bool better(const pair_candidate& a, const pair_candidate& b) {
  if (a.d2 != b.d2) return a.d2 < b.d2;
  if (a.i != b.i) return a.i < b.i;
  return a.j < b.j;
}

// The candidate for the pair of input indices (p, q), in either order.
GPUPRIM_HD inline pair_candidate make_candidate(double d2, std::uint64_t p, std::uint64_t q) {
  return p < q ? pair_candidate{d2, p, q} : pair_candidate{d2, q, p};
}

// Bounding box of the unscaled coordinates, and the first point (if any)
// with a NaN or infinite coordinate.
struct point_bounds {
  double lo[3] = {0, 0, 0};
  double hi[3] = {0, 0, 0};
  std::uint64_t first_non_finite = ~std::uint64_t{0};

  bool finite() const { return first_non_finite == ~std::uint64_t{0}; }
};

// The power of two applied to double coordinates: coordinates up to 2^1023
// would overflow dx * dx, coordinates all below 2^-500 would underflow it.
// Float coordinates (at most 2^128, at least 2^-149) need none in double.
template <class T>
double coordinate_scale(const point_bounds& b, int dim) {
  if constexpr (!std::is_same_v<T, double>) {
    return 1.0;
  } else {
    double max_abs = 0;
    for (int d = 0; d < dim; ++d)
      max_abs = std::fmax(max_abs, std::fmax(std::fabs(b.lo[d]), std::fabs(b.hi[d])));
    if (max_abs == 0) return 1.0;
    const int e = std::ilogb(max_abs);
    if (e > 500) return std::ldexp(1.0, 500 - e);
    if (e < -500)
      return std::ldexp(1.0, -e < 1000 ? -e : 1000);  // 2^-e would overflow below 2^-1000
    return 1.0;
  }
}

// The grid method's cells over the (scaled) bounding box: cell c_d =
// floor((x_d - origin_d) / cell), key = (c_0 * dims_1 + c_1) * dims_2 + c_2.
// Cells are made a hair larger (2^-16) than asked, so that two points at
// most `asked` apart land in neighbouring cells despite the rounding of the
// cell arithmetic. At most 2^30 cells per axis in 2-D and 2^20 in 3-D, so
// that keys fit in 64 bits: a smaller cell is raised to that.
struct grid_plan {
  double origin[3] = {0, 0, 0};
  double inverse_cell = 0;
  double cell = 0;  // the cell's side, after the margin and the raise
  std::uint64_t dims[3] = {1, 1, 1};
  std::uint64_t cells = 1;
  int key_bits = 1;
  bool wide_keys = false;  // more than 2^32 cells: 64-bit keys
  int dim = 2;

  GPUPRIM_HD std::uint64_t key_of(const double* x) const {
    return dim == 2 ? key_of<2>(x) : key_of<3>(x);
  }
  // The same with the dimension known at compile time (the loop unrolls and
  // the plan's arrays stay in registers on the GPU).
  template <int Dim>
  GPUPRIM_HD std::uint64_t key_of(const double* x) const {
    std::uint64_t key = 0;
    for (int d = 0; d < Dim; ++d) {
      double c = (x[d] - origin[d]) * inverse_cell;
      c = c < 0 ? 0 : c;
      std::uint64_t ci = static_cast<std::uint64_t>(c);
      ci = ci < dims[d] ? ci : dims[d] - 1;
      key = key * dims[d] + ci;
    }
    return key;
  }
};

// `asked` > 0 is the least cell side wanted; lo/hi the scaled box.
inline grid_plan make_grid_plan(const double* lo, const double* hi, int dim, double asked) {
  grid_plan g;
  g.dim = dim;
  double max_extent = 0;
  for (int d = 0; d < dim; ++d)
    max_extent = std::fmax(max_extent, hi[d] - lo[d]);
  const double finest = max_extent * std::ldexp(1.0, dim == 2 ? -30 : -20);
  g.cell = std::fmax(asked, finest) * (1.0 + std::ldexp(1.0, -16));
  g.inverse_cell = 1.0 / g.cell;
  g.cells = 1;
  for (int d = 0; d < dim; ++d) {
    g.origin[d] = lo[d];
    g.dims[d] = static_cast<std::uint64_t>((hi[d] - lo[d]) * g.inverse_cell) + 1;
    g.cells *= g.dims[d];
  }
  for (int d = dim; d < 3; ++d)
    g.dims[d] = 1;
  g.key_bits = 1;
  while (g.key_bits < 64 && (g.cells - 1) >> g.key_bits != 0)
    ++g.key_bits;
  g.wide_keys = g.key_bits > 32;
  return g;
}

// The first grid's cell: about one point per cell over the box (over the
// axes the box has extent on, so collinear sets get cells along the line).
// 0 when every point is the same.
inline double initial_cell(const double* lo, const double* hi, int dim, std::size_t n) {
  double volume = 1;
  int axes = 0;
  for (int d = 0; d < dim; ++d) {
    if (hi[d] > lo[d]) {
      volume *= hi[d] - lo[d];
      ++axes;
    }
  }
  if (axes == 0) return 0;
  return std::pow(volume / static_cast<double>(n), 1.0 / axes);
}

// The forward key ranges of a cell: the pairs of a point are checked
// against its own cell after it and these ranges of cells ahead of it, so
// that each pair of neighbouring cells is visited once. Returns the number
// of ranges [first[r], last[r]] of keys (inclusive), not counting the own
// cell's range [key, key + 1], which is scanned on from the point itself.
// A range may include a cell that is not a neighbour (at an edge of the
// grid): its pairs are real pairs, only checked needlessly.
GPUPRIM_HD inline int forward_ranges(const grid_plan& g, std::uint64_t key, std::int64_t* first,
                                     std::int64_t* last) {
  const auto k = static_cast<std::int64_t>(key);
  if (g.dim == 2) {
    const auto a = static_cast<std::int64_t>(g.dims[1]);
    first[0] = k + a - 1;
    last[0] = k + a + 1;
    return 1;
  }
  const auto a = static_cast<std::int64_t>(g.dims[2]);
  const auto b = static_cast<std::int64_t>(g.dims[1] * g.dims[2]);
  const std::int64_t centre[4] = {k + a, k + b - a, k + b, k + b + a};
  for (int r = 0; r < 4; ++r) {
    first[r] = centre[r] - 1 < 0 ? 0 : centre[r] - 1;
    last[r] = centre[r] + 1;
  }
  return 4;
}

// The end of the run of equal keys that holds position p of sorted keys
// (the first position past it, or n): a galloping search (steps 1, 2, 4,
// ... then halving), O(log run) reads near p. The grid's cell counts use
// it: a walk to the end, one thread per cell, cost a crowded cell of a
// million points a million dependent reads (tens of milliseconds for the
// densest cells of clustered 10^8 points).
template <class Key>
GPUPRIM_HD std::size_t sorted_run_end(const Key* keys, std::size_t n, std::size_t p) {
  const Key k = keys[p];
  std::size_t inside = p, step = 1;  // keys[inside] == k
  while (step < n - inside && keys[inside + step] == k) {
    inside += step;
    step *= 2;
  }
  std::size_t outside = inside + step < n ? inside + step : n;  // past the run, or n
  while (outside - inside > 1) {
    const std::size_t mid = inside + (outside - inside) / 2;
    if (keys[mid] == k) {
      inside = mid;
    } else {
      outside = mid;
    }
  }
  return outside;
}

// ---- the GPU tiled kernel's work items ----------------------------------------
//
// The pairs j > i are cut into squares of `chunk` x `chunk` (a block's
// points i against the same number of points j): square (row, col) with
// col >= row, numbered row by row, so row r holds rows - r squares and
// starts at first_square(r) = r * rows - r (r - 1) / 2. Each square is
// split into `parts` items of chunk / parts columns j (shorter items, so
// the SMs that finish first wait less for the last ones). A block takes
// item k and finds its square in closed form (triangle_square); the
// squares on the diagonal (row == col) keep only j > i. Items are of equal
// work but the diagonal's and the last column's, so the hardware's block
// scheduler balances the triangle. Each item's least squared distance goes
// to a slot; 2^slot_shift consecutive items share one so that the slots of
// a huge n stay few (max_tiled_slots).
inline constexpr std::uint64_t max_tiled_slots = std::uint64_t{1} << 24;

struct tiled_square {
  std::uint64_t row = 0;
  std::uint64_t col = 0;
};

GPUPRIM_HD inline std::uint64_t first_square(std::uint64_t row, std::uint64_t rows) {
  return row * rows - row * (row - (row > 0 ? 1 : 0)) / 2;
}

// Square k of the triangle of `rows` rows: row r is the largest with
// first_square(r) <= k, the root of r^2 - (2 rows + 1) r + 2k = 0 in
// double, then corrected by whole steps (the root can be off by one where
// the square root rounds).
GPUPRIM_HD inline tiled_square triangle_square(std::uint64_t k, std::uint64_t rows) {
  const double b = 2.0 * static_cast<double>(rows) + 1.0;
  const double disc = b * b - 8.0 * static_cast<double>(k);
#if defined(__CUDA_ARCH__)
  const double root = ::sqrt(disc > 0 ? disc : 0.0);
#else
  const double root = std::sqrt(disc > 0 ? disc : 0.0);
#endif
  const double guess = (b - root) / 2;
  std::uint64_t r = guess > 0 ? static_cast<std::uint64_t>(guess) : 0;
  r = r < rows ? r : rows - 1;
  while (r > 0 && first_square(r, rows) > k)
    --r;
  while (r + 1 < rows && first_square(r + 1, rows) <= k)
    ++r;
  return {r, r + (k - first_square(r, rows))};
}

// One item: points [i0, i0 + chunk) (those below n) against [j_begin,
// j_end) (empty where a part lies past n); `diagonal` keeps j > i only.
struct tiled_item {
  std::uint64_t i0 = 0;
  std::uint64_t j_begin = 0;
  std::uint64_t j_end = 0;
  bool diagonal = false;
};

struct tiled_plan {
  std::uint64_t n = 0;
  std::uint64_t chunk = 0;  // points per square side (threads x points per thread)
  std::uint64_t parts = 1;  // items per square (a divisor of chunk)
  std::uint64_t rows = 0;   // ceil(n / chunk)
  std::uint64_t items = 0;  // tail_square x parts + (squares - tail_square) x tail_parts
  int slot_shift = 0;
  std::uint64_t slots = 0;  // ceil(items / 2^slot_shift)
  // Square order: row by row (false), or the rows (rows - 1) / 2
  // off-diagonal squares row by row and then the diagonal ones (true), so
  // that the last wave of blocks takes the half-work items.
  bool diagonals_last = false;
  // The squares from tail_square on (the last ones in that order) are cut
  // into tail_parts >= parts items each (narrower items for the last wave
  // of blocks); tail_square = squares where there are none.
  std::uint64_t tail_square = 0;
  std::uint64_t tail_parts = 1;

  GPUPRIM_HD tiled_item item(std::uint64_t k) const {
    const std::uint64_t head = tail_square * parts;
    std::uint64_t q, part, cut;
    if (k < head) {
      q = k / parts, part = k % parts, cut = parts;
    } else {
      q = tail_square + (k - head) / tail_parts, part = (k - head) % tail_parts, cut = tail_parts;
    }
    tiled_square sq;
    const std::uint64_t off_diagonal = rows * (rows - 1) / 2;
    if (!diagonals_last) {
      sq = triangle_square(q, rows);
    } else if (q < off_diagonal) {
      // The triangle of rows - 1 rows (col >= row), shifted one column right.
      sq = triangle_square(q, rows - 1);
      ++sq.col;
    } else {
      sq.row = sq.col = q - off_diagonal;
    }
    const std::uint64_t span = chunk / cut;
    tiled_item it;
    it.i0 = sq.row * chunk;
    it.j_begin = sq.col * chunk + part * span;
    it.j_end = it.j_begin + span < n ? it.j_begin + span : n;
    it.j_end = it.j_end > it.j_begin ? it.j_end : it.j_begin;
    it.diagonal = sq.row == sq.col;
    return it;
  }
};

// tail_parts > parts: about tail_items items of chunk / tail_parts columns
// at the end (whole squares: the last ceil(tail_items / tail_parts)).
inline tiled_plan make_tiled_plan(std::uint64_t n, std::uint64_t chunk, std::uint64_t parts,
                                  bool diagonals_last = false, std::uint64_t tail_parts = 0,
                                  std::uint64_t tail_items = 0) {
  tiled_plan w;
  w.diagonals_last = diagonals_last;
  w.n = n;
  w.chunk = chunk;
  w.parts = parts;
  w.rows = (n + chunk - 1) / chunk;
  const std::uint64_t squares = w.rows * (w.rows + 1) / 2;
  w.tail_square = squares;
  w.tail_parts = parts;
  if (tail_parts > parts) {
    const std::uint64_t tail_squares = (tail_items + tail_parts - 1) / tail_parts;
    w.tail_square = squares - (tail_squares < squares ? tail_squares : squares);
    w.tail_parts = tail_parts;
  }
  w.items = w.tail_square * parts + (squares - w.tail_square) * w.tail_parts;
  while ((w.items + (std::uint64_t{1} << w.slot_shift) - 1) >> w.slot_shift > max_tiled_slots)
    ++w.slot_shift;
  w.slots = (w.items + (std::uint64_t{1} << w.slot_shift) - 1) >> w.slot_shift;
  return w;
}

}  // namespace detail
}  // namespace gpuprim
