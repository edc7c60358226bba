// The scan family's cases of the CPU backend alone, against sequential
// references; the cases of both backends are in tests/sides/scan_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <random>
#include <type_traits>
#include <vector>

#include "gpuprim/scan.hpp"
#include "support/reduce_reference.hpp"
#include "support/scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

// Several rounds of blocks per thread, an odd size and an output that
// starts one element past a cache line: the carries between rounds, threads
// and lanes. Both arrays are over host_impl::scan_streaming_bytes, so pass
// 2 writes with streaming stores after each lane's first line boundary.
template <class T>
void expect_many_rounds_with_a_misaligned_output(std::size_t n) {
  using U = std::make_unsigned_t<T>;  // wrapping sums, exact as a loop's
  ASSERT_GE(n * sizeof(T), gp::host_impl::scan_streaming_bytes);
  auto rng = make_rng(37);
  const auto x = random_vector<T>(n, rng);
  std::vector<T> storage(n + 1);
  const std::span<T> out(storage.data() + 1, n);
  for (int threads : {1, 2, 3}) {
    gp::inclusive_scan(gp::host.threads(threads), x, out);
    T running = 0;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      running = static_cast<T>(static_cast<U>(running) + static_cast<U>(x[i]));
      wrong += out[i] != running;
    }
    EXPECT_EQ(wrong, 0u) << "inclusive, threads " << threads;
    gp::exclusive_scan(gp::host.threads(threads), x, out, T{5});
    running = 5;
    wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      wrong += out[i] != running;
      running = static_cast<T>(static_cast<U>(running) + static_cast<U>(x[i]));
    }
    EXPECT_EQ(wrong, 0u) << "exclusive, threads " << threads;
  }
}

TEST(host_scan, many_rounds_and_a_misaligned_output) {
  expect_many_rounds_with_a_misaligned_output<std::int32_t>((std::size_t{1} << 23) + 4099);
  expect_many_rounds_with_a_misaligned_output<std::int64_t>((std::size_t{1} << 22) + 4099);
}

// 64-bit sums on the vector path (pairs of elements per SSE2 vector), in
// place, with values near the top so that the sums wrap: exact, like a
// sequential loop.
TEST(host_scan, wrapping_uint64_sums_in_place_match_a_loop_exactly) {
  auto rng = make_rng(38);
  const std::size_t n = (std::size_t{1} << 21) + 13;
  std::vector<std::uint64_t> x(n);
  for (auto& v : x)
    v = ~std::uint64_t{0} - (rng() % 1000);
  for (bool exclusive : {false, true}) {
    std::vector<std::uint64_t> data = x;
    if (exclusive) {
      gp::exclusive_scan(gp::host.threads(2), data, data, std::uint64_t{7});
    } else {
      gp::inclusive_scan(gp::host.threads(2), data, data);
    }
    std::uint64_t running = exclusive ? 7 : 0;
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
      if (!exclusive) running += x[i];
      wrong += data[i] != running;
      if (exclusive) running += x[i];
    }
    EXPECT_EQ(wrong, 0u) << (exclusive ? "exclusive" : "inclusive");
  }
}

TEST(host_scan, exclusive_is_inclusive_shifted_by_one) {
  auto rng = make_rng(33);
  const auto x = random_vector<std::int64_t>(200003, rng);
  std::vector<std::int64_t> inc(x.size()), exc(x.size());
  gp::inclusive_scan(gp::host, x, inc);
  gp::exclusive_scan(gp::host, x, exc, std::int64_t{0});
  EXPECT_EQ(exc[0], 0);
  for (std::size_t i = 1; i < x.size(); ++i)
    ASSERT_EQ(exc[i], inc[i - 1]) << i;
}

TEST(host_scan, in_place_and_thread_counts) {
  auto rng = make_rng(34);
  const auto x = random_vector<std::int32_t>(1000003, rng);
  const auto want =
      reference_inclusive_scan<std::int32_t>(std::span<const std::int32_t>(x), gp::plus{});
  for (int threads : {1, 2, 3, 8}) {
    std::vector<std::int32_t> y = x;
    gp::inclusive_scan(gp::host.threads(threads), y, y);
    ASSERT_EQ(y, want) << threads;
  }
}

TEST(host_scan, non_commutative_operator_keeps_order) {
  auto rng = make_rng(35);
  for (std::size_t n : {std::size_t{1}, std::size_t{77}, std::size_t{300001}}) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    std::vector<mat2> got(n), want(n);
    mat2 acc = mat2_identity();
    for (std::size_t i = 0; i < n; ++i)
      want[i] = acc = mat2_product{}(acc, x[i]);
    for (int threads : {1, 3}) {
      gp::inclusive_scan(gp::host.threads(threads), x, got, mat2_product{});
      ASSERT_EQ(got, want) << "n=" << n;
    }
    gp::exclusive_scan(gp::host, x, got, mat2_identity(), mat2_product{});
    EXPECT_EQ(got[0], mat2_identity());
    for (std::size_t i = 1; i < n; ++i)
      ASSERT_EQ(got[i], want[i - 1]);
  }
}

TEST(host_scan, transform_inclusive_scan_widens) {
  std::vector<std::uint8_t> x(100000, 200);
  std::vector<std::uint64_t> out(x.size());
  gp::transform_inclusive_scan(gp::host, x, out, gp::plus{},
                               [](std::uint8_t v) { return std::uint64_t{v}; });
  EXPECT_EQ(out.back(), 200ull * 100000);
  EXPECT_EQ(out[9], 2000u);
}
