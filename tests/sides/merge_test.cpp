// Merge and merge sort (gpuprim/merge.hpp) on each backend against
// std::merge and std::stable_sort: stability checked through values that
// record each element's origin, a struct type with a custom comparator.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpuprim/merge.hpp"
#include "support/expect_message.hpp"
#include "support/order_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// A struct with its own comparator is not precompiled: on the GPU it is
// tested from a .cu file (tests/cuda/merge_custom_test.cu).

// A record sorted by one member (16 bytes).
struct scored {
  float score;
  std::int32_t id;
  double weight;
  bool operator==(const scored&) const = default;
};

struct by_score {
  GPUPRIM_HD bool operator()(const scored& a, const scored& b) const { return a.score < b.score; }
};

// A 64-byte element, the largest taken.
struct wide_record {
  std::uint64_t key;
  std::uint64_t payload[7];
  bool operator==(const wide_record&) const = default;
};

std::vector<std::size_t> merge_sizes() {
  std::vector<std::size_t> sizes = standard_sizes();
  sizes.push_back(300'007);
  return test_sizes(sizes);
}

}  // namespace

SIDE_TYPED_SUITE(merge, side_value_types);

SIDE_TYPED_TEST(merge, merge_and_merge_by_key_are_stable_a_first) {
  auto rng = make_rng(49);
  for (std::size_t n : merge_sizes()) {
    for (const std::size_t nb : {std::size_t{0}, n / 3, n, 2 * n + 1}) {
      auto a = tied_vector<T>(n, 50, rng);
      auto b = tied_vector<T>(nb, 50, rng);
      std::sort(a.begin(), a.end());
      std::sort(b.begin(), b.end());
      std::vector<T> want(n + nb);
      std::merge(a.begin(), a.end(), b.begin(), b.end(), want.begin());
      const auto da = side::put(a), db = side::put(b);
      auto out = side::filled_bytes<T>(n + nb, 0xA5);
      gp::merge(side::backend(), da, db, out);
      EXPECT_EQ(side::get(out), want) << "n " << n << " + " << nb;
      // Values: a's indices 0 .. n-1, b's n .. n+nb-1; ties keep a first
      // and their own order, as std::merge of (key, origin) pairs.
      const auto va = origins<std::int64_t>(n, 0);
      const auto vb = origins<std::int64_t>(nb, static_cast<std::int64_t>(n));
      auto keys = side::filled_bytes<T>(n + nb, 0xA5);
      auto values = side::filled_bytes<std::int64_t>(n + nb, 0xA5);
      gp::merge_by_key(side::backend(), da, side::put(va), db, side::put(vb), keys, values);
      expect_pairs(side::get(keys), side::get(values), reference_merge_by_key(a, va, b, vb),
                   "n " + std::to_string(n) + " + " + std::to_string(nb));
    }
  }
}

SIDE_TYPED_TEST(merge, merge_sort_and_by_key_are_stable) {
  auto rng = make_rng(50);
  for (std::size_t n : merge_sizes()) {
    const auto keys = tied_vector<T>(n, n / 16 + 2, rng);
    const auto values = origins<std::int64_t>(n, 0);
    std::vector<std::pair<T, std::int64_t>> pairs(n);
    for (std::size_t i = 0; i < n; ++i)
      pairs[i] = {keys[i], values[i]};
    for (const bool descending : {false, true}) {
      auto want = pairs;
      std::stable_sort(want.begin(), want.end(), [&](const auto& x, const auto& y) {
        return descending ? y.first < x.first : x.first < y.first;
      });
      auto k = side::put(keys);
      auto v = side::put(values);
      if (descending) {
        gp::merge_sort_by_key(side::backend(), k, v, gp::greater{});
      } else {
        gp::merge_sort_by_key(side::backend(), k, v);
      }
      expect_pairs(side::get(k), side::get(v), want, "n " + std::to_string(n));
      auto x = side::put(keys);
      if (descending) {
        gp::merge_sort(side::backend(), x, gp::greater{});
      } else {
        gp::merge_sort(side::backend(), x);
      }
      const auto gx = side::get(x);
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(gx[i], want[i].first) << "n " << n << " at " << i;
    }
  }
}

