// The selection family on each backend (support/side_test.hpp) against the
// standard library, outputs poisoned before each call. The GPU's own cases
// (2^31 + 5 bytes, custom types) are in tests/cuda/select_*.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpuprim/select.hpp"
#include "support/expect_message.hpp"
#include "support/select_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// The first k elements of an output, back on the host; the rest must still
// hold the poison.
template <class T, class A>
std::vector<T> written(const A& out, std::size_t k, unsigned char poison) {
  auto all = side::get(out);
  T p;
  std::memset(static_cast<void*>(&p), poison, sizeof(T));
  for (std::size_t i = k; i < all.size(); ++i) {
    EXPECT_EQ(std::memcmp(&all[i], &p, sizeof(T)), 0) << "element " << i << " past the result";
  }
  all.resize(k);
  return all;
}

// Sizes around the GPU's tiles (6144 four-byte elements, 8192 bytes) and
// the standard sweep.
std::vector<std::size_t> select_sizes() {
  std::vector<std::size_t> sizes = standard_sizes();
  for (std::size_t n : {6144u, 6145u, 8192u, 3u * 6144u + 1u, 300'007u})
    sizes.push_back(n);
  return test_sizes(sizes);
}

using select_types = ::testing::Types<std::uint8_t, std::int32_t, std::uint32_t, std::int64_t,
                                      std::uint64_t, float, double>;

}  // namespace

SIDE_TYPED_SUITE(select, select_types);

SIDE_TYPED_TEST(select, copy_if_count_if_copy_flagged_and_indices) {
  auto rng = make_rng(71);
  for (std::size_t n : select_sizes()) {
    auto x = random_vector<T>(n, rng);
    for (std::size_t i = 0; i < n; i += 7)
      x[i] = T(0);  // zeros for nonzero to drop
    const T middle = n ? x[n / 2] : T(0);
    const auto d = side::put(x);
    // half selected, all, none, nonzero
    const std::vector<gp::compare_with<T>> preds = {
        gp::greater_than(middle),
        {gp::comparison::greater_equal, std::numeric_limits<T>::lowest()},
        gp::less_than(std::numeric_limits<T>::lowest())};
    for (const auto& pred : preds) {
      const auto want = reference_copy_if(x, pred);
      auto out = side::filled_bytes<T>(n, 0xA5);
      const std::size_t k = gp::copy_if(side::backend(), d, out, pred);
      ASSERT_EQ(k, want.size()) << "n " << n;
      EXPECT_EQ(written<T>(out, k, 0xA5), want) << "n " << n;
      EXPECT_EQ(gp::count_if(side::backend(), d, pred), want.size());
    }
    const auto want = reference_copy_if(x, gp::nonzero{});
    auto out = side::filled_bytes<T>(n, 0xA5);
    ASSERT_EQ(gp::copy_if(side::backend(), d, out, gp::nonzero{}), want.size());
    EXPECT_EQ(written<T>(out, want.size(), 0xA5), want);
    // flags: every third element
    std::vector<std::uint8_t> flags(n);
    std::vector<T> flagged;
    for (std::size_t i = 0; i < n; ++i) {
      flags[i] = static_cast<std::uint8_t>(i % 3 == 0 ? 1 + i % 200 : 0);
      if (flags[i]) flagged.push_back(x[i]);
    }
    out = side::filled_bytes<T>(n, 0xA5);
    ASSERT_EQ(gp::copy_flagged(side::backend(), d, side::put(flags), out), flagged.size());
    EXPECT_EQ(written<T>(out, flagged.size(), 0xA5), flagged);
    // indices (numpy.flatnonzero)
    const auto want_indices = reference_indices_if(x, gp::nonzero{});
    auto indices = side::filled_bytes<std::int64_t>(n, 0xA5);
    ASSERT_EQ(gp::copy_index_if(side::backend(), d, indices, gp::nonzero{}), want_indices.size());
    EXPECT_EQ(written<std::int64_t>(indices, want_indices.size(), 0xA5), want_indices);
  }
}

SIDE_TYPED_TEST(select, partition_stable_and_reversed_and_three_way) {
  auto rng = make_rng(72);
  for (std::size_t n : select_sizes()) {
    const auto x = random_vector<T>(n, rng);
    const T middle = n ? x[n / 3] : T(0);
    const auto d = side::put(x);
    const auto pred = gp::less_than(middle);
    for (bool reversed : {false, true}) {
      auto out = side::filled_bytes<T>(n, 0xA5);
      const std::size_t k = gp::partition(
          side::backend(), d, out, pred,
          reversed ? gp::partition_layout::rest_reversed : gp::partition_layout::stable);
      EXPECT_EQ(k, reference_copy_if(x, pred).size());
      EXPECT_EQ(side::get(out), reference_partition(x, pred, reversed)) << "n " << n;
    }
    const auto second = gp::compare_with<T>{gp::comparison::less_equal, n ? x[n / 2] : T(0)};
    std::vector<T> a, b, c;
    for (const T& v : x)
      (pred(v) ? a : second(v) ? b : c).push_back(v);
    auto oa = side::filled_bytes<T>(n, 0xA5);
    auto ob = side::filled_bytes<T>(n, 0xA5);
    auto oc = side::filled_bytes<T>(n, 0xA5);
    const gp::three_way_counts t =
        gp::partition_three_way(side::backend(), d, oa, ob, oc, pred, second);
    ASSERT_EQ(t.first, a.size());
    ASSERT_EQ(t.second, b.size());
    EXPECT_EQ(written<T>(oa, a.size(), 0xA5), a);
    EXPECT_EQ(written<T>(ob, b.size(), 0xA5), b);
    EXPECT_EQ(written<T>(oc, c.size(), 0xA5), c);
  }
}

SIDE_TYPED_TEST(select, unique_run_length_encode_and_reduce_by_key) {
  auto rng = make_rng(73);
  for (std::size_t n : select_sizes()) {
    const auto keys = keys_in_runs<T>(n, rng);
    const auto d = side::put(keys);
    const auto heads = reference_run_heads(keys, gp::equal_to{});
    const std::size_t runs = heads.size();
    std::vector<T> want_keys;
    std::vector<std::int64_t> want_index, want_lengths;
    for (std::size_t r = 0; r < runs; ++r) {
      want_keys.push_back(keys[heads[r]]);
      want_index.push_back(static_cast<std::int64_t>(heads[r]));
      want_lengths.push_back(
          static_cast<std::int64_t>((r + 1 < runs ? heads[r + 1] : n) - heads[r]));
    }
    auto out = side::filled_bytes<T>(n, 0xA5);
    ASSERT_EQ(gp::unique(side::backend(), d, out), runs) << "n " << n;
    EXPECT_EQ(written<T>(out, runs, 0xA5), want_keys);

    std::vector<std::int64_t> positions(n);
    for (std::size_t i = 0; i < n; ++i)
      positions[i] = static_cast<std::int64_t>(i);
    out = side::filled_bytes<T>(n, 0xA5);
    auto idx = side::filled_bytes<std::int64_t>(n, 0xA5);
    ASSERT_EQ(gp::unique_by_key(side::backend(), d, side::put(positions), out, idx), runs);
    EXPECT_EQ(written<T>(out, runs, 0xA5), want_keys);
    EXPECT_EQ(written<std::int64_t>(idx, runs, 0xA5), want_index);

    out = side::filled_bytes<T>(n, 0xA5);
    auto lengths = side::filled_bytes<std::int64_t>(n, 0xA5);
    ASSERT_EQ(gp::run_length_encode(side::backend(), d, out, lengths), runs);
    EXPECT_EQ(written<T>(out, runs, 0xA5), want_keys);
    EXPECT_EQ(written<std::int64_t>(lengths, runs, 0xA5), want_lengths);

    // Sums of the values by run; floats grouped in an unspecified order.
    const auto values = random_vector<T>(n, rng);
    out = side::filled_bytes<T>(n, 0xA5);
    auto sums = side::filled_bytes<T>(n, 0xA5);
    ASSERT_EQ(gp::reduce_by_key(side::backend(), d, side::put(values), out, sums, gp::plus{}),
              runs);
    EXPECT_EQ(written<T>(out, runs, 0xA5), want_keys);
    const auto got = written<T>(sums, runs, 0xA5);
    for (std::size_t r = 0; r < runs; ++r) {
      const std::size_t end = r + 1 < runs ? heads[r + 1] : n;
      if constexpr (std::is_floating_point_v<T>) {
        double want = 0;
        for (std::size_t i = heads[r]; i < end; ++i)
          want += values[i];
        EXPECT_NEAR(got[r], want, sum_tolerance<T>(end - heads[r], 1.0)) << "run " << r;
      } else {
        T want = values[heads[r]];
        for (std::size_t i = heads[r] + 1; i < end; ++i)
          want = static_cast<T>(want + values[i]);
        ASSERT_EQ(got[r], want) << "run " << r << " n " << n;
      }
    }
  }
}

SIDE_TYPED_SUITE(select_nan, side_float_types);

// equal_to: every NaN is a run of its own (std::unique); same_value: a run
// of NaNs is one (numpy.unique); -0.0 equals 0.0 under both.
SIDE_TYPED_TEST(select_nan, unique_keeps_or_merges_nans) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  std::vector<T> x;
  for (int rep = 0; rep < 3000; ++rep) {
    for (T v : {T(1), T(1), T(-0.0), T(0.0), nan, nan, nan, T(2)})
      x.push_back(v);
  }
  const auto d = side::put(x);
  auto out = side::filled_bytes<T>(x.size(), 0xA5);
  EXPECT_EQ(gp::unique(side::backend(), d, out), 3000u * 6);
  out = side::filled_bytes<T>(x.size(), 0xA5);
  const std::size_t k = gp::unique(side::backend(), d, out, gp::same_value{});
  ASSERT_EQ(k, 3000u * 4);
  const auto got = written<T>(out, k, 0xA5);
  for (std::size_t r = 0; r < 3000; ++r) {
    EXPECT_EQ(got[4 * r], T(1));
    EXPECT_EQ(got[4 * r + 1], T(0));
    EXPECT_TRUE(std::signbit(got[4 * r + 1]));  // the run's first element
    EXPECT_TRUE(std::isnan(got[4 * r + 2]));
    EXPECT_EQ(got[4 * r + 3], T(2));
  }
  auto lengths = side::filled_bytes<std::int64_t>(x.size(), 0xA5);
  out = side::filled_bytes<T>(x.size(), 0xA5);
  ASSERT_EQ(gp::run_length_encode(side::backend(), d, out, lengths, gp::same_value{}), k);
  const auto counts = written<std::int64_t>(lengths, k, 0xA5);
  for (std::size_t r = 0; r < 3000; ++r)
    EXPECT_EQ((std::vector<std::int64_t>(counts.begin() + 4 * r, counts.begin() + 4 * r + 4)),
              (std::vector<std::int64_t>{2, 2, 3, 1}));
}

