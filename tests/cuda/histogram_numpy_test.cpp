// histogram_even with gp::numpy_bins on the GPU (precompiled kernels, and the
// asynchronous form): numpy.histogram's counts (tests/data/histogram).
// Skips without a device.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/histogram.hpp"
#include "support/cuda_fixture.hpp"
#include "support/histogram_numpy_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, histogram_numpy_every_numpy_case) {
  check_every_numpy_case<cuda_side>();
}

TEST_F(cuda_test, histogram_numpy_two_million_floats_into_100000_bins) {
  check_large_numpy_case<cuda_side>();
}

// histogram_even_into with 32-bit counters: the same counts as the host,
// over bin counts that take each kernel (byte table, shared and global
// atomics).
TEST_F(cuda_test, histogram_numpy_async_form_matches_the_host) {
  const std::vector<float> x = large_numpy_case_samples();
  const gp::device_vector<float> d = gp::to_device(x);
  for (std::size_t bins : {1u, 10u, 1024u, 12289u, 100000u}) {
    const auto spec = gp::numpy_bins::of_data<float>(0.0f, 0.75f);
    std::vector<std::uint32_t> want(bins);
    const std::uint64_t want_left = gp::histogram_even(gp::host, x, want, spec);
    gp::device_vector<std::uint32_t> counts(bins);
    gp::device_vector<std::uint64_t> left_out(1);
    gp::histogram_even_into(gp::cuda, d, counts, spec, left_out.span());
    EXPECT_EQ(gp::to_host(counts), want) << bins << " bins";
    EXPECT_EQ(gp::to_host(left_out)[0], want_left) << bins << " bins";
  }
  std::vector<std::uint8_t> bytes(100000);
  for (std::size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<std::uint8_t>(i * 7919 % 251);
  const auto spec = gp::numpy_bins::of_data<std::uint8_t>(0, 250);
  std::vector<std::uint32_t> want(17), got(17);
  gp::histogram_even(gp::host, bytes, want, spec);
  gp::device_vector<std::uint32_t> counts(17);
  gp::histogram_even(gp::cuda, gp::to_device(bytes), counts, spec);
  EXPECT_EQ(gp::to_host(counts), want);
}
