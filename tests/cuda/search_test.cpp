// The GPU backend's own search cases (the shared ones are in
// tests/sides/search_test.cpp): a table past 2^31 elements, whose indices
// need 64 bits, and a query on a stream.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/search.hpp"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

// 2^31 + 5 int32 keys (each value four times), queries near both ends and
// past 2^31, against the host backend and std::lower_bound.
TEST_F(cuda_test, search_past_two_to_the_31_elements) {
  const std::size_t n = (std::size_t{1} << 31) + 5;
  std::vector<std::int32_t> table(n);
  for (std::size_t i = 0; i < n; ++i)
    table[i] = static_cast<std::int32_t>(i / 4);
  std::vector<std::int32_t> queries = {
      -1, 0, 1, 1 << 28, (1 << 29) - 1, 1 << 29, (1 << 29) + 1, (1 << 29) + 2, 123456789};
  const gp::device_vector<std::int32_t> d = gp::to_device(table);
  const gp::device_vector<std::int32_t> q = gp::to_device(queries);
  gp::device_vector<std::int64_t> out(queries.size());
  for (const bool upper : {false, true}) {
    if (upper) {
      gp::upper_bound(gp::cuda, d, q, out);
    } else {
      gp::lower_bound(gp::cuda, d, q, out);
    }
    const std::vector<std::int64_t> got = gp::to_host(out);
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const auto want = upper ? std::upper_bound(table.begin(), table.end(), queries[i])
                              : std::lower_bound(table.begin(), table.end(), queries[i]);
      EXPECT_EQ(got[i], want - table.begin()) << "query " << queries[i] << " upper " << upper;
    }
  }
}