// Exact-size outputs take the counting pass; shorter ones, mismatched
// lengths and overlaps are refused, nothing written.
SIDE_TEST(select, short_outputs_mismatched_lengths_and_overlaps_refused) {
  std::vector<int> x(20000);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int>(i % 10);
  const auto d = side::put(x);
  const std::size_t k = 20000 / 10 * 4;  // 6..9
  auto exact = side::filled_bytes<int>(k, 0x11);
  EXPECT_EQ(gp::copy_if(side::backend(), d, exact, gp::greater_than(5)), k);
  EXPECT_EQ(side::get(exact), reference_copy_if(x, gp::greater_than(5)));
  auto small = side::filled_bytes<int>(k - 1, 0x11);
  const std::vector<int> poison(k - 1, 0x11111111);
  expect_invalid_argument([&] { gp::copy_if(side::backend(), d, small, gp::greater_than(5)); },
                          "holds 7999 elements, the result has 8000");
  EXPECT_EQ(side::get(small), poison);
  expect_invalid_argument([&] { gp::unique(side::backend(), d, small); }, "the output holds");
  EXPECT_EQ(side::get(small), poison);
  auto small_counts = side::filled_bytes<std::int64_t>(k - 1, 0x11);
  expect_invalid_argument([&] { gp::run_length_encode(side::backend(), d, small, small_counts); },
                          "holds");
  EXPECT_EQ(side::get(small), poison);
  const auto short_flags = side::put(std::vector<std::uint8_t>(19999, 1));
  auto out = side::filled_bytes<int>(20000, 0x11);
  expect_invalid_argument([&] { gp::copy_flagged(side::backend(), d, short_flags, out); },
                          "the input and the flags differ in length (20000 and 19999 elements)");
  auto out_short = side::filled_bytes<int>(19999, 0x11);
  expect_invalid_argument(
      [&] { gp::partition(side::backend(), d, out_short, gp::greater_than(5)); },
      "the input and the output differ in length (20000 and 19999 elements)");
  const auto values = side::put(std::vector<int>(19999, 1));
  expect_invalid_argument([&] { gp::reduce_by_key(side::backend(), d, values, out, out_short); },
                          "the keys and the values differ in length (20000 and 19999 elements)");
  auto t1 = side::filled_bytes<int>(20000, 0x11);
  auto t2 = side::filled_bytes<int>(100, 0x11);
  expect_invalid_argument(
      [&] {
        gp::partition_three_way(side::backend(), d, t1, t2, out, gp::less_than(3),
                                gp::less_than(6));
      },
      "the second output holds 100 elements, the result has 6000");
  EXPECT_EQ(side::get(t1), std::vector<int>(20000, 0x11111111));
  EXPECT_EQ(side::get(out), std::vector<int>(20000, 0x11111111));
  auto both = side::put(x);
  auto whole = side::span(both);
  expect_invalid_argument(
      [&] {
        gp::copy_if(side::backend(), whole.subspan(0, 10000), whole.subspan(5000, 10000),
                    gp::nonzero{});
      },
      "overlap");
  EXPECT_EQ(side::get(both), x);
}

