// segmented_reduce: the cases of the CPU backend alone, against the
// sequential reference; the cases of both backends are in
// tests/sides/segmented_reduce_test.cpp.
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
  const std::vector<mat2> x = random_mat2s(3 * gp::host_impl::parallel_segment_length + 11, rng);
  const std::vector<std::uint64_t> offsets = {0, 5, x.size() - 3, x.size()};
  const auto want = reference_segmented_reduce<mat2>(std::span<const mat2>(x), offsets,
                                                     mat2_identity(), mat2_product{});
  std::vector<mat2> out(3);
  gp::segmented_reduce(gp::host.threads(4), x, offsets, out, mat2_identity(), mat2_product{});
  EXPECT_EQ(out, want);
}
