// Segmented scans on each backend (support/side_test.hpp) against the
// sequential reference, outputs poisoned before each call. The backends'
// own cases are in tests/host/segmented_scan_test.cpp and
// tests/cuda/segmented_scan_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <vector>

#include "gpuprim/segmented.hpp"
#include "support/scan_reference.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

SIDE_TYPED_SUITE(segmented_scan, side_value_types);

SIDE_TYPED_TEST(segmented_scan, flags_and_offsets_agree_with_the_reference) {
  auto rng = make_rng(71);
  std::vector<std::size_t> sizes = standard_sizes();
  if (on_cuda) sizes.push_back(3'000'017);  // many tiles
  for (std::size_t n : test_sizes(sizes)) {
    for (std::size_t max_len : {std::size_t{1}, std::size_t{7}, std::size_t{3000}, n + 1}) {
      const auto x = random_vector<T>(n, rng);
      const auto lengths = random_lengths(n, max_len, rng);
      const auto flags = flags_from_lengths(lengths, n);
      const auto offsets = offsets_from_lengths(lengths);
      const auto dx = side::put(x);
      const auto dflags = side::put(flags);
      const auto doffsets = side::put(offsets);
      auto out = side::filled_bytes<T>(n, 0xA5);
      auto by_offsets = side::filled_bytes<T>(n, 0x5A);
      gp::inclusive_segmented_scan(side::backend(), dx, dflags, out);
      const auto got = side::get(out);
      expect_scan_near<T>(got,
                          reference_segmented_scan<exact_t<T>>(std::span<const T>(x), flags, false,
                                                               exact_t<T>{}, gp::plus{}),
                          "inclusive flags");
      gp::inclusive_segmented_scan(side::backend(), dx, doffsets, by_offsets);
      ASSERT_EQ(side::get(by_offsets), got) << "offsets vs flags, n=" << n;
      out = side::filled_bytes<T>(n, 0xA5);
      gp::exclusive_segmented_scan(side::backend(), dx, dflags, out, T(2));
      const auto got_ex = side::get(out);
      expect_scan_near<T>(got_ex,
                          reference_segmented_scan<exact_t<T>>(std::span<const T>(x), flags, true,
                                                               exact_t<T>(2), gp::plus{}),
                          "exclusive flags");
      gp::exclusive_segmented_scan(side::backend(), dx, doffsets, by_offsets, T(2));
      ASSERT_EQ(side::get(by_offsets), got_ex);
    }
  }
}

// An unflagged first element (one segment: a plain scan), every element
// flagged (each alone), and in place.
SIDE_TEST(segmented_scan, edge_layouts_and_in_place) {
  std::vector<int> x(1'000'003);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int>(i % 13) - 6;
  const auto dx = side::put(x);
  const auto none = side::put(std::vector<std::uint8_t>(x.size(), 0));
  const auto all = side::put(std::vector<std::uint8_t>(x.size(), 1));
  auto out = side::filled_bytes<int>(x.size(), 0xA5);
  auto plain = side::filled_bytes<int>(x.size(), 0xA5);
  gp::inclusive_segmented_scan(side::backend(), dx, none, out);
  gp::inclusive_scan(side::backend(), dx, plain);
  EXPECT_EQ(side::get(out), side::get(plain));
  gp::inclusive_segmented_scan(side::backend(), dx, all, out);
  EXPECT_EQ(side::get(out), x);
  gp::exclusive_segmented_scan(side::backend(), dx, all, out, 5);
  EXPECT_EQ(side::get(out), std::vector<int>(x.size(), 5));
  auto y = side::put(x);
  gp::inclusive_segmented_scan(side::backend(), y, none, y);
  EXPECT_EQ(side::get(y), side::get(plain));
}

SIDE_TEST(segmented_scan, bad_segments_throw_and_leave_output_untouched) {
  const auto x = side::put(std::vector<float>(10, 1.0f));
  auto out = side::filled_bytes<float>(10, 0x11);
  const auto untouched = side::get(out);
  const auto short_flags = side::put(std::vector<std::uint8_t>(9, 0));
  EXPECT_THROW(gp::inclusive_segmented_scan(side::backend(), x, short_flags, out),
               std::invalid_argument);
  const auto no_offsets = side::put(std::vector<std::uint64_t>{});
  EXPECT_THROW(gp::inclusive_segmented_scan(side::backend(), x, no_offsets, out),
               std::invalid_argument);
  if (!on_cuda) {
    // Offsets that do not partition the array: the host refuses them; the
    // GPU does not read offsets back to check them (segmented.hpp).
    const auto not_covering = side::put(std::vector<std::uint64_t>{0, 4, 9});
    EXPECT_THROW(gp::inclusive_segmented_scan(side::backend(), x, not_covering, out),
                 std::invalid_argument);
    const auto decreasing = side::put(std::vector<std::uint64_t>{0, 6, 4, 10});
    EXPECT_THROW(gp::exclusive_segmented_scan(side::backend(), x, decreasing, out, 0.0f),
                 std::invalid_argument);
  }
  EXPECT_EQ(std::memcmp(side::get(out).data(), untouched.data(), 10 * sizeof(float)), 0);
}
