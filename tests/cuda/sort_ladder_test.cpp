// The sort ladder: every rung, called from plain C++ through the table, must
// sort 32-bit keys exactly as std::sort does.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/ladder_table.hpp"
#include "support/sorting_network_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, sort_ladder_every_rung_sorts_every_size_and_pattern) {
  auto rng = make_rng(91);
  std::vector<std::size_t> sizes = standard_sizes();
  for (std::size_t n : {2047u, 2048u, 2049u, 4097u})  // around rung 2's tile
    sizes.push_back(n);
  for (std::size_t n : test_sizes(sizes)) {
    for (key_pattern pattern : all_key_patterns) {
      if (n > 100000 && pattern != key_pattern::random) continue;
      const auto input = make_keys<std::uint32_t>(n, pattern, rng);
      auto want = input;
      std::sort(want.begin(), want.end());
      for (const auto& rung : gp::ladder::sort_rungs<std::uint32_t>()) {
        gp::device_vector<std::uint32_t> keys = gp::to_device(input);
        rung.run(keys.span(), nullptr);
        ASSERT_EQ(gp::to_host(keys), want) << rung.name << " n=" << n << ", " << name_of(pattern);
      }
    }
  }
}

// A subspan: the rungs touch nothing outside it.
TEST_F(cuda_test, sort_ladder_every_rung_sorts_a_subspan_only) {
  auto rng = make_rng(92);
  const auto input = make_keys<std::uint32_t>(10007, key_pattern::random, rng);
  for (const auto& rung : gp::ladder::sort_rungs<std::uint32_t>()) {
    gp::device_vector<std::uint32_t> keys = gp::to_device(input);
    rung.run(keys.span().subspan(3, 10000), nullptr);
    const auto got = gp::to_host(keys);
    auto want = input;
    std::sort(want.begin() + 3, want.begin() + 10003);
    ASSERT_EQ(got, want) << rung.name;
  }
}

// Reading the table needs no device.
TEST(sort_ladder_table, has_five_named_rungs) {
#if GPUPRIM_HAS_CUDA
  gpuprim::test::expect_complete_ladder(gp::ladder::sort_rungs<std::uint32_t>(), 5,
                                        "sort_bitonic_global", "sort_radix");
#else
  EXPECT_TRUE(gp::ladder::sort_rungs<std::uint32_t>().empty());
  GTEST_SKIP() << "built without CUDA: the ladder is empty";
#endif
}
