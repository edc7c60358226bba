// gp::closest_pair on the host: every algorithm against the double
// reference, in 2-D and 3-D, float and double, rows and separate arrays.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "gpuprim/closest_pair.hpp"
#include "support/closest_pair_reference.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

template <class T>
gp::closest_pair_result run_host(const point_rows<T>& pts, gp::closest_pair_algorithm a,
                                 int layout) {
  if (layout == 0) {
    return gp::closest_pair(gp::host, gp::matrix_view<const T>(pts.xyz.data(), pts.n, pts.dim), a);
  }
  if (pts.dim == 2) return gp::closest_pair(gp::host, pts.axis(0), pts.axis(1), a);
  return gp::closest_pair(gp::host, pts.axis(0), pts.axis(1), pts.axis(2), a);
}

auto host_runner = [](const auto& pts, gp::closest_pair_algorithm a, int layout) {
  return run_host(pts, a, layout);
};

template <class T>
class host_closest_pair : public ::testing::Test {};
using coordinate_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(host_closest_pair, coordinate_types);

TYPED_TEST(host_closest_pair, random_sets_of_many_sizes) {
  using T = TypeParam;
  auto rng = make_rng(1);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({2, 3, 4, 5, 16, 17, 31, 32, 33, 100, 1000, 2053, 7919})) {
      const auto pts = uniform_points<T>(n, dim, rng);
      check_all_algorithms(pts, reference_closest_pair(pts), host_runner, "uniform");
    }
  }
}

TYPED_TEST(host_closest_pair, large_set_agrees_across_algorithms) {
  using T = TypeParam;
  auto rng = make_rng(2);
  // One dimension per type keeps the CPU suite short (2-D float, 3-D double).
  for (int dim : {std::is_same_v<T, float> ? 2 : 3}) {
    for (std::size_t n : test_sizes({(1u << 20) + 7})) {
      const auto pts = uniform_points<T>(n, dim, rng);
      const auto want = run_host(pts, gp::closest_pair_algorithm::divide_and_conquer, 0);
      check_all_algorithms(pts, want, host_runner, "large uniform", 0);
    }
  }
}

TYPED_TEST(host_closest_pair, duplicates_and_ties_take_the_smallest_pair) {
  using T = TypeParam;
  auto rng = make_rng(3);
  for (int dim : {2, 3}) {
    auto pts = uniform_points<T>(3000, dim, rng);
    // Points 2000 and 2500 duplicate point 700, 2900 duplicates 10: the
    // answer is (10, 2900), not (700, 2000).
    for (int d = 0; d < dim; ++d) {
      pts.xyz[2000 * dim + d] = pts.at(700, d);
      pts.xyz[2500 * dim + d] = pts.at(700, d);
      pts.xyz[2900 * dim + d] = pts.at(10, d);
    }
    const auto want = reference_closest_pair(pts);
    EXPECT_EQ(want.i, 10u);
    EXPECT_EQ(want.j, 2900u);
    EXPECT_EQ(want.distance, 0.0);
    check_all_algorithms(pts, want, host_runner, "duplicates");

    // Every point the same.
    point_rows<T> same{std::vector<T>(50 * dim, T(0.25)), 50, dim};
    check_all_algorithms(same, gp::closest_pair_result{0, 1, 0.0, 0.0}, host_runner, "all equal");
    // Many copies of few points.
    point_rows<T> copies{std::vector<T>(4000 * dim), 4000, dim};
    for (std::size_t p = 0; p < copies.n; ++p)
      for (int d = 0; d < dim; ++d)
        copies.xyz[p * dim + d] = T((p * 7 + d) % 5);
    check_all_algorithms(copies, reference_closest_pair(copies), host_runner, "copies");
  }
}

TYPED_TEST(host_closest_pair, lattices_tie_everywhere) {
  using T = TypeParam;
  auto rng = make_rng(4);
  for (bool shuffle : {false, true}) {
    const auto flat = lattice_points<T>(64, 2, 0.125, rng, shuffle);
    check_all_algorithms(flat, reference_closest_pair(flat), host_runner, "2-D lattice");
    const auto cube = lattice_points<T>(14, 3, 3.0, rng, shuffle);
    check_all_algorithms(cube, reference_closest_pair(cube), host_runner, "3-D lattice");
  }
}

