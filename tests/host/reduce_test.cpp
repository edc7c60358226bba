// The reduction family's cases of the CPU backend alone, against sequential
// references; the cases of both backends are in tests/sides/reduce_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include "gpuprim/reduce.hpp"
#include "support/reduce_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_reduce, empty_extremes_return_index_zero) {
  const std::vector<float> none;
  EXPECT_EQ(gp::min_element(gp::host, none).index, 0u);
  EXPECT_EQ(gp::max_element(gp::host, none).index, 0u);
}

TEST(host_reduce, ties_go_to_the_first_and_nans_are_skipped_on_request) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x(200000, 3.0f);
  x[5] = nan;
  x[70000] = -1.0f;
  x[150000] = -1.0f;
  x[90000] = 8.0f;
  x[190000] = 8.0f;
  for (int threads : {1, 4}) {
    EXPECT_EQ(gp::min_element(gp::host.threads(threads), x, gp::nan_rule::skip),
              (gp::value_index<float>{-1.0f, 70000}));
    EXPECT_EQ(gp::max_element(gp::host.threads(threads), x, gp::nan_rule::skip),
              (gp::value_index<float>{8.0f, 90000}));
    EXPECT_EQ(gp::min_element(gp::host.threads(threads), x).index, 5u);  // NaN propagates
    EXPECT_EQ(gp::max_element(gp::host.threads(threads), x).index, 5u);
  }
  const std::vector<float> all_nan(10, nan);
  EXPECT_EQ(gp::min_element(gp::host, all_nan, gp::nan_rule::skip).index, 0u);
  EXPECT_EQ(gp::max_element(gp::host, all_nan, gp::nan_rule::skip).index, 0u);
  EXPECT_EQ(gp::min_element(gp::host, all_nan).index, 0u);
}

TEST(host_reduce, transform_reduce_sum_of_squares_in_double) {
  auto rng = make_rng(3);
  const auto x = random_vector<float>(100003, rng);
  double want = 0;
  for (float v : x)
    want += static_cast<double>(v) * v;
  const double got = gp::transform_reduce(gp::host, x, 0.0, gp::plus{},
                                          [](float v) { return static_cast<double>(v) * v; });
  EXPECT_NEAR(got, want, 1e-9 * want);
  EXPECT_NEAR(gp::transform_reduce(gp::host, x, 0.0f, gp::plus{}, gp::absolute{}),
              gp::transform_reduce(gp::host, x, 0.0, gp::plus{},
                                   [](float v) { return std::abs(static_cast<double>(v)); }),
              sum_tolerance<float>(x.size(), 1.0));
}

TEST(host_reduce, bytes_widen_into_the_init_type) {
  std::vector<std::uint8_t> x(300000, 255);
  EXPECT_EQ(gp::reduce(gp::host, x, std::uint64_t{0}), 255ull * 300000);
}

TEST(host_reduce, non_commutative_operator_keeps_order) {
  auto rng = make_rng(4);
  for (std::size_t n :
       {std::size_t{1}, std::size_t{33}, std::size_t{100001}, std::size_t{1} << 18}) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    mat2 want = mat2_identity();
    for (const auto& m : x)
      want = mat2_product{}(want, m);
    for (int threads : {1, 2, 5}) {
      EXPECT_EQ(gp::reduce(gp::host.threads(threads), x, mat2_identity(), mat2_product{}), want)
          << "n=" << n << " threads=" << threads;
    }
  }
}

TEST(host_reduce, custom_struct_type) {
  std::vector<stats> x(50000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = {double(i), 1, float(i % 977)};
  const stats got = gp::reduce(gp::host, x, stats{0, 0, -1.0f}, stats_merge{});
  EXPECT_EQ(got.count, 50000);
  EXPECT_EQ(got.max, 976.0f);
  EXPECT_DOUBLE_EQ(got.sum, 49999.0 * 50000 / 2);
}

TEST(host_reduce, float_results_do_not_depend_on_the_thread_count) {
  // The blocks are cut by n alone and combined in block order, whichever
  // thread took which: every thread count adds in one order.
  auto rng = make_rng(6);
  for (std::size_t n :
       {std::size_t{65535}, std::size_t{65536}, std::size_t{3'000'017}, std::size_t{1} << 24}) {
    const auto x = random_vector<float>(n, rng);
    const float one = gp::reduce(gp::host.threads(1), x, 0.0f);
    const double one_wide = gp::reduce(gp::host.threads(1), x, 0.0);
    for (int threads : {2, 3, 8}) {
      EXPECT_EQ(gp::reduce(gp::host.threads(threads), x, 0.0f), one)
          << "n=" << n << " threads=" << threads;
      EXPECT_EQ(gp::reduce(gp::host.threads(threads), x, 0.0), one_wide)
          << "n=" << n << " threads=" << threads;
    }
  }
}

TEST(host_reduce, float_results_are_deterministic) {
  auto rng = make_rng(5);
  const auto x = random_vector<float>(3'000'017, rng);
  const float first = gp::reduce(gp::host.threads(4), x, 0.0f);
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(gp::reduce(gp::host.threads(4), x, 0.0f), first);
}

TEST(host_reduce, bool_min_max_over_many_blocks_and_threads) {
  // One false (or true) in a sea of the other, in the first, a middle and
  // the last block: the block partials of bool keep one byte each.
  const std::size_t n = std::size_t{1} << 22;
  const auto values = std::make_unique<bool[]>(n);
  const std::span<const bool> x(values.get(), n);
  for (std::size_t odd : {std::size_t{0}, n / 2 + 3, n - 1}) {
    for (int threads : {1, 2, 3, 8}) {
      std::fill_n(values.get(), n, true);
      values[odd] = false;
      EXPECT_FALSE(gp::reduce(gp::host.threads(threads), x, true, gp::minimum{}))
          << "odd=" << odd << " threads=" << threads;
      EXPECT_TRUE(gp::reduce(gp::host.threads(threads), x, true, gp::maximum{}));
      std::fill_n(values.get(), n, false);
      values[odd] = true;
      EXPECT_TRUE(gp::reduce(gp::host.threads(threads), x, false, gp::maximum{}))
          << "odd=" << odd << " threads=" << threads;
      EXPECT_FALSE(gp::reduce(gp::host.threads(threads), x, false, gp::minimum{}));
    }
  }
}
