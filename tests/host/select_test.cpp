// The host backend's own selection cases (the shared ones are in
// tests/sides/select_test.cpp): any thread count gives the same answer,
// and any callable works.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprim/select.hpp"
#include "support/select_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_select_threads, every_thread_count_gives_the_same_answer) {
  auto rng = make_rng(81);
  const std::size_t n = 1'000'003;
  const auto keys = keys_in_runs<std::int32_t>(n, rng);
  std::vector<float> values = random_vector<float>(n, rng);
  std::vector<std::int32_t> first_keys(n), part(n);
  std::vector<float> first_sums(n), sums(n);
  const std::size_t runs =
      gp::reduce_by_key(gp::host.threads(1), keys, values, first_keys, first_sums);
  const auto pred = gp::greater_than(25);
  for (int threads : {2, 3, 7}) {
    std::vector<std::int32_t> k(n);
    ASSERT_EQ(gp::reduce_by_key(gp::host.threads(threads), keys, values, k, sums), runs);
    EXPECT_EQ(k, first_keys) << threads << " threads";
    EXPECT_EQ(sums, first_sums) << threads << " threads: each run folds left to right";
    ASSERT_EQ(gp::partition(gp::host.threads(threads), keys, part, pred),
              reference_copy_if(keys, pred).size());
    EXPECT_EQ(part, reference_partition(keys, pred, false));
  }
}

TEST(host_select_callables, lambdas_and_strings) {
  const std::vector<std::string> words = {"a", "bb", "bb", "ccc", "a", "dddd"};
  std::vector<std::string> out(words.size());
  const auto longer = [](const std::string& s) { return s.size() > 1; };
  ASSERT_EQ(gp::copy_if(gp::host, words, out, longer), 4u);
  EXPECT_EQ(out[3], "dddd");
  ASSERT_EQ(gp::unique(gp::host, words, out), 5u);
  EXPECT_EQ((std::vector<std::string>(out.begin(), out.begin() + 5)),
            (std::vector<std::string>{"a", "bb", "ccc", "a", "dddd"}));
}
