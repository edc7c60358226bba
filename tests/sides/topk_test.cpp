// Top-k (gpuprim/topk.hpp) on each backend against a full stable sort.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

#include "gpuprim/topk.hpp"
#include "support/expect_message.hpp"
#include "support/order_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// `order`: the indices of x in top-k's order (reference_topk of all n).
template <class T, class D>
void expect_topk(const std::vector<T>& x, const D& d, const std::vector<std::int64_t>& order,
                 std::size_t k, gp::topk_end end) {
  const bool largest = end == gp::largest;
  auto values = side::filled_bytes<T>(k, 0xA5);
  auto indices = side::filled_bytes<std::int64_t>(k, 0xA5);
  gp::topk(side::backend(), d, k, values, indices, end);
  const std::vector<std::int64_t> want(order.begin(), order.begin() + k);
  EXPECT_EQ(side::get(indices), want) << "n " << x.size() << " k " << k << " largest " << largest;
  const auto v = side::get(values);
  for (std::size_t i = 0; i < k; ++i) {
    ASSERT_TRUE(same_value(v[i], x[want[i]])) << "n " << x.size() << " k " << k << " i " << i;
  }
}

std::vector<std::size_t> ks_for(std::size_t n) {
  std::vector<std::size_t> ks = {1, 2, 17, 1000, n / 2, n - 1, n};
  std::erase_if(ks, [&](std::size_t k) { return k == 0 || k > n; });
  return ks;
}

}  // namespace

SIDE_TYPED_SUITE(topk, side_value_types);

SIDE_TYPED_TEST(topk, largest_and_smallest_sorted_ties_to_the_smaller_index) {
  auto rng = make_rng(46);
  for (std::size_t n : standard_sizes()) {
    if (n == 0) continue;
    const auto wide = random_vector<T>(n, rng);
    const auto tied = tied_vector<T>(n, 5, rng);
    for (const auto* x : {&wide, &tied}) {
      const auto d = side::put(*x);
      for (gp::topk_end end : {gp::largest, gp::smallest}) {
        const auto order = reference_topk(x->data(), n, n, end == gp::largest);
        for (std::size_t k : ks_for(n))
          expect_topk(*x, d, order, k, end);
      }
    }
  }
}

SIDE_TYPED_SUITE(topk_nan, side_float_types);

