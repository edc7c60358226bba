// The histogram family: the cases of the GPU alone, from plain C++
// (precompiled kernels). The cases of both backends are in
// tests/sides/histogram_test.cpp. Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/cuda_fixture.hpp"
#include "support/expect_message.hpp"
#include "support/histogram_cases.hpp"
#include "support/histogram_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, histogram_bytes_every_value_and_runs) {
  // The identity byte path (256 bins over [0, 256)) with long runs of one
  // value: every lane's 8-bit counter of one bin fills up between folds.
  std::vector<std::uint8_t> x((1u << 22) + 13);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<std::uint8_t>(i < x.size() / 2 ? 200 : (i * 7) >> 3);
  const auto d = gp::to_device(x);
  for (std::size_t bins : {256, 64, 255}) {
    auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(bins);
    const std::uint64_t left = gp::histogram_even(gp::cuda, d, counts, 0, 256);
    expect_histogram(
        gp::to_host(counts), left,
        reference_histogram_even<std::uint32_t>(std::span<const std::uint8_t>(x), bins, 0, 256),
        "bins=" + std::to_string(bins));
  }
}

// Bin counts at the shared-memory edges: bytes with 184-191 bins (the byte
// counters' static plus dynamic shared memory just past 48 KiB), floats
// with 12288 bins (one 48 KiB sub-histogram plus the kernel's static
// shared memory), and a large byte launch after a smaller one of the same
// kernel (the opt-in size must not shrink).
TEST_F(cuda_test, histogram_bin_counts_at_the_shared_memory_limit) {
  auto rng = make_rng(73);
  const std::size_t n = (1u << 20) + 3;
  const auto bytes = random_samples<std::uint8_t>(n, rng);
  const auto d_bytes = gp::to_device(bytes);
  for (std::size_t bins : {184, 188, 191, 256, 200, 256}) {
    auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(bins);
    const std::uint64_t left = gp::histogram_even(gp::cuda, d_bytes, counts, 10, 250);
    expect_histogram(gp::to_host(counts), left,
                     reference_histogram_even<std::uint32_t>(std::span<const std::uint8_t>(bytes),
                                                             bins, 10, 250),
                     "bytes, bins=" + std::to_string(bins));
  }
  const auto floats = random_samples<float>(n, rng);
  const auto d_floats = gp::to_device(floats);
  const auto [lo, hi] = partial_range<float>();
  for (std::size_t bins : {12285, 12288}) {
    auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(bins);
    const std::uint64_t left = gp::histogram_even(gp::cuda, d_floats, counts, lo, hi);
    expect_histogram(
        gp::to_host(counts), left,
        reference_histogram_even<std::uint32_t>(std::span<const float>(floats), bins, lo, hi),
        "floats, bins=" + std::to_string(bins));
  }
}

TEST_F(cuda_test, histogram_edges_nan_inf_and_bounds) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> x = {
      0.0f, -0.0f, 1.0f, 2.5f, std::nextafter(4.0f, 0.0f), 4.0f, std::nextafter(0.0f, -1.0f),
      nan,  inf,   -inf};
  const auto d = gp::to_device(x);
  auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(4);
  EXPECT_EQ(gp::histogram_even(gp::cuda, d, counts, 0.0f, 4.0f), 5u);
  EXPECT_EQ(gp::to_host(counts), (std::vector<std::uint32_t>{2, 1, 1, 1}));
  auto c3 = poisoned_counts_on<cuda_side, std::uint64_t>(3);
  EXPECT_EQ(gp::histogram_range(gp::cuda, d, c3, std::vector<float>{-0.0f, 1.0f, 2.5f, 4.0f}), 5u);
  EXPECT_EQ(gp::to_host(c3), (std::vector<std::uint64_t>{2, 1, 2}));
}

TEST_F(cuda_test, histogram_of_empty_input_zeroes_counts) {
  gp::device_vector<float> x;
  auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(10);
  EXPECT_EQ(gp::histogram_even(gp::cuda, x, counts, 0.0f, 1.0f), 0u);
  for (auto c : gp::to_host(counts))
    EXPECT_EQ(c, 0u);
}

TEST_F(cuda_test, histogram_range_into_with_device_boundaries) {
  auto rng = make_rng(74);
  const auto x = random_samples<float>(300007, rng);
  const auto boundaries = uneven_boundaries<float>(37);
  const auto d = gp::to_device(x);
  const auto d_boundaries = gp::to_device(boundaries);
  auto counts = poisoned_counts_on<cuda_side, std::uint64_t>(37);
  gp::device_vector<std::uint64_t> left(1);
  gp::histogram_range_into(gp::cuda, d, counts, d_boundaries, left.span());
  expect_histogram(gp::to_host(counts), gp::to_host(left)[0],
                   reference_histogram_range<std::uint64_t>(std::span<const float>(x),
                                                            std::span<const float>(boundaries)),
                   "range_into");
  // Without a left-out output.
  gp::histogram_range_into(gp::cuda, d, counts, d_boundaries);
  EXPECT_EQ(gp::to_host(counts), (reference_histogram_range<std::uint64_t>(
                                      std::span<const float>(x), std::span<const float>(boundaries))
                                      .counts));
}

TEST_F(cuda_test, histogram_bad_arguments_throw_and_leave_counts_untouched) {
  const auto x = gp::to_device(std::vector<float>{0.5f, 1.5f});
  auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(4);
  gp::device_vector<std::uint32_t> empty;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto expect_message = [&](auto&& call, const std::string& text) {
    expect_invalid_argument(call, text);
    for (auto c : gp::to_host(counts))
      ASSERT_EQ(c, poison);
  };
  expect_message([&] { gp::histogram_even(gp::cuda, x, empty, 0.0f, 1.0f); }, "counts is empty");
  expect_message([&] { gp::histogram_even(gp::cuda, x, counts, 1.0f, 0.0f); }, "must be less");
  expect_message([&] { gp::histogram_even(gp::cuda, x, counts, nan, 1.0f); }, "lower is NaN");
  expect_message([&] { gp::histogram_even_into(gp::cuda, x, counts, 0.0f, nan); }, "upper is NaN");
  expect_message(
      [&] {
        gp::histogram_range(gp::cuda, x, counts, std::vector<float>{0, 1, 2, 3});
      },
      "boundaries has 4 entries; 4 bins need 5");
  expect_message(
      [&] {
        gp::histogram_range(gp::cuda, x, counts, std::vector<float>{0, 2, 1, 3, 4});
      },
      "boundaries must increase");
  expect_message(
      [&] {
        gp::histogram_range(gp::cuda, x, counts, std::vector<float>{0, 1, 2, 3, nan});
      },
      "boundaries[4] is NaN");
  const auto short_boundaries = gp::to_device(std::vector<float>{0, 1, 2});
  expect_message([&] { gp::histogram_range_into(gp::cuda, x, counts, short_boundaries); },
                 "boundaries has 3 entries");
}
