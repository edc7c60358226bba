// gp::argsort_batched on each backend (support/side_test.hpp) against a
// stable sort of positions per run, outputs poisoned before each call.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// Each run's positions in the order of gp::sort (NaN last in both
// directions), equal keys in input order.
template <class T>
std::vector<std::int64_t> reference_argsort(const std::vector<T>& keys, std::size_t cols,
                                            gp::sort_order order) {
  std::vector<std::int64_t> out(keys.size());
  for (std::size_t begin = 0; begin < keys.size(); begin += cols) {
    auto first = out.begin() + static_cast<std::ptrdiff_t>(begin);
    std::iota(first, first + static_cast<std::ptrdiff_t>(cols), std::int64_t{0});
    const auto key = [&](std::int64_t j) { return keys[begin + static_cast<std::size_t>(j)]; };
    std::stable_sort(
        first, first + static_cast<std::ptrdiff_t>(cols), [&](std::int64_t a, std::int64_t b) {
          return order == gp::sort_order::ascending ? gp::sort_less{}(key(a), key(b))
                                                    : gp::sort_greater{}(key(a), key(b));
        });
  }
  return out;
}

}  // namespace

SIDE_TYPED_SUITE(argsort_batched, side_value_types);

SIDE_TYPED_TEST(argsort_batched, positions_and_keys_of_every_run) {
  auto rng = make_rng(61);
  const std::size_t shapes[][2] = {{1, 1}, {1, 1000}, {7, 33}, {1000, 3}, {64, 1025}, {3, 4096}};
  for (const auto& shape : shapes) {
    const std::size_t rows = shape[0], cols = shape[1], n = rows * cols;
    auto keys = random_vector<T>(n, rng);
    for (std::size_t i = 0; i < n; i += 5)
      keys[i] = keys[i / 2];  // duplicates, so that stability shows
    if constexpr (std::is_floating_point_v<T>) {
      for (std::size_t i = 3; i < n; i += 11)
        keys[i] = std::numeric_limits<T>::quiet_NaN();
    }
    const auto d = side::put(keys);
    for (auto order : {gp::sort_order::ascending, gp::sort_order::descending}) {
      const auto want = reference_argsort(keys, cols, order);
      auto indices = side::filled_bytes<std::int64_t>(n, 0xA5);
      gp::argsort_batched(side::backend(), d, cols, indices, order);
      EXPECT_EQ(side::get(indices), want) << rows << " x " << cols;
      auto indices2 = side::filled_bytes<std::int64_t>(n, 0xA5);
      auto sorted = side::filled_bytes<T>(n, 0xA5);
      gp::argsort_batched(side::backend(), d, cols, indices2, sorted, order);
      EXPECT_EQ(side::get(indices2), want) << rows << " x " << cols << " with keys";
      const auto got_keys = side::get(sorted);
      for (std::size_t i = 0; i < n; ++i) {
        const T expected = keys[i / cols * cols + static_cast<std::size_t>(want[i])];
        if constexpr (std::is_floating_point_v<T>) {
          if (std::isnan(expected)) {
            ASSERT_TRUE(std::isnan(got_keys[i])) << i;
            continue;
          }
        }
        ASSERT_EQ(got_keys[i], expected) << i;
      }
    }
  }
}

SIDE_TEST(argsort_batched, bad_shapes_throw_and_leave_the_output_untouched) {
  const auto keys = side::put(std::vector<int>(12, 1));
  auto indices = side::filled_bytes<std::int64_t>(12, 0x11);
  EXPECT_THROW(gp::argsort_batched(side::backend(), keys, 5, indices), std::invalid_argument);
  EXPECT_THROW(gp::argsort_batched(side::backend(), keys, 0, indices), std::invalid_argument);
  auto short_indices = side::filled_bytes<std::int64_t>(11, 0x11);
  EXPECT_THROW(gp::argsort_batched(side::backend(), keys, 4, short_indices), std::invalid_argument);
  auto short_keys = side::filled_bytes<int>(11, 0x11);
  EXPECT_THROW(gp::argsort_batched(side::backend(), keys, 4, indices, short_keys),
               std::invalid_argument);
  EXPECT_EQ(side::get(indices), std::vector<std::int64_t>(12, 0x1111111111111111));
}
