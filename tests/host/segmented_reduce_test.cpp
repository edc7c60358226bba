// CPU backend of segmented_reduce against the sequential reference.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "gpuprim/segmented.hpp"
#include "support/reduce_reference.hpp"
#include "support/segmented_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

template <class T>
class host_segmented_reduce : public ::testing::Test {};
using segmented_types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(host_segmented_reduce, segmented_types);

TYPED_TEST(host_segmented_reduce, sums_min_and_max_match_reference_on_every_layout) {
  using T = TypeParam;
  auto rng = make_rng(41);
  for (const segment_layout& layout : segment_layouts(rng)) {
    const auto x = random_vector<T>(layout.num_values, rng);
    const std::size_t segments = layout.offsets.size() - 1;
    for (int threads : {1, 4}) {
      const auto backend = gp::host.threads(threads);
      std::vector<T> sums(segments, T(99)), lows(segments, T(99)), highs(segments, T(99));
      gp::segmented_reduce(backend, x, layout.offsets, sums, T{});
      gp::segmented_reduce(backend, x, layout.offsets, lows, std::numeric_limits<T>::max(),
                           gp::minimum{});
      gp::segmented_reduce(backend, x, layout.offsets, highs, std::numeric_limits<T>::lowest(),
                           gp::maximum{});
      const std::span<const T> values(x);
      const auto want_lows = reference_segmented_reduce<T>(
          values, layout.offsets, std::numeric_limits<T>::max(), gp::minimum{});
      const auto want_highs = reference_segmented_reduce<T>(
          values, layout.offsets, std::numeric_limits<T>::lowest(), gp::maximum{});
      for (std::size_t s = 0; s < segments; ++s) {
        const std::size_t n = layout.offsets[s + 1] - layout.offsets[s];
        ASSERT_EQ(lows[s], want_lows[s]) << layout.name << " segment " << s;
        ASSERT_EQ(highs[s], want_highs[s]) << layout.name << " segment " << s;
        (void)n;
      }
      if constexpr (std::is_floating_point_v<T>) {
        const auto want =
            reference_segmented_reduce<double>(values, layout.offsets, 0.0, gp::plus{});
        for (std::size_t s = 0; s < segments; ++s) {
          const std::size_t n = layout.offsets[s + 1] - layout.offsets[s];
          ASSERT_NEAR(sums[s], want[s], sum_tolerance<T>(n, 1.0))
              << layout.name << " segment " << s;
        }
      } else {
        const auto want = reference_segmented_reduce<T>(values, layout.offsets, T{}, gp::plus{});
        for (std::size_t s = 0; s < segments; ++s)
          ASSERT_EQ(sums[s], want[s]) << layout.name << " segment " << s;
      }
    }
  }
}

TEST(host_segmented_reduce, empty_segments_give_init_and_init_is_combined_once) {
  const std::vector<float> x(100, 1.0f);
  const std::vector<std::int64_t> offsets = {0, 0, 10, 10, 10, 100, 100};
  std::vector<float> out(6, -1.0f);
  gp::segmented_reduce(gp::host, x, offsets, out, 0.5f);
  EXPECT_EQ(out, (std::vector<float>{0.5f, 10.5f, 0.5f, 0.5f, 90.5f, 0.5f}));
}

TEST(host_segmented_reduce, any_integral_offset_type) {
  const std::vector<int> x = {1, 2, 3, 4, 5, 6};
  std::vector<int> out(3);
  gp::segmented_reduce(gp::host, x, std::vector<std::int32_t>{0, 2, 2, 6}, out, 100);
  EXPECT_EQ(out, (std::vector<int>{103, 100, 118}));
  gp::segmented_reduce(gp::host, x, std::vector<std::uint32_t>{1, 3, 4, 5}, out, 0);
  EXPECT_EQ(out, (std::vector<int>{5, 4, 5}));
}

TEST(host_segmented_reduce, non_commutative_operator_keeps_order) {
  auto rng = make_rng(42);
  for (const segment_layout& layout : segment_layouts(rng)) {
    if (layout.num_values > 2'000'000) continue;  // the long layouts are covered by the sums
    const std::vector<mat2> x = random_mat2s(layout.num_values, rng);
    const auto want = reference_segmented_reduce<mat2>(std::span<const mat2>(x), layout.offsets,
                                                       mat2_identity(), mat2_product{});
    for (int threads : {1, 3}) {
      std::vector<mat2> out(layout.offsets.size() - 1);
      gp::segmented_reduce(gp::host.threads(threads), x, layout.offsets, out, mat2_identity(),
                           mat2_product{});
      EXPECT_EQ(out, want) << layout.name << " threads=" << threads;
    }
  }
  // One segment long enough to be reduced by all threads together.
  const std::vector<mat2> x = random_mat2s(3 * gp::host_detail::parallel_segment_length + 11, rng);
  const std::vector<std::uint64_t> offsets = {0, 5, x.size() - 3, x.size()};
  const auto want = reference_segmented_reduce<mat2>(std::span<const mat2>(x), offsets,
                                                     mat2_identity(), mat2_product{});
  std::vector<mat2> out(3);
  gp::segmented_reduce(gp::host.threads(4), x, offsets, out, mat2_identity(), mat2_product{});
  EXPECT_EQ(out, want);
}

TEST(host_segmented_reduce, bad_arguments_throw_and_leave_the_output_alone) {
  const std::vector<float> x(10, 1.0f);
  std::vector<float> out(2, 42.0f);
  const std::vector<float> untouched = out;
  // Sizes: offsets empty, output too short / too long.
  EXPECT_THROW(gp::segmented_reduce(gp::host, x, std::vector<std::uint64_t>{}, out, 0.0f),
               std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(gp::host, x, std::vector<std::uint64_t>{0, 5}, out, 0.0f),
               std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(gp::host, x, std::vector<std::uint64_t>{0, 1, 2, 3}, out, 0.0f),
               std::invalid_argument);
  // Contents: decreasing, past the end, negative.
  EXPECT_THROW(gp::segmented_reduce(gp::host, x, std::vector<std::uint64_t>{0, 6, 5}, out, 0.0f),
               std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(gp::host, x, std::vector<std::uint64_t>{0, 6, 11}, out, 0.0f),
               std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(gp::host, x, std::vector<std::int64_t>{-1, 6, 8}, out, 0.0f),
               std::invalid_argument);
  EXPECT_EQ(out, untouched);
  try {
    gp::segmented_reduce(gp::host, x, std::vector<std::uint64_t>{0, 5}, out, 0.0f);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2 offsets describe 1 segments, but the output has 2"),
              std::string::npos)
        << e.what();
  }
}
