// The GPU backend's own selection cases (the shared ones are in
// tests/sides/select_test.cpp): inputs past 2^31 elements, whose counts are
// 64-bit inside the kernel, and streams.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/select.hpp"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

// 2^31 + 5 bytes: copy_if, partition and unique against the host backend.
TEST_F(cuda_test, select_past_two_to_the_31_bytes) {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  std::vector<std::uint8_t> x(n);
  std::uint64_t state = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = static_cast<std::uint8_t>((state >> 59) < 5 ? 0 : (state >> 56));  // runs of zeros
  }
  x[n - 1] = 7;
  const gp::device_vector<std::uint8_t> d = gp::to_device(x);
  gp::device_vector<std::uint8_t> out(n);
  std::vector<std::uint8_t> want(n);
  const auto pred = gp::greater_than<std::uint8_t>(100);
  const std::size_t k = gp::copy_if(gp::cuda, d, out, pred);
  ASSERT_EQ(k, gp::copy_if(gp::host, x, want, pred));
  std::vector<std::uint8_t> got = gp::to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + k, got.begin())) << "copy_if";
  EXPECT_EQ(got[k - 1], want[k - 1]);

  ASSERT_EQ(gp::partition(gp::cuda, d, out, pred), k);
  gp::partition(gp::host, x, want, pred);
  got = gp::to_host(out);
  EXPECT_TRUE(got == want) << "partition";

  const std::size_t u = gp::unique(gp::cuda, d, out);
  ASSERT_EQ(u, gp::unique(gp::host, x, want));
  got = gp::to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + u, got.begin())) << "unique";
}
