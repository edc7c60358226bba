// gp::closest_pair on the GPU from plain C++ (precompiled kernels): every
// algorithm and ladder rung against the double reference and the host.
// Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "lab/ladder/closest_pair.cuh"
#include "support/closest_pair_reference.hpp"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

template <class T>
gp::closest_pair_result run_cuda(const point_rows<T>& pts, gp::closest_pair_algorithm a,
                                 int layout) {
  if (layout == 0) {
    const auto d = gp::to_device(pts.xyz);
    return gp::closest_pair(gp::cuda, gp::device_matrix_view<const T>(d.data(), pts.n, pts.dim), a);
  }
  const auto x = gp::to_device(pts.axis(0));
  const auto y = gp::to_device(pts.axis(1));
  if (pts.dim == 2) return gp::closest_pair(gp::cuda, x, y, a);
  const auto z = gp::to_device(pts.axis(2));
  return gp::closest_pair(gp::cuda, x, y, z, a);
}

auto cuda_runner = [](const auto& pts, gp::closest_pair_algorithm a, int layout) {
  return run_cuda(pts, a, layout);
};

template <class T>
class cuda_closest_pair : public typed_cuda_test<T> {};
using coordinate_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(cuda_closest_pair, coordinate_types);

TYPED_TEST(cuda_closest_pair, random_sets_of_many_sizes) {
  using T = TypeParam;
  auto rng = make_rng(11);
  for (int dim : {2, 3}) {
    for (std::size_t n :
         test_sizes({2, 3, 5, 31, 32, 33, 63, 64, 65, 1000, 1023, 1025, 4099, 7919, 20011})) {
      const auto pts = uniform_points<T>(n, dim, rng);
      check_all_algorithms(pts, reference_closest_pair(pts), cuda_runner, "uniform");
    }
  }
}

TYPED_TEST(cuda_closest_pair, large_set_agrees_with_the_host) {
  using T = TypeParam;
  auto rng = make_rng(12);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({(1u << 20) + 7})) {
      const auto pts = uniform_points<T>(n, dim, rng);
      const auto want =
          gp::closest_pair(gp::host, gp::matrix_view<const T>(pts.xyz.data(), pts.n, pts.dim),
                           gp::closest_pair_algorithm::divide_and_conquer);
      check_all_algorithms(pts, want, cuda_runner, "large uniform", std::size_t{1} << 21);
    }
  }
}

TYPED_TEST(cuda_closest_pair, duplicates_ties_and_lattices) {
  using T = TypeParam;
  auto rng = make_rng(13);
  for (int dim : {2, 3}) {
    auto pts = uniform_points<T>(5000, dim, rng);
    for (int d = 0; d < dim; ++d) {
      pts.xyz[4000 * dim + d] = pts.at(700, d);
      pts.xyz[4500 * dim + d] = pts.at(700, d);
      pts.xyz[4900 * dim + d] = pts.at(10, d);
    }
    check_all_algorithms(pts, reference_closest_pair(pts), cuda_runner, "duplicates");
    point_rows<T> copies{std::vector<T>(4000 * dim), 4000, dim};
    for (std::size_t p = 0; p < copies.n; ++p)
      for (int d = 0; d < dim; ++d)
        copies.xyz[p * dim + d] = T((p * 7 + d) % 5);
    check_all_algorithms(copies, reference_closest_pair(copies), cuda_runner, "copies");
    point_rows<T> same{std::vector<T>(50 * dim, T(-3)), 50, dim};
    check_all_algorithms(same, gp::closest_pair_result{0, 1, 0.0, 0.0}, cuda_runner, "all equal");
  }
  for (bool shuffle : {false, true}) {
    const auto flat = lattice_points<T>(90, 2, 0.125, rng, shuffle);
    check_all_algorithms(flat, reference_closest_pair(flat), cuda_runner, "2-D lattice");
    const auto cube = lattice_points<T>(17, 3, 3.0, rng, shuffle);
    check_all_algorithms(cube, reference_closest_pair(cube), cuda_runner, "3-D lattice");
  }
}

