// Device-wide closest pair: the GPU algorithms of gp::closest_pair.
//
// Shape of the algorithms:
//  1. Bounds (every algorithm): one pass over the points with per-block
//     minima and maxima folded into global atomics on order-preserving
//     64-bit encodings of doubles, and the first non-finite point. The host
//     reads them (one synchronization), throws for NaN/inf, and picks the
//     power-of-two scale (gpuprim/detail/closest_pair/point_set.hpp).
//  2. Brute force and tiled (quadratic; two passes), in float for float
//     input within +-2^60 (fast) or in double. The brute-force kernel: one
//     thread per point i against the points after it, read from global
//     memory; pass 1 keeps each point's least squared distance and the
//     global least (atomic minimum). The tiled kernel (section 2b): items
//     of 1024 x 512 pairs (halves of squares), the points i in registers (8 per
//     thread), the points j staged in shared memory; pass 1 keeps each
//     item's least. Pass 2 of both takes what is within a rounding margin
//     of the global least (pass2_threshold) and checks it again exactly in
//     double, keeping the order (d2, i, j).
//  3. Grid: cell keys over the bounding box (about one point per cell),
//     points sorted by cell with the library's radix sort and gathered in
//     that order; an upper bound of the closest distance from each point's
//     next three points in cell order, and the sum of squared cell counts.
//     If the bound exceeds the cell or the cells are crowded (clustered or
//     collinear data), a second grid whose cell is the bound (so the
//     closest pair lies in neighbouring cells); for crowded float data,
//     copies of points first (3b: a sort by a hash of the coordinates,
//     which settles the answer at distance 0 if there are any). Then one
//     thread per point against the rest of its own cell and its forward neighbouring cells
//     (key ranges found by binary search in the sorted keys), in double.
//  4. Divide and conquer: points sorted by x (radix sort); leaves of 32
//     points solved by one warp each, which also sorts them by y; then one
//     level per doubling: each segment's halves merged by y (every element
//     finds its place in the other half by binary search), and every point
//     of the strip around the split line checked against the points above
//     it while dy^2 is within the halves' best.
//  4b. The same recursion with the y orders made by the library's sorting
//     networks (the ladder's rung, lab/ladder/closest_pair_dc_networks.cuh,
//     which says which network sorts what; docs/families/closest_pair.md says why the
//     merge path is production).
// Every algorithm ends with one candidate per thread, reduced per block
// and then by one block, in the order (d2, i, j); the host reads it (one
// synchronization).
// Files (gpuprim/cuda/device/closest_pair/): common.cuh (1, the candidates
// and the entry step), quadratic.cuh (what 2 and 2b share),
// brute_force.cuh (2), tiled.cuh (2b), grid.cuh (3, 3b),
// divide_and_conquer.cuh (4); this file chooses among them.
#pragma once

#include "gpuprim/cuda/device/closest_pair/brute_force.cuh"
#include "gpuprim/cuda/device/closest_pair/common.cuh"
#include "gpuprim/cuda/device/closest_pair/divide_and_conquer.cuh"
#include "gpuprim/cuda/device/closest_pair/grid.cuh"
#include "gpuprim/cuda/device/closest_pair/tiled.cuh"

namespace gpuprim {
namespace cuda_impl {

// The pass-1 kernel of the quadratic algorithm `k` (for the tiled one,
// `points` points per thread; 0 for the default).
template <class T, class C, int Dim>
const void* quadratic_pass1_kernel(quadratic_kernel k, int points = 0) {
  if (k == quadratic_kernel::brute_force)
    return reinterpret_cast<const void*>(closest_brute_pass1<T, C, Dim>);
  return tiled_pass1_kernel<T, C, Dim>(points);
}

template <class C, int Dim>
std::size_t quadratic_shared_bytes(quadratic_kernel k, int threads) {
  return k == quadratic_kernel::tiled ? tiled_shared_bytes<C, Dim>(threads) : 0;
}

template <class T, class C, int Dim>
pair_candidate quadratic(const point_set<T>& s, quadratic_kernel kind, closest_pair_launch shape,
                         stream_t stream) {
  return kind == quadratic_kernel::tiled ? tiled<T, C, Dim>(s, shape, stream)
                                         : brute_force<T, C, Dim>(s, shape, stream);
}

// Float arithmetic for float input whose squares cannot overflow (|x| <=
// 2^60); double otherwise.
template <class T, int Dim>
pair_candidate quadratic_dispatch(const point_set<T>& s, const detail::point_bounds& b,
                                  quadratic_kernel kind, closest_pair_launch shape,
                                  stream_t stream) {
  if constexpr (std::is_same_v<T, float>) {
    bool small = true;
    for (int d = 0; d < Dim; ++d)
      small = small && std::fabs(b.lo[d]) <= 0x1.0p60 && std::fabs(b.hi[d]) <= 0x1.0p60;
    if (small) return quadratic<T, float, Dim>(s, kind, shape, stream);
  }
  return quadratic<T, double, Dim>(s, kind, shape, stream);
}

template <class T>
closest_pair_result run_closest_pair(const point_set<T>& points, closest_pair_algorithm algorithm,
                                     closest_pair_launch shape, stream_t stream) {
  if (algorithm == closest_pair_algorithm::automatic) {
    algorithm = points.n <= closest_pair_cuda_tiled_limit ? closest_pair_algorithm::tiled
                                                          : closest_pair_algorithm::grid;
  }
  return closest_pair_with(
      points, stream,
      [&]<int Dim>(const point_set<T>& s, const detail::point_bounds& b, const double* lo,
                   const double* hi) {
        switch (algorithm) {
          case closest_pair_algorithm::brute_force:
            return quadratic_dispatch<T, Dim>(s, b, quadratic_kernel::brute_force, shape, stream);
          case closest_pair_algorithm::tiled:
            return quadratic_dispatch<T, Dim>(s, b, quadratic_kernel::tiled, shape, stream);
          case closest_pair_algorithm::divide_and_conquer:
            return divide_and_conquer<T, Dim>(s, stream);
          default:
            return grid<T, Dim>(s, lo, hi, stream);
        }
      });
}

// The occupancy of the pass-1 kernel of `kind` at `shape` (threads per
// block, points per thread; 0 for the defaults).
template <class T, class C, int Dim>
closest_pair_occupancy quadratic_occupancy(quadratic_kernel kind, closest_pair_launch shape) {
  const int threads = shape.threads > 0 ? shape.threads : quadratic_default_threads(kind);
  const void* kernel = quadratic_pass1_kernel<T, C, Dim>(kind, shape.points_per_thread);
  cudaFuncAttributes attributes{};
  GPUPRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel), "closest_pair");
  closest_pair_occupancy o;
  o.registers = attributes.numRegs;
  o.shared_bytes =
      static_cast<int>(attributes.sharedSizeBytes + quadratic_shared_bytes<C, Dim>(kind, threads));
  GPUPRIM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&o.blocks_per_multiprocessor, kernel, threads,
                                                    quadratic_shared_bytes<C, Dim>(kind, threads)),
      "closest_pair");
  return o;
}

}  // namespace cuda_impl

namespace detail {

template <class T>
closest_pair_result cuda_closest_pair(const point_set<T>& points, closest_pair_algorithm algorithm,
                                      stream_t stream) {
  return cuda_impl::run_closest_pair(points, algorithm, {}, stream);
}

}  // namespace detail
}  // namespace gpuprim
