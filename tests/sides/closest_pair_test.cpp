// gp::closest_pair on each backend (support/side_test.hpp): every
// algorithm against the double reference, in 2-D and 3-D, float and double,
// rows and separate arrays. The shared cases first, then the cases each
// backend runs at its own sizes (the GPU's: its kernels' float filter and
// duplicate path). The host's own cases (threads, progress, the tiled
// kernel's work items, the grid's runs) are in tests/host/closest_pair_test.cpp,
// the ladder's rungs in tests/cuda/closest_pair_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "support/closest_pair_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// The closest pair of `pts` on this side: the points as rows (layout 0) or
// as one array per axis (layout 1).
template <class T>
gp::closest_pair_result run_side(const point_rows<T>& pts, gp::closest_pair_algorithm a,
                                 int layout) {
  if (layout == 0) {
    const auto d = side::put(pts.xyz);
    return gp::closest_pair(side::backend(), side::matrix_view<const T>(d.data(), pts.n, pts.dim),
                            a);
  }
  const auto x = side::put(pts.axis(0));
  const auto y = side::put(pts.axis(1));
  if (pts.dim == 2) return gp::closest_pair(side::backend(), x, y, a);
  const auto z = side::put(pts.axis(2));
  return gp::closest_pair(side::backend(), x, y, z, a);
}

auto side_runner = [](const auto& pts, gp::closest_pair_algorithm a, int layout) {
  return run_side(pts, a, layout);
};

// The host's divide and conquer, the answer for sets too large for the
// quadratic reference.
template <class T>
gp::closest_pair_result host_divide_and_conquer(const point_rows<T>& pts) {
  return gp::closest_pair(gp::host, gp::matrix_view<const T>(pts.xyz.data(), pts.n, pts.dim),
                          gp::closest_pair_algorithm::divide_and_conquer);
}

// Copies: `n` uniform points of which planted[0] and planted[1] copy point
// 700 and planted[2] copies point 10; 50 points all at `same`; 4000 copies
// of five points. Every algorithm against the reference; returns the
// reference's answer for the first set.
template <class T>
gp::closest_pair_result check_copies(std::mt19937_64& rng, int dim, std::size_t n,
                                     const std::size_t (&planted)[3], T same) {
  auto pts = uniform_points<T>(n, dim, rng);
  for (int d = 0; d < dim; ++d) {
    pts.xyz[planted[0] * dim + d] = pts.at(700, d);
    pts.xyz[planted[1] * dim + d] = pts.at(700, d);
    pts.xyz[planted[2] * dim + d] = pts.at(10, d);
  }
  const auto want = reference_closest_pair(pts);
  check_all_algorithms(pts, want, side_runner, "duplicates");
  const point_rows<T> all_same{std::vector<T>(50 * dim, same), 50, dim};
  check_all_algorithms(all_same, gp::closest_pair_result{0, 1, 0.0, 0.0}, side_runner, "all equal");
  const auto copies = copies_of_few_points<T>(4000, dim);
  check_all_algorithms(copies, reference_closest_pair(copies), side_runner, "copies");
  return want;
}

// Lattices (every neighbour pair ties), in order and shuffled: a 2-D one
// of flat_side^2 points 0.125 apart, a 3-D one of cube_side^3 points 3 apart.
template <class T>
void check_lattices(std::mt19937_64& rng, std::size_t flat_side, std::size_t cube_side) {
  for (bool shuffle : {false, true}) {
    const auto flat = lattice_points<T>(flat_side, 2, 0.125, rng, shuffle);
    check_all_algorithms(flat, reference_closest_pair(flat), side_runner, "2-D lattice");
    const auto cube = lattice_points<T>(cube_side, 3, 3.0, rng, shuffle);
    check_all_algorithms(cube, reference_closest_pair(cube), side_runner, "3-D lattice");
  }
}

// Clustered, collinear and circle sets of `n` points.
template <class T>
void check_shaped_sets(std::mt19937_64& rng, std::size_t n, int dim) {
  const auto c = clustered_points<T>(n, dim, rng);
  check_all_algorithms(c, reference_closest_pair(c), side_runner, "clustered");
  const auto l = collinear_points<T>(n, dim, rng);
  check_all_algorithms(l, reference_closest_pair(l), side_runner, "collinear");
  const auto o = circle_points<T>(n, dim, rng);
  check_all_algorithms(o, reference_closest_pair(o), side_runner, "circle");
}

