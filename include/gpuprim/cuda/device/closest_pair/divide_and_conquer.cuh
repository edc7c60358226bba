// Divide and conquer (gp::closest_pair's closest_pair_algorithm::
// divide_and_conquer), and the pieces its sorting-network variant (the
// ladder's rung, lab/ladder/closest_pair_dc_networks.cuh) shares: the
// x order, the warp leaves and the strip check.
#pragma once

#include "gpuprim/cuda/device/closest_pair/common.cuh"
#include "gpuprim/detail/sort/sort.hpp"

namespace gpuprim {
namespace cuda_impl {

// ---- 4. divide and conquer -------------------------------------------------------

inline constexpr int dc_leaf_bits = 5;  // leaves of 32 points: one warp each

// Orderable bits of a double's y with the position as the tie-break are
// not needed: (y, position) pairs are compared directly.
template <int Dim>
__device__ __forceinline__ bool y_less(const double* sorted, std::size_t n, std::uint32_t a,
                                       std::uint32_t b) {
  const double ya = sorted[n + a], yb = sorted[n + b];
  return ya < yb || (ya == yb && a < b);
}

// A warp's leaf, as both variants' leaf kernels see it: positions
// [start, start + 32) of which the first `count` are points (the rest
// padding), this lane's position p and its point a (zeros for padding),
// and best, the lane's best pair with the later points of the leaf.
struct dc_leaf {
  std::size_t start;
  unsigned count;
  unsigned lane;
  std::size_t p;
  double a[3];
  pair_candidate best;
};

// The leaf step both variants share: one warp per leaf of 32 positions of
// [0, limit) (n points, then padding up to limit), every pair of the
// leaf's points; lane 0 writes the leaf's least squared distance (+inf
// without pairs) to segment_d2. False for warps past the last leaf.
template <int Dim>
__device__ __forceinline__ bool dc_leaf_pairs(const double* sorted, const std::uint32_t* index,
                                              std::size_t n, std::size_t limit,
                                              unsigned long long* segment_d2, dc_leaf& leaf) {
  const std::size_t warp = (std::size_t(blockIdx.x) * blockDim.x + threadIdx.x) / 32;
  leaf.lane = threadIdx.x % 32;
  leaf.start = warp << dc_leaf_bits;
  if (leaf.start >= limit) return false;
  leaf.count = leaf.start < n ? static_cast<unsigned>(smin(32, n - leaf.start)) : 0;
  leaf.p = leaf.start + leaf.lane;
  double* a = leaf.a;
  a[0] = a[1] = a[2] = 0;
  double c[3];
  if (leaf.lane < leaf.count) load_sorted<Dim>(sorted, n, leaf.p, a);
  pair_candidate best;
  for (unsigned q = leaf.lane + 1; q < leaf.count; ++q) {
    load_sorted<Dim>(sorted, n, leaf.start + q, c);
    const pair_candidate cand =
        make_candidate(detail::squared_distance<Dim>(a, c), index[leaf.p], index[leaf.start + q]);
    if (better(cand, best)) best = cand;
  }
  double least = best.d2;
  for (int mask = 16; mask > 0; mask /= 2)
    least = fmin(least, __shfl_xor_sync(0xffffffffu, least, mask));
  if (leaf.lane == 0)
    segment_d2[warp] = static_cast<unsigned long long>(__double_as_longlong(least));
  leaf.best = best;
  return true;
}

// One warp per leaf of up to 32 points (positions in x order): every pair,
// the leaf's least squared distance, and its positions sorted by y.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dc_leaves(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                      std::size_t n, std::uint32_t* __restrict__ by_y,
                      unsigned long long* __restrict__ segment_d2,
                      pair_candidate* __restrict__ best_of) {
  dc_leaf leaf;
  if (!dc_leaf_pairs<Dim>(sorted, index, n, n, segment_d2, leaf)) return;
  if (leaf.lane < leaf.count) {
    best_of[leaf.p] = leaf.best;
    unsigned rank = 0;
    for (unsigned q = 0; q < leaf.count; ++q)
      rank += y_less<Dim>(sorted, n, static_cast<std::uint32_t>(leaf.start + q),
                          static_cast<std::uint32_t>(leaf.p));
    by_y[leaf.start + rank] = static_cast<std::uint32_t>(leaf.p);
  }
}

// Level `bits`: segments of 2^bits positions, each the merge (by y) of two
// halves of 2^(bits - 1) already in y order.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dc_merge(const double* __restrict__ sorted, std::size_t n, int bits,
                     const std::uint32_t* __restrict__ from, std::uint32_t* __restrict__ to) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    const std::size_t start = (p >> bits) << bits;
    const std::size_t mid = smin(start + (std::size_t{1} << (bits - 1)), n);
    const std::size_t end = smin(start + (std::size_t{1} << bits), n);
    const std::uint32_t e = from[p];
    // Rank of e in the other half.
    std::size_t lo = p < mid ? mid : start, hi = p < mid ? end : mid;
    const std::size_t base = lo;
    while (lo < hi) {
      const std::size_t m = lo + (hi - lo) / 2;
      if (y_less<Dim>(sorted, n, from[m], e)) {
        lo = m + 1;
      } else {
        hi = m;
      }
    }
    const std::size_t own = p < mid ? p - start : p - mid;
    to[start + own + (lo - base)] = e;
  }
}

