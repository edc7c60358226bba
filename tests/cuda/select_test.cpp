// The GPU backend's own selection cases (the shared ones are in
// tests/sides/select_test.cpp), against the host backend: inputs past 2^31
// elements, whose counts are 64-bit inside the kernel; grids of many more
// tiles than the look-back's window; runs that span tiles or start exactly
// on tile and warp boundaries (whose values the look-back carries).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/select.hpp"
#include "support/cuda_fixture.hpp"
#include "support/test_data.hpp"

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

namespace {

// Keys in runs of the given lengths, cycled until n keys.
std::vector<std::int32_t> keys_in_runs_of(std::size_t n, const std::vector<std::size_t>& lengths) {
  std::vector<std::int32_t> keys(n);
  std::int32_t key = 0;
  for (std::size_t i = 0, r = 0; i < n; ++r, ++key) {
    const std::size_t length = lengths[r % lengths.size()];
    for (std::size_t j = 0; j < length && i < n; ++j)
      keys[i++] = key;
  }
  return keys;
}

// unique, run_length_encode and reduce_by_key (int32 and float values, sums
// exact in both) of `keys` on the GPU against the host backend.
void expect_runs_match_host(const std::vector<std::int32_t>& keys, const std::string& what) {
  const std::size_t n = keys.size();
  std::vector<std::int32_t> values(n);
  std::vector<float> fvalues(n);
  for (std::size_t i = 0; i < n; ++i) {
    values[i] = static_cast<std::int32_t>(i % 7) - 3;
    fvalues[i] = static_cast<float>(i % 5);
  }
  const auto d_keys = gp::to_device(keys);
  gp::device_vector<std::int32_t> d_out(n), d_sums(n);
  std::vector<std::int32_t> want(n), want_sums(n);

  const std::size_t runs = gp::unique(gp::host, keys, want);
  ASSERT_EQ(gp::unique(gp::cuda, d_keys, d_out), runs) << what;
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + runs, gp::to_host(d_out).begin()))
      << what << ": unique";

  gp::device_vector<std::int64_t> d_lengths(n);
  std::vector<std::int64_t> want_lengths(n);
  ASSERT_EQ(gp::run_length_encode(gp::host, keys, want, want_lengths), runs);
  ASSERT_EQ(gp::run_length_encode(gp::cuda, d_keys, d_out, d_lengths), runs) << what;
  auto lengths = gp::to_host(d_lengths);
  EXPECT_TRUE(std::equal(want_lengths.begin(), want_lengths.begin() + runs, lengths.begin()))
      << what << ": run lengths";

  ASSERT_EQ(gp::reduce_by_key(gp::host, keys, values, want, want_sums), runs);
  ASSERT_EQ(gp::reduce_by_key(gp::cuda, d_keys, gp::to_device(values), d_out, d_sums), runs)
      << what;
  auto sums = gp::to_host(d_sums);
  auto out = gp::to_host(d_out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + runs, out.begin())) << what << ": keys";
  for (std::size_t r = 0; r < runs; ++r)
    ASSERT_EQ(sums[r], want_sums[r]) << what << ": run " << r << " of " << runs;

  // Outputs of exactly `runs` elements: counted first, then filled.
  std::vector<float> want_fsums(runs);
  std::vector<std::int32_t> want_keys(runs);
  ASSERT_EQ(gp::reduce_by_key(gp::host, keys, fvalues, want_keys, want_fsums), runs);
  gp::device_vector<std::int32_t> d_keys_out(runs);
  gp::device_vector<float> d_fsums(runs);
  ASSERT_EQ(gp::reduce_by_key(gp::cuda, d_keys, gp::to_device(fvalues), d_keys_out, d_fsums), runs)
      << what;
  EXPECT_EQ(gp::to_host(d_keys_out), want_keys) << what << ": float keys";
  EXPECT_EQ(gp::to_host(d_fsums), want_fsums) << what << ": float sums";
}