SIDE_TYPED_TEST(topk_nan, nan_is_the_largest) {
  const T nan = std::numeric_limits<T>::quiet_NaN();
  auto rng = make_rng(47);
  for (std::size_t n : {5u, 1000u, 300'001u}) {
    auto x = random_vector<T>(n, rng);
    for (std::size_t i = 3; i < n; i += 97)
      x[i] = nan;
    x[1] = -T(0);
    x[n - 1] = T(0);
    const auto d = side::put(x);
    for (gp::topk_end end : {gp::largest, gp::smallest}) {
      const auto order = reference_topk(x.data(), n, n, end == gp::largest);
      for (std::size_t k : ks_for(n))
        expect_topk(x, d, order, k, end);
    }
  }
  // Largest: the NaNs first, by index.
  const std::vector<T> x = {T(1), nan, T(3), nan, T(2)};
  const auto dx = side::put(x);
  auto v = side::filled_bytes<T>(3, 0);
  auto i = side::filled_bytes<std::int64_t>(3, 0);
  gp::topk(side::backend(), dx, 3, v, i);
  EXPECT_EQ(side::get(i), (std::vector<std::int64_t>{1, 3, 2}));
  gp::topk(side::backend(), dx, 3, v, i, gp::smallest);
  EXPECT_EQ(side::get(i), (std::vector<std::int64_t>{0, 4, 2}));
}

SIDE_TYPED_TEST(topk, rows_of_a_matrix) {
  auto rng = make_rng(48);
  struct shape {
    std::size_t rows, cols, k;
  };
  for (const shape s : {shape{7, 1, 1}, shape{300, 33, 5}, shape{64, 4096, 64}, shape{3, 100, 100},
                        shape{2, (1u << 20) + 7, 16}}) {
    if (s.rows * s.cols > test_size_cap()) continue;
    // Padded rows (leading dimension cols + 3) with ties.
    const std::size_t ld = s.cols + 3;
    const auto x = tied_vector<T>(s.rows * ld, s.cols / 2 + 2, rng);
    const auto d = side::put(x);
    auto values = side::filled_bytes<T>(s.rows * s.k, 0xA5);
    auto indices = side::filled_bytes<std::int64_t>(s.rows * s.k, 0xA5);
    for (gp::topk_end end : {gp::largest, gp::smallest}) {
      gp::topk_rows(
          side::backend(),
          typename side::template matrix_view<const T>(side::span(d).data(), s.rows, s.cols, ld),
          s.k, typename side::template matrix_view<T>(side::span(values).data(), s.rows, s.k),
          typename side::template matrix_view<std::int64_t>(side::span(indices).data(), s.rows,
                                                            s.k),
          end);
      const auto v = side::get(values);
      const auto ix = side::get(indices);
      for (std::size_t r = 0; r < s.rows; ++r) {
        const auto want = reference_topk(x.data() + r * ld, s.cols, s.k, end == gp::largest);
        for (std::size_t j = 0; j < s.k; ++j) {
          ASSERT_EQ(ix[r * s.k + j], want[j]) << s.rows << " x " << s.cols << " row " << r;
          ASSERT_EQ(v[r * s.k + j], x[r * ld + want[j]]);
        }
      }
    }
  }
}

// Sizes about the GPU radix select's stopping threshold (2^16: below it
// the whole array is sorted, above it digit passes narrow first), all-equal
// keys (every digit of the value ties: the index decides) and keys equal
// but for the sign of zero.
SIDE_TYPED_TEST(topk, around_the_select_threshold_and_all_equal_keys) {
  auto rng = make_rng(49);
  for (std::size_t n : {65535u, 65536u, 65537u, 65536u + 1000u, 200'003u}) {
    if (n > test_size_cap()) continue;
    const auto tied = tied_vector<T>(n, 3, rng);
    const std::vector<T> equal(n, T(7));
    std::vector<T> zeros(n, T(0));
    if constexpr (std::is_floating_point_v<T>) {
      for (std::size_t i = 0; i < n; i += 3)
        zeros[i] = -T(0);
    }
    for (const std::vector<T>* x : {&tied, &equal, &std::as_const(zeros)}) {
      const auto d = side::put(*x);
      for (gp::topk_end end : {gp::largest, gp::smallest}) {
        const auto order = reference_topk(x->data(), n, n, end == gp::largest);
        for (std::size_t k : {std::size_t{1}, std::size_t{64}, std::size_t{65536}, n - 1, n})
          if (k <= n) expect_topk(*x, d, order, k, end);
      }
    }
  }
}

SIDE_TEST(topk, refuses_bad_k_and_outputs) {
  const auto d = side::put(std::vector<float>{3, 1, 2});
  auto v = side::filled_bytes<float>(4, 0);
  auto i = side::filled_bytes<std::int64_t>(4, 0);
  expect_invalid_argument([&] { gp::topk(side::backend(), d, 4, v, i); },
                          "k (4) is larger than the 3 elements");
  expect_invalid_argument([&] { gp::topk(side::backend(), d, 0, v, i); },
                          "k is 0; it must be from 1 to n (3)");
  auto short_v = side::filled_bytes<float>(1, 0);
  expect_invalid_argument([&] { gp::topk(side::backend(), d, 2, short_v, i); },
                          "the outputs hold 1 values and 4 indices, k is 2");
  auto m = side::filled_bytes<float>(6, 0);
  auto mv = side::filled_bytes<float>(4, 0);
  auto mi = side::filled_bytes<std::int64_t>(4, 0);
  using MF = typename side::template matrix_view<float>;
  using MI = typename side::template matrix_view<std::int64_t>;
  expect_invalid_argument(
      [&] {
        gp::topk_rows(side::backend(), MF(side::span(m).data(), 2, 3), 2,
                      MF(side::span(mv).data(), 2, 2), MI(side::span(mi).data(), 1, 2));
      },
      "the outputs are 2 x 2 and 1 x 2, they must be 2 x 2");
  expect_invalid_argument(
      [&] {
        gp::topk_rows(side::backend(), MF(side::span(m).data(), 2, 3), 4,
                      MF(side::span(mv).data(), 1, 4), MI(side::span(mi).data(), 1, 4));
      },
      "k (4) is larger than the 3 elements");
}
