// Closest pair: the sequential reference (every pair, in double, ties by
// (i, j)), the point sets the tests use, and the checks shared by the host
// and GPU tests (tests/host/closest_pair_test.cpp,
// tests/cuda/closest_pair_test.cpp).
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

// Points as rows of `dim` coordinates (an array of structs).
template <class T>
struct point_rows {
  std::vector<T> xyz;
  std::size_t n = 0;
  int dim = 2;

  T at(std::size_t p, int d) const { return xyz[p * dim + d]; }
  // Separate coordinate arrays.
  std::vector<T> axis(int d) const {
    std::vector<T> v(n);
    for (std::size_t p = 0; p < n; ++p)
      v[p] = at(p, d);
    return v;
  }
};

// The reference: every pair with squared distances computed exactly as the
// library defines them (detail::squared_distance on scaled doubles), the
// lexicographically smallest (i, j) at the minimum.
template <class T>
closest_pair_result reference_closest_pair(const point_rows<T>& pts) {
  const auto view = matrix_view<const T>(pts.xyz.data(), pts.n, pts.dim);
  auto s = detail::matrix_points<T>(view.data(), view.rows(), view.cols(), view.ld());
  detail::point_bounds b;
  for (int d = 0; d < pts.dim; ++d) {
    b.lo[d] = std::numeric_limits<double>::infinity();
    b.hi[d] = -std::numeric_limits<double>::infinity();
    for (std::size_t p = 0; p < pts.n; ++p) {
      b.lo[d] = std::min(b.lo[d], double(pts.at(p, d)));
      b.hi[d] = std::max(b.hi[d], double(pts.at(p, d)));
    }
  }
  s.scale = detail::coordinate_scale<T>(b, pts.dim);
  detail::pair_candidate best;
  for (std::size_t i = 0; i < pts.n; ++i) {
    for (std::size_t j = i + 1; j < pts.n; ++j) {
      double a[3], c[3];
      for (int d = 0; d < pts.dim; ++d) {
        a[d] = s.at(d, i);
        c[d] = s.at(d, j);
      }
      const double d2 =
          pts.dim == 2 ? detail::squared_distance<2>(a, c) : detail::squared_distance<3>(a, c);
      if (d2 < best.d2) best = {d2, i, j};  // (i, j) rise: the first at a minimum stays
    }
  }
  return detail::to_result(best, s.scale);
}

// ---- point sets --------------------------------------------------------------

template <class T>
point_rows<T> uniform_points(std::size_t n, int dim, std::mt19937_64& rng, double scale = 1.0) {
  point_rows<T> p{std::vector<T>(n * dim), n, dim};
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (auto& v : p.xyz)
    v = static_cast<T>(u(rng) * scale);
  return p;
}

// Gaussian clusters whose widths span 1000x (1e-1 to 1e-4).
template <class T>
point_rows<T> clustered_points(std::size_t n, int dim, std::mt19937_64& rng) {
  point_rows<T> p{std::vector<T>(n * dim), n, dim};
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::normal_distribution<double> g(0.0, 1.0);
  constexpr int clusters = 8;
  double centre[clusters][3], width[clusters];
  for (int c = 0; c < clusters; ++c) {
    for (int d = 0; d < 3; ++d)
      centre[c][d] = u(rng);
    width[c] = 1e-1 * std::pow(1e-3, c / double(clusters - 1));
  }
  std::uniform_int_distribution<int> pick(0, clusters - 1);
  for (std::size_t i = 0; i < n; ++i) {
    const int c = pick(rng);
    for (int d = 0; d < dim; ++d)
      p.xyz[i * dim + d] = static_cast<T>(centre[c][d] + width[c] * g(rng));
  }
  return p;
}

// On the line x = t, y = 2t + 1 (z = -t), t random.
template <class T>
point_rows<T> collinear_points(std::size_t n, int dim, std::mt19937_64& rng) {
  point_rows<T> p{std::vector<T>(n * dim), n, dim};
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = u(rng);
    p.xyz[i * dim] = static_cast<T>(t);
    p.xyz[i * dim + 1] = static_cast<T>(2 * t + 1);
    if (dim == 3) p.xyz[i * dim + 2] = static_cast<T>(-t);
  }
  return p;
}

// On an axis-parallel line: x constant (`vertical`: every point is in every
// divide-and-conquer strip) or y constant; positions 0.25 apart in a
// shuffled order, so every neighbouring pair ties; z = 0.5 in 3-D.
template <class T>
point_rows<T> axis_line_points(std::size_t n, int dim, bool vertical, std::mt19937_64& rng) {
  point_rows<T> p{std::vector<T>(n * dim, T(0.5)), n, dim};
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t i = 0; i < n; ++i) {
    const double t = double(order[i]) * 0.25 - double(n) * 0.125;
    p.xyz[i * dim] = static_cast<T>(vertical ? -3.0 : t);
    p.xyz[i * dim + 1] = static_cast<T>(vertical ? t : 7.0);
  }
  return p;
}