SIDE_TEST(select, empty_and_one_element) {
  const auto empty = side::put(std::vector<float>{});
  auto none = side::put(std::vector<float>{});
  auto no_counts = side::put(std::vector<std::int64_t>{});
  EXPECT_EQ(gp::copy_if(side::backend(), empty, none, gp::nonzero{}), 0u);
  EXPECT_EQ(gp::partition(side::backend(), empty, none, gp::nonzero{}), 0u);
  EXPECT_EQ(gp::unique(side::backend(), empty, none), 0u);
  EXPECT_EQ(gp::run_length_encode(side::backend(), empty, none, no_counts), 0u);
  const auto one = side::put(std::vector<float>{2.5f});
  auto out = side::filled_bytes<float>(1, 0xA5);
  auto count = side::filled_bytes<std::int64_t>(1, 0xA5);
  EXPECT_EQ(gp::run_length_encode(side::backend(), one, out, count), 1u);
  EXPECT_EQ(side::get(out), std::vector<float>{2.5f});
  EXPECT_EQ(side::get(count), std::vector<std::int64_t>{1});
  EXPECT_EQ(gp::copy_if(side::backend(), one, out, gp::less_than(0.0f)), 0u);
  auto sum = side::filled_bytes<float>(1, 0xA5);
  EXPECT_EQ(gp::reduce_by_key(side::backend(), one, one, out, sum), 1u);
  EXPECT_EQ(side::get(sum), std::vector<float>{2.5f});
}

