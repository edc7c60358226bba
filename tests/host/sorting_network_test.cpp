// The sorting networks: the cases of the CPU backend alone, against
// std::stable_sort. The cases of both backends are in
// tests/sides/sorting_network_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/sorting_network_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_sorting_network, custom_struct_and_comparator) {
  struct item {
    int key;
    float payload;
  };
  const auto by_key = [](const item& a, const item& b) { return a.key < b.key; };
  auto rng = make_rng(65);
  for (std::size_t n : standard_sizes()) {
    std::vector<item> input(n);
    for (std::size_t i = 0; i < n; ++i)
      input[i] = {static_cast<int>(rng() % 100), static_cast<float>(i)};
    std::vector<item> a = input, b = input;
    gp::bitonic_sort(gp::host, a, by_key);
    gp::odd_even_merge_sort(gp::host, b, by_key);
    EXPECT_TRUE(is_network_sort_of<item>(a, input, by_key)) << "bitonic n=" << n;
    EXPECT_TRUE(is_network_sort_of<item>(b, input, by_key)) << "odd-even n=" << n;
    // Payloads travel with their keys: every original index is still there once.
    std::vector<bool> seen(n, false);
    for (const item& x : a) {
      ASSERT_FALSE(seen[static_cast<std::size_t>(x.payload)]);
      seen[static_cast<std::size_t>(x.payload)] = true;
    }
  }
}

TEST(host_sorting_network, thread_counts_give_the_same_result) {
  auto rng = make_rng(66);
  const auto input = make_keys<float>(300007, key_pattern::random, rng);
  std::vector<float> one = input, four = input;
  gp::bitonic_sort(gp::host.threads(1), one);
  gp::bitonic_sort(gp::host.threads(4), four);
  EXPECT_EQ(one, four);
}

TEST(host_sorting_network, bad_batched_shapes_throw_and_leave_data_untouched) {
  std::vector<int> keys{5, 4, 3, 2, 1, 0, 9};
  const auto before = keys;
  try {
    gp::sort_batched(gp::host, keys, 2);
    FAIL() << "no exception for 7 keys in arrays of 2";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("not a whole number of arrays of 2"), std::string::npos)
        << e.what();
  }
  EXPECT_THROW(gp::sort_batched(gp::host, keys, 0), std::invalid_argument);
  EXPECT_EQ(keys, before);
  std::vector<int> empty;
  EXPECT_THROW(gp::sort_batched(gp::host, empty, 0), std::invalid_argument);
  gp::sort_batched(gp::host, empty, 3);  // no arrays: nothing to do
}

TEST(host_sorting_network, bad_offsets_throw_and_leave_data_untouched) {
  std::vector<int> keys{5, 4, 3, 2, 1, 0};
  const auto before = keys;
  const std::vector<std::vector<std::int64_t>> bad = {
      {},            // empty
      {0, 3},        // does not reach the end
      {1, 6},        // does not start at 0
      {0, 4, 2, 6},  // decreasing
      {0, 3, 7},     // past the end
      {-1, 6},       // negative
  };
  for (const auto& offsets : bad) {
    EXPECT_THROW(gp::segmented_sort(gp::host, keys, offsets), std::invalid_argument)
        << offsets.size() << " offsets";
    EXPECT_EQ(keys, before);
  }
  try {
    gp::segmented_sort(gp::host, keys, std::vector<std::int64_t>{0, 3});
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("segmented_sort"), std::string::npos) << e.what();
  }
}