// The sizes of the two tests below: over 700 tiles of every kernel shape
// (more than the look-back's window of 64 tiles), or fewer (a dozen or
// more) under a GPUPRIM_TEST_MAX_SIZE cap (the sanitizer runs).
std::size_t many_tiles(std::size_t n) {
  return std::min(n, std::max<std::size_t>(test_size_cap(), 50'001));
}

}  // namespace

// One run over everything, runs of 1 to 40000 keys around the tile and warp
// sizes (4096 and 6144 elements a tile, 384 and 768 a warp), runs aligned
// with every tile boundary, and a head on every element.
TEST_F(cuda_test, select_runs_spanning_tiles_and_tile_boundaries) {
  const std::size_t n = many_tiles(3 * (std::size_t{1} << 20) + 11);
  expect_runs_match_host(std::vector<std::int32_t>(n, 5), "one run");
  expect_runs_match_host(keys_in_runs_of(n, {1, 2, 31, 32, 33, 383, 384, 385, 767, 768, 769, 4095,
                                             4096, 4097, 6143, 6144, 6145, 12288, 40000}),
                         "runs around the tile sizes");
  expect_runs_match_host(keys_in_runs_of(n, {2048}), "runs aligned with the tiles");
  expect_runs_match_host(keys_in_runs_of(n, {1}), "every element a run");
}

// copy_if, count_if, copy_flagged, both partitions and the three-way one,
// against the host backend.
TEST_F(cuda_test, select_many_tiles) {
  const std::size_t n = many_tiles((std::size_t{1} << 22) + 3);
  std::vector<float> x(n);
  std::vector<std::uint8_t> flags(n);
  std::uint64_t state = 12345;
  for (std::size_t i = 0; i < n; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    x[i] = static_cast<float>(state >> 40) / static_cast<float>(1 << 24);
    flags[i] = static_cast<std::uint8_t>((state >> 20) % 3 == 0);
  }
  const auto d = gp::to_device(x);
  gp::device_vector<float> out(n), second(n), third(n);
  std::vector<float> want(n), want_second(n), want_third(n);
  const auto pred = gp::greater_than<float>(0.25f);

  const std::size_t k = gp::copy_if(gp::host, x, want, pred);
  ASSERT_EQ(gp::count_if(gp::cuda, d, pred), k);
  ASSERT_EQ(gp::copy_if(gp::cuda, d, out, pred), k);
  auto got = gp::to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + k, got.begin())) << "copy_if";

  const std::size_t f = gp::copy_flagged(gp::host, x, flags, want);
  ASSERT_EQ(gp::copy_flagged(gp::cuda, d, gp::to_device(flags), out), f);
  got = gp::to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + f, got.begin())) << "copy_flagged";

  for (const auto layout : {gp::partition_layout::stable, gp::partition_layout::rest_reversed}) {
    ASSERT_EQ(gp::partition(gp::host, x, want, pred, layout), k);
    ASSERT_EQ(gp::partition(gp::cuda, d, out, pred, layout), k);
    EXPECT_TRUE(gp::to_host(out) == want) << "partition " << static_cast<int>(layout);
  }

  const auto low = gp::less_than<float>(0.1f);
  const auto counts =
      gp::partition_three_way(gp::host, x, want, want_second, want_third, low, pred);
  const auto got_counts = gp::partition_three_way(gp::cuda, d, out, second, third, low, pred);
  ASSERT_EQ(got_counts.first, counts.first);
  ASSERT_EQ(got_counts.second, counts.second);
  const std::size_t rest = n - counts.first - counts.second;
  got = gp::to_host(out);
  EXPECT_TRUE(std::equal(want.begin(), want.begin() + counts.first, got.begin())) << "first";
  got = gp::to_host(second);
  EXPECT_TRUE(std::equal(want_second.begin(), want_second.begin() + counts.second, got.begin()))
      << "second";
  got = gp::to_host(third);
  EXPECT_TRUE(std::equal(want_third.begin(), want_third.begin() + rest, got.begin())) << "third";
}

// 2^31 + 5 one-byte keys in runs of 2^16 (the last of 5): run_length_encode
// and reduce_by_key with 64-bit counts inside the kernel, into outputs of
// exactly the runs (counted first). Float sums of 0..3 stay exact.
TEST_F(cuda_test, select_runs_past_two_to_the_31) {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  const std::size_t run = std::size_t{1} << 16;
  const std::size_t runs = (n + run - 1) / run;
  std::vector<std::uint8_t> keys(n);
  std::vector<float> values(n);
#pragma omp parallel for
  for (std::size_t i = 0; i < n; ++i) {
    keys[i] = static_cast<std::uint8_t>(i / run);
    values[i] = static_cast<float>(i % 4);
  }
  const auto d_keys = gp::to_device(keys);
  gp::device_vector<std::uint8_t> unique_out(runs);
  gp::device_vector<std::int64_t> lengths(runs);
  ASSERT_EQ(gp::run_length_encode(gp::cuda, d_keys, unique_out, lengths), runs);
  const auto got_keys = gp::to_host(unique_out);
  const auto got_lengths = gp::to_host(lengths);
  for (std::size_t r = 0; r < runs; ++r) {
    ASSERT_EQ(got_keys[r], static_cast<std::uint8_t>(r)) << "run " << r;
    ASSERT_EQ(got_lengths[r], static_cast<std::int64_t>(r + 1 < runs ? run : n - r * run))
        << "run " << r;
  }

  gp::device_vector<float> sums(runs);
  ASSERT_EQ(gp::reduce_by_key(gp::cuda, d_keys, gp::to_device(values), unique_out, sums), runs);
  const auto got_sums = gp::to_host(sums);
  for (std::size_t r = 0; r < runs; ++r) {
    // A run of 2^16 holds 2^14 of each of 0..3; the last one 0, 1, 2, 3, 0.
    ASSERT_EQ(got_sums[r], r + 1 < runs ? 6.0f * (run / 4) : 6.0f) << "run " << r;
  }
}
