// The selection ladder: every rung, called from plain C++ through the table,
// must select exactly the elements above the threshold; the rungs that keep
// input order must give std::copy_if's output, the atomic counter the same
// elements in some order.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "lab/ladder/select_ladder.hpp"
#include "support/cuda_fixture.hpp"
#include "support/ladder_table.hpp"
#include "support/select_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, select_ladder_every_rung_selects_the_same_elements) {
  auto rng = make_rng(101);
  for (std::size_t n : test_sizes({0, 1, 33, 6145, 1'000'003})) {
    const std::vector<float> x = random_vector<float>(n, rng);
    const auto want = reference_copy_if(x, [](float v) { return v > 0.25f; });
    const auto d = gp::to_device(x);
    for (const auto& rung : gp::ladder::select_rungs()) {
      gp::device_vector<float> out(n);
      out.fill_bytes(0xA5);
      const std::size_t k = rung.run(d.span(), out.span(), 0.25f, nullptr);
      ASSERT_EQ(k, want.size()) << rung.name << " n " << n;
      auto got = gp::to_host(out);
      got.resize(k);
      if (std::string(rung.name) == "select_atomic_counter") {
        auto sorted_want = want;
        std::sort(got.begin(), got.end());
        std::sort(sorted_want.begin(), sorted_want.end());
        EXPECT_EQ(got, sorted_want) << rung.name << " n " << n;
      } else {
        EXPECT_EQ(got, want) << rung.name << " n " << n;
      }
    }
  }
}

// Reading the table needs no device.
TEST(select_ladder_table, has_three_named_rungs) {
  expect_complete_ladder(gp::ladder::select_rungs(), 3, "select_atomic_counter",
                         "select_decoupled_lookback");
}