// n points on the unit circle, equally spaced, in a shuffled order.
template <class T>
point_rows<T> circle_points(std::size_t n, int dim, std::mt19937_64& rng) {
  point_rows<T> p{std::vector<T>(n * dim, T(0)), n, dim};
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  std::shuffle(order.begin(), order.end(), rng);
  const double pi = 3.14159265358979323846;
  for (std::size_t i = 0; i < n; ++i) {
    const double a = 2 * pi * double(order[i]) / double(n);
    p.xyz[i * dim] = static_cast<T>(std::cos(a));
    p.xyz[i * dim + 1] = static_cast<T>(std::sin(a));
  }
  return p;
}

// A lattice of side^dim points spaced `step` apart (every neighbour pair
// ties), shuffled when `shuffle`.
template <class T>
point_rows<T> lattice_points(std::size_t side, int dim, double step, std::mt19937_64& rng,
                             bool shuffle) {
  std::size_t n = side * side * (dim == 3 ? side : 1);
  point_rows<T> p{std::vector<T>(n * dim), n, dim};
  std::vector<std::size_t> order(n);
  for (std::size_t i = 0; i < n; ++i)
    order[i] = i;
  if (shuffle) std::shuffle(order.begin(), order.end(), rng);
  for (std::size_t i = 0; i < n; ++i) {
    std::size_t k = order[i];
    for (int d = 0; d < dim; ++d) {
      p.xyz[i * dim + d] = static_cast<T>(double(k % side) * step);
      k /= side;
    }
  }
  return p;
}

// `n` points, point p at ((7 p + d) mod 5) on axis d: many copies of few
// points.
template <class T>
point_rows<T> copies_of_few_points(std::size_t n, int dim) {
  point_rows<T> copies{std::vector<T>(n * dim), n, dim};
  for (std::size_t p = 0; p < copies.n; ++p)
    for (int d = 0; d < dim; ++d)
      copies.xyz[p * dim + d] = T((p * 7 + d) % 5);
  return copies;
}

// Plants eight pairs at 1e-6 (1 + k 2^-28) apart, spread over the set (in
// every direction of the x-y plane): squared distances that agree to below
// float's resolution. Sets of two points or fewer are left as they are.
template <class T>
void plant_near_pairs(point_rows<T>& pts, std::mt19937_64& rng) {
  std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
  const std::size_t n = pts.n;
  const int dim = pts.dim;
  for (int k = 0; k < 8 && n > 2; ++k) {
    const std::size_t p = (k * 2654435761u) % (n - 1), q = n - 1 - (k * 40503u) % (n / 2);
    if (p == q) continue;
    const double d = 1e-6 * (1.0 + k * 0x1.0p-28), t = angle(rng);
    for (int c = 0; c < dim; ++c) {
      const double off = c == 0 ? d * std::cos(t) : c == 1 ? d * std::sin(t) : 0.0;
      pts.xyz[q * dim + c] = T(double(pts.at(p, c)) + off);
    }
  }
}

// ---- checks --------------------------------------------------------------------

inline std::string describe(const closest_pair_result& r) {
  return "(" + std::to_string(r.i) + ", " + std::to_string(r.j) + ", d2 " +
         std::to_string(r.squared_distance) + ")";
}

inline void expect_same_pair(const closest_pair_result& got, const closest_pair_result& want,
                             const std::string& what) {
  EXPECT_EQ(got.i, want.i) << what << ": got " << describe(got) << ", want " << describe(want);
  EXPECT_EQ(got.j, want.j) << what << ": got " << describe(got) << ", want " << describe(want);
  EXPECT_EQ(got.squared_distance, want.squared_distance) << what;
  EXPECT_EQ(got.distance, want.distance) << what;
  EXPECT_LT(got.i, got.j) << what;
}

inline constexpr closest_pair_algorithm all_closest_pair_algorithms[] = {
    closest_pair_algorithm::automatic, closest_pair_algorithm::brute_force,
    closest_pair_algorithm::tiled, closest_pair_algorithm::divide_and_conquer,
    closest_pair_algorithm::grid};

// Runs every algorithm through `run(points, algorithm, layout)` (layout 0:
// rows, 1: separate arrays) and compares each with the reference.
// Algorithms whose cost is quadratic are skipped above `quadratic_limit`
// points (the reference is quadratic too: callers pass a `want` for large
// sets).
template <class T, class Run>
void check_all_algorithms(const point_rows<T>& pts, const closest_pair_result& want, Run run,
                          const std::string& what, std::size_t quadratic_limit = 40000) {
  for (const closest_pair_algorithm a : all_closest_pair_algorithms) {
    const bool quadratic =
        a == closest_pair_algorithm::brute_force || a == closest_pair_algorithm::tiled;
    if (quadratic && pts.n > quadratic_limit) continue;
    for (int layout = 0; layout < 2; ++layout) {
      const closest_pair_result got = run(pts, a, layout);
      expect_same_pair(got, want,
                       what + ", " + closest_pair_algorithm_name(a) +
                           (layout ? ", arrays" : ", rows") + ", n " + std::to_string(pts.n) +
                           ", dim " + std::to_string(pts.dim));
    }
  }
}

}  // namespace gpuprim::test
