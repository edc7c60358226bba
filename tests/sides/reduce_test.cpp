// The reduction family on each backend (support/side_test.hpp) against the
// sequential references. The backends' own cases are in
// tests/host/reduce_test.cpp and tests/cuda/reduce_test.cpp.
#include <gtest/gtest.h>

#include <limits>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/reduce.hpp"
#include "support/nan_rule_cases.hpp"
#include "support/reduce_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

SIDE_TYPED_SUITE(reduce, side_value_types);

SIDE_TYPED_TEST(reduce, sum_matches_reference_at_every_size) {
  auto rng = make_rng(11);
  for (std::size_t n : standard_sizes()) {
    const auto x = random_vector<T>(n, rng);
    expect_sum<T>(gp::reduce(side::backend(), side::put(x), T{}), x, "n=" + std::to_string(n));
  }
}

SIDE_TYPED_TEST(reduce, min_max_and_elements) {
  auto rng = make_rng(12);
  for (std::size_t n : standard_sizes()) {
    if (n == 0) continue;
    const auto x = random_vector<T>(n, rng);
    const auto d = side::put(x);
    const auto lo = reference_extreme<T, false>(x);
    const auto hi = reference_extreme<T, true>(x);
    EXPECT_EQ(gp::reduce(side::backend(), d, std::numeric_limits<T>::max(), gp::minimum{}),
              lo.value);
    EXPECT_EQ(gp::reduce(side::backend(), d, std::numeric_limits<T>::lowest(), gp::maximum{}),
              hi.value);
    EXPECT_EQ(gp::min_element(side::backend(), d), lo) << "n=" << n;
    EXPECT_EQ(gp::max_element(side::backend(), d), hi) << "n=" << n;
  }
}

#if GPUPRIM_TEST_ON_CUDA
SIDE_TYPED_TEST(reduce, unaligned_subspans_take_the_scalar_path) {
  auto rng = make_rng(13);
  const auto x = random_vector<T>(100000, rng);
  const auto d = side::put(x);
  for (std::size_t offset : {1u, 2u, 3u}) {
    const std::size_t n = x.size() - offset - 5;
    expect_sum<T>(gp::reduce(side::backend(), side::span(d).subspan(offset, n), T{}),
                  std::span<const T>(x).subspan(offset, n), "offset=" + std::to_string(offset));
  }
}

SIDE_TYPED_TEST(reduce, reduce_into_writes_the_poisoned_output) {
  auto rng = make_rng(14);
  const auto x = random_vector<T>(4097, rng);
  auto out = side::filled_bytes<T>(1, 0xA5);
  gp::reduce_into(side::backend(), side::put(x), side::span(out), T{}, gp::maximum{});
  EXPECT_EQ(side::get(out)[0], (reference_extreme<T, true>(x).value));
}
#else
SIDE_TYPED_TEST(reduce, init_is_combined_once) {
  std::vector<T> x(100000, T(1));
  for (int threads : {1, 2, 3, 7}) {
    EXPECT_EQ(gp::reduce(gp::host.threads(threads), x, T(5)), T(100005)) << threads;
  }
  EXPECT_EQ(gp::reduce(gp::host, std::vector<T>{}, T(5)), T(5));
}
#endif

// NaN: what NumPy's min, argmin, nanmin, nanargmin and nansum answer
// (support/nan_rule_cases.hpp).
SIDE_TYPED_SUITE(nan_rules, side_float_types);

SIDE_TYPED_TEST(nan_rules, follow_numpy) {
  nan_rule_cases<side, T>();
}

SIDE_TYPED_TEST(nan_rules, min_scan_propagates_nan) {
  nan_propagates_through_min_scan<side, T>();
}

SIDE_TEST(nan_rules, integers_use_the_plain_operators) {
  integer_nan_rules_are_the_plain_ones<side>();
}
