// gp::closest_pair's host-only cases: thread counts, leading dimensions and
// progress reports, and the helpers of the GPU's kernels checked on the host
// (the tiled kernel's work items, the grid's runs). Every algorithm against
// the reference on both backends: tests/sides/closest_pair_test.cpp.
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
