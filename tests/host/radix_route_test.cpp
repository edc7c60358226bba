// The GPU radix sort's pass routes (gpuprim/detail/sort/routes.hpp), planned
// on the device from the digit counts, are plain code: checked here for every
// set of trivial passes of 1 to 8 passes, in place and out of place, by
// playing the moves on a model of the three arrays.
#include <gtest/gtest.h>

#include <array>
#include <string>
#include <vector>

#include "gpuprim/detail/sort/routes.hpp"

namespace gd = gpuprim::detail;

namespace {

// What an array holds: -1 nothing yet, else how many sorting passes the
// keys in it have been through (trivial passes change nothing).
struct arrays {
  bool in_place;
  std::array<int, 3> held{0, -1, -1};
  int& at(int b) { return held[in_place && b == gd::radix_output ? gd::radix_input : b]; }
};

void expect_routes_sort(unsigned trivial_mask, int passes, bool in_place) {
  bool trivial[gd::radix_max_passes];
  int sorting = 0;
  for (int p = 0; p < passes; ++p) {
    trivial[p] = (trivial_mask >> p) & 1u;
    sorting += trivial[p] ? 0 : 1;
  }
  gd::radix_route routes[gd::radix_max_passes + 1];
  gd::radix_plan_routes(trivial, passes, in_place, routes);
  const std::string what = "passes " + std::to_string(passes) + ", trivial mask " +
                           std::to_string(trivial_mask) + (in_place ? ", in place" : "");
  arrays a{in_place};
  int done = 0, moves = 0;
  for (int p = 0; p <= passes; ++p) {
    const gd::radix_route r = routes[p];
    if (r.move == gd::radix_skip) {
      ASSERT_TRUE(p == passes || trivial[p]) << what << ": pass " << p << " skipped";
      continue;
    }
    ++moves;
    ASSERT_NE(r.to, gd::radix_input) << what << ": pass " << p << " writes the input";
    ASSERT_NE(&a.at(r.from), &a.at(r.to)) << what << ": pass " << p << " reads what it writes";
    ASSERT_EQ(a.at(r.from), done) << what << ": pass " << p << " reads stale keys";
    if (r.move == gd::radix_sort_tiles) {
      ASSERT_LT(p, passes) << what;
      ASSERT_FALSE(trivial[p]) << what << ": trivial pass " << p << " sorts";
      ++done;
    } else {
      ASSERT_EQ(r.move, gd::radix_copy_tiles) << what;
    }
    a.at(r.to) = done;
  }
  EXPECT_EQ(done, sorting) << what;
  EXPECT_EQ(a.at(gd::radix_output), sorting) << what << ": the output";
  // Copies only where parity or an all-trivial out-of-place sort needs one.
  const int copies = moves - sorting;
  const int needed = in_place ? sorting % 2 : (sorting == 0 ? 1 : 0);
  EXPECT_EQ(copies, needed) << what;
  // The host launches routes[passes] only in place with an odd pass count.
  if (!(in_place && passes % 2 == 1)) EXPECT_EQ(routes[passes].move, gd::radix_skip) << what;
}

}  // namespace

TEST(radix_routes, every_set_of_trivial_passes_ends_in_the_output) {
  for (int passes = 1; passes <= gd::radix_max_passes; ++passes) {
    for (unsigned mask = 0; mask < (1u << passes); ++mask) {
      for (bool in_place : {false, true}) {
        expect_routes_sort(mask, passes, in_place);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
}
