// GPU histograms with user classifiers (instantiated here from
// gpuprim/cuda/histogram.cuh).
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "gpuprim/cuda/histogram.cuh"
#include "support/cuda_fixture.hpp"
#include "support/histogram_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

// Bin = v mod 13 for non-negative v; negatives and bins past the end are left out.
struct mod13 {
  __host__ __device__ int operator()(std::int32_t v) const { return v < 0 ? -1 : v % 13; }
};

template <class C, class T, class F>
reference_histogram<C> reference_classified(const std::vector<T>& x, std::size_t bins, F f) {
  reference_histogram<C> r(bins);
  for (const T& v : x) {
    const auto b = f(v);
    if (b >= 0 && static_cast<std::size_t>(b) < bins) {
      ++r.counts[b];
    } else {
      ++r.left_out;
    }
  }
  return r;
}

TEST_F(cuda_test, histogram_custom_classifier_at_every_size) {
  auto rng = make_rng(81);
  for (std::size_t n : standard_sizes()) {
    const auto x = random_samples<std::int32_t>(n, rng);
    const auto d = gp::to_device(x);
    for (std::size_t bins : {10, 13, 20000}) {
      gp::device_vector<std::uint32_t> counts(bins);
      counts.fill_bytes(0xA5);
      const std::uint64_t left = gp::histogram(gp::cuda, d, counts, mod13{});
      const auto want = reference_classified<std::uint32_t>(x, bins, mod13{});
      ASSERT_EQ(gp::to_host(counts), want.counts) << "n=" << n << " bins=" << bins;
      ASSERT_EQ(left, want.left_out) << "n=" << n << " bins=" << bins;
    }
  }
}

// An unsigned classifier over bytes: the byte path builds its table from it,
// and 1000 is past the last bin.
struct parity_of_high_nibble {
  __host__ __device__ unsigned operator()(std::uint8_t v) const {
    return v >= 240 ? 1000u : (v >> 4) & 1u;
  }
};

TEST_F(cuda_test, histogram_byte_classifier_and_async_form) {
  auto rng = make_rng(82);
  const auto x = random_samples<std::uint8_t>((1u << 20) + 7, rng);
  const auto d = gp::to_device(x);
  gp::device_vector<std::uint64_t> counts(2), left(1);
  gp::histogram_into(gp::cuda, d, counts, parity_of_high_nibble{}, left.span());
  const auto want = reference_classified<std::uint64_t>(
      x, 2, [](std::uint8_t v) { return static_cast<long long>(parity_of_high_nibble{}(v)); });
  EXPECT_EQ(gp::to_host(counts), want.counts);
  EXPECT_EQ(gp::to_host(left)[0], want.left_out);
}

// int8 samples are not precompiled: the templates compile them here. Bytes
// take the fold of per-byte counts for every bin count; the GPU's counts
// and left-out count equal the reference's, for ranges that leave values
// out and ranges past the type's, on spread values and on runs.
TEST_F(cuda_test, histogram_even_of_int8_samples) {
  auto rng = make_rng(83);
  const auto random = random_samples<std::int8_t>((1u << 20) + 7, rng);
  const std::vector<std::int8_t> runs = [&] {
    std::vector<std::int8_t> r(100001);
    for (std::size_t i = 0; i < r.size(); ++i)
      r[i] = static_cast<std::int8_t>((i / 4096) * 37);
    return r;
  }();
  for (const auto* x : {&random, &runs}) {
    const auto d = gp::to_device(*x);
    for (std::size_t bins : {1, 16, 64, 100, 255, 256, 300}) {
      for (auto [lower, upper] : {std::pair{-100, 100}, std::pair{-128, 128}, std::pair{0, 300}}) {
        gp::device_vector<std::uint32_t> counts(bins);
        counts.fill_bytes(0xA5);
        const std::uint64_t left = gp::histogram_even(gp::cuda, d, counts, lower, upper);
        const auto want = reference_histogram_even<std::uint32_t>(std::span<const std::int8_t>(*x),
                                                                  bins, lower, upper);
        ASSERT_EQ(gp::to_host(counts), want.counts) << "bins=" << bins << " lower=" << lower;
        ASSERT_EQ(left, want.left_out) << "bins=" << bins << " lower=" << lower;
      }
    }
  }
}

// A classifier over bytes into many bins (more than the bytes, more than
// fit in shared memory) and into one: the fold calls it once per byte value.
// Multiples of 3 are rejected, other multiples of 5 go to bin 0, the rest
// far apart.
struct spread_bytes {
  __host__ __device__ int operator()(std::uint8_t v) const {
    return v % 3 == 0 ? -1 : (v % 5 == 0 ? 0 : v * 77);
  }
};

TEST_F(cuda_test, histogram_byte_classifier_into_many_bins) {
  auto rng = make_rng(84);
  const auto x = random_samples<std::uint8_t>((1u << 20) + 9, rng);
  const auto d = gp::to_device(x);
  for (std::size_t bins : {1, 300, 12288, 20000}) {
    gp::device_vector<std::uint64_t> counts(bins);
    counts.fill_bytes(0xA5);
    const std::uint64_t left = gp::histogram(gp::cuda, d, counts, spread_bytes{});
    const auto want = reference_classified<std::uint64_t>(x, bins, spread_bytes{});
    ASSERT_EQ(gp::to_host(counts), want.counts) << "bins=" << bins;
    ASSERT_EQ(left, want.left_out) << "bins=" << bins;
  }
}