TYPED_TEST(cuda_closest_pair, clustered_collinear_circle_and_extreme_sets) {
  using T = TypeParam;
  auto rng = make_rng(14);
  const double big = double(std::numeric_limits<T>::max()) / 4;
  const double tiny = double(std::numeric_limits<T>::denorm_min()) * 1e6;
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({33, 1000, 10007})) {
      const auto c = clustered_points<T>(n, dim, rng);
      check_all_algorithms(c, reference_closest_pair(c), cuda_runner, "clustered");
      const auto l = collinear_points<T>(n, dim, rng);
      check_all_algorithms(l, reference_closest_pair(l), cuda_runner, "collinear");
      const auto o = circle_points<T>(n, dim, rng);
      check_all_algorithms(o, reference_closest_pair(o), cuda_runner, "circle");
    }
    for (bool vertical : {true, false}) {
      const auto a = axis_line_points<T>(3001, dim, vertical, rng);
      check_all_algorithms(a, reference_closest_pair(a), cuda_runner,
                           vertical ? "vertical line" : "horizontal line");
    }
    const auto huge = uniform_points<T>(3000, dim, rng, big);
    check_all_algorithms(huge, reference_closest_pair(huge), cuda_runner, "huge");
    const auto small = uniform_points<T>(3000, dim, rng, tiny);
    check_all_algorithms(small, reference_closest_pair(small), cuda_runner, "tiny");
    // Two points at opposite ends of the range.
    point_rows<T> ends{std::vector<T>(2 * dim, T(big * 0.5)), 2, dim};
    for (int d = 0; d < dim; ++d)
      ends.xyz[dim + d] = T(-big * 0.5);
    check_all_algorithms(ends, reference_closest_pair(ends), cuda_runner, "ends");
    // Tiny points with one huge one (the scale is set by the huge one).
    auto mixed = uniform_points<T>(1000, dim, rng, 1e-3);
    for (int d = 0; d < dim; ++d)
      mixed.xyz[500 * dim + d] = T(big * 0.5);
    check_all_algorithms(mixed, reference_closest_pair(mixed), cuda_runner, "mixed magnitudes");
  }
}

// The tiled kernel's float filter (float input within +-2^60): planted
// pairs whose squared distances agree to below float's resolution (the
// float d2 cannot order them; the double recheck must), exact ties at a
// representable offset, coordinates at the edge of the float path (2^60)
// and past it (the double path), and coordinates whose float squares
// underflow (every square qualifies for the recheck). Sizes span several
// squares of 1024 x 1024 (diagonal, full and partial last column).
TYPED_TEST(cuda_closest_pair, tiled_float_filter_near_ties_and_limits) {
  using T = TypeParam;
  auto rng = make_rng(17);
  std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({1024, 1025, 3001, 8192})) {
      const std::string size = ", n " + std::to_string(n);
      auto near = uniform_points<T>(n, dim, rng);
      // Eight planted pairs at 1e-6 (1 + k 2^-28), spread over the squares.
      for (int k = 0; k < 8; ++k) {
        const std::size_t p = (k * 2654435761u) % (n - 1), q = n - 1 - (k * 40503u) % (n / 2);
        if (p == q) continue;
        const double d = 1e-6 * (1.0 + k * 0x1.0p-28), t = angle(rng);
        for (int c = 0; c < dim; ++c) {
          const double off = c == 0 ? d * std::cos(t) : c == 1 ? d * std::sin(t) : 0.0;
          near.xyz[q * dim + c] = T(double(near.at(p, c)) + off);
        }
      }
      check_all_algorithms(near, reference_closest_pair(near), cuda_runner, "near ties" + size);
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
      check_all_algorithms(ties, reference_closest_pair(ties), cuda_runner, "exact ties" + size);
      for (double scale : {0x1.0p60, 0x1.0p61, 1e-30}) {
        auto edge = uniform_points<T>(n, dim, rng, scale);
        edge.xyz[7 * dim] = T(scale);  // a coordinate at the scale itself
        check_all_algorithms(edge, reference_closest_pair(edge), cuda_runner,
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
TYPED_TEST(cuda_closest_pair, grid_on_clustered_sets_with_copies) {
  using T = TypeParam;
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
      const auto want =
          n <= 40000 ? reference_closest_pair(tight)
                     : gp::closest_pair(
                           gp::host, gp::matrix_view<const T>(tight.xyz.data(), tight.n, tight.dim),
                           gp::closest_pair_algorithm::divide_and_conquer);
      if (std::is_same_v<T, float>) {
        EXPECT_EQ(want.squared_distance, 0.0) << "the set should hold copies" << where;
      }
      check_all_algorithms(tight, want, cuda_runner,
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
            zeros, want, cuda_runner,
            std::string(crowd ? "crowded " : "") + "signed zeros, n " + std::to_string(n) + where);
      }
    }
  }
}

