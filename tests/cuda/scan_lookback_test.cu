// The single-pass scan with look-back windows other than the default (each
// lane of the look-back warp polling one or several status words; see
// tile_lookback::exclusive_prefix and lab/probes/probe_scan.cu), instantiated
// here so that every width the tuning probe may pick is tested like the
// default. Each width must give the same bits as the one-word walk: every tile's
// prefix is the same left fold of the tiles' aggregates whichever prefix
// the look-back happened to find.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/cuda/device/device_segmented_scan.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/scan_reference.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;
using namespace gpuprim::test;

namespace {

using identity_fetch = gp::detail::unary_fetch<gp::identity>;

// One scan of x with Words status words per look-back lane, a tile of
// Threads x Items elements compiled for MinBlocks blocks per SM (0: the
// library's default shape), the look-back's sleeps (ns), the tiles ahead
// whose input is prefetched into L2, and where a thread keeps its scanned
// elements (gc::scan_staging).
template <int Words, bool Exclusive, int Threads = 0, int Items = 0, int MinBlocks = 0,
          int FirstDelay = gc::scan_first_poll_delay_ns, int PollDelay = 0,
          int Prefetch = gc::scan_prefetch_tiles,
          gc::scan_staging Staging = gc::scan_staging::automatic, class T, class Op>
std::vector<T> scan_with_window(const std::vector<T>& x, T init, Op op) {
  const gp::device_vector<T> in = gp::to_device(x);
  gp::device_vector<T> out(x.size());
  out.fill_bytes(0xA5);
  gc::launch_scan<Exclusive, Threads, Words, Items, MinBlocks, FirstDelay, PollDelay, Prefetch,
                  Staging>(in.data(), out.data(), x.size(), init, op, identity_fetch{}, nullptr);
  return gp::to_host(out);
}

// A segmented sum of 32-bit values (wrapping, so exact) with one-byte head
// flags that start `flag_offset` bytes into their buffer (an odd offset
// leaves them unaligned for the vector loads): `launch(in, flags, out, n)`.
template <class Launch>
std::vector<std::uint32_t> segmented_sum(const std::vector<std::uint32_t>& x,
                                         const std::vector<std::uint8_t>& flags,
                                         std::size_t flag_offset, const Launch& launch) {
  std::vector<std::uint8_t> padded(flag_offset, 0xEE);
  padded.insert(padded.end(), flags.begin(), flags.end());
  const gp::device_vector<std::uint32_t> in = gp::to_device(x);
  const gp::device_vector<std::uint8_t> d_flags = gp::to_device(padded);
  gp::device_vector<std::uint32_t> out(x.size());
  out.fill_bytes(0xA5);
  launch(in.data(), d_flags.data() + flag_offset, out.data(), x.size());
  return gp::to_host(out);
}

// The launch of the scan over (value, head) pairs, on the given tile.
template <bool Exclusive, int Threads = 0, int Items = 0, int MinBlocks = 0,
          gc::scan_staging Staging = gc::scan_staging::automatic>
auto pair_scan(std::uint32_t init) {
  return [init](const std::uint32_t* in, const std::uint8_t* f, std::uint32_t* out, std::size_t n) {
    using pair = gp::flagged<std::uint32_t>;
    const auto scan = [&](auto fetch) {
      gc::launch_scan<false, Threads, gc::scan_lookback_words, Items, MinBlocks, 0, 0,
                      gc::scan_prefetch_tiles, Staging>(in, out, n, pair{},
                                                        gp::segmented<gp::plus>{}, fetch, nullptr);
    };
    if constexpr (Exclusive) {
      scan(gp::detail::exclusive_head_flag_fetch<std::uint32_t, std::uint32_t, std::uint8_t>{in, f,
                                                                                             init});
    } else {
      scan(gp::detail::head_flag_fetch<std::uint32_t, std::uint8_t>{f});
    }
  };
}

// The launch of the segmented kernel (device_segmented_scan.cuh), as the
// library launches it for 4-byte values.
template <bool Exclusive>
auto segmented_kernel(std::uint32_t init) {
  return [init](const std::uint32_t* in, const std::uint8_t* f, std::uint32_t* out, std::size_t n) {
    gc::launch_segmented_scan<Exclusive>(in, f, out, n, init, gp::plus{}, nullptr, -1);
  };
}

// Sizes with one tile, a few, and hundreds (walks over several windows).
std::vector<std::size_t> lookback_sizes() {
  return test_sizes({1, 8193, 100003, 3'000'017});
}

}  // namespace

