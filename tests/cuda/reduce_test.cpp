// The reduction family's cases of the GPU alone, called from plain C++ (the
// library's precompiled kernels); the cases of both backends are in
// tests/sides/reduce_test.cpp. Every test skips without a CUDA device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "gpuprim/reduce.hpp"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, reduce_of_empty_input_is_init) {
  gp::device_vector<float> empty;
  EXPECT_EQ(gp::reduce(gp::cuda, empty, 2.5f), 2.5f);
  EXPECT_EQ(gp::min_element(gp::cuda, empty).index, 0u);
  gp::device_vector<float> out(1);
  out.fill_bytes(0xFF);
  gp::reduce_into(gp::cuda, empty, out.span(), 7.0f);
  EXPECT_EQ(gp::to_host(out)[0], 7.0f);
}

TEST_F(cuda_test, reduce_into_rejects_an_empty_output_and_leaves_it_alone) {
  gp::device_vector<float> x(10);
  EXPECT_THROW(gp::reduce_into(gp::cuda, x, gp::device_span<float>{}, 0.0f), std::invalid_argument);
}

TEST_F(cuda_test, ties_go_to_the_first_and_nans_are_skipped_on_request) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> x(1 << 20, 3.0f);
  x[5] = nan;
  x[700000] = -1.0f;
  x[900001] = -1.0f;
  x[300000] = 8.0f;
  x[1000000] = 8.0f;
  const auto d = gp::to_device(x);
  EXPECT_EQ(gp::min_element(gp::cuda, d, gp::nan_rule::skip),
            (gp::value_index<float>{-1.0f, 700000}));
  EXPECT_EQ(gp::max_element(gp::cuda, d, gp::nan_rule::skip),
            (gp::value_index<float>{8.0f, 300000}));
  EXPECT_EQ(gp::min_element(gp::cuda, d).index, 5u);  // NaN propagates
  EXPECT_EQ(gp::max_element(gp::cuda, d).index, 5u);
  const auto all_nan = gp::to_device(std::vector<float>(1000, nan));
  EXPECT_EQ(gp::min_element(gp::cuda, all_nan, gp::nan_rule::skip).index, 0u);
  EXPECT_EQ(gp::min_element(gp::cuda, all_nan).index, 0u);
}

TEST_F(cuda_test, transforms_and_widening) {
  auto rng = make_rng(15);
  const auto x = random_vector<float>(1000003, rng);
  const auto d = gp::to_device(x);
  double squares = 0, absolutes = 0, sum = 0;
  for (float v : x) {
    squares += double(v) * v;
    absolutes += std::abs(double(v));
    sum += v;
  }
  const std::size_t n = x.size();
  EXPECT_NEAR(gp::transform_reduce(gp::cuda, d, 0.0f, gp::plus{}, gp::square{}), squares,
              sum_tolerance<float>(n, 1.0));
  EXPECT_NEAR(gp::transform_reduce(gp::cuda, d, 0.0f, gp::plus{}, gp::absolute{}), absolutes,
              sum_tolerance<float>(n, 1.0));
  EXPECT_NEAR(gp::reduce(gp::cuda, d, 0.0), sum, sum_tolerance<double>(n, 1.0));
}

TEST_F(cuda_test, float_results_are_deterministic) {
  auto rng = make_rng(16);
  const auto d = gp::to_device(random_vector<float>((1 << 24) + 3, rng));
  const float first = gp::reduce(gp::cuda, d, 0.0f);
  for (int i = 0; i < 5; ++i)
    EXPECT_EQ(gp::reduce(gp::cuda, d, 0.0f), first);
}

// More than 2^31 one-byte elements: 64-bit sizes and indices all the way down.
TEST_F(cuda_test, more_than_two_to_the_31_bytes) {
  const std::size_t n = (std::size_t{1} << 31) + 12345;
  gp::device_vector<std::uint8_t> d(n);
  d.fill_bytes(1);
  const std::size_t late = n - 77;  // beyond 2^31
  const std::uint8_t zero = 0, nine = 9;
  gp::copy(std::span<const std::uint8_t>(&zero, 1), d.span().subspan(late, 1));
  gp::copy(std::span<const std::uint8_t>(&nine, 1), d.span().subspan(late + 1, 1));
  EXPECT_EQ(gp::reduce(gp::cuda, d, std::uint64_t{0}), n - 1 + 9 - 1);
  EXPECT_EQ(gp::reduce(gp::cuda, d, std::uint8_t{255}, gp::minimum{}), 0);
  EXPECT_EQ(gp::reduce(gp::cuda, d, std::uint8_t{0}, gp::maximum{}), 9);
}
