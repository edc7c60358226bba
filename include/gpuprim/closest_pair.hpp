// Closest pair of points: the two points of a set in 2-D or 3-D that are
// nearest each other.
//
//   gp::matrix_view<const float> pts(xy.data(), n, 2);         // x, y interleaved
//   gp::closest_pair_result r = gp::closest_pair(gp::host, pts);
//   auto r2 = gp::closest_pair(gp::cuda, d_x, d_y);            // separate arrays
//   auto r3 = gp::closest_pair(gp::cuda, d_pts, gp::closest_pair_algorithm::tiled);
//
// Semantics, for every backend and algorithm:
//  - Points: float or double, n rows of 2 or 3 columns of a (device)
//    matrix view (an array of structs; any leading dimension), or two or
//    three coordinate arrays of equal length (host spans/vectors or device
//    spans/vectors).
//  - The result {i, j, distance, squared_distance}: indices into the input
//    with i < j. The pair minimizes the squared distance as
//    detail::squared_distance computes it: in double, with one rounding per
//    operation (float input is converted to double first, so its squared
//    distances carry no more than three roundings of 2^-53: rounding cannot
//    pick a farther pair unless two distances agree to about 15 digits).
//    Double coordinates beyond +-2^500, or all below 2^-500, are scaled by
//    a power of two first (exact), so squares neither overflow nor
//    underflow.
//  - Ties: among pairs at the minimum, the lexicographically smallest
//    (i, j), so the answer does not depend on the backend or the algorithm.
//    Duplicate points are at distance 0.
//  - Fewer than 2 points, a matrix of other than 2 or 3 columns, arrays of
//    different lengths, or a NaN or infinite coordinate throw
//    std::invalid_argument; nothing else is written. The GPU backend takes
//    fewer than 2^32 points.
//
// Algorithms (closest_pair_algorithm, the last argument; each is the same
// contract):
//  - brute_force: every pair. Host: OpenMP over i. GPU: one thread per
//    point against the points after it.
//  - tiled: every pair, in tiles. Host: blocks of points that stay in L1.
//    GPU: items of 1024 x 512 pairs, one block each, 8 points per thread
//    in registers against points staged in shared memory, squared
//    distances first in float (with a margin, then re-checked in double)
//    when the input is float.
//  - divide_and_conquer: sort by x once, recursive halves, merge by y and
//    check the strip around each split line.
//  - grid: cells of about one point over the bounding box, points sorted by
//    cell (radix sort), an upper bound from each point's next neighbours
//    in cell order, a second grid with that bound as the cell side when the
//    first one is crowded (clustered or collinear data), then every point
//    against its own and the neighbouring cells. Float points whose bound
//    is 0 (copies of a point) skip the second grid: the least pair of
//    equal points is found through a sort by a hash of the coordinates.
//  - automatic: brute_force for n <= 2048 on the host, tiled for n <= 8192
//    on the GPU; grid above.
// Every algorithm is compiled into the library for float and double in 2-D
// and 3-D, so plain C++ programs reach the GPU backend.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/closest_pair_types.hpp"
#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/host_range.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/detail/closest_pair/closest_pair.hpp"
#include "gpuprim/detail/closest_pair/point_set.hpp"
#include "gpuprim/detail/closest_pair/precompiled.hpp"
#include "gpuprim/detail/enum_name.hpp"
#include "gpuprim/host/closest_pair.hpp"

