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
#include "support/histogram_cases.hpp"
#include "support/histogram_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, histogram_bytes_every_value_and_runs) {
  // The identity byte path (256 bins over [0, 256)) and the fold into 64
  // and 255 bins, with long runs of one value (every lane of a warp on one
  // entry).
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

// One-byte samples are counted by the byte and each block's 256 per-byte
// counts folded into the bins at its end: every bin count and binning
// gives the host backend's counts and left-out count. Random bytes and runs
// of 4096 equal bytes (every lane of a warp on one entry), odd sizes, empty,
// a start off a 16-byte boundary; even bins over ranges that leave byte
// values out (or over more than the bytes), uneven boundaries, the NumPy
// rule; more bins than bytes, up to the most whose sums fit in shared
// memory (12288) and past it (the fold straight to the global counters).
TEST_F(cuda_test, histogram_bytes_folded_into_every_binning_like_the_host) {
  auto rng = make_rng(75);
  const std::size_t longest = (1u << 22) + 13;
  const auto random = random_samples<std::uint8_t>(longest, rng);
  const std::vector<std::uint8_t> runs = [&] {
    std::vector<std::uint8_t> r(longest);
    for (std::size_t i = 0; i < r.size(); ++i)
      r[i] = static_cast<std::uint8_t>((i / 4096) * 37);
    return r;
  }();
  struct even_bins {
    std::size_t bins;
    std::int64_t lower, upper;
  };
  const std::vector<even_bins> evens = {
      {64, 0, 256},   {100, 0, 256},   {1, 0, 256},         {255, 0, 256}, {256, 0, 256},
      {256, 10, 250}, {64, 10, 250},   {100, -20, 300},     {1, 100, 101}, {255, 1, 256},
      {300, 0, 256},  {12288, 0, 256}, {20000, -5000, 5000}};
  std::vector<std::int64_t> uneven(101);  // bytes 0-4 and 255 left out
  for (std::size_t i = 0; i < uneven.size(); ++i)
    uneven[i] = 5 + 2 * std::int64_t(i) + (i > 50 ? std::int64_t(i) - 50 : 0);
  const std::vector<std::vector<std::int64_t>> boundary_sets = {
      uneven, {3, 5, 40, 41, 100, 200, 201, 250}, {0, 256}};
  const auto numpy = gp::numpy_bins::with_range<std::uint8_t>(7.5, 250.25);

  for (const auto* data : {&random, &runs}) {
    const auto d = gp::to_device(*data);
    for (std::size_t n : test_sizes({0, 1, 15, 4097, (1u << 20) + 7, longest - 3})) {
      for (std::size_t offset : {std::size_t{0}, std::size_t{3}}) {
        if (offset + n > longest) continue;
        const auto host = std::span<const std::uint8_t>(*data).subspan(offset, n);
        const auto part = d.span().subspan(offset, n);
        const std::string what = std::string(data == &random ? "random" : "runs") +
                                 " n=" + std::to_string(n) + " offset=" + std::to_string(offset);
        // The GPU's counts of `bins` bins and its left-out count against
        // the host's (made by `host_call` into host counts).
        const auto expect_like_host = [&](std::size_t bins, auto gpu_call, auto host_call,
                                          const std::string& binning) {
          auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(bins);
          const std::uint64_t left = gpu_call(counts);
          std::vector<std::uint32_t> want(bins, 7);
          const std::uint64_t want_left = host_call(want);
          ASSERT_EQ(gp::to_host(counts), want) << what << ", " << binning;
          ASSERT_EQ(left, want_left) << what << ", " << binning;
        };
        for (const auto& e : evens) {
          expect_like_host(
              e.bins,
              [&](auto& c) { return gp::histogram_even(gp::cuda, part, c, e.lower, e.upper); },
              [&](auto& c) { return gp::histogram_even(gp::host, host, c, e.lower, e.upper); },
              std::to_string(e.bins) + " even bins over [" + std::to_string(e.lower) + ", " +
                  std::to_string(e.upper) + ")");
          if (HasFatalFailure()) return;
        }
        for (const auto& b : boundary_sets) {
          expect_like_host(
              b.size() - 1, [&](auto& c) { return gp::histogram_range(gp::cuda, part, c, b); },
              [&](auto& c) { return gp::histogram_range(gp::host, host, c, b); },
              std::to_string(b.size() - 1) + " bins between boundaries");
          if (HasFatalFailure()) return;
        }
        for (std::size_t bins : {10, 64, 256}) {
          expect_like_host(
              bins, [&](auto& c) { return gp::histogram_even(gp::cuda, part, c, numpy); },
              [&](auto& c) { return gp::histogram_even(gp::host, host, c, numpy); },
              std::to_string(bins) + " bins, NumPy's rule");
          if (HasFatalFailure()) return;
        }
      }
    }
  }
}

// Bin counts at the shared-memory edges: bytes with about 12030 bins (the
// fold's per-bin sums and the sub-histogram of the bytes just past 48 KiB of
// static plus dynamic shared memory), 12288 (the most folded in shared
// memory) and 12289 (folded into the global counters), floats with 12288
// bins (one 48 KiB sub-histogram plus the kernel's static shared memory),
// and a large launch after a smaller one of the same kernel (the opt-in
// size must not shrink).
TEST_F(cuda_test, histogram_bin_counts_at_the_shared_memory_limit) {
  auto rng = make_rng(73);
  const std::size_t n = (1u << 20) + 3;
  const auto bytes = random_samples<std::uint8_t>(n, rng);
  const auto d_bytes = gp::to_device(bytes);
  for (std::size_t bins : {12000, 12028, 12032, 12040, 12288, 12289, 12100, 12288}) {
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

// The asynchronous forms' refusals; those of both backends are in
// tests/sides/histogram_test.cpp.
TEST_F(cuda_test, histogram_into_bad_arguments_throw_and_leave_counts_untouched) {
  const auto x = gp::to_device(std::vector<float>{0.5f, 1.5f});
  auto counts = poisoned_counts_on<cuda_side, std::uint32_t>(4);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto short_boundaries = gp::to_device(std::vector<float>{0, 1, 2});
  expect_refused_leaving<cuda_side>(
      counts, [&] { gp::histogram_even_into(gp::cuda, x, counts, 0.0f, nan); }, "upper is NaN");
  expect_refused_leaving<cuda_side>(
      counts, [&] { gp::histogram_range_into(gp::cuda, x, counts, short_boundaries); },
      "boundaries has 3 entries");
}
