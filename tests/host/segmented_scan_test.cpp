// Segmented scans: the cases of the CPU backend alone, against a sequential
// reference; the cases of both backends are in
// tests/sides/segmented_scan_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "gpuprim/segmented.hpp"
#include "support/reduce_reference.hpp"
#include "support/scan_reference.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_segmented_scan, non_commutative_operator_keeps_order) {
  auto rng = make_rng(62);
  const std::size_t n = 200003;
  const std::vector<mat2> x = random_mat2s(n, rng);
  const auto flags = flags_from_lengths(random_lengths(n, 5000, rng), n);
  std::vector<mat2> out(n);
  gp::inclusive_segmented_scan(gp::host.threads(3), x, flags, out, mat2_product{});
  mat2 acc = mat2_identity();
  for (std::size_t i = 0; i < n; ++i) {
    acc = (i == 0 || flags[i]) ? x[i] : mat2_product{}(acc, x[i]);
    ASSERT_EQ(out[i], acc) << i;
  }
}

// NaN per segment: gp::minimum propagates it to the end of its segment
// only, gp::minimum_number skips it (NaN only while the segment has had no
// number); exclusive segments restart at init.
TEST(host_segmented_scan, nan_rules_hold_per_segment) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<double> x = {nan, 2, 1, 5, nan, 3, 4, nan, nan, 7};
  const std::vector<std::uint8_t> flags = {1, 0, 0, 1, 0, 0, 1, 0, 1, 0};
  const auto check = [&](const std::vector<double>& got, const std::vector<double>& want,
                         const char* what) {
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < got.size(); ++i) {
      if (std::isnan(want[i])) {
        EXPECT_TRUE(std::isnan(got[i])) << what << " at " << i << ": " << got[i];
      } else {
        EXPECT_EQ(got[i], want[i]) << what << " at " << i;
      }
    }
  };
  std::vector<double> out(x.size());
  gp::inclusive_segmented_scan(gp::host, x, flags, out, gp::minimum{});
  check(out, {nan, nan, nan, 5, nan, nan, 4, nan, nan, nan}, "min");
  gp::inclusive_segmented_scan(gp::host, x, flags, out, gp::minimum_number{});
  check(out, {nan, 2, 1, 5, 5, 3, 4, 4, nan, 7}, "nanmin");
  gp::inclusive_segmented_scan(gp::host, x, flags, out, gp::maximum_number{});
  check(out, {nan, 2, 2, 5, 5, 5, 4, 4, nan, 7}, "nanmax");
  gp::exclusive_segmented_scan(gp::host, x, flags, out, inf, gp::minimum{});
  check(out, {inf, nan, nan, inf, 5, nan, inf, 4, inf, nan}, "exclusive min");
  gp::exclusive_segmented_scan(gp::host, x, flags, out, inf, gp::minimum_number{});
  check(out, {inf, inf, 2, inf, 5, 5, inf, 4, inf, inf}, "exclusive nanmin");
}
