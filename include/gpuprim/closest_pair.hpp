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

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "gpuprim/core/point_set.hpp"
#include "gpuprim/host/closest_pair.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim {

template <class T>
concept closest_pair_coordinate = std::is_same_v<T, float> || std::is_same_v<T, double>;

// The automatic choice's thresholds (see above).
inline constexpr std::size_t closest_pair_host_brute_limit = 2048;
inline constexpr std::size_t closest_pair_cuda_tiled_limit = 8192;

// "brute_force", "tiled", "divide_and_conquer", "grid", "automatic".
inline const char* closest_pair_algorithm_name(closest_pair_algorithm a) {
  switch (a) {
    case closest_pair_algorithm::brute_force:
      return "brute_force";
    case closest_pair_algorithm::tiled:
      return "tiled";
    case closest_pair_algorithm::divide_and_conquer:
      return "divide_and_conquer";
    case closest_pair_algorithm::grid:
      return "grid";
    case closest_pair_algorithm::automatic:
      break;
  }
  return "automatic";
}

namespace detail {

#if GPUPRIM_HAS_CUDA
// Defined in gpuprim/cuda/device/device_closest_pair.cuh, compiled for
// float and double in src/closest_pair/. `points` are in device memory and
// n >= 2 (checked); the bounds are checked on the device. Synchronizes.
template <class T>
closest_pair_result cuda_closest_pair(const point_set<T>& points, closest_pair_algorithm algorithm,
                                      stream_t stream);
#else
template <class T>
closest_pair_result cuda_closest_pair(const point_set<T>&, closest_pair_algorithm, stream_t) {
  no_cuda_backend("closest_pair");
}
#endif

inline void check_point_count(std::size_t n) {
  if (n < 2) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(n) +
                                " point(s); a closest pair needs at least 2");
  }
}

inline int checked_dimension(std::size_t cols) {
  if (cols != 2 && cols != 3) {
    throw std::invalid_argument("gpuprim::closest_pair: points have " + std::to_string(cols) +
                                " coordinates; 2 (x, y) or 3 (x, y, z) are supported");
  }
  return static_cast<int>(cols);
}

inline void check_lengths(std::size_t a, std::size_t b, const char* name) {
  if (a != b) {
    throw std::invalid_argument("gpuprim::closest_pair: x has " + std::to_string(a) +
                                " coordinates, " + name + " " + std::to_string(b));
  }
}

inline void check_bounds(const point_bounds& b) {
  if (!b.finite()) {
    throw std::invalid_argument("gpuprim::closest_pair: point " +
                                std::to_string(b.first_non_finite) +
                                " has a NaN or infinite coordinate");
  }
}

// The result in the input's units.
inline closest_pair_result to_result(const pair_candidate& c, double scale) {
  closest_pair_result r;
  r.i = static_cast<std::size_t>(c.i);
  r.j = static_cast<std::size_t>(c.j);
  r.distance = std::sqrt(c.d2) / scale;
  r.squared_distance = c.d2 / scale / scale;  // scale * scale may overflow
  return r;
}

template <class T>
point_set<T> matrix_points(const T* data, std::size_t rows, std::size_t cols, std::size_t ld) {
  point_set<T> s;
  s.dim = checked_dimension(cols);
  s.n = rows;
  s.stride = ld;
  for (int d = 0; d < s.dim; ++d)
    s.coord[d] = data + d;
  return s;
}

template <class T>
point_set<T> array_points(const T* x, const T* y, const T* z, std::size_t n) {
  point_set<T> s;
  s.dim = z ? 3 : 2;
  s.n = n;
  s.stride = 1;
  s.coord[0] = x;
  s.coord[1] = y;
  s.coord[2] = z;
  return s;
}

template <class T>
closest_pair_result host_closest_pair(host_backend backend, point_set<T> s,
                                      closest_pair_algorithm algorithm,
                                      const closest_pair_progress& progress = {}) {
  check_point_count(s.n);
  const point_bounds b = host_detail::bounds(backend, s);
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
        return host_detail::brute_force<Dim>(backend, s, progress);
      case closest_pair_algorithm::tiled:
        return host_detail::blocked<Dim>(backend, s);
      case closest_pair_algorithm::divide_and_conquer:
        return host_detail::divide_and_conquer<Dim>(backend, s);
      default:
        return host_detail::grid<Dim>(backend, s, lo, hi);
    }
  };
  const pair_candidate c = s.dim == 2 ? run.template operator()<2>() : run.template operator()<3>();
  return to_result(c, s.scale);
}

