// GPU scans from plain C++ (precompiled kernels). Skips without a device.
#include <gtest/gtest.h>

#include <limits>
#include <vector>

#include "gpuprim/scan.hpp"
#include "support/cuda_fixture.hpp"
#include "support/scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

template <class T>
class cuda_scan : public typed_cuda_test<T> {};
using scan_types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(cuda_scan, scan_types);

template <class T>
using ref_t = std::conditional_t<std::is_floating_point_v<T>, double, T>;

TYPED_TEST(cuda_scan, inclusive_and_exclusive_sums_at_every_size) {
  using T = TypeParam;
  auto rng = make_rng(41);
  std::vector<std::size_t> sizes = standard_sizes();
  sizes.push_back(4096);  // exactly one tile of 4-byte types
  sizes.push_back(4096 * 3 + 1);
  for (std::size_t n : test_sizes(sizes)) {
    const auto x = random_vector<T>(n, rng);
    const auto d = gp::to_device(x);
    gp::device_vector<T> out(n);
    out.fill_bytes(0xA5);
    gp::inclusive_scan(gp::cuda, d, out);
    expect_scan_near<T>(gp::to_host(out),
                        reference_inclusive_scan<ref_t<T>>(std::span<const T>(x), gp::plus{}),
                        "inclusive");
    out.fill_bytes(0xA5);
    gp::exclusive_scan(gp::cuda, d, out, T(3));
    expect_scan_near<T>(
        gp::to_host(out),
        reference_exclusive_scan<ref_t<T>>(std::span<const T>(x), ref_t<T>(3), gp::plus{}),
        "exclusive");
  }
}

TYPED_TEST(cuda_scan, min_max_and_in_place) {
  using T = TypeParam;
  auto rng = make_rng(42);
  const auto x = random_vector<T>(2'000'003, rng);
  gp::device_vector<T> d = gp::to_device(x);
  gp::device_vector<T> out(x.size());
  gp::inclusive_scan(gp::cuda, d, out, gp::minimum{});
  expect_scan_near<T>(gp::to_host(out),
                      reference_inclusive_scan<T>(std::span<const T>(x), gp::minimum{}), "min");
  gp::exclusive_scan(gp::cuda, d, d, std::numeric_limits<T>::lowest(), gp::maximum{});  // in place
  expect_scan_near<T>(gp::to_host(d),
                      reference_exclusive_scan<T>(std::span<const T>(x),
                                                  std::numeric_limits<T>::lowest(), gp::maximum{}),
                      "max in place");
}

TYPED_TEST(cuda_scan, unaligned_subspans) {
  using T = TypeParam;
  auto rng = make_rng(43);
  const auto x = random_vector<T>(50000, rng);
  const auto d = gp::to_device(x);
  gp::device_vector<T> out(x.size());
  for (std::size_t offset : {1u, 3u}) {
    const std::size_t n = x.size() - 2 * offset;
    gp::inclusive_scan(gp::cuda, d.span().subspan(offset, n), out.span().subspan(0, n));
    auto got = gp::to_host(out);
    got.resize(n);
    expect_scan_near<T>(
        got,
        reference_inclusive_scan<ref_t<T>>(std::span<const T>(x).subspan(offset, n), gp::plus{}),
        "unaligned");
  }
}

TEST_F(cuda_test, scan_float_sums_are_deterministic) {
  auto rng = make_rng(44);
  const auto d = gp::to_device(random_vector<float>((1 << 24) + 5, rng));
  gp::device_vector<float> a(d.size()), b(d.size());
  gp::inclusive_scan(gp::cuda, d, a);
  const auto first = gp::to_host(a);
  for (int i = 0; i < 3; ++i) {
    gp::inclusive_scan(gp::cuda, d, b);
    ASSERT_EQ(gp::to_host(b), first);
  }
}

TEST_F(cuda_test, scan_bad_ranges_throw_and_leave_output_untouched) {
  gp::device_vector<int> x(100), small(99);
  small.fill_bytes(0x11);
  EXPECT_THROW(gp::inclusive_scan(gp::cuda, x, small), std::invalid_argument);
  for (int v : gp::to_host(small))
    ASSERT_EQ(v, 0x11111111);
  gp::device_vector<int> y(200);
  EXPECT_THROW(gp::inclusive_scan(gp::cuda, y.span().subspan(0, 100), y.span().subspan(1, 100)),
               std::invalid_argument);
}

TEST_F(cuda_test, scan_of_empty_input_writes_nothing) {
  gp::device_vector<float> x, out;
  gp::inclusive_scan(gp::cuda, x, out);
  gp::exclusive_scan(gp::cuda, x, out, 1.0f);
}

// NaN: gp::minimum / maximum propagate it across the tiles' look-back,
// gp::minimum_number / maximum_number skip it (precompiled for floats).
template <class T>
class cuda_scan_nan : public typed_cuda_test<T> {};
using float_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(cuda_scan_nan, float_types);

TYPED_TEST(cuda_scan_nan, minimum_propagates_and_minimum_number_skips) {
  using T = TypeParam;
  const T inf = std::numeric_limits<T>::infinity();
  for (std::size_t n : {std::size_t{7}, std::size_t{4096 * 3 + 17}, std::size_t{2'000'003}}) {
    const auto x = values_with_nans<T>(n, n / 2 + 3);
    auto numbers_first = x;
    numbers_first[0] = numbers_first[1] = T(0.5);
    const auto d = gp::to_device(x);
    const auto d_numbers_first = gp::to_device(numbers_first);
    gp::device_vector<T> out(n);
    gp::inclusive_scan(gp::cuda, d_numbers_first, out, gp::minimum{});
    expect_same_with_nan(gp::to_host(out), nan_rule_reference<T>(numbers_first, false, false, {}),
                         "min");
    gp::inclusive_scan(gp::cuda, d, out, gp::maximum{});
    expect_same_with_nan(gp::to_host(out), nan_rule_reference<T>(x, true, false, {}),
                         "max, leading NaN");
    gp::inclusive_scan(gp::cuda, d, out, gp::minimum_number{});
    expect_same_with_nan(gp::to_host(out), nan_rule_reference<T>(x, false, true, {}), "nanmin");
    gp::inclusive_scan(gp::cuda, d, out, gp::maximum_number{});
    expect_same_with_nan(gp::to_host(out), nan_rule_reference<T>(x, true, true, {}), "nanmax");
    gp::exclusive_scan(gp::cuda, d_numbers_first, out, inf, gp::minimum{});
    expect_same_with_nan(gp::to_host(out), nan_rule_reference<T>(numbers_first, false, false, inf),
                         "exclusive min");
    gp::exclusive_scan(gp::cuda, d, out, -inf, gp::maximum_number{});
    expect_same_with_nan(gp::to_host(out), nan_rule_reference<T>(x, true, true, -inf),
                         "exclusive nanmax");
  }
}
