// The grid algorithm (gp::closest_pair's default above the tiled range):
// about one point per cell, points sorted by cell, each point against its
// own and its forward neighbouring cells; a second grid for clustered
// data, after a search for copies of points in crowded float data.
#pragma once

#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/device/closest_pair/common.cuh"
#include "gpuprim/detail/sort/sort.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim {
namespace cuda_impl {

inline constexpr int closest_grid_window = 3;
inline constexpr double closest_crowding_limit = 8;

// ---- 3. grid ---------------------------------------------------------------------

template <class T, class Key, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_cell_keys(point_set<T> s, detail::grid_plan g, Key* __restrict__ keys,
                      std::uint32_t* __restrict__ index) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    double x[3];
    for (int d = 0; d < Dim; ++d)
      x[d] = s.at(d, p);
    keys[p] = static_cast<Key>(g.template key_of<Dim>(x));
    index[p] = static_cast<std::uint32_t>(p);
  }
}

// bound: least squared distance of points at most closest_grid_window
// apart in cell order (bits of a non-negative double); crowding: sum over
// cells of count^2.
template <class Key, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_bound_and_crowding(const double* __restrict__ sorted, const Key* __restrict__ keys,
                               std::size_t n, unsigned long long* __restrict__ bound,
                               unsigned long long* __restrict__ crowding) {
  double b = INFINITY;
  unsigned long long w = 0;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    double a[3], c[3];
    load_sorted<Dim>(sorted, n, p, a);
    for (std::size_t q = p + 1; q < n && q <= p + closest_grid_window; ++q) {
      load_sorted<Dim>(sorted, n, q, c);
      b = fmin(b, detail::squared_distance<Dim>(a, c));
    }
    const Key k = keys[p];
    if (p == 0 || keys[p - 1] != k) {
      const std::size_t e = detail::sorted_run_end(keys, n, p);
      w += static_cast<unsigned long long>(e - p) * (e - p);
    }
  }
  for (int mask = 16; mask > 0; mask /= 2) {
    b = fmin(b, __shfl_xor_sync(0xffffffffu, b, mask));
    w += __shfl_xor_sync(0xffffffffu, w, mask);
  }
  if (threadIdx.x % 32 == 0) {
    if (b < INFINITY) atomicMin(bound, static_cast<unsigned long long>(__double_as_longlong(b)));
    atomicAdd(crowding, w);
  }
}