template <class T>
closest_pair_result device_closest_pair(cuda_backend backend, const point_set<T>& s,
                                        closest_pair_algorithm algorithm) {
  check_point_count(s.n);
  if (s.n >= (std::size_t{1} << 32)) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(s.n) +
                                " points; the GPU backend takes fewer than 2^32");
  }
  return cuda_closest_pair(s, algorithm, backend.stream);
}

template <class R>
using host_coordinate_t = std::remove_cvref_t<std::ranges::range_value_t<R>>;
template <class R>
using device_coordinate_t = std::remove_const_t<device_range_value_t<const R>>;

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
requires closest_pair_coordinate<detail::host_coordinate_t<X>> &&
    std::is_same_v<detail::host_coordinate_t<X>, detail::host_coordinate_t<Y>>
        closest_pair_result
        closest_pair(host_backend backend, const X& x, const Y& y,
                     closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  const auto xs = detail::host_span(x);
  const auto ys = detail::host_span(y);
  detail::check_lengths(xs.size(), ys.size(), "y");
  return detail::host_closest_pair(
      backend, detail::array_points(xs.data(), ys.data(), decltype(xs.data()){nullptr}, xs.size()),
      algorithm);
}

// Separate x, y and z arrays.
template <host_range X, host_range Y, host_range Z>
requires closest_pair_coordinate<detail::host_coordinate_t<X>> &&
    std::is_same_v<detail::host_coordinate_t<X>, detail::host_coordinate_t<Y>> &&
    std::is_same_v<detail::host_coordinate_t<X>, detail::host_coordinate_t<Z>>
        closest_pair_result
        closest_pair(host_backend backend, const X& x, const Y& y, const Z& z,
                     closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  const auto xs = detail::host_span(x);
  const auto ys = detail::host_span(y);
  const auto zs = detail::host_span(z);
  detail::check_lengths(xs.size(), ys.size(), "y");
  detail::check_lengths(xs.size(), zs.size(), "z");
  return detail::host_closest_pair(
      backend, detail::array_points(xs.data(), ys.data(), zs.data(), xs.size()), algorithm);
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
requires closest_pair_coordinate<detail::device_coordinate_t<X>> &&
    std::is_same_v<detail::device_coordinate_t<X>, detail::device_coordinate_t<Y>>
        closest_pair_result
        closest_pair(cuda_backend backend, const X& x, const Y& y,
                     closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  using U = detail::device_coordinate_t<X>;
  const device_span<const U> xs = as_device_span(x);
  const device_span<const U> ys = as_device_span(y);
  detail::check_lengths(xs.size(), ys.size(), "y");
  return detail::device_closest_pair<U>(
      backend, detail::array_points<U>(xs.data(), ys.data(), nullptr, xs.size()), algorithm);
}

template <device_range X, device_range Y, device_range Z>
requires closest_pair_coordinate<detail::device_coordinate_t<X>> &&
    std::is_same_v<detail::device_coordinate_t<X>, detail::device_coordinate_t<Y>> &&
    std::is_same_v<detail::device_coordinate_t<X>, detail::device_coordinate_t<Z>>
        closest_pair_result
        closest_pair(cuda_backend backend, const X& x, const Y& y, const Z& z,
                     closest_pair_algorithm algorithm = closest_pair_algorithm::automatic) {
  using U = detail::device_coordinate_t<X>;
  const device_span<const U> xs = as_device_span(x);
  const device_span<const U> ys = as_device_span(y);
  const device_span<const U> zs = as_device_span(z);
  detail::check_lengths(xs.size(), ys.size(), "y");
  detail::check_lengths(xs.size(), zs.size(), "z");
  return detail::device_closest_pair<U>(
      backend, detail::array_points<U>(xs.data(), ys.data(), zs.data(), xs.size()), algorithm);
}

}  // namespace gpuprim
