// Segmented scans: the cases of the GPU alone, from plain C++
// (precompiled); the cases of both backends are in
// tests/sides/segmented_scan_test.cpp. Skips without a device.
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