// The strip check of one point, shared by both divide-and-conquer
// variants: position p of a segment [start, end) in y order, whose halves
// split at position mid in x order, against the points above it while
// dy^2 is within d (the halves' best); only pairs across the split count.
// `order` gives the point at a y-order position, `order.position(q)` (n or
// more for padding, which comes last), and its y, `order.y(q)`. Folds what
// it finds into the segment's least (segment_d2) and the point's best.
template <int Dim, class Order>
__device__ __forceinline__ void dc_strip_check(const double* sorted, const std::uint32_t* index,
                                               std::size_t n, std::size_t p, std::size_t mid,
                                               std::size_t end, double d, const Order& order,
                                               unsigned long long* segment_d2,
                                               pair_candidate* best_of) {
  const std::uint32_t e = order.position(p);
  if (e >= n) return;
  const double split = sorted[mid];  // x of the right half's first point
  double a[3], c[3];
  load_sorted<Dim>(sorted, n, e, a);
  const double dx = a[0] - split;
  if (detail::mul_rn(dx, dx) > d) return;
  pair_candidate best = best_of[e];
  double found = INFINITY;
  for (std::size_t q = p + 1; q < end; ++q) {
    const std::uint32_t f = order.position(q);
    if (f >= n) break;
    const double dy = order.y(q) - a[1];
    if (detail::mul_rn(dy, dy) > d) break;
    if ((e < mid) == (f < mid)) continue;
    load_sorted<Dim>(sorted, n, f, c);
    const double d2 = detail::squared_distance<Dim>(a, c);
    if (d2 <= d) {
      found = fmin(found, d2);
      const pair_candidate cand = make_candidate(d2, index[e], index[f]);
      if (better(cand, best)) best = cand;
    }
  }
  if (found < INFINITY) {
    atomicMin(segment_d2, static_cast<unsigned long long>(__double_as_longlong(found)));
    best_of[e] = best;
  }
}

// The merge path's y order: positions in x order; y read from the points.
struct dc_positions_by_y {
  const std::uint32_t* by_y;
  const double* ys;  // sorted + n: the y coordinates in x order
  __device__ std::uint32_t position(std::size_t q) const { return by_y[q]; }
  __device__ double y(std::size_t q) const { return ys[by_y[q]]; }
};

// The strip check of level `bits`: point p (in y order) against the points
// above it in its segment while dy^2 is within the halves' best; only
// pairs across the split count. segment_d2 (this level) starts as all ones.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dc_strip(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                     std::size_t n, int bits, const std::uint32_t* __restrict__ by_y,
                     const unsigned long long* __restrict__ child_d2,
                     unsigned long long* __restrict__ segment_d2,
                     pair_candidate* __restrict__ best_of) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  const std::size_t children = (n + (std::size_t{1} << (bits - 1)) - 1) >> (bits - 1);
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    const std::size_t segment = p >> bits;
    const std::size_t start = segment << bits;
    const std::size_t mid = smin(start + (std::size_t{1} << (bits - 1)), n);
    const std::size_t end = smin(start + (std::size_t{1} << bits), n);
    unsigned long long d_bits = child_d2[2 * segment];
    if (2 * segment + 1 < children) {
      const unsigned long long other = child_d2[2 * segment + 1];
      d_bits = other < d_bits ? other : d_bits;
    }
    if (p == start) atomicMin(&segment_d2[segment], d_bits);
    if (mid >= end) continue;  // no right half: nothing crosses
    dc_strip_check<Dim>(sorted, index, n, p, mid, end,
                        __longlong_as_double(static_cast<long long>(d_bits)),
                        dc_positions_by_y{by_y, sorted + n}, &segment_d2[segment], best_of);
  }
}

