// GPU segmented scans from plain C++ (precompiled). Skips without a device.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "gpuprim/segmented.hpp"
#include "support/cuda_fixture.hpp"
#include "support/scan_reference.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

template <class T>
class cuda_segmented_scan : public typed_cuda_test<T> {};
using types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(cuda_segmented_scan, types);

template <class T>
using ref_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

TYPED_TEST(cuda_segmented_scan, flags_and_offsets_agree_with_the_reference) {
  using T = TypeParam;
  auto rng = make_rng(71);
  std::vector<std::size_t> sizes = standard_sizes();
  sizes.push_back(3'000'017);  // many tiles
  for (std::size_t n : test_sizes(sizes)) {
    for (std::size_t max_len : {std::size_t{1}, std::size_t{7}, std::size_t{3000}, n + 1}) {
      const auto x = random_vector<T>(n, rng);
      const auto lengths = random_lengths(n, max_len, rng);
      const auto flags = flags_from_lengths(lengths, n);
      const auto offsets = offsets_from_lengths(lengths);
      const auto dx = gp::to_device(x);
      const auto dflags = gp::to_device(flags);
      const auto doffsets = gp::to_device(offsets);
      gp::device_vector<T> out(n), by_offsets(n);
      out.fill_bytes(0xA5);
      by_offsets.fill_bytes(0x5A);
      gp::inclusive_segmented_scan(gp::cuda, dx, dflags, out);
      const auto got = gp::to_host(out);
      expect_scan_near<T>(got,
                          reference_segmented_scan<ref_t<T>>(std::span<const T>(x), flags, false,
                                                             ref_t<T>{}, gp::plus{}),
                          "inclusive flags");
      gp::inclusive_segmented_scan(gp::cuda, dx, doffsets, by_offsets);
      ASSERT_EQ(gp::to_host(by_offsets), got) << "offsets vs flags, n=" << n;
      out.fill_bytes(0xA5);
      gp::exclusive_segmented_scan(gp::cuda, dx, dflags, out, T(2));
      const auto got_ex = gp::to_host(out);
      expect_scan_near<T>(got_ex,
                          reference_segmented_scan<ref_t<T>>(std::span<const T>(x), flags, true,
                                                             ref_t<T>(2), gp::plus{}),
                          "exclusive flags");
      gp::exclusive_segmented_scan(gp::cuda, dx, doffsets, by_offsets, T(2));
      ASSERT_EQ(gp::to_host(by_offsets), got_ex);
    }
  }
}

TEST_F(cuda_test, segmented_scan_edge_layouts_and_in_place) {
  std::vector<int> x(1'000'003);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int>(i % 13) - 6;
  const auto dx = gp::to_device(x);
  const auto none = gp::to_device(std::vector<std::uint8_t>(x.size(), 0));
  const auto all = gp::to_device(std::vector<std::uint8_t>(x.size(), 1));
  gp::device_vector<int> out(x.size()), plain(x.size());
  gp::inclusive_segmented_scan(gp::cuda, dx, none, out);  // unflagged first element
  gp::inclusive_scan(gp::cuda, dx, plain);
  EXPECT_EQ(gp::to_host(out), gp::to_host(plain));
  gp::inclusive_segmented_scan(gp::cuda, dx, all, out);
  EXPECT_EQ(gp::to_host(out), x);
  gp::exclusive_segmented_scan(gp::cuda, dx, all, out, 5);
  EXPECT_EQ(gp::to_host(out), std::vector<int>(x.size(), 5));
  gp::device_vector<int> y = dx;
  gp::inclusive_segmented_scan(gp::cuda, y, none, y);
  EXPECT_EQ(gp::to_host(y), gp::to_host(plain));
}

// In place on many tiles: a tile's first element reads the value before it,
// which the tile before may already have overwritten with its result (so
// the exclusive scan reads from a copy). Random segments, exact int sums.
TEST_F(cuda_test, segmented_scan_in_place_on_many_tiles_matches_out_of_place) {
  auto rng = make_rng(63);
  const std::size_t n = (std::size_t{1} << 24) + 5;
  std::vector<int> x(n);
  std::vector<std::uint8_t> flags(n);
  for (std::size_t i = 0; i < n; ++i) {
    x[i] = static_cast<int>(rng() % 1000) - 500;
    flags[i] = rng() % 100 == 0;
  }
  const auto dx = gp::to_device(x);
  const auto dflags = gp::to_device(flags);
  for (const bool exclusive : {false, true}) {
    gp::device_vector<int> want(n);
    gp::device_vector<int> y = dx;
    if (exclusive) {
      gp::exclusive_segmented_scan(gp::cuda, dx, dflags, want, 3);
      gp::exclusive_segmented_scan(gp::cuda, y, dflags, y, 3);
    } else {
      gp::inclusive_segmented_scan(gp::cuda, dx, dflags, want);
      gp::inclusive_segmented_scan(gp::cuda, y, dflags, y);
    }
    const auto got = gp::to_host(y);
    const auto expected = gp::to_host(want);
    std::size_t mismatches = 0;
    for (std::size_t i = 0; i < n; ++i)
      mismatches += got[i] != expected[i];
    EXPECT_EQ(mismatches, 0u) << (exclusive ? "exclusive" : "inclusive");
  }
}

TEST_F(cuda_test, segmented_scan_bad_sizes_throw_and_leave_output_untouched) {
  gp::device_vector<float> x(10), out(10);
  out.fill_bytes(0x11);
  gp::device_vector<std::uint8_t> short_flags(9);
  EXPECT_THROW(gp::inclusive_segmented_scan(gp::cuda, x, short_flags, out), std::invalid_argument);
  gp::device_vector<std::uint64_t> no_offsets;
  EXPECT_THROW(gp::inclusive_segmented_scan(gp::cuda, x, no_offsets, out), std::invalid_argument);
  for (float v : gp::to_host(out)) {
    std::uint32_t bits;
    std::memcpy(&bits, &v, 4);
    ASSERT_EQ(bits, 0x11111111u);
  }
}