// The GPU build does not compile this one (plain C++ takes only the
// precompiled instances).
#if !GPUPRIM_TEST_ON_CUDA
SIDE_TEST(merge, a_struct_by_one_member_and_64_byte_elements) {
  auto rng = make_rng(51);
  for (std::size_t n : merge_sizes()) {
    const auto scores = tied_vector<float>(n, 100, rng);
    std::vector<scored> x(n);
    for (std::size_t i = 0; i < n; ++i)
      x[i] = {scores[i], static_cast<std::int32_t>(i), 0.5 * static_cast<double>(i)};
    auto want = x;
    std::stable_sort(want.begin(), want.end(), by_score{});
    auto d = side::put(x);
    gp::merge_sort(side::backend(), d, by_score{});
    EXPECT_EQ(side::get(d), want) << "n " << n;

    std::vector<wide_record> w(n);
    for (std::size_t i = 0; i < n; ++i) {
      w[i].key = static_cast<std::uint64_t>(scores[i]);
      for (std::size_t j = 0; j < 7; ++j)
        w[i].payload[j] = i * 7 + j;
    }
    const auto by_key = [](const wide_record& a, const wide_record& b) { return a.key > b.key; };
    auto want_w = w;
    std::stable_sort(want_w.begin(), want_w.end(), by_key);
    auto dw = side::put(w);
    gp::merge_sort(side::backend(), dw, by_key);
    EXPECT_EQ(side::get(dw), want_w) << "n " << n;
  }
}
#endif

#if !GPUPRIM_TEST_ON_CUDA
TEST(host_merge, every_thread_count_gives_the_same_stable_result) {
  auto rng = make_rng(52);
  const std::size_t n = (1u << 20) + 7;
  const auto keys = tied_vector<std::int32_t>(n, 1000, rng);
  const auto values = origins<std::int32_t>(n, 0);
  std::vector<std::pair<std::int32_t, std::int32_t>> want(n);
  for (std::size_t i = 0; i < n; ++i)
    want[i] = {keys[i], values[i]};
  std::stable_sort(want.begin(), want.end(),
                   [](const auto& x, const auto& y) { return x.first < y.first; });
  // 3, 5 and 7 chunks: rounds with an odd run left over.
  for (int threads : {1, 2, 3, 5, 7, 16}) {
    auto k = keys;
    auto v = values;
    gp::merge_sort_by_key(gp::host.threads(threads), k, v);
    expect_pairs(k, v, want, std::to_string(threads) + " threads");
  }
}
#endif

SIDE_TEST(merge, refuses_mismatched_lengths_and_overlap) {
  const auto a = side::put(std::vector<int>{1, 3});
  const auto b = side::put(std::vector<int>{2});
  auto out = side::filled_bytes<int>(4, 0);
  expect_invalid_argument([&] { gp::merge(side::backend(), a, b, out); },
                          "the output and a and b together differ in length (4 and 3 elements)");
  auto k = side::put(std::vector<int>{3, 1, 2});
  auto v = side::put(std::vector<std::int64_t>{0, 1});
  expect_invalid_argument([&] { gp::merge_sort_by_key(side::backend(), k, v); },
                          "the keys and the values differ in length (3 and 2 elements)");
  EXPECT_EQ(side::get(k), (std::vector<int>{3, 1, 2}));
  auto both = side::put(std::vector<int>{1, 2, 3, 0, 0, 0});
  auto whole = side::span(both);
  expect_invalid_argument(
      [&] {
        gp::merge(side::backend(), whole.subspan(0, 2), whole.subspan(2, 1), whole.subspan(2, 3));
      },
      "b and output overlap");
}
