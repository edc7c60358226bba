// The histogram ladder: every rung, called from plain C++ through the table,
// must give the exact 64-bin histogram of bytes (bin = byte / 4).
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/histogram_reference.hpp"
#include "support/ladder_table.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

std::vector<std::uint32_t> reference_64(std::span<const std::uint8_t> x) {
  std::vector<std::uint32_t> counts(64, 0);
  for (std::uint8_t v : x)
    ++counts[v >> 2];
  return counts;
}

std::vector<std::uint32_t> run_rung(const gp::ladder::histogram_rung& rung,
                                    gp::device_span<const std::uint8_t> in) {
  gp::device_vector<std::uint32_t> counts(64);
  counts.fill_bytes(0xA5);
  rung.run(in, counts.span(), nullptr);
  return gp::to_host(counts);
}

}  // namespace

TEST_F(cuda_test, histogram_ladder_every_rung_counts_every_size) {
  auto rng = make_rng(91);
  std::vector<std::size_t> sizes = standard_sizes();
  sizes.push_back(3'000'017);  // many folds of the byte-counter rungs
  for (std::size_t n : test_sizes(sizes)) {
    const auto x = random_samples<std::uint8_t>(n, rng);
    const auto d = gp::to_device(x);
    for (const auto& rung : gp::ladder::histogram_rungs())
      ASSERT_EQ(run_rung(rung, d.span()), reference_64(x)) << rung.name << " n=" << n;
  }
}

TEST_F(cuda_test, histogram_ladder_every_rung_counts_runs_and_unaligned_subspans) {
  // One value throughout: a byte counter would wrap without its folds.
  const std::vector<std::uint8_t> same(1'000'003, 77);
  const auto d_same = gp::to_device(same);
  auto rng = make_rng(92);
  const auto x = random_samples<std::uint8_t>(20011, rng);
  const auto d = gp::to_device(x);
  for (const auto& rung : gp::ladder::histogram_rungs()) {
    ASSERT_EQ(run_rung(rung, d_same.span()), reference_64(same)) << rung.name;
    for (std::size_t offset : {1u, 2u, 3u}) {
      const std::size_t n = x.size() - offset - 2;
      ASSERT_EQ(run_rung(rung, d.span().subspan(offset, n)),
                reference_64(std::span<const std::uint8_t>(x).subspan(offset, n)))
          << rung.name << " offset=" << offset;
    }
  }
}

TEST_F(cuda_test, histogram_ladder_rejects_other_bin_counts) {
  gp::device_vector<std::uint8_t> x(10);
  gp::device_vector<std::uint32_t> counts(63);
  for (const auto& rung : gp::ladder::histogram_rungs())
    EXPECT_THROW(rung.run(x.span(), counts.span(), nullptr), std::invalid_argument) << rung.name;
}

// Reading the table needs no device.
TEST(histogram_ladder_table, has_five_named_rungs) {
#if GPUPRIM_HAS_CUDA
  const auto rungs = gp::ladder::histogram_rungs();
  gpuprim::test::expect_complete_ladder(rungs, 5, "histogram_global_atomics",
                                        "histogram_even (byte entries, fold)");
  EXPECT_EQ(std::string(rungs[3].name), "histogram_thread_byte_counters");
#else
  EXPECT_TRUE(gp::ladder::histogram_rungs().empty());
  GTEST_SKIP() << "built without CUDA: the ladder is empty";
#endif
}