namespace gpuprim {

// closest_pair_result, closest_pair_algorithm and the automatic choice's
// thresholds are in gpuprim/closest_pair_types.hpp.

// The coordinate types: those compiled into the library.
template <class T>
concept closest_pair_coordinate = detail::precompiled_closest_pair<T>;

// "brute_force", "tiled", "divide_and_conquer", "grid", "automatic".
inline const char* closest_pair_algorithm_name(closest_pair_algorithm a) {
  static constexpr const char* names[] = {"automatic", "brute_force", "tiled", "divide_and_conquer",
                                          "grid"};
  return detail::enum_name(a, names, "automatic");
}

namespace detail {

// The host step: the checks, the bounds and the scale, then the algorithm.
template <class T>
closest_pair_result host_closest_pair(host_backend backend, point_set<T> s,
                                      closest_pair_algorithm algorithm,
                                      const closest_pair_progress& progress = {}) {
  check_point_count(s.n);
  const point_bounds b = host_impl::bounds(backend, s);
  check_bounds(b);
  s.scale = coordinate_scale<T>(b, s.dim);
  double lo[3], hi[3];
  bool all_same = true;
  for (int d = 0; d < s.dim; ++d) {
    lo[d] = b.lo[d] * s.scale;
    hi[d] = b.hi[d] * s.scale;
    all_same = all_same && lo[d] == hi[d];
  }
  if (all_same) return to_result({0.0, 0, 1}, s.scale);
  if (algorithm == closest_pair_algorithm::automatic) {
    algorithm = s.n <= closest_pair_host_brute_limit ? closest_pair_algorithm::brute_force
                                                     : closest_pair_algorithm::grid;
  }
  auto run = [&]<int Dim>() {
    switch (algorithm) {
      case closest_pair_algorithm::brute_force:
        return host_impl::brute_force<Dim>(backend, s, progress);
      case closest_pair_algorithm::tiled:
        return host_impl::blocked<Dim>(backend, s);
      case closest_pair_algorithm::divide_and_conquer:
        return host_impl::divide_and_conquer<Dim>(backend, s);
      default:
        return host_impl::grid<Dim>(backend, s, lo, hi);
    }
  };
  const pair_candidate c = s.dim == 2 ? run.template operator()<2>() : run.template operator()<3>();
  return to_result(c, s.scale);
}

template <class R>
using host_coordinate_t = std::remove_cvref_t<std::ranges::range_value_t<R>>;
template <class R>
using device_coordinate_t = std::remove_const_t<device_range_value_t<const R>>;

// Separate coordinate arrays of one supported type.
template <class X, class... Rest>
concept host_coordinate_arrays = closest_pair_coordinate<host_coordinate_t<X>> &&
    (std::is_same_v<host_coordinate_t<X>, host_coordinate_t<Rest>>&&...);
template <class X, class... Rest>
concept device_coordinate_arrays = closest_pair_coordinate<device_coordinate_t<X>> &&
    (std::is_same_v<device_coordinate_t<X>, device_coordinate_t<Rest>>&&...);

}  // namespace detail

// ---- host -----------------------------------------------------------------

// n x 2 or n x 3 points, one per row. `progress` reports on the brute
// force (the other algorithms ignore it).
template <class T>
requires closest_pair_coordinate<std::remove_const_t<T>> closest_pair_result
closest_pair(host_backend backend, matrix_view<T> points,
             closest_pair_algorithm algorithm = closest_pair_algorithm::automatic,
             const closest_pair_progress& progress = {}) {
  using U = std::remove_const_t<T>;
  return detail::host_closest_pair<U>(
      backend, detail::matrix_points<U>(points.data(), points.rows(), points.cols(), points.ld()),
      algorithm, progress);
}

// Separate x and y arrays.
template <host_range X, host_range Y>
requires detail::host_coordinate_arrays<X, Y> closest_pair_result
closest_pair(host_backend backend, const X& x, const Y& y,
             closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  return detail::host_closest_pair(
      backend, detail::checked_array_points(detail::host_span(x), detail::host_span(y)), algorithm);
}

// Separate x, y and z arrays.
template <host_range X, host_range Y, host_range Z>
requires detail::host_coordinate_arrays<X, Y, Z> closest_pair_result
closest_pair(host_backend backend, const X& x, const Y& y, const Z& z,
             closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  return detail::host_closest_pair(
      backend,
      detail::checked_array_points(detail::host_span(x), detail::host_span(y),
                                   detail::host_span(z)),
      algorithm);
}

// ---- GPU ------------------------------------------------------------------

template <class T>
requires closest_pair_coordinate<std::remove_const_t<T>> closest_pair_result
closest_pair(cuda_backend backend, device_matrix_view<T> points,
             closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  using U = std::remove_const_t<T>;
  return detail::device_closest_pair<U>(
      backend, detail::matrix_points<U>(points.data(), points.rows(), points.cols(), points.ld()),
      algorithm);
}

template <device_range X, device_range Y>
requires detail::device_coordinate_arrays<X, Y> closest_pair_result
closest_pair(cuda_backend backend, const X& x, const Y& y,
             closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  using U = detail::device_coordinate_t<X>;
  const device_span<const U> xs = as_device_span(x), ys = as_device_span(y);
  return detail::device_closest_pair<U>(backend, detail::checked_array_points(xs, ys), algorithm);
}

template <device_range X, device_range Y, device_range Z>
requires detail::device_coordinate_arrays<X, Y, Z> closest_pair_result
closest_pair(cuda_backend backend, const X& x, const Y& y, const Z& z,
             closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  using U = detail::device_coordinate_t<X>;
  const device_span<const U> xs = as_device_span(x), ys = as_device_span(y), zs = as_device_span(z);
  return detail::device_closest_pair<U>(backend, detail::checked_array_points(xs, ys, zs),
                                        algorithm);
}

}  // namespace gpuprim