TYPED_TEST(cuda_closest_pair, ties_go_to_the_smallest_pair) {
  using T = TypeParam;
  // Three pairs at distance 1; x order meets (2, 5) first, the answer is (1, 4).
  const std::vector<T> xy = {T(9), T(9), T(5), T(0), T(0), T(0), T(8),  T(3),
                             T(5), T(1), T(0), T(1), T(8), T(2), T(20), T(20)};
  const point_rows<T> pts{xy, 8, 2};
  check_all_algorithms(pts, gp::closest_pair_result{1, 4, 1.0, 1.0}, cuda_runner, "three ties");
}

TYPED_TEST(cuda_closest_pair, bad_inputs_throw) {
  using T = TypeParam;
  const auto one = gp::to_device(std::vector<T>{T(1), T(2)});
  EXPECT_THROW(gp::closest_pair(gp::cuda, gp::device_matrix_view<const T>(one.data(), 1, 2)),
               std::invalid_argument);
  const auto four = gp::to_device(std::vector<T>(8, T(1)));
  EXPECT_THROW(gp::closest_pair(gp::cuda, gp::device_matrix_view<const T>(four.data(), 2, 4)),
               std::invalid_argument);
  EXPECT_THROW(gp::closest_pair(gp::cuda, gp::device_matrix_view<const T>(one.data(), 0, 2)),
               std::invalid_argument);
  EXPECT_THROW(gp::closest_pair(gp::cuda, gp::device_matrix_view<const T>(four.data(), 8, 1)),
               std::invalid_argument);
  const auto x3 = gp::to_device(std::vector<T>{T(0), T(1), T(2)});
  const auto y2 = gp::to_device(std::vector<T>{T(0), T(1)});
  EXPECT_THROW(gp::closest_pair(gp::cuda, x3, y2), std::invalid_argument);
  for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                -std::numeric_limits<T>::infinity()}) {
    const auto xs = gp::to_device(std::vector<T>{T(0), T(1), T(2), T(3)});
    const auto ys = gp::to_device(std::vector<T>{T(0), bad, T(2), bad});
    for (auto a : all_closest_pair_algorithms) {
      try {
        gp::closest_pair(gp::cuda, xs, ys, a);
        ADD_FAILURE() << "no exception";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("point 1"), std::string::npos) << e.what();
      }
    }
  }
}

class cuda_closest_pair_ladder : public cuda_test {};

TEST_F(cuda_closest_pair_ladder, every_rung_and_launch_shape_agrees) {
  auto rng = make_rng(15);
  ASSERT_EQ(gp::ladder::closest_pair_rungs().size(), 5u);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({2, 33, 1000, 5003})) {
      const auto pts = uniform_points<float>(n, dim, rng);
      const auto want = reference_closest_pair(pts);
      const auto d = gp::to_device(pts.xyz);
      const gp::device_matrix_view<const float> view(d.data(), n, dim);
      for (const auto& rung : gp::ladder::closest_pair_rungs()) {
        expect_same_pair(rung.run(view, {}, nullptr), want, rung.name);
        if (!rung.quadratic) continue;
        for (int threads : {32, 128, 1024})
          for (int blocks : {1, 7, 300})
            expect_same_pair(rung.run(view, {threads, blocks}, nullptr), want,
                             std::string(rung.name) + " " + std::to_string(threads) + "x" +
                                 std::to_string(blocks));
        const auto o = rung.occupancy({256, 0});
        EXPECT_GT(o.registers, 0);
        EXPECT_GT(o.blocks_per_multiprocessor, 0);
      }
    }
  }
}