// `n` points on a line parallel to an axis, vertical and horizontal.
template <class T>
void check_axis_lines(std::mt19937_64& rng, std::size_t n, int dim) {
  for (bool vertical : {true, false}) {
    const auto a = axis_line_points<T>(n, dim, vertical, rng);
    check_all_algorithms(a, reference_closest_pair(a), side_runner,
                         vertical ? "vertical line" : "horizontal line");
  }
}

// Coordinates near the limits of T: `n` huge and `n` tiny points, two at
// opposite ends of the range, tiny points with one huge one. Returns the
// reference's answer for the two ends.
template <class T>
gp::closest_pair_result check_extreme_sets(std::mt19937_64& rng, std::size_t n, int dim) {
  const double big = double(std::numeric_limits<T>::max()) / 4;
  const double tiny = double(std::numeric_limits<T>::denorm_min()) * 1e6;
  const auto huge = uniform_points<T>(n, dim, rng, big);
  check_all_algorithms(huge, reference_closest_pair(huge), side_runner, "huge");
  const auto small = uniform_points<T>(n, dim, rng, tiny);
  check_all_algorithms(small, reference_closest_pair(small), side_runner, "tiny");
  // Two points at opposite ends of the range.
  point_rows<T> ends{std::vector<T>(2 * dim, T(big * 0.5)), 2, dim};
  for (int d = 0; d < dim; ++d)
    ends.xyz[dim + d] = T(-big * 0.5);
  const auto want = reference_closest_pair(ends);
  check_all_algorithms(ends, want, side_runner, "ends");
  // Tiny points with one huge one (the scale is set by the huge one).
  auto mixed = uniform_points<T>(1000, dim, rng, 1e-3);
  for (int d = 0; d < dim; ++d)
    mixed.xyz[500 * dim + d] = T(big * 0.5);
  check_all_algorithms(mixed, reference_closest_pair(mixed), side_runner, "mixed magnitudes");
  return want;
}

using coordinate_types = ::testing::Types<float, double>;
SIDE_TYPED_SUITE(closest_pair, coordinate_types);

// ---- the shared cases ----------------------------------------------------------

SIDE_TYPED_TEST(closest_pair, random_sets_of_many_sizes) {
  auto rng = make_rng(on_cuda ? 11 : 1);
  const auto sizes =
      on_cuda ? test_sizes({2, 3, 5, 31, 32, 33, 63, 64, 65, 1000, 1023, 1025, 4099, 7919, 20011})
              : test_sizes({2, 3, 4, 5, 16, 17, 31, 32, 33, 100, 1000, 2053, 7919});
  for (int dim : {2, 3}) {
    for (std::size_t n : sizes) {
      const auto pts = uniform_points<T>(n, dim, rng);
      check_all_algorithms(pts, reference_closest_pair(pts), side_runner, "uniform");
    }
  }
}

// A million points: every algorithm against the host's divide and conquer
// (on the host the quadratic ones are left out; one dimension per type
// keeps the CPU suite short: 2-D float, 3-D double).
SIDE_TYPED_TEST(closest_pair, large_set_agrees_with_the_host) {
  auto rng = make_rng(on_cuda ? 12 : 2);
  const std::vector<int> dims =
      on_cuda ? std::vector<int>{2, 3} : std::vector<int>{std::is_same_v<T, float> ? 2 : 3};
  const std::size_t quadratic_limit = on_cuda ? std::size_t{1} << 21 : 0;
  for (int dim : dims) {
    for (std::size_t n : test_sizes({(1u << 20) + 7})) {
      const auto pts = uniform_points<T>(n, dim, rng);
      check_all_algorithms(pts, host_divide_and_conquer(pts), side_runner, "large uniform",
                           quadratic_limit);
    }
  }
}

SIDE_TYPED_TEST(closest_pair, ties_go_to_the_smallest_pair) {
  // Three pairs at distance 1, listed so that the first pair an algorithm
  // meets in x order ((2, 5) at x = 0) is not the smallest (i, j): (1, 4).
  const std::vector<T> xy = {T(9), T(9), T(5), T(0), T(0), T(0), T(8),  T(3),
                             T(5), T(1), T(0), T(1), T(8), T(2), T(20), T(20)};
  const point_rows<T> pts{xy, 8, 2};
  const gp::closest_pair_result want{1, 4, 1.0, 1.0};
  expect_same_pair(reference_closest_pair(pts), want, "reference");
  check_all_algorithms(pts, want, side_runner, "three ties");
}