TYPED_TEST(host_closest_pair, clustered_collinear_and_circle_sets) {
  using T = TypeParam;
  auto rng = make_rng(5);
  for (int dim : {2, 3}) {
    for (std::size_t n : test_sizes({33, 1000, 5003})) {
      const auto c = clustered_points<T>(n, dim, rng);
      check_all_algorithms(c, reference_closest_pair(c), host_runner, "clustered");
      const auto l = collinear_points<T>(n, dim, rng);
      check_all_algorithms(l, reference_closest_pair(l), host_runner, "collinear");
      const auto o = circle_points<T>(n, dim, rng);
      check_all_algorithms(o, reference_closest_pair(o), host_runner, "circle");
      for (bool vertical : {true, false}) {
        const auto a = axis_line_points<T>(n, dim, vertical, rng);
        check_all_algorithms(a, reference_closest_pair(a), host_runner,
                             vertical ? "vertical line" : "horizontal line");
      }
    }
  }
}

TYPED_TEST(host_closest_pair, coordinates_near_the_limits) {
  using T = TypeParam;
  auto rng = make_rng(6);
  const double big = double(std::numeric_limits<T>::max()) / 4;
  const double tiny = double(std::numeric_limits<T>::denorm_min()) * 1e6;
  for (int dim : {2, 3}) {
    const auto huge = uniform_points<T>(2000, dim, rng, big);
    check_all_algorithms(huge, reference_closest_pair(huge), host_runner, "huge");
    const auto small = uniform_points<T>(2000, dim, rng, tiny);
    check_all_algorithms(small, reference_closest_pair(small), host_runner, "tiny");
    // Two points at opposite ends of the range.
    point_rows<T> ends{std::vector<T>(2 * dim, T(big * 0.5)), 2, dim};
    for (int d = 0; d < dim; ++d)
      ends.xyz[dim + d] = T(-big * 0.5);
    const auto want = reference_closest_pair(ends);
    EXPECT_TRUE(std::isfinite(want.distance));
    check_all_algorithms(ends, want, host_runner, "ends");
    // Tiny points with one huge one (the scale is set by the huge one).
    auto mixed = uniform_points<T>(1000, dim, rng, 1e-3);
    for (int d = 0; d < dim; ++d)
      mixed.xyz[500 * dim + d] = T(big * 0.5);
    check_all_algorithms(mixed, reference_closest_pair(mixed), host_runner, "mixed magnitudes");
  }
}

TYPED_TEST(host_closest_pair, ties_go_to_the_smallest_pair) {
  using T = TypeParam;
  // Three pairs at distance 1, listed so that the first pair an algorithm
  // meets in x order ((2, 5) at x = 0) is not the smallest (i, j): (1, 4).
  const std::vector<T> xy = {T(9), T(9), T(5), T(0), T(0), T(0), T(8),  T(3),
                             T(5), T(1), T(0), T(1), T(8), T(2), T(20), T(20)};
  const point_rows<T> pts{xy, 8, 2};
  const auto want = reference_closest_pair(pts);
  EXPECT_EQ(want.i, 1u);
  EXPECT_EQ(want.j, 4u);
  EXPECT_EQ(want.distance, 1.0);
  check_all_algorithms(pts, want, host_runner, "three ties");
}

TYPED_TEST(host_closest_pair, bad_inputs_throw) {
  using T = TypeParam;
  std::vector<T> one{T(1), T(2)};
  EXPECT_THROW(gp::closest_pair(gp::host, gp::matrix_view<const T>(one.data(), 1, 2)),
               std::invalid_argument);
  EXPECT_THROW(gp::closest_pair(gp::host, gp::matrix_view<const T>(one.data(), 0, 2)),
               std::invalid_argument);
  std::vector<T> four(8, T(1));
  EXPECT_THROW(gp::closest_pair(gp::host, gp::matrix_view<const T>(four.data(), 2, 4)),
               std::invalid_argument);
  EXPECT_THROW(gp::closest_pair(gp::host, gp::matrix_view<const T>(four.data(), 8, 1)),
               std::invalid_argument);
  std::vector<T> x{T(0), T(1), T(2)}, y{T(0), T(1)};
  EXPECT_THROW(gp::closest_pair(gp::host, x, y), std::invalid_argument);
  for (T bad : {std::numeric_limits<T>::quiet_NaN(), std::numeric_limits<T>::infinity(),
                -std::numeric_limits<T>::infinity()}) {
    std::vector<T> xs{T(0), T(1), T(2), T(3)}, ys{T(0), T(1), bad, T(3)};
    for (auto a : all_closest_pair_algorithms) {
      try {
        gp::closest_pair(gp::host, xs, ys, a);
        ADD_FAILURE() << "no exception";
      } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("point 2"), std::string::npos) << e.what();
      }
    }
  }
}

