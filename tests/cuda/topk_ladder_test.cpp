// The top-k ladder: every rung, called from plain C++ through the table,
// must give gp::topk's answer (the k largest, NaN first, ties to the
// smaller index, sorted) against a stable sort on the host; the block
// bitonic rung refuses k > 1024.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/topk_ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/expect_message.hpp"
#include "support/ladder_table.hpp"
#include "support/order_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, topk_ladder_every_rung_gives_the_top_k) {
  auto rng = make_rng(102);
  for (std::size_t n : test_sizes({1, 33, 2049, 6145, 1'000'003})) {
    for (const bool tied : {false, true}) {
      std::vector<float> x = tied ? tied_vector<float>(n, 9, rng) : random_vector<float>(n, rng);
      for (std::size_t i = 5; i < n; i += 1001)
        x[i] = std::numeric_limits<float>::quiet_NaN();
      if (n > 2) x[2] = -0.0f;
      const auto order = reference_topk(x.data(), n, n, true);
      const auto d = gp::to_device(x);
      for (std::size_t k : {std::size_t{1}, std::size_t{16}, std::size_t{1000}, std::size_t{1024},
                            std::size_t{5000}, n}) {
        if (k > n) continue;
        for (const auto& rung : gp::ladder::topk_rungs()) {
          if (std::string(rung.name) == "topk_block_bitonic" && k > 1024) continue;
          gp::device_vector<float> v(k);
          gp::device_vector<std::int64_t> ix(k);
          rung.run(d.span(), k, v.span(), ix.span(), nullptr);
          const auto gi = gp::to_host(ix);
          const auto gv = gp::to_host(v);
          for (std::size_t j = 0; j < k; ++j) {
            ASSERT_EQ(gi[j], order[j]) << rung.name << " n " << n << " k " << k << " at " << j;
            ASSERT_TRUE(same_value(gv[j], x[order[j]])) << rung.name << " at " << j;
          }
        }
      }
    }
  }
}

TEST_F(cuda_test, topk_ladder_refuses_bad_k) {
  const auto d = gp::to_device(std::vector<float>(2000, 1.0f));
  gp::device_vector<float> v(2000);
  gp::device_vector<std::int64_t> ix(2000);
  for (const auto& rung : gp::ladder::topk_rungs()) {
    expect_invalid_argument([&] { rung.run(d.span(), 0, v.span(), ix.span(), nullptr); },
                            "k is 0, it must be from 1 to 2000");
    if (std::string(rung.name) == "topk_block_bitonic") {
      expect_invalid_argument([&] { rung.run(d.span(), 1025, v.span(), ix.span(), nullptr); },
                              "keeps at most 1024 per block, k is 1025");
    }
  }
}

// Reading the table needs no device.
TEST(topk_ladder_table, has_four_named_rungs) {
  expect_complete_ladder(gp::ladder::topk_rungs(), 4, "topk_full_sort", "topk_radix_select");
}