SIDE_TYPED_TEST(closest_pair, bad_inputs_throw) {
  const auto view = [](const auto& a, std::size_t n, std::size_t dim) {
    return side::matrix_view<const T>(a.data(), n, dim);
  };
  const auto one = side::put(std::vector<T>{T(1), T(2)});
  EXPECT_THROW(gp::closest_pair(side::backend(), view(one, 1, 2)), std::invalid_argument);
  EXPECT_THROW(gp::closest_pair(side::backend(), view(one, 0, 2)), std::invalid_argument);
  const auto four = side::put(std::vector<T>(8, T(1)));
  EXPECT_THROW(gp::closest_pair(side::backend(), view(four, 2, 4)), std::invalid_argument);
  EXPECT_THROW(gp::closest_pair(side::backend(), view(four, 8, 1)), std::invalid_argument);
  const auto x3 = side::put(std::vector<T>{T(0), T(1), T(2)});
  const auto y2 = side::put(std::vector<T>{T(0), T(1)});
  EXPECT_THROW(gp::closest_pair(side::backend(), x3, y2), std::invalid_argument);
  // A coordinate that is not finite: the message names the first such point
  // (point 2 of y on the host; on the GPU, point 1 of two).
  for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                -std::numeric_limits<T>::infinity()}) {
    const auto xs = side::put(std::vector<T>{T(0), T(1), T(2), T(3)});
    const auto ys = side::put(on_cuda ? std::vector<T>{T(0), bad, T(2), bad}
                                      : std::vector<T>{T(0), T(1), bad, T(3)});
    const std::string first_bad = on_cuda ? "point 1" : "point 2";
    for (auto a : all_closest_pair_algorithms) {
      try {
        gp::closest_pair(side::backend(), xs, ys, a);
        ADD_FAILURE() << "no exception";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find(first_bad), std::string::npos) << e.what();
      }
    }
  }
}

#if !GPUPRIM_TEST_ON_CUDA
// ---- the host's sizes ------------------------------------------------------------

SIDE_TYPED_TEST(closest_pair, duplicates_and_ties_take_the_smallest_pair) {
  auto rng = make_rng(3);
  for (int dim : {2, 3}) {
    // Points 2000 and 2500 duplicate point 700, 2900 duplicates 10: the
    // answer is (10, 2900), not (700, 2000).
    const auto want = check_copies<T>(rng, dim, 3000, {2000, 2500, 2900}, T(0.25));
    EXPECT_EQ(want.i, 10u);
    EXPECT_EQ(want.j, 2900u);
    EXPECT_EQ(want.distance, 0.0);
  }
}

SIDE_TYPED_TEST(closest_pair, lattices_tie_everywhere) {
  auto rng = make_rng(4);
  check_lattices<T>(rng, 64, 14);
}

SIDE_TYPED_TEST(closest_pair, clustered_collinear_and_circle_sets) {
  auto rng = make_rng(5);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({33, 1000, 5003})) {
      check_shaped_sets<T>(rng, n, dim);
      check_axis_lines<T>(rng, n, dim);
    }
  }
}

SIDE_TYPED_TEST(closest_pair, coordinates_near_the_limits) {
  auto rng = make_rng(6);
  for (int dim : {2, 3}) {
    const auto ends = check_extreme_sets<T>(rng, 2000, dim);
    EXPECT_TRUE(std::isfinite(ends.distance));
  }
}

#else
// ---- the GPU's sizes and its kernels' paths ------------------------------------------

SIDE_TYPED_TEST(closest_pair, duplicates_ties_and_lattices) {
  auto rng = make_rng(13);
  for (int dim : {2, 3}) {
    check_copies<T>(rng, dim, 5000, {4000, 4500, 4900}, T(-3));
  }
  check_lattices<T>(rng, 90, 17);
}

SIDE_TYPED_TEST(closest_pair, clustered_collinear_circle_and_extreme_sets) {
  auto rng = make_rng(14);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({33, 1000, 10007}))
      check_shaped_sets<T>(rng, n, dim);
    check_axis_lines<T>(rng, 3001, dim);
    check_extreme_sets<T>(rng, 3000, dim);
  }
}

