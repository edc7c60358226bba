// The closest pair's shared detail: the coordinate types and the automatic
// choice's thresholds (public API of gpuprim/closest_pair.hpp), the checks
// both backends make, the point sets made from the caller's arrays, the
// host run and the CUDA entry point.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/detail/closest_pair/point_set.hpp"
#include "gpuprim/detail/closest_pair/precompiled.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"
#include "gpuprim/detail/enum_name.hpp"
#include "gpuprim/host/closest_pair.hpp"

namespace gpuprim {

template <class T>
concept closest_pair_coordinate = detail::precompiled_closest_pair<T>;

// The automatic choice's thresholds (see above).
inline constexpr std::size_t closest_pair_host_brute_limit = 2048;
inline constexpr std::size_t closest_pair_cuda_tiled_limit = 8192;

// "brute_force", "tiled", "divide_and_conquer", "grid", "automatic".
inline const char* closest_pair_algorithm_name(closest_pair_algorithm a) {
  static constexpr const char* names[] = {"automatic", "brute_force", "tiled", "divide_and_conquer",
                                          "grid"};
  return detail::enum_name(a, names, "automatic");
}

namespace detail {

// Defined in gpuprim/cuda/device/device_closest_pair.cuh, compiled for
// each type of GPUPRIM_CLOSEST_PAIR_TYPES (detail/closest_pair/precompiled.hpp). `points` are in
// device memory and n >= 2 (checked); the bounds are checked on the device. Synchronizes.
template <class T>
closest_pair_result cuda_closest_pair(const point_set<T>& points, closest_pair_algorithm algorithm,
                                      stream_t stream);

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

// The points of separate x, y (and z) arrays, given as spans of one memory
// space, after checking that their lengths match.
template <class Span>
auto checked_array_points(const Span& xs, const Span& ys) {
  check_lengths(xs.size(), ys.size(), "y");
  return array_points(xs.data(), ys.data(), static_cast<decltype(xs.data())>(nullptr), xs.size());
}
template <class Span>
auto checked_array_points(const Span& xs, const Span& ys, const Span& zs) {
  check_lengths(xs.size(), ys.size(), "y");
  check_lengths(xs.size(), zs.size(), "z");
  return array_points(xs.data(), ys.data(), zs.data(), xs.size());
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
  return on_cuda("closest_pair", [&] { return cuda_closest_pair(s, algorithm, backend.stream); });
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
}  // namespace gpuprim