TEST_F(cuda_test, scan_lookback_windows_give_the_default_bits) {
  auto rng = make_rng(57);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (std::size_t n : lookback_sizes()) {
    std::vector<float> x(n);
    for (auto& v : x)
      v = d(rng);
    const std::string what = "n=" + std::to_string(n);
    const auto inclusive = scan_with_window<1, false>(x, 0.0f, gp::plus{});
    const auto exclusive = scan_with_window<1, true>(x, 0.5f, gp::plus{});
    expect_same_bytes(scan_with_window<2, false>(x, 0.0f, gp::plus{}), inclusive,
                      what + " inclusive, 2 words");
    expect_same_bytes(scan_with_window<4, false>(x, 0.0f, gp::plus{}), inclusive,
                      what + " inclusive, 4 words");
    expect_same_bytes(scan_with_window<4, true>(x, 0.5f, gp::plus{}), exclusive,
                      what + " exclusive, 4 words");
    // Sleeps in the look-back change which prefix a tile finds, not the bits.
    expect_same_bytes((scan_with_window<2, false, 0, 0, 0, 1100, 700>(x, 0.0f, gp::plus{})),
                      inclusive, what + " inclusive, 2 words, sleeps");
    expect_same_bytes((scan_with_window<2, true, 0, 0, 0, 0, 200>(x, 0.5f, gp::plus{})), exclusive,
                      what + " exclusive, 2 words, sleeps");
    // Prefetching (none, or further ahead than the default) changes no bits.
    expect_same_bytes((scan_with_window<2, false, 0, 0, 0, 0, 0, 0>(x, 0.0f, gp::plus{})),
                      inclusive, what + " inclusive, 2 words, no prefetch");
    expect_same_bytes((scan_with_window<2, true, 0, 0, 0, 0, 0, 1024>(x, 0.5f, gp::plus{})),
                      exclusive, what + " exclusive, 2 words, prefetch 1024 tiles");
  }
}

// A non-commutative operator on a value too large to ride in a status word
// (the side-array path), exact: any fold out of order would show.
TEST_F(cuda_test, scan_lookback_windows_keep_the_order_of_a_matrix_product) {
  auto rng = make_rng(58);
  for (std::size_t n : lookback_sizes()) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    const auto want = reference_inclusive_scan<mat2>(std::span<const mat2>(x), mat2_product{});
    ASSERT_EQ((scan_with_window<2, false>(x, mat2_identity(), mat2_product{})), want)
        << "2 words, n=" << n;
    ASSERT_EQ((scan_with_window<4, false>(x, mat2_identity(), mat2_product{})), want)
        << "4 words, n=" << n;
  }
}

// The tile shapes the probe tries (lab/probes/probe_scan.cu: more elements per
// tile, fewer tiles to look back over): 32-bit sums, exact (wrapping), equal
// to a sequential loop, inclusive and exclusive.
TEST_F(cuda_test, scan_tile_shapes_sum_like_a_loop) {
  auto rng = make_rng(59);
  for (std::size_t n : lookback_sizes()) {
    std::vector<std::uint32_t> x(n);
    for (auto& v : x)
      v = static_cast<std::uint32_t>(rng());
    std::vector<std::uint32_t> inclusive(n), exclusive(n);
    std::uint32_t running = 0;
    for (std::size_t i = 0; i < n; ++i) {
      exclusive[i] = running + 9u;
      running += x[i];
      inclusive[i] = running;
    }
    const std::string what = "n=" + std::to_string(n);
    const auto check = [&]<int Threads, int Items, int MinBlocks>(const char* shape) {
      EXPECT_EQ((scan_with_window<2, false, Threads, Items, MinBlocks>(x, 0u, gp::plus{})),
                inclusive)
          << what << " inclusive, " << shape;
      EXPECT_EQ((scan_with_window<2, true, Threads, Items, MinBlocks>(x, 9u, gp::plus{})),
                exclusive)
          << what << " exclusive, " << shape;
    };
    check.template operator()<512, 16, 4>("512 x 16, 4 blocks (the earlier default)");
    check.template operator()<512, 20, 3>("512 x 20, 3 blocks");
    check.template operator()<512, 20, 2>("512 x 20, 2 blocks");
    check.template operator()<384, 24, 2>("384 x 24");
    check.template operator()<256, 40, 3>("256 x 40");
    check.template operator()<256, 32, 4>("256 x 32");
    check.template operator()<128, 24, 16>("128 x 24, 16 blocks");
    check.template operator()<128, 24, 12>("128 x 24, 12 blocks");
    check.template operator()<256, 24, 8>("256 x 24, 8 blocks");
  }
}

// Keeping a thread's elements in registers or scanning them again from the
// staged buffer (scan_staging::rescan) folds them in the same order: the
// same bits, inclusive and exclusive, on the default tile and another.
TEST_F(cuda_test, scan_rescan_staging_gives_the_register_bits) {
  auto rng = make_rng(60);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  constexpr int p = gc::scan_prefetch_tiles;
  constexpr auto rescan = gc::scan_staging::rescan;
  constexpr auto registers = gc::scan_staging::registers;
  for (std::size_t n : lookback_sizes()) {
    std::vector<float> x(n);
    for (auto& v : x)
      v = d(rng);
    const std::string what = "n=" + std::to_string(n);
    expect_same_bytes(
        (scan_with_window<2, false, 0, 0, 0, 0, 0, p, rescan>(x, 0.0f, gp::plus{})),
        (scan_with_window<2, false, 0, 0, 0, 0, 0, p, registers>(x, 0.0f, gp::plus{})),
        what + " inclusive, default tile");
    expect_same_bytes((scan_with_window<2, true, 0, 0, 0, 0, 0, p, rescan>(x, 0.5f, gp::plus{})),
                      (scan_with_window<2, true, 0, 0, 0, 0, 0, p, registers>(x, 0.5f, gp::plus{})),
                      what + " exclusive, default tile");
    expect_same_bytes(
        (scan_with_window<2, false, 512, 16, 2, 0, 0, p, rescan>(x, 0.0f, gp::plus{})),
        (scan_with_window<2, false, 512, 16, 2, 0, 0, p, registers>(x, 0.0f, gp::plus{})),
        what + " inclusive, 512 x 16");
  }
}

