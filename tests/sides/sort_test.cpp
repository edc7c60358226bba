// The radix sort on each backend (support/side_test.hpp) against the
// sequential reference of support/sort_reference.hpp, keys compared by bit
// pattern (the bodies of support/sort_cases.hpp). The backends' own cases
// are in tests/host/sort_test.cpp and tests/cuda/sort_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/side_test.hpp"
#include "support/sort_cases.hpp"
#include "support/sort_reference.hpp"
#include "support/test_data.hpp"

SIDE_TYPED_SUITE(radix_sort, radix_key_types);

// The sizes of sort_sizes(), and on the GPU one of about 3 * 2^20 keys:
// hundreds of tiles, so that the look-back crosses many of them.
SIDE_TYPED_TEST(radix_sort, keys_at_every_size_pattern_and_order) {
  auto rng = make_rng(201);
  auto sizes = sort_sizes();
  if (on_cuda) sizes.push_back((std::size_t{3} << 20) + 1);
  check_keys_at_every_size<side, T>(test_sizes(sizes), rng);
}

SIDE_TYPED_TEST(radix_sort, pairs_keep_equal_keys_in_input_order) {
  auto rng = make_rng(202);
  check_pairs_keep_equal_keys_in_input_order<side, T>(sort_sizes(), rng);
}

SIDE_TYPED_TEST(radix_sort, eight_byte_values_move_with_their_keys) {
  auto rng = make_rng(203);
  check_value_types<side, T>(rng);
}

SIDE_TYPED_TEST(radix_sort, bit_ranges) {
  auto rng = make_rng(204);
  check_bit_ranges<side, T>({1, 33, 4097, 20011, 100003}, rng);
}

SIDE_TYPED_TEST(radix_sort, unaligned_subspans) {
  auto rng = make_rng(205);
  check_unaligned_subspans<side, T>(rng);
}

#if !GPUPRIM_TEST_ON_CUDA
SIDE_TYPED_TEST(radix_sort, out_of_place_leaves_the_input_unchanged) {
  using K = T;
  auto rng = make_rng(102);
  const std::vector<K> x = random_bits_keys<K>(100003, rng);
  std::vector<K> in = x;
  std::vector<K> out = poisoned_on<host_side, K>(x.size());
  gp::sort(gp::host, in, out, gp::sort_order::descending);
  expect_same_bytes(in, x, "keys input");
  std::vector<std::uint32_t> values = positions(x.size());
  std::vector<K> keys_out = poisoned_on<host_side, K>(x.size());
  std::vector<std::uint32_t> values_out(x.size(), 0xA5A5A5A5u);
  gp::sort_by_key(gp::host, in, values, keys_out, values_out);
  expect_same_bytes(in, x, "pairs key input");
  EXPECT_EQ(values, positions(x.size()));
}

SIDE_TYPED_TEST(radix_sort, thread_counts_give_the_same_stable_result) {
  using K = T;
  auto rng = make_rng(106);
  for (key_pattern pattern : {key_pattern::few_distinct, key_pattern::random_bits}) {
    const std::vector<K> x = pattern_keys<K>(pattern, 300007, rng);
    const std::vector<std::uint32_t> pos = positions(x.size());
    const auto perm = reference_sort_permutation(std::span<const K>(x), false);
    const auto want = gather(std::span<const K>(x), perm);
    for (int threads : {1, 2, 3, 8}) {
      const std::string what =
          std::string(pattern_name(pattern)) + ", " + std::to_string(threads) + " threads";
      std::vector<K> k = x;
      std::vector<std::uint32_t> v = pos;
      gp::sort_by_key(gp::host.threads(threads), k, v);
      expect_same_bytes(k, want, what);
      ASSERT_EQ(v, perm) << what;
    }
  }
}
#endif

SIDE_TYPED_SUITE(radix_sort_float, side_float_types);

SIDE_TYPED_TEST(radix_sort_float, nan_zeros_infinities_and_denormals) {
  auto rng = make_rng(206);
  check_special_floats<side, T>({1, 3, 200, 2000, 20000}, rng);
}
