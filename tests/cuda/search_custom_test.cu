// GPU search of a user type by a user comparator (instantiated here from
// gpuprim/cuda/search.cuh): records sorted by one member, queried by a
// plain key (a heterogeneous comparator), and a device lambda.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "gpuprim/cuda/search.cuh"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

struct scored {
  float score;
  std::int32_t id;
};

// "a goes before b" between a record and a key, both ways.
struct by_score {
  __host__ __device__ bool operator()(const scored& a, float key) const { return a.score < key; }
  __host__ __device__ bool operator()(float key, const scored& b) const { return key < b.score; }
};

}  // namespace

TEST_F(cuda_test, search_records_by_a_member_with_float_queries) {
  std::mt19937_64 rng(45);
  std::uniform_int_distribution<int> d(0, 999);
  std::vector<scored> table(100'003);
  for (std::size_t i = 0; i < table.size(); ++i)
    table[i] = {static_cast<float>(d(rng)) * 0.5f, static_cast<std::int32_t>(i)};
  std::stable_sort(table.begin(), table.end(),
                   [](const scored& a, const scored& b) { return a.score < b.score; });
  std::vector<float> queries(5000);
  for (auto& q : queries)
    q = static_cast<float>(d(rng)) * 0.5f - 0.25f * static_cast<float>(d(rng) % 2);
  const auto dt = gp::to_device(table);
  const auto dq = gp::to_device(queries);
  gp::device_vector<std::int64_t> lo(queries.size()), hi(queries.size());
  gp::lower_bound(gp::cuda, dt, dq, lo, by_score{});
  gp::upper_bound(gp::cuda, dt, dq, hi, by_score{});
  const auto l = gp::to_host(lo), h = gp::to_host(hi);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto wl = std::lower_bound(table.begin(), table.end(), queries[i], by_score{});
    const auto wh = std::upper_bound(table.begin(), table.end(), queries[i], by_score{});
    ASSERT_EQ(l[i], wl - table.begin()) << "query " << i;
    ASSERT_EQ(h[i], wh - table.begin()) << "query " << i;
  }
}

// Extended lambdas need an enclosing function of external linkage that is
// no class member (a test body is a private member): this one.
void check_search_by_a_device_lambda_descending() {
  std::vector<std::uint16_t> table(70'000);
  for (std::size_t i = 0; i < table.size(); ++i)
    table[i] = static_cast<std::uint16_t>(65535 - i / 3);
  const std::vector<std::uint16_t> queries = {65535, 0, 60000, 41000, 65534, 1};
  const auto dt = gp::to_device(table);
  const auto dq = gp::to_device(queries);
  gp::device_vector<std::int32_t> out(queries.size());
  const auto greater = [] __device__(std::uint16_t a, std::uint16_t b) { return a > b; };
  gp::lower_bound(gp::cuda, dt, dq, out, greater);
  const auto got = gp::to_host(out);
  for (std::size_t i = 0; i < queries.size(); ++i) {
    const auto want =
        std::lower_bound(table.begin(), table.end(), queries[i], std::greater<std::uint16_t>{});
    EXPECT_EQ(got[i], want - table.begin()) << "query " << queries[i];
  }
}

TEST_F(cuda_test, search_by_a_device_lambda_descending) {
  check_search_by_a_device_lambda_descending();
}