template <class T, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_x_keys(point_set<T> s, double* __restrict__ x, std::uint32_t* __restrict__ index) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    x[p] = s.at(0, p);
    index[p] = static_cast<std::uint32_t>(p);
  }
}

// The start of both divide-and-conquer variants: the points sorted by x
// once (radix sort of the scaled doubles, stable: ties keep input order),
// index() the input index at each position and sorted() the scaled
// coordinates in that order (Dim arrays of n). The buffers live as long as
// the object.
template <class T, int Dim>
class dc_x_order {
 public:
  dc_x_order(const point_set<T>& s, unsigned blocks, stream_t stream)
      : x_(s.n * sizeof(double), stream),
        index_(s.n * sizeof(std::uint32_t), stream),
        sorted_(s.n * Dim * sizeof(double), stream) {
    auto* x = x_.get<double>();
    auto* index = index_.get<std::uint32_t>();
    launch("closest_x_keys", "closest_pair", closest_x_keys<T, Dim>,
           {blocks, closest_threads, 0, stream}, s, x, index);
    const detail::radix_sort_plan plan = detail::make_radix_sort_plan<double>(
        s.n, sort_order::ascending, key_bits{}, 4, "closest_pair");
    detail::cuda_radix_sort<double>(x, x, index, index, plan, stream);
    launch("closest_gather", "closest_pair", closest_gather<T, Dim>,
           {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(index),
           sorted_.get<double>());
  }
  const std::uint32_t* index() const { return index_.get<std::uint32_t>(); }
  const double* sorted() const { return sorted_.get<double>(); }

 private:
  scratch_buffer x_, index_, sorted_;
};

template <class T, int Dim>
pair_candidate divide_and_conquer(const point_set<T>& s, stream_t stream) {
  const std::size_t n = s.n;
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  const dc_x_order<T, Dim> order(s, blocks, stream);
  const std::uint32_t* index = order.index();
  const double* sorted = order.sorted();

  const std::size_t leaves = (n + 31) / 32;
  const scratch_buffer by_y_a(n * sizeof(std::uint32_t), stream);
  const scratch_buffer by_y_b(n * sizeof(std::uint32_t), stream);
  const scratch_buffer d2_a(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer d2_b(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer best_of(n * sizeof(pair_candidate), stream);
  std::uint32_t* from = by_y_a.get<std::uint32_t>();
  std::uint32_t* to = by_y_b.get<std::uint32_t>();
  unsigned long long* child = d2_a.get<unsigned long long>();
  unsigned long long* level = d2_b.get<unsigned long long>();
  const unsigned leaf_blocks =
      static_cast<unsigned>(ceil_div(leaves * 32, static_cast<std::uint64_t>(closest_threads)));
  launch("closest_dc_leaves", "closest_pair", closest_dc_leaves<Dim>,
         {leaf_blocks, closest_threads, 0, stream}, sorted, index, n, from, child,
         best_of.get<pair_candidate>());
  for (int bits = dc_leaf_bits + 1; (std::size_t{1} << (bits - 1)) < n; ++bits) {
    const std::size_t segments = (n + (std::size_t{1} << bits) - 1) >> bits;
    launch("closest_dc_merge", "closest_pair", closest_dc_merge<Dim>,
           {blocks, closest_threads, 0, stream}, sorted, n, bits,
           static_cast<const std::uint32_t*>(from), to);
    detail::fill_bytes(level, 0xFF, segments * sizeof(unsigned long long), stream);
    launch("closest_dc_strip", "closest_pair", closest_dc_strip<Dim>,
           {blocks, closest_threads, 0, stream}, sorted, index, n, bits,
           static_cast<const std::uint32_t*>(to), static_cast<const unsigned long long*>(child),
           level, best_of.get<pair_candidate>());
    std::swap(from, to);
    std::swap(child, level);
  }
  return best_of_points(best_of.get<pair_candidate>(), n, blocks, stream);
}

}  // namespace cuda_impl
}  // namespace gpuprim
