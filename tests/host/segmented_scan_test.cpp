// CPU segmented scans against a sequential reference.
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

template <class T>
class host_segmented_scan : public ::testing::Test {};
using types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(host_segmented_scan, types);

template <class T>
using ref_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

TYPED_TEST(host_segmented_scan, flags_and_offsets_agree_with_the_reference) {
  using T = TypeParam;
  auto rng = make_rng(61);
  for (std::size_t n : standard_sizes()) {
    for (std::size_t max_len : {std::size_t{1}, std::size_t{7}, std::size_t{3000}, n + 1}) {
      const auto x = random_vector<T>(n, rng);
      const auto lengths = random_lengths(n, max_len, rng);
      const auto flags = flags_from_lengths(lengths, n);
      const auto offsets = offsets_from_lengths(lengths);
      std::vector<T> out(n);
      gp::inclusive_segmented_scan(gp::host, x, flags, out);
      const auto want_inc = reference_segmented_scan<ref_t<T>>(std::span<const T>(x), flags, false,
                                                               ref_t<T>{}, gp::plus{});
      expect_scan_near<T>(out, want_inc, "inclusive flags");
      std::vector<T> by_offsets(n);
      gp::inclusive_segmented_scan(gp::host, x, offsets, by_offsets);
      ASSERT_EQ(by_offsets, out) << "offsets and flags disagree, n=" << n;
      gp::exclusive_segmented_scan(gp::host, x, flags, out, T(2));
      expect_scan_near<T>(out,
                          reference_segmented_scan<ref_t<T>>(std::span<const T>(x), flags, true,
                                                             ref_t<T>(2), gp::plus{}),
                          "exclusive flags");
      gp::exclusive_segmented_scan(gp::host, x, offsets, by_offsets, T(2));
      ASSERT_EQ(by_offsets, out);
    }
  }
}

TEST(host_segmented_scan, unflagged_first_element_all_flagged_and_in_place) {
  std::vector<int> x(100000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int>(i % 13) - 6;
  std::vector<std::uint8_t> none(x.size(), 0), all(x.size(), 1);
  std::vector<int> out(x.size());
  gp::inclusive_segmented_scan(gp::host, x, none, out);  // one segment: a plain scan
  std::vector<int> plain(x.size());
  gp::inclusive_scan(gp::host, x, plain);
  EXPECT_EQ(out, plain);
  gp::inclusive_segmented_scan(gp::host, x, all, out);  // every element alone
  EXPECT_EQ(out, x);
  gp::exclusive_segmented_scan(gp::host, x, all, out, 5);
  EXPECT_EQ(out, std::vector<int>(x.size(), 5));
  std::vector<int> y = x;
  gp::inclusive_segmented_scan(gp::host, y, none, y);
  EXPECT_EQ(y, plain);
}

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

TEST(host_segmented_scan, bad_segments_throw_and_leave_output_untouched) {
  std::vector<float> x(10, 1.0f), out(10, -1.0f);
  std::vector<std::uint8_t> short_flags(9, 0);
  EXPECT_THROW(gp::inclusive_segmented_scan(gp::host, x, short_flags, out), std::invalid_argument);
  const std::vector<std::uint64_t> not_covering{0, 4, 9};
  EXPECT_THROW(gp::inclusive_segmented_scan(gp::host, x, not_covering, out), std::invalid_argument);
  const std::vector<std::uint64_t> decreasing{0, 6, 4, 10};
  EXPECT_THROW(gp::exclusive_segmented_scan(gp::host, x, decreasing, out, 0.0f),
               std::invalid_argument);
  EXPECT_EQ(out, std::vector<float>(10, -1.0f));
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