TEST(host_closest_pair_api, thread_counts_agree_and_result_is_ordered) {
  auto rng = make_rng(7);
  const auto pts = uniform_points<float>(50000, 2, rng);
  const gp::matrix_view<const float> view(pts.xyz.data(), pts.n, 2);
  const auto want = gp::closest_pair(gp::host.threads(1), view);
  for (int threads : {2, 3, 8}) {
    for (auto a :
         {gp::closest_pair_algorithm::divide_and_conquer, gp::closest_pair_algorithm::grid}) {
      expect_same_pair(gp::closest_pair(gp::host.threads(threads), view, a), want, "threads");
    }
  }
  // A leading dimension wider than the point.
  std::vector<float> wide(pts.n * 5, -7.0f);
  for (std::size_t p = 0; p < pts.n; ++p) {
    wide[p * 5] = pts.at(p, 0);
    wide[p * 5 + 1] = pts.at(p, 1);
  }
  expect_same_pair(
      gp::closest_pair(gp::host, gp::matrix_view<const float>(wide.data(), pts.n, 2, 5)), want,
      "leading dimension 5");
}

TEST(host_closest_pair_api, brute_force_progress) {
  // With a tiny interval the first thread reports after its rows: fractions
  // in (0, 1], never decreasing, and the same answer as without progress.
  auto rng = make_rng(8);
  const auto pts = uniform_points<double>(4000, 2, rng);
  const gp::matrix_view<const double> view(pts.xyz.data(), pts.n, 2);
  const auto want = gp::closest_pair(gp::host, view, gp::closest_pair_algorithm::brute_force);
  for (int threads : {1, 3}) {
    std::vector<double> fractions;
    gp::closest_pair_progress progress;
    progress.interval = 1e-9;
    progress.report = [&](double fraction, double seconds) {
      fractions.push_back(fraction);
      EXPECT_GE(seconds, 0.0);
    };
    const auto got = gp::closest_pair(gp::host.threads(threads), view,
                                      gp::closest_pair_algorithm::brute_force, progress);
    expect_same_pair(got, want, "with progress");
    ASSERT_FALSE(fractions.empty());
    for (std::size_t k = 0; k < fractions.size(); ++k) {
      EXPECT_GT(fractions[k], 0.0);
      EXPECT_LE(fractions[k], 1.0);
      if (k > 0) EXPECT_LE(fractions[k - 1], fractions[k]);
    }
    if (threads == 1) EXPECT_DOUBLE_EQ(fractions.back(), 1.0);
  }
}