// The tiled rung's item options (points per thread, item width, diagonal
// items last): every option shape on uniform sets and on sets with planted
// pairs closer than float can order (the double recheck must), sizes around
// the squares (1024 to 4096 points a side) and their partial last columns;
// points beyond +-2^60 (the double path keeps its defaults). Bad options
// throw std::invalid_argument naming them.
TEST_F(cuda_closest_pair_ladder, tiled_item_options_agree) {
  auto rng = make_rng(19);
  const gp::ladder::closest_pair_rung* tiled = nullptr;
  for (const auto& rung : gp::ladder::closest_pair_rungs())
    if (std::string(rung.name) == "closest_pair_tiled_shared") tiled = &rung;
  ASSERT_NE(tiled, nullptr);
  struct option {
    int threads, points, width;
    bool diagonals_last;
    int tail_width = 0;
  };
  const option options[] = {
      {128, 8, 512, true},      {128, 8, 256, false},    {128, 8, 1024, true},
      {32, 8, 32, true},        {64, 16, 512, false},    {64, 16, 1024, true},
      {128, 16, 512, true},     {128, 16, 2048, true},   {256, 16, 1024, true},
      {256, 16, 4096, false},   {0, 16, 0, true},        {0, 0, 0, true},
      {128, 8, 512, true, 128}, {128, 8, 0, false, 256}, {128, 16, 1024, true, 128},
      {64, 16, 512, true, 64},  {32, 8, 256, false, 32}};
  const auto shape_of = [](const option& o) {
    gp::closest_pair_launch shape{o.threads, 0};
    shape.points_per_thread = o.points;
    shape.item_width = o.width;
    shape.diagonals_last = o.diagonals_last;
    shape.tail_item_width = o.tail_width;
    return shape;
  };
  const auto name_of = [](const option& o) {
    return std::to_string(o.threads) + " threads, " + std::to_string(o.points) + " pts, w " +
           std::to_string(o.width) + (o.diagonals_last ? ", diagonals last" : "") + ", tail w " +
           std::to_string(o.tail_width);
  };
  std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({2, 1000, 2049, 5003, 9001})) {
      const std::string size = ", n " + std::to_string(n) + ", dim " + std::to_string(dim);
      auto near = uniform_points<float>(n, dim, rng);
      for (int k = 0; k < 8 && n > 2; ++k) {
        const std::size_t p = (k * 2654435761u) % (n - 1), q = n - 1 - (k * 40503u) % (n / 2);
        if (p == q) continue;
        const double d = 1e-6 * (1.0 + k * 0x1.0p-28), t = angle(rng);
        for (int c = 0; c < dim; ++c) {
          const double off = c == 0 ? d * std::cos(t) : c == 1 ? d * std::sin(t) : 0.0;
          near.xyz[q * dim + c] = float(double(near.at(p, c)) + off);
        }
      }
      auto far = uniform_points<float>(n, dim, rng, 0x1.0p61);
      for (const point_rows<float>* pts : {&near, &far}) {
        const auto want = reference_closest_pair(*pts);
        const auto d = gp::to_device(pts->xyz);
        const gp::device_matrix_view<const float> view(d.data(), n, dim);
        for (const option& o : options)
          for (int blocks : {0, 7}) {
            gp::closest_pair_launch shape = shape_of(o);
            shape.blocks = blocks;
            expect_same_pair(tiled->run(view, shape, nullptr), want,
                             name_of(o) + ", " + std::to_string(blocks) + " blocks" +
                                 (pts == &far ? ", beyond 2^60" : "") + size);
          }
      }
    }
  }
  for (const option& o : options) {
    const auto occ = tiled->occupancy(shape_of(o));
    EXPECT_GT(occ.registers, 0) << name_of(o);
    EXPECT_GT(occ.blocks_per_multiprocessor, 0) << name_of(o);
  }
  // Bad options: the message names what was wrong; the points are untouched.
  const auto pts = uniform_points<float>(3000, 2, rng);
  const auto d = gp::to_device(pts.xyz);
  const gp::device_matrix_view<const float> view(d.data(), pts.n, 2);
  const option bad[] = {{512, 16, 0, false},       {1024, 16, 0, false},      {128, 12, 0, false},
                        {128, -8, 0, false},       {128, 8, 384, false},      {128, 8, 2048, false},
                        {128, 16, 100, false},     {128, 8, -512, false},     {0, 8, 512, false},
                        {128, 8, 512, false, 384}, {128, 8, 256, false, 512}, {0, 8, 0, false, 128},
                        {128, 8, 0, false, -128}};
  const char* says[] = {"at most 256",       "at most 256",     "points per thread",
                        "points per thread", "item width",      "item width",
                        "item width",        "item width",      "needs the threads",
                        "tail item width",   "tail item width", "needs the threads",
                        "tail item width"};
  for (std::size_t b = 0; b < std::size(bad); ++b) {
    try {
      tiled->run(view, shape_of(bad[b]), nullptr);
      ADD_FAILURE() << "no exception: " << name_of(bad[b]);
    } catch (const std::invalid_argument& e) {
      EXPECT_NE(std::string(e.what()).find(says[b]), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(gp::to_host(d), pts.xyz);
}

// The divide and conquer on the sorting networks (the ladder's rung):
// sizes around the leaves (32), the register network (64), the shared tile
// (2048) and several global merge steps (> 8192), on every point set that
// stresses the strips, against the reference or the production path.
TEST_F(cuda_closest_pair_ladder, divide_and_conquer_on_sorting_networks) {
  auto rng = make_rng(16);
  const gp::ladder::closest_pair_rung* networks = nullptr;
  for (const auto& rung : gp::ladder::closest_pair_rungs())
    if (std::string(rung.name) == "closest_pair_divide_and_conquer_networks") networks = &rung;
  ASSERT_NE(networks, nullptr);
  const auto run = [&](const point_rows<float>& pts) {
    const auto d = gp::to_device(pts.xyz);
    return networks->run(gp::device_matrix_view<const float>(d.data(), pts.n, pts.dim), {},
                         nullptr);
  };
  for (int dim : {2, 3}) {
    const std::string where = ", dim " + std::to_string(dim);
    for (std::size_t n : test_sizes(
             {2, 3, 31, 32, 33, 63, 64, 65, 127, 1000, 2047, 2048, 2049, 4097, 7919, 20011})) {
      const std::string size = ", n " + std::to_string(n) + where;
      const auto u = uniform_points<float>(n, dim, rng);
      expect_same_pair(run(u), reference_closest_pair(u), "uniform" + size);
      if (n < 33) continue;
      const auto c = clustered_points<float>(n, dim, rng);
      expect_same_pair(run(c), reference_closest_pair(c), "clustered" + size);
      const auto l = collinear_points<float>(n, dim, rng);
      expect_same_pair(run(l), reference_closest_pair(l), "collinear" + size);
      const auto v = axis_line_points<float>(n, dim, true, rng);
      expect_same_pair(run(v), reference_closest_pair(v), "vertical line" + size);
      const auto h = axis_line_points<float>(n, dim, false, rng);
      expect_same_pair(run(h), reference_closest_pair(h), "horizontal line" + size);
    }
    for (bool shuffle : {false, true}) {
      const auto lattice = dim == 2 ? lattice_points<float>(90, 2, 0.125, rng, shuffle)
                                    : lattice_points<float>(17, 3, 3.0, rng, shuffle);
      expect_same_pair(run(lattice), reference_closest_pair(lattice), "lattice" + where);
    }
    point_rows<float> copies{std::vector<float>(4000 * dim), 4000, dim};
    for (std::size_t p = 0; p < copies.n; ++p)
      for (int d = 0; d < dim; ++d)
        copies.xyz[p * dim + d] = float((p * 7 + d) % 5);
    expect_same_pair(run(copies), reference_closest_pair(copies), "copies" + where);
    for (std::size_t n : test_sizes({(1u << 20) + 7})) {
      const auto big = uniform_points<float>(n, dim, rng);
      const auto d = gp::to_device(big.xyz);
      const gp::device_matrix_view<const float> view(d.data(), n, dim);
      expect_same_pair(run(big), gp::closest_pair(gp::cuda, view, gp::closest_pair_algorithm::grid),
                       "large uniform" + where);
    }
  }
}

}  // namespace