// The first position in keys[0, n) whose key is >= k.
template <class Key>
__device__ __forceinline__ std::size_t lower_bound_key(const Key* keys, std::size_t n,
                                                       std::uint64_t k) {
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (static_cast<std::uint64_t>(keys[mid]) < k) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

template <class Key, int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_neighbour_cells(const double* __restrict__ sorted, const Key* __restrict__ keys,
                            const std::uint32_t* __restrict__ index, std::size_t n,
                            detail::grid_plan g, pair_candidate* __restrict__ block_out) {
  pair_candidate best;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < n; p += stride) {
    double a[3], c[3];
    load_sorted<Dim>(sorted, n, p, a);
    const std::uint64_t k = keys[p];
    auto check = [&](std::size_t q) {
      load_sorted<Dim>(sorted, n, q, c);
      const double d2 = detail::squared_distance<Dim>(a, c);
      if (d2 <= best.d2) {
        const pair_candidate cand = make_candidate(d2, index[p], index[q]);
        if (better(cand, best)) best = cand;
      }
    };
    for (std::size_t q = p + 1; q < n && static_cast<std::uint64_t>(keys[q]) <= k + 1; ++q)
      check(q);
    std::int64_t first[4], last[4];
    const int ranges = detail::forward_ranges(g, k, first, last);
    for (int r = 0; r < ranges; ++r) {
      std::size_t q = lower_bound_key(keys, n, static_cast<std::uint64_t>(first[r]));
      for (; q < n && static_cast<std::uint64_t>(keys[q]) <= static_cast<std::uint64_t>(last[r]);
           ++q)
        if (q != p) check(q);  // a range wraps onto the own cell in grids one cell wide
    }
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// One grid: keys, sort, gather. Buffers are the caller's.
template <class T, class Key, int Dim>
void sort_into_cells(const point_set<T>& s, const detail::grid_plan& g, Key* keys,
                     std::uint32_t* index, double* sorted, stream_t stream) {
  const unsigned blocks = closest_grid_blocks(s.n, closest_threads);
  launch("closest_cell_keys", "closest_pair", closest_cell_keys<T, Key, Dim>,
         {blocks, closest_threads, 0, stream}, s, g, keys, index);
  const detail::radix_sort_plan plan = detail::make_radix_sort_plan<Key>(
      s.n, sort_order::ascending, key_bits{0, g.key_bits}, 4, "closest_pair");
  detail::cuda_radix_sort<Key>(keys, keys, index, index, plan, stream);
  launch("closest_gather", "closest_pair", closest_gather<T, Dim>,
         {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(index), sorted);
}

template <class Key, int Dim>
pair_candidate check_cells(const double* sorted, const Key* keys, const std::uint32_t* index,
                           std::size_t n, const detail::grid_plan& g, stream_t stream) {
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  report_launch_to_tuner(closest_neighbour_cells<Key, Dim>, closest_threads, 0, blocks,
                         /*primary=*/true);
  launch("closest_neighbour_cells", "closest_pair", closest_neighbour_cells<Key, Dim>,
         {blocks, closest_threads, 0, stream}, sorted, keys, index, n, g,
         block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
}

// ---- 3b. duplicates -----------------------------------------------------------
//
// When the first grid is crowded and the input is float, copies of points
// are looked for before a second grid. If there are any, the answer is the
// lexicographically smallest pair of identical points: two floats that
// differ are at least 2^-149 apart, and that difference squared in double
// (2^-298 or more) neither vanishes nor underflows, so a squared distance
// of 0 means equal coordinates. Dense float clusters usually hold copies
// (the clustered and line 10^8 bench sets: float resolution puts many
// points of the narrowest clusters on one spot), and a second grid there
// would need cells below the float spacing: 60-bit keys (8 radix passes of
// 64-bit keys) and a binary search per point in them. Instead:
//  1. a 32-bit hash of each point's coordinates (+0 and -0 alike), with
//     the point's index;
//  2. the radix sort (stable: equal hashes keep index order), so the
//     copies of a point are in one run of equal hashes, in index order;
//  3. each position against the rest of its run until the first point with
//     equal coordinates: for i = index[p] that is the least j > i equal to
//     it. The least (0, i, j) over all positions is the answer; +inf when
//     there are no copies (the second grid follows).
// A run holds the copies of one point and the rare points of other
// coordinates whose hash collides (about n^2 / 2^33 pairs over all runs).

__device__ __forceinline__ unsigned coordinate_bits(float v) {
  return v == 0.0f ? 0u : __float_as_uint(v);  // -0 and +0 are one point
}

__device__ __forceinline__ std::uint64_t mix64(std::uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ull;
  return x ^ (x >> 33);
}

template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_duplicate_keys(point_set<float> s, std::uint32_t* __restrict__ keys,
                           std::uint32_t* __restrict__ index) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    std::uint64_t h = (std::uint64_t(coordinate_bits(s.coord[0][p * s.stride])) << 32) |
                      coordinate_bits(s.coord[1][p * s.stride]);
    h = mix64(h);
    if constexpr (Dim == 3) h = mix64(h ^ coordinate_bits(s.coord[2][p * s.stride]));
    keys[p] = static_cast<std::uint32_t>(h >> 32);
    index[p] = static_cast<std::uint32_t>(p);
  }
}

template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_duplicate_pairs(point_set<float> s, const std::uint32_t* __restrict__ keys,
                            const std::uint32_t* __restrict__ index,
                            pair_candidate* __restrict__ block_out) {
  pair_candidate best;
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < s.n; p += stride) {
    const std::uint32_t k = keys[p];
    if (p + 1 == s.n || keys[p + 1] != k) continue;  // alone in its run: most points
    const std::size_t i = index[p];
    float a[Dim];
    for (int d = 0; d < Dim; ++d)
      a[d] = s.coord[d][i * s.stride];
    for (std::size_t q = p + 1; q < s.n && keys[q] == k; ++q) {
      const std::size_t j = index[q];
      bool same = true;
      for (int d = 0; d < Dim; ++d)
        same = same && s.coord[d][j * s.stride] == a[d];
      if (same) {
        const pair_candidate c = make_candidate(0.0, i, j);
        if (better(c, best)) best = c;
        break;
      }
    }
  }
  best = block_best(best);
  if (threadIdx.x == 0) block_out[blockIdx.x] = best;
}

// The least identical pair of float points (section 3b); `keys` and
// `index` are the caller's buffers of n 32-bit words each.
template <int Dim>
pair_candidate duplicates(const point_set<float>& s, std::uint32_t* keys, std::uint32_t* index,
                          stream_t stream) {
  const unsigned blocks = closest_grid_blocks(s.n, closest_threads);
  launch("closest_duplicate_keys", "closest_pair", closest_duplicate_keys<Dim>,
         {blocks, closest_threads, 0, stream}, s, keys, index);
  const detail::radix_sort_plan plan = detail::make_radix_sort_plan<std::uint32_t>(
      s.n, sort_order::ascending, key_bits{}, 4, "closest_pair");
  detail::cuda_radix_sort<std::uint32_t>(keys, keys, index, index, plan, stream);
  const scratch_buffer block_out(blocks * sizeof(pair_candidate), stream);
  launch("closest_duplicate_pairs", "closest_pair", closest_duplicate_pairs<Dim>,
         {blocks, closest_threads, 0, stream}, s, static_cast<const std::uint32_t*>(keys),
         static_cast<const std::uint32_t*>(index), block_out.get<pair_candidate>());
  return finish_candidates(block_out.get<pair_candidate>(), blocks, stream);
}

template <class T, class Key, int Dim>
pair_candidate grid_with_keys(const point_set<T>& s, detail::grid_plan g, const double* lo,
                              const double* hi, stream_t stream) {
  const std::size_t n = s.n;
  const scratch_buffer keys_buffer(n * sizeof(std::uint64_t), stream);  // room for wide keys
  const scratch_buffer index_buffer(n * sizeof(std::uint32_t), stream);
  const scratch_buffer sorted_buffer(n * Dim * sizeof(double), stream);
  auto* index = index_buffer.get<std::uint32_t>();
  auto* sorted = sorted_buffer.get<double>();
  sort_into_cells<T, Key, Dim>(s, g, keys_buffer.get<Key>(), index, sorted, stream);

  const scratch_buffer stats(2 * sizeof(unsigned long long), stream);
  auto* bound = stats.get<unsigned long long>();
  detail::fill_bytes(bound, 0x7F, sizeof(unsigned long long), stream);
  detail::fill_bytes(bound + 1, 0, sizeof(unsigned long long), stream);
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  launch("closest_bound_and_crowding", "closest_pair", closest_bound_and_crowding<Key, Dim>,
         {blocks, closest_threads, 0, stream}, static_cast<const double*>(sorted),
         static_cast<const Key*>(keys_buffer.get<Key>()), n, bound, bound + 1);
  std::uint64_t host[2];
  detail::copy_to_host(host, bound, sizeof host, stream);
  synchronize(stream);
  double bound_d2;
  std::memcpy(&bound_d2, &host[0], sizeof bound_d2);
  const bool crowded =
      static_cast<double>(host[1]) > closest_crowding_limit * static_cast<double>(n);
  if (bound_d2 <= g.cell * g.cell && !crowded) {
    return check_cells<Key, Dim>(sorted, keys_buffer.get<Key>(), index, n, g, stream);
  }
  if constexpr (std::is_same_v<T, float>) {
    // Crowded float data: identical points first (section 3b). Dense float
    // clusters usually hold copies (the clustered and line 10^8 bench sets
    // do; float resolution), the answer is then the least pair of them,
    // and a second grid over them would need cells near the float spacing.
    // The first grid's buffers are free here (the second grid refills them).
    if (crowded) {
      const pair_candidate c = duplicates<Dim>(s, keys_buffer.get<std::uint32_t>(), index, stream);
      if (c.d2 == 0) return c;
    }
  }
  // The second grid: cells as wide as the bound.
  const detail::grid_plan g2 = detail::make_grid_plan(lo, hi, Dim, std::sqrt(bound_d2));
  if (g2.wide_keys) {
    auto* keys = keys_buffer.get<std::uint64_t>();
    sort_into_cells<T, std::uint64_t, Dim>(s, g2, keys, index, sorted, stream);
    return check_cells<std::uint64_t, Dim>(sorted, keys, index, n, g2, stream);
  }
  auto* keys = keys_buffer.get<std::uint32_t>();
  sort_into_cells<T, std::uint32_t, Dim>(s, g2, keys, index, sorted, stream);
  return check_cells<std::uint32_t, Dim>(sorted, keys, index, n, g2, stream);
}

template <class T, int Dim>
pair_candidate grid(const point_set<T>& s, const double* lo, const double* hi, stream_t stream) {
  // The tuner's "closest_pair" space (src/tune/config.cpp): the first
  // grid's cell side in percent of the one-point-per-cell side. Any side
  // gives the exact pair (the bound is checked against the cell).
  const int cell_percent =
      tuning::choose(tuning::algorithm::closest_pair, tuning::element_type_of<T>(), s.n).choice[0];
  const detail::grid_plan g = detail::make_grid_plan(
      lo, hi, Dim, detail::initial_cell(lo, hi, Dim, s.n) * (cell_percent / 100.0));
  if (g.wide_keys) return grid_with_keys<T, std::uint64_t, Dim>(s, g, lo, hi, stream);
  return grid_with_keys<T, std::uint32_t, Dim>(s, g, lo, hi, stream);
}

}  // namespace cuda_impl
}  // namespace gpuprim