#if GPUPRIM_TEST_ON_CUDA
// The asynchronous forms leave the count on the device, nothing synchronized.
SIDE_TEST(select, counts_left_on_the_device) {
  std::vector<int> x(100'003);
  for (std::size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int>((i * 7919) % 13);
  const auto d = side::put(x);
  auto out = side::filled_bytes<int>(x.size(), 0xA5);
  auto count = side::filled_bytes<std::uint64_t>(1, 0xA5);
  gp::copy_if(side::backend(), d, out, gp::greater_than(6), side::span(count));
  const auto want = reference_copy_if(x, gp::greater_than(6));
  EXPECT_EQ(side::get(count), std::vector<std::uint64_t>{want.size()});
  EXPECT_EQ(written<int>(out, want.size(), 0xA5), want);
  gp::partition(side::backend(), d, out, gp::greater_than(6), gp::partition_layout::stable,
                side::span(count));
  EXPECT_EQ(side::get(count), std::vector<std::uint64_t>{want.size()});
  EXPECT_EQ(side::get(out), reference_partition(x, gp::greater_than(6), false));
  auto small = side::filled_bytes<int>(10, 0xA5);
  expect_invalid_argument(
      [&] { gp::copy_if(side::backend(), d, small, gp::greater_than(6), side::span(count)); },
      "room for every element");
}
#endif
