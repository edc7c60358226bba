// The histogram family on each backend (support/side_test.hpp) against the
// sequential references (the bodies of support/histogram_cases.hpp). The
// backends' own cases are in tests/host/histogram_test.cpp and
// tests/cuda/histogram_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/histogram_cases.hpp"
#include "support/histogram_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// The sample and counter types: on the GPU every precompiled sample type
// with both counter types.
using host_histogram_types = ::testing::Types<
    sample_and_counter<std::uint8_t, std::uint32_t>,
    sample_and_counter<std::uint8_t, std::uint64_t>,
    sample_and_counter<std::int32_t, std::uint32_t>,
    sample_and_counter<std::uint32_t, std::uint64_t>, sample_and_counter<float, std::uint32_t>,
    sample_and_counter<float, std::uint64_t>, sample_and_counter<double, std::uint32_t>>;
using cuda_histogram_types = ::testing::Types<
    sample_and_counter<std::uint8_t, std::uint32_t>,
    sample_and_counter<std::uint8_t, std::uint64_t>,
    sample_and_counter<std::int32_t, std::uint32_t>,
    sample_and_counter<std::int32_t, std::uint64_t>,
    sample_and_counter<std::uint32_t, std::uint32_t>,
    sample_and_counter<std::uint32_t, std::uint64_t>, sample_and_counter<float, std::uint32_t>,
    sample_and_counter<float, std::uint64_t>, sample_and_counter<double, std::uint32_t>,
    sample_and_counter<double, std::uint64_t>>;
using histogram_types = std::conditional_t<on_cuda, cuda_histogram_types, host_histogram_types>;

}  // namespace

SIDE_TYPED_SUITE(histogram, histogram_types);

// Bin counts that take each GPU kernel: byte counters (<= 256 bins of
// bytes), per-warp and shared-by-warps sub-histograms, global atomics
// (100000).
SIDE_TYPED_TEST(histogram, even_bins_at_every_size) {
  auto rng = make_rng(71);
  check_even_bins_at_every_size<side, typename T::sample, typename T::counter>(
      {1, 7, 64, 256, 257, 1024, 5000, 100000}, rng);
}

SIDE_TYPED_TEST(histogram, range_bins_at_every_size) {
  auto rng = make_rng(72);
  check_range_bins_at_every_size<side, typename T::sample, typename T::counter>({1, 5, 200, 1500},
                                                                                rng);
}

SIDE_TYPED_TEST(histogram, all_in_one_bin_none_in_range_one_bin) {
  using S = typename T::sample;
  using C = typename T::counter;
  check_all_in_one_bin_none_in_range_one_bin<side, S, C>(70001, {16});
  check_all_in_one_bin_none_in_range_one_bin<side, S, C>((1u << 20) + 7, {16, 2000, 100000});
}

#if GPUPRIM_TEST_ON_CUDA
// Subspans off a 16-byte boundary: the scalar head and tail around the vectors.
SIDE_TYPED_TEST(histogram, unaligned_subspans_and_async_form) {
  using S = typename T::sample;
  using C = typename T::counter;
  auto rng = make_rng(73);
  const auto x = random_samples<S>(100003, rng);
  const auto d = side::put(x);
  const auto [lo, hi] = partial_range<S>();
  for (std::size_t offset : {1u, 3u, 7u}) {
    const std::size_t n = x.size() - offset - 5;
    const auto part = std::span<const S>(x).subspan(offset, n);
    for (std::size_t bins : {64, 256, 1000}) {
      auto counts = poisoned_counts_on<side, C>(bins);
      auto left = side::filled_bytes<std::uint64_t>(1, 0x77);
      gp::histogram_even_into(side::backend(), side::span(d).subspan(offset, n), counts, lo, hi,
                              side::span(left));
      expect_histogram(side::get(counts), side::get(left)[0],
                       reference_histogram_even<C>(part, bins, lo, hi),
                       "offset=" + std::to_string(offset) + " bins=" + std::to_string(bins));
    }
  }
}
#else
SIDE_TYPED_TEST(histogram, more_bins_than_samples) {
  using S = typename T::sample;
  using C = typename T::counter;
  auto rng = make_rng(63);
  const auto x = random_samples<S>((1u << 20) + 7, rng);
  const auto [lo, hi] = partial_range<S>();
  std::vector<C> counts(100000, C(poison));
  const std::uint64_t left = gp::histogram_even(gp::host.threads(3), x, counts, lo, hi);
  expect_histogram(counts, left, reference_histogram_even<C>(std::span<const S>(x), 100000, lo, hi),
                   "100000 bins");
}
#endif

SIDE_TEST(histogram_edges, float_samples_on_and_next_to_every_edge) {
  check_samples_on_and_next_to_edges<side, float>();
}

SIDE_TEST(histogram_edges, double_samples_on_and_next_to_every_edge) {
  check_samples_on_and_next_to_edges<side, double>();
}

// A refused call says what was wrong and leaves the counts untouched.
SIDE_TEST(histogram_errors, bad_arguments_throw_and_leave_counts_untouched) {
  const auto x = side::put(std::vector<float>{0.5f, 1.5f});
  auto counts = poisoned_counts_on<side, std::uint32_t>(4);
  auto empty = side::put(std::vector<std::uint32_t>{});
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  const auto b = side::backend();
  const auto expect_message = [&](auto&& call, const std::string& text) {
    expect_refused_leaving<side>(counts, call, text);
  };
  expect_message([&] { gp::histogram_even(b, x, empty, 0.0f, 1.0f); }, "counts is empty");
  expect_message([&] { gp::histogram_even(b, x, counts, 1.0f, 1.0f); },
                 "lower (1) must be less than upper (1)");
  expect_message([&] { gp::histogram_even(b, x, counts, 2.0f, 1.0f); }, "must be less");
  expect_message([&] { gp::histogram_even(b, x, counts, nan, 1.0f); }, "lower is NaN");
  expect_message([&] { gp::histogram_even(b, x, counts, 0.0f, nan); }, "upper is NaN");
  expect_message([&] { gp::histogram_even(b, x, counts, -inf, 1.0f); }, "infinite");
  expect_message([&] { gp::histogram_even(b, x, counts, -3e38f, 3e38f); }, "overflows");
  const auto range = [&](std::vector<float> boundaries) {
    return [&, boundaries] { gp::histogram_range(b, x, counts, boundaries); };
  };
  expect_message(range({0, 1, 2, 3}), "boundaries has 4 entries; 4 bins need 5");
  expect_message(range({0, 1, 1, 2, 3}),
                 "boundaries must increase: boundaries[1] = 1 is not less than boundaries[2] = 1");
  expect_message(range({0, 2, 1, 3, 4}), "boundaries[1] = 2 is not less than boundaries[2] = 1");
  expect_message(range({0, 1, 3, 2, 4}), "boundaries[2] = 3 is not less than boundaries[3] = 2");
  expect_message(range({0, nan, 2, 3, 4}), "boundaries[1] is NaN");
  expect_message(range({0, 1, 2, 3, nan}), "boundaries[4] is NaN");
  const auto bytes = side::put(std::vector<std::uint8_t>{1});
  expect_message([&] { gp::histogram_even(b, bytes, counts, 5, 5); },
                 "lower (5) must be less than upper (5)");
}
