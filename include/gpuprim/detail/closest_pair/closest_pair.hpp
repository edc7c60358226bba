// The closest pair's shared detail: the checks both backends make, the point
// sets made from the caller's arrays and the GPU step; the entry points are
// in entry.hpp, the public vocabulary in gpuprim/closest_pair_types.hpp.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <ranges>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/closest_pair_types.hpp"
#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/detail/closest_pair/entry.hpp"
#include "gpuprim/detail/closest_pair/point_set.hpp"
#include "gpuprim/detail/closest_pair/precompiled.hpp"
#include "gpuprim/detail/cuda_dispatch.hpp"

namespace gpuprim {

namespace detail {

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
closest_pair_result device_closest_pair(cuda_backend backend, const point_set<T>& s,
                                        closest_pair_algorithm algorithm) {
  check_point_count(s.n);
  if (s.n >= (std::size_t{1} << 32)) {
    throw std::invalid_argument("gpuprim::closest_pair: " + std::to_string(s.n) +
                                " points; the GPU backend takes fewer than 2^32");
  }
  return on_cuda("closest_pair", [&] { return cuda_closest_pair(s, algorithm, backend.stream); });
}

}  // namespace detail
}  // namespace gpuprim