// The GPU tiled kernel's work items (detail/closest_pair/point_set.hpp): the closed-form
// decode of square k, and, replaying the kernel's index arithmetic on the
// host, every pair i < j covered by exactly one item's unmasked pairs.
TEST(host_closest_pair_tiled_items, squares_cover_every_pair_once) {
  for (std::uint64_t rows : {1ull, 2ull, 3ull, 7ull, 128ull, 1000ull, 4097ull, 100003ull}) {
    const std::uint64_t squares = rows * (rows + 1) / 2;
    const std::uint64_t step = squares > 3000000 ? 997 : 1;
    std::uint64_t expected_row = 0;
    for (std::uint64_t k = 0; k < squares; k += step) {
      const gp::detail::tiled_square sq = gp::detail::triangle_square(k, rows);
      ASSERT_LT(sq.row, rows) << k;
      ASSERT_GE(sq.col, sq.row) << k;
      ASSERT_LT(sq.col, rows) << k;
      ASSERT_LE(gp::detail::first_square(sq.row, rows), k);
      ASSERT_GT(gp::detail::first_square(sq.row + 1, rows), k);
      if (step == 1) {
        ASSERT_GE(sq.row, expected_row);
        expected_row = sq.row;
      }
    }
    const gp::detail::tiled_square last = gp::detail::triangle_square(squares - 1, rows);
    EXPECT_EQ(last.row, rows - 1);
    EXPECT_EQ(last.col, rows - 1);
  }
  // Slots: few, and covering every item.
  for (std::uint64_t n : {2ull, 1000ull, 1ull << 17, 100000000ull, 4294967295ull}) {
    const auto w = gp::detail::make_tiled_plan(n, 1024, 2);
    EXPECT_EQ(w.rows, (n + 1023) / 1024);
    EXPECT_EQ(w.items, w.rows * (w.rows + 1) / 2 * 2);
    EXPECT_LE(w.slots, gp::detail::max_tiled_slots);
    EXPECT_GE(w.slots << w.slot_shift, w.items);
    EXPECT_LT((w.slots - 1) << w.slot_shift, w.items);
  }
  // The kernel's loops with 4 threads x 2 points or 2 threads x 4 points
  // (chunk 8), every item width (a multiple of the threads dividing the
  // chunk: parts of a square) and narrower last items (tail parts: none,
  // 1, 3 or 1000 tail items), the squares row by row or the diagonal ones
  // last (and then after every off-diagonal one).
  struct loop_shape {
    unsigned threads, points;
  };
  for (const loop_shape ls : {loop_shape{4, 2}, loop_shape{2, 4}})
    for (std::uint64_t parts = 1; parts <= ls.points; parts *= 2)
      for (std::uint64_t tail_parts = parts; tail_parts <= ls.points; tail_parts *= 2)
        for (std::uint64_t tail_items : {1ull, 3ull, 1000ull})
          for (bool diagonals_last : {false, true}) {
            if (tail_parts == parts && tail_items > 1) continue;
            for (std::uint64_t n :
                 {2ull, 5ull, 7ull, 8ull, 9ull, 12ull, 16ull, 31ull, 64ull, 77ull}) {
              const unsigned threads = ls.threads, points = ls.points;
              const std::uint64_t chunk = threads * points;
              const auto w = gp::detail::make_tiled_plan(n, chunk, parts, diagonals_last,
                                                         tail_parts, tail_items);
              const std::uint64_t squares = w.rows * (w.rows + 1) / 2;
              const std::uint64_t tail_squares =
                  tail_parts == parts
                      ? 0
                      : std::min(squares, (tail_items + tail_parts - 1) / tail_parts);
              ASSERT_EQ(w.items, (squares - tail_squares) * parts + tail_squares * tail_parts);
              std::vector<int> seen(n * n, 0);
              bool diagonal_seen = false;
              for (std::uint64_t k = 0; k < w.items; ++k) {
                const gp::detail::tiled_item it = w.item(k);
                ASSERT_EQ(it.i0 % (threads * points), 0u);
                ASSERT_EQ((it.j_begin - it.i0) % threads, 0u);
                // Narrow items (chunk / tail_parts columns) exactly at the end.
                const bool tail = k >= (squares - tail_squares) * parts;
                ASSERT_EQ(it.j_begin % (chunk / (tail ? tail_parts : parts)), 0u);
                ASSERT_LE(it.j_end - it.j_begin, chunk / (tail ? tail_parts : parts));
                if (it.j_end < n)
                  ASSERT_EQ(it.j_end - it.j_begin, chunk / (tail ? tail_parts : parts));
                if (diagonals_last) {
                  ASSERT_FALSE(diagonal_seen && !it.diagonal) << "n " << n << ", item " << k;
                  diagonal_seen = diagonal_seen || it.diagonal;
                }
                for (std::uint64_t j0 = it.j_begin; j0 < it.j_end; j0 += threads) {
                  const unsigned count = unsigned(std::min<std::uint64_t>(threads, it.j_end - j0));
                  const unsigned diag = unsigned((j0 - it.i0) / threads);
                  for (unsigned t = 0; t < count; ++t)
                    for (unsigned tid = 0; tid < threads; ++tid)
                      for (unsigned r = 0; r < points; ++r) {
                        const std::uint64_t i = it.i0 + tid + r * threads, j = j0 + t;
                        // Off the diagonal every pair of the tile; on it, rows before
                        // the tile, and the row that meets it where t > tid.
                        const bool kept = !it.diagonal || r < diag || (r == diag && t > tid);
                        if (!kept) continue;
                        ASSERT_LT(i, n);
                        ASSERT_LT(i, j);
                        ++seen[i * n + j];
                      }
                }
              }
              for (std::uint64_t i = 0; i < n; ++i)
                for (std::uint64_t j = i + 1; j < n; ++j)
                  ASSERT_EQ(seen[i * n + j], 1)
                      << "n " << n << ", " << threads << " threads, parts " << parts
                      << ", tail parts " << tail_parts << " x " << tail_items
                      << (diagonals_last ? ", diagonals last" : "") << ", pair " << i << ", " << j;
            }
          }
}

// The grid's cell counts: the end of each run of equal sorted keys.
TEST(host_closest_pair_grid, sorted_run_end_finds_every_run) {
  auto rng = make_rng(21);
  for (std::size_t n : {1u, 2u, 3u, 17u, 1000u, 100000u}) {
    for (std::uint32_t distinct : {1u, 2u, 7u, 1000u, 1000000u}) {
      std::vector<std::uint32_t> keys(n);
      for (auto& k : keys)
        k = static_cast<std::uint32_t>(rng() % distinct);
      std::sort(keys.begin(), keys.end());
      for (std::size_t p = 0; p < n; p += 1 + n / 500) {
        const std::size_t want = std::upper_bound(keys.begin(), keys.end(), keys[p]) - keys.begin();
        ASSERT_EQ(gp::detail::sorted_run_end(keys.data(), n, p), want) << "n " << n << ", p " << p;
      }
    }
  }
}

}  // namespace
