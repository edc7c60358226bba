// GPU scans of user types and operators (instantiated here from
// gpuprim/cuda/scan.cuh).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpuprim/cuda/scan.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, scan_non_commutative_operator_keeps_order) {
  auto rng = make_rng(51);
  std::vector<std::size_t> sizes = standard_sizes();
  sizes.push_back(3'000'017);  // hundreds of tiles: exercises look-back windows
  for (std::size_t n : test_sizes(sizes)) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    std::vector<mat2> want(n);
    mat2 acc = mat2_identity();
    for (std::size_t i = 0; i < n; ++i)
      want[i] = acc = mat2_product{}(acc, x[i]);
    const auto dx = gp::to_device(x);
    gp::device_vector<mat2> out(n);
    out.fill_bytes(0xA5);
    gp::inclusive_scan(gp::cuda, dx, out, mat2_product{});
    ASSERT_EQ(gp::to_host(out), want) << "inclusive n=" << n;
    gp::exclusive_scan(gp::cuda, dx, out, mat2_identity(), mat2_product{});
    const auto got = gp::to_host(out);
    if (n > 0) ASSERT_EQ(got[0], mat2_identity());
    for (std::size_t i = 1; i < n; ++i)
      ASSERT_EQ(got[i], want[i - 1]) << "exclusive at " << i;
  }
}

TEST_F(cuda_test, scan_struct_type_with_transform) {
  const std::vector<float> x = float_ramp(100003, 100);
  const auto dx = gp::to_device(x);
  gp::device_vector<stats> out(x.size());
  gp::transform_inclusive_scan(gp::cuda, dx, out, stats_merge{}, stats_of{});
  const auto got = gp::to_host(out);
  double sum = 0;
  float mx = -1;
  for (std::size_t i = 0; i < x.size(); ++i) {
    sum += x[i];
    mx = std::max(mx, x[i]);
    ASSERT_EQ(got[i].count, static_cast<int>(i + 1));
    ASSERT_EQ(got[i].max, mx);
    ASSERT_DOUBLE_EQ(got[i].sum, sum);
  }
}

TEST_F(cuda_test, scan_bytes_widened_over_two_to_the_31) {
  // More than 2^31 one-byte inputs: 64-bit sizes and tile indices.
  const std::size_t n = (std::size_t{1} << 31) + 4099;
  gp::device_vector<std::uint8_t> x(n);
  x.fill_bytes(1);
  gp::device_vector<std::uint64_t> out(n);
  gp::transform_inclusive_scan(gp::cuda, x, out, gp::plus{}, gp::identity{});
  std::uint64_t last = 0, middle = 0;
  gp::copy(out.span().subspan(n - 1, 1), std::span<std::uint64_t>(&last, 1));
  gp::copy(out.span().subspan(n / 2, 1), std::span<std::uint64_t>(&middle, 1));
  EXPECT_EQ(last, n);
  EXPECT_EQ(middle, n / 2 + 1);
}