// The tiled kernel's float filter (float input within +-2^60): planted
// pairs whose squared distances agree to below float's resolution (the
// float d2 cannot order them; the double recheck must), exact ties at a
// representable offset, coordinates at the edge of the float path (2^60)
// and past it (the double path), and coordinates whose float squares
// underflow (every square qualifies for the recheck). Sizes span several
// squares of 1024 x 1024 (diagonal, full and partial last column).
SIDE_TYPED_TEST(closest_pair, tiled_float_filter_near_ties_and_limits) {
  auto rng = make_rng(17);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({1024, 1025, 3001, 8192})) {
      const std::string size = ", n " + std::to_string(n);
      auto near = uniform_points<T>(n, dim, rng);
      plant_near_pairs(near, rng);  // spread over the squares
      check_all_algorithms(near, reference_closest_pair(near), side_runner, "near ties" + size);
      // Exact ties: x in [0.5, 1), offset 2^-20 (exact in float), four pairs.
      auto ties = uniform_points<T>(n, dim, rng);
      for (std::size_t p = 0; p < n; ++p)
        ties.xyz[p * dim] = T(0.5 + 0.25 * (1.0 + double(ties.at(p, 0))));
      for (std::size_t q : {n - 1, n / 2 + 1, n / 3 + 2, std::size_t{5}}) {
        const std::size_t p = q / 2;
        for (int c = 0; c < dim; ++c)
          ties.xyz[q * dim + c] = ties.at(p, c);
        ties.xyz[q * dim] = T(double(ties.at(p, 0)) + 0x1.0p-20);
      }
      check_all_algorithms(ties, reference_closest_pair(ties), side_runner, "exact ties" + size);
      for (double scale : {0x1.0p60, 0x1.0p61, 1e-30}) {
        auto edge = uniform_points<T>(n, dim, rng, scale);
        edge.xyz[7 * dim] = T(scale);  // a coordinate at the scale itself
        check_all_algorithms(edge, reference_closest_pair(edge), side_runner,
                             "scale " + std::to_string(scale) + size);
      }
    }
  }
}

// The grid on clustered sets dense enough that float resolution puts many
// points on one spot (as in the clustered 10^8 bench set): for float input
// the first grid's bound is 0 and the duplicate path (hash, sort, runs)
// answers; double input takes the second grid. Also +0 / -0 (one point),
// and a set whose copies are far apart in the index order.
SIDE_TYPED_TEST(closest_pair, grid_on_clustered_sets_with_copies) {
  auto rng = make_rng(18);
  std::normal_distribution<double> g(0.0, 1.0);
  for (int dim : {2, 3}) {
    const std::string where = ", dim " + std::to_string(dim);
    for (std::size_t n : test_sizes({20011, (1u << 20) + 7})) {
      point_rows<T> tight{std::vector<T>(n * dim), n, dim};
      for (std::size_t p = 0; p < n; ++p) {
        const int c = int(p * 7 % 16);
        const double width = c < 8 ? 1e-2 : 3e-7;  // half the clusters on a few float spots
        for (int d = 0; d < dim; ++d)
          tight.xyz[p * dim + d] = T(0.125 + 0.05 * (c + d) + width * g(rng));
      }
      const auto want = n <= 40000 ? reference_closest_pair(tight) : host_divide_and_conquer(tight);
      if (std::is_same_v<T, float>) {
        EXPECT_EQ(want.squared_distance, 0.0) << "the set should hold copies" << where;
      }
      check_all_algorithms(tight, want, side_runner,
                           "tight clusters, n " + std::to_string(n) + where, 40000);
    }
    // Signed zeros: (0, 0.5[, 0.5]) and (-0, 0.5[, 0.5]) are one point, in a
    // set crowded enough for the duplicate path (and in an uncrowded one).
    for (std::size_t n : test_sizes({1000, 20011})) {
      for (bool crowd : {true, false}) {
        auto zeros = uniform_points<T>(n, dim, rng);
        if (crowd) {
          for (std::size_t p = 10; p < zeros.n; p += 2)
            for (int d = 0; d < dim; ++d)
              zeros.xyz[p * dim + d] = T(0.25 + 1e-6 * g(rng));  // one dense spot
        }
        for (int d = 0; d < dim; ++d) {
          zeros.xyz[0 * dim + d] = T(d == 0 ? 0.0 : 0.5);
          zeros.xyz[3 * dim + d] = T(d == 0 ? -0.0 : 0.5);
        }
        const auto want = reference_closest_pair(zeros);
        EXPECT_EQ(want.i, 0u);
        EXPECT_EQ(want.j, 3u);
        check_all_algorithms(
            zeros, want, side_runner,
            std::string(crowd ? "crowded " : "") + "signed zeros, n " + std::to_string(n) + where);
      }
    }
  }
}
#endif

}  // namespace
