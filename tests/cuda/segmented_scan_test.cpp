// Segmented scans: the cases of the GPU alone, from plain C++
// (precompiled); the cases of both backends are in
// tests/sides/segmented_scan_test.cpp. Skips without a device.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <span>
#include <string>
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

namespace {

// Integer-valued elements in [-8, 8] (every partial sum exact in float and
// double; unsigned ones wrap alike on both sides).
template <class T>
std::vector<T> small_integers(std::size_t n, std::mt19937_64& rng) {
  std::vector<T> x(n);
  for (auto& v : x)
    v = static_cast<T>(static_cast<int>(rng() % 17) - 8);
  return x;
}

// Head flags at the given positions (those inside n).
std::vector<std::uint8_t> heads_at(std::size_t n, const std::vector<std::size_t>& positions) {
  std::vector<std::uint8_t> flags(n, 0);
  for (std::size_t p : positions) {
    if (p < n) flags[p] = 1;
  }
  return flags;
}

std::vector<std::size_t> every(std::size_t step, std::size_t from, std::size_t n) {
  std::vector<std::size_t> positions;
  for (std::size_t p = from; p < n; p += step)
    positions.push_back(p);
  return positions;
}

struct layout {
  std::string name;
  std::vector<std::uint8_t> flags;
};

// The segmented kernel's tiles (device_segmented_scan.cuh,
// segmented_scan_tile) are 256 threads x 24 elements of 4 bytes (warps of
// 768, tiles of 6144) and 256 x 8 of 8 bytes (warps of 256, tiles of
// 2048); the pair scan's were 10240. Layouts placing heads on and beside
// those boundaries: a tile starting with a head (no look-back), a tile whose
// first head is inside it (its first warps wait for the look-back while it
// has already published its prefix), tiles with no head at all (they look
// back through tiles that published only their aggregate), every element a
// head, and one segment over the whole array.
std::vector<layout> boundary_layouts(std::size_t n) {
  std::vector<layout> layouts;
  for (std::size_t tile : {std::size_t{2048}, std::size_t{6144}, std::size_t{10240}}) {
    const std::string t = std::to_string(tile);
    layouts.push_back({"heads at every tile start, tile " + t, heads_at(n, every(tile, 0, n))});
    layouts.push_back(
        {"heads one past each tile start, tile " + t, heads_at(n, every(tile, 1, n))});
    layouts.push_back(
        {"heads at each tile's last element, tile " + t, heads_at(n, every(tile, tile - 1, n))});
    layouts.push_back(
        {"a head every 3.5 tiles, tile " + t, heads_at(n, every(tile * 7 / 2, 0, n))});
  }
  layouts.push_back({"heads at warp starts (768)", heads_at(n, every(768, 0, n))});
  layouts.push_back({"heads at warp starts (256)", heads_at(n, every(256, 0, n))});
  layouts.push_back({"heads at thread starts (24)", heads_at(n, every(24, 0, n))});
  layouts.push_back({"heads mid-warp (every 1000 from 517)", heads_at(n, every(1000, 517, n))});
  layouts.push_back({"every element a head", std::vector<std::uint8_t>(n, 1)});
  layouts.push_back({"one segment", std::vector<std::uint8_t>(n, 0)});
  layouts.push_back({"one segment from element 9000 on", heads_at(n, {9000})});
  return layouts;
}

template <class T>
class cuda_segmented_scan_layouts : public gpuprim::test::typed_cuda_test<T> {};
using segmented_value_types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(cuda_segmented_scan_layouts, segmented_value_types);

// Exact against the sequential reference, inclusive and exclusive, for
// every boundary layout, on sizes with a partial last tile and warp (odd n),
// one element short of a tile, several whole tiles, and none; the values
// and flags also start one element into their buffers (unaligned: the
// scalar paths of the value staging and of the flag loads).
TYPED_TEST(cuda_segmented_scan_layouts, heads_at_tile_and_warp_boundaries_match_the_reference) {
  using T = TypeParam;
  auto rng = make_rng(64);
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{6143}, std::size_t{61440},
                        std::size_t{100003}}) {
    const auto x = small_integers<T>(n + 1, rng);
    const auto dx = gp::to_device(x);
    for (const layout& l : boundary_layouts(n + 1)) {
      const auto dflags = gp::to_device(l.flags);
      for (const std::size_t shift : {std::size_t{0}, std::size_t{1}}) {
        // The first n elements from `shift` on.
        const std::span<const T> xs(x.data() + shift, n);
        const std::vector<std::uint8_t> fs(l.flags.begin() + shift, l.flags.begin() + shift + n);
        const gp::device_span<const T> v(dx.data() + shift, n);
        const gp::device_span<const std::uint8_t> f(dflags.data() + shift, n);
        const std::string what = l.name + ", n=" + std::to_string(n) + (shift ? ", unaligned" : "");
        gp::device_vector<T> out(n + 1);
        out.fill_bytes(0xA5);
        const gp::device_span<T> o(out.data() + shift, n);
        gp::inclusive_segmented_scan(gp::cuda, v, f, o);
        const auto got = gp::to_host(out);
        const auto want = reference_segmented_scan<T>(xs, fs, false, T{}, gp::plus{});
        ASSERT_EQ(std::vector<T>(got.begin() + shift, got.begin() + shift + n), want)
            << what << " inclusive";
        gp::exclusive_segmented_scan(gp::cuda, v, f, o, T(3));
        const auto got_ex = gp::to_host(out);
        const auto want_ex = reference_segmented_scan<T>(xs, fs, true, T(3), gp::plus{});
        ASSERT_EQ(std::vector<T>(got_ex.begin() + shift, got_ex.begin() + shift + n), want_ex)
            << what << " exclusive";
      }
    }
  }
}

}  // namespace
