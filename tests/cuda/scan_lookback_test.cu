// The single-pass scan with look-back windows other than the default (each
// lane of the look-back warp polling one or several status words; see
// tile_lookback::exclusive_prefix and scripts/tune_scan.cu), instantiated
// here so that every width the tuning probe may pick is tested like the
// default. Each width must give the same bits as the one-word walk: every tile's
// prefix is the same left fold of the tiles' aggregates whichever prefix
// the look-back happened to find.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/value_index.hpp"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/scan_reference.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;
using namespace gpuprim::test;

namespace {

using identity_fetch = gp::detail::unary_fetch<gp::identity>;

// One scan of x with Words status words per look-back lane.
template <int Words, bool Exclusive, class T, class Op>
std::vector<T> scan_with_window(const std::vector<T>& x, T init, Op op) {
  const gp::device_vector<T> in = gp::to_device(x);
  gp::device_vector<T> out(x.size());
  out.fill_bytes(0xA5);
  gc::launch_scan<Exclusive, 512, Words>(in.data(), out.data(), x.size(), init, op,
                                         identity_fetch{}, nullptr);
  return gp::to_host(out);
}

// Sizes with one tile, a few, and hundreds (walks over several windows).
std::vector<std::size_t> lookback_sizes() {
  return test_sizes({1, 8193, 100003, 3'000'017});
}

}  // namespace

TEST_F(cuda_test, scan_lookback_windows_give_the_default_bits) {
  auto rng = make_rng(57);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  for (std::size_t n : lookback_sizes()) {
    std::vector<float> x(n);
    for (auto& v : x)
      v = d(rng);
    const std::string what = "n=" + std::to_string(n);
    const auto inclusive = scan_with_window<1, false>(x, 0.0f, gp::plus{});
    const auto exclusive = scan_with_window<1, true>(x, 0.5f, gp::plus{});
    expect_same_bytes(scan_with_window<2, false>(x, 0.0f, gp::plus{}), inclusive,
                      what + " inclusive, 2 words");
    expect_same_bytes(scan_with_window<4, false>(x, 0.0f, gp::plus{}), inclusive,
                      what + " inclusive, 4 words");
    expect_same_bytes(scan_with_window<4, true>(x, 0.5f, gp::plus{}), exclusive,
                      what + " exclusive, 4 words");
  }
}

// A non-commutative operator on a value too large to ride in a status word
// (the side-array path), exact: any fold out of order would show.
TEST_F(cuda_test, scan_lookback_windows_keep_the_order_of_a_matrix_product) {
  auto rng = make_rng(58);
  for (std::size_t n : lookback_sizes()) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    const auto want = reference_inclusive_scan<mat2>(std::span<const mat2>(x), mat2_product{});
    ASSERT_EQ((scan_with_window<2, false>(x, mat2_identity(), mat2_product{})), want)
        << "2 words, n=" << n;
    ASSERT_EQ((scan_with_window<4, false>(x, mat2_identity(), mat2_product{})), want)
        << "4 words, n=" << n;
  }
}