// The head-flag bit mask a thread builds from 8- and 16-byte flag loads
// (cuda/support/thread_fetch.cuh) against a byte-by-byte loop.
TEST(scan_head_flags, nonzero_byte_bits_matches_a_loop) {
  static_assert(gc::nonzero_byte_bits(0) == 0);
  static_assert(gc::nonzero_byte_bits(0x0100000000000001ull) == 0x81);
  static_assert(gc::nonzero_byte_bits(0xff80017f00000000ull) == 0xf0);
  auto rng = make_rng(61);
  for (int trial = 0; trial < 100000; ++trial) {
    std::uint64_t w = 0;
    for (int b = 0; b < 8; ++b) {
      // Mostly 0 and 1, some other values (any nonzero byte is a head).
      const auto r = rng() % 8;
      const std::uint64_t byte = r < 4 ? 0 : r < 6 ? 1 : (rng() % 255) + 1;
      w |= byte << (8 * b);
    }
    unsigned want = 0;
    for (int b = 0; b < 8; ++b)
      want |= ((w >> (8 * b)) & 0xff) != 0 ? 1u << b : 0u;
    ASSERT_EQ(gc::nonzero_byte_bits(w), want) << std::hex << w;
  }
}

// Segmented sums with head flags loaded as vectors into a bit mask, on the
// segmented kernel and on the pair scan's default tile (rescan staging for
// the (value, head) pairs) and others,
// with the flags aligned and not, and flag bytes other than 0 and 1.
TEST_F(cuda_test, segmented_scan_tiles_and_flag_alignments_sum_like_a_loop) {
  auto rng = make_rng(62);
  for (std::size_t n : lookback_sizes()) {
    std::vector<std::uint32_t> x(n);
    std::vector<std::uint8_t> flags(n);
    for (std::size_t i = 0; i < n; ++i) {
      x[i] = static_cast<std::uint32_t>(rng());
      const auto r = rng() % 64;
      flags[i] = r == 0 ? 1 : r == 1 ? 0x80 : r == 2 ? 0xff : 0;
    }
    std::vector<std::uint32_t> inclusive(n), exclusive(n);
    for (std::size_t i = 0; i < n; ++i) {
      const bool head = i == 0 || flags[i] != 0;
      inclusive[i] = head ? x[i] : inclusive[i - 1] + x[i];
      exclusive[i] = head ? 7u : exclusive[i - 1] + x[i - 1];
    }
    const std::string what = "n=" + std::to_string(n);
    for (std::size_t offset : {0, 1, 8}) {
      const std::string where = what + ", flags at +" + std::to_string(offset);
      EXPECT_EQ(segmented_sum(x, flags, offset, pair_scan<false>(0)), inclusive)
          << where << " inclusive";
      EXPECT_EQ(segmented_sum(x, flags, offset, pair_scan<true>(7)), exclusive)
          << where << " exclusive";
      EXPECT_EQ(segmented_sum(x, flags, offset, segmented_kernel<false>(0)), inclusive)
          << where << " segmented kernel, inclusive";
      EXPECT_EQ(segmented_sum(x, flags, offset, segmented_kernel<true>(7)), exclusive)
          << where << " segmented kernel, exclusive";
    }
    constexpr auto rescan = gc::scan_staging::rescan;
    constexpr auto registers = gc::scan_staging::registers;
    EXPECT_EQ(segmented_sum(x, flags, 0, pair_scan<false, 512, 16, 2, registers>(0)), inclusive)
        << what << " 512 x 16 in registers";
    EXPECT_EQ(segmented_sum(x, flags, 0, pair_scan<true, 512, 16, 2, registers>(7)), exclusive)
        << what << " 512 x 16 in registers, exclusive";
    EXPECT_EQ(segmented_sum(x, flags, 0, pair_scan<false, 512, 16, 3, rescan>(0)), inclusive)
        << what << " 512 x 16 rescan";
    EXPECT_EQ(segmented_sum(x, flags, 0, pair_scan<false, 256, 24, 4, rescan>(0)), inclusive)
        << what << " 256 x 24 rescan (8-byte flag loads)";
    EXPECT_EQ(segmented_sum(x, flags, 0, pair_scan<false, 256, 36, 4, rescan>(0)), inclusive)
        << what << " 256 x 36 rescan (byte loads: 36 is no multiple of 8)";
  }
}
