// GPU sorting networks from plain C++ (precompiled kernels) against
// std::stable_sort. Sizes reach every path: registers (<= 64 keys), one
// block's shared memory (<= 32 KiB), tiles plus global steps (longer).
// Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/sorting_network.hpp"
#include "support/cuda_fixture.hpp"
#include "support/sorting_network_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

template <class T>
class cuda_sorting_network : public typed_cuda_test<T> {};
using network_types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(cuda_sorting_network, network_types);

namespace {

std::vector<std::size_t> network_sizes() {
  std::vector<std::size_t> sizes = standard_sizes();
  for (std::size_t n : {63u, 64u, 65u, 4096u, 8191u, 8193u, 16385u})
    sizes.push_back(n);
  return test_sizes(sizes);
}

template <class T, class Sort>
void check_every_size_and_pattern(Sort sort, std::size_t salt) {
  auto rng = make_rng(salt);
  for (std::size_t n : network_sizes()) {
    for (key_pattern pattern : all_key_patterns) {
      if (n > 100000 && pattern != key_pattern::random && pattern != key_pattern::special) {
        continue;
      }
      const auto input = make_keys<T>(n, pattern, rng);
      gp::device_vector<T> up = gp::to_device(input), down = gp::to_device(input);
      sort(up, gp::sort_less{});
      sort(down, gp::sort_greater{});
      EXPECT_TRUE(is_network_sort_of<T>(gp::to_host(up), input, gp::sort_less{}))
          << "ascending, n=" << n << ", " << name_of(pattern);
      EXPECT_TRUE(is_network_sort_of<T>(gp::to_host(down), input, gp::sort_greater{}))
          << "descending, n=" << n << ", " << name_of(pattern);
    }
  }
}

}  // namespace

TYPED_TEST(cuda_sorting_network, bitonic_sort_every_size_and_pattern) {
  check_every_size_and_pattern<TypeParam>(
      [](auto& keys, auto comp) { gp::bitonic_sort(gp::cuda, keys, comp); }, 71);
}

TYPED_TEST(cuda_sorting_network, odd_even_merge_sort_every_size_and_pattern) {
  check_every_size_and_pattern<TypeParam>(
      [](auto& keys, auto comp) { gp::odd_even_merge_sort(gp::cuda, keys, comp); }, 72);
}

// 5000 keys: a tile for 4-byte keys, past one for 8-byte keys (global steps).
TYPED_TEST(cuda_sorting_network, batched_every_array_size) {
  using T = TypeParam;
  auto rng = make_rng(73);
  for (std::size_t array_size : {1u, 2u, 3u, 31u, 32u, 33u, 64u, 65u, 1000u, 1024u, 5000u}) {
    for (std::size_t count : {0u, 1u, 7u, 300u}) {
      for (key_pattern pattern : {key_pattern::special, key_pattern::reversed}) {
        const auto input = make_keys<T>(array_size * count, pattern, rng);
        gp::device_vector<T> keys = gp::to_device(input);
        gp::sort_batched(gp::cuda, keys, array_size);
        EXPECT_TRUE(is_batched_sort_of<T>(gp::to_host(keys), input, array_size, gp::sort_less{}))
            << "array_size=" << array_size << " count=" << count << ", " << name_of(pattern);
      }
    }
  }
}

// Unaligned data takes the guarded loads of full arrays.
TYPED_TEST(cuda_sorting_network, batched_unaligned_subspan) {
  using T = TypeParam;
  auto rng = make_rng(74);
  const auto input = make_keys<T>(32 * 1000 + 1, key_pattern::random, rng);
  gp::device_vector<T> keys = gp::to_device(input);
  gp::sort_batched(gp::cuda, keys.span().subspan(1, 32 * 1000), 32, gp::sort_greater{});
  const auto got = gp::to_host(keys);
  EXPECT_EQ(got[0], input[0]);
  EXPECT_TRUE(is_batched_sort_of<T>(std::span<const T>(got).subspan(1),
                                    std::span<const T>(input).subspan(1), 32, gp::sort_greater{}));
}

// The benchmark's shape: 2^20 arrays of 32 keys.
TYPED_TEST(cuda_sorting_network, batched_many_arrays_of_32) {
  using T = TypeParam;
  auto rng = make_rng(75);
  const auto input = make_keys<T>(std::size_t{32} << 20, key_pattern::random, rng);
  gp::device_vector<T> keys = gp::to_device(input);
  gp::sort_batched(gp::cuda, keys, 32);
  EXPECT_TRUE(is_batched_sort_of<T>(gp::to_host(keys), input, 32, gp::sort_less{}));
}

TYPED_TEST(cuda_sorting_network, segmented_every_layout) {
  using T = TypeParam;
  auto rng = make_rng(76);
  for (std::size_t n : {0u, 1u, 1000u, 100003u}) {
    const auto input = make_keys<T>(n, key_pattern::special, rng);
    for (const auto& offsets : segment_layouts(n, rng)) {
      gp::device_vector<T> keys = gp::to_device(input);
      const auto d_offsets = gp::to_device(offsets);
      gp::segmented_sort(gp::cuda, keys, d_offsets, gp::sort_greater{});
      EXPECT_TRUE((is_segmented_sort_of<T, std::uint64_t>(gp::to_host(keys), input, offsets,
                                                          gp::sort_greater{})))
          << "n=" << n << ", " << offsets.size() - 1 << " segments";
    }
  }
}

TEST_F(cuda_test, segmented_sort_takes_int32_offsets_and_a_stream) {
  auto rng = make_rng(77);
  const auto input = make_keys<float>(70000, key_pattern::special, rng);
  const std::vector<std::int32_t> offsets{0, 5, 5, 40, 100, 9000, 20000, 70000};
  gp::device_vector<float> keys = gp::to_device(input);
  gp::segmented_sort(gp::cuda.on(nullptr), keys, gp::to_device(offsets));
  EXPECT_TRUE((is_segmented_sort_of<float, std::int32_t>(gp::to_host(keys), input, offsets,
                                                         gp::sort_less{})));
}

TEST_F(cuda_test, sorting_network_bad_shapes_throw_and_leave_data_untouched) {
  const std::vector<int> before{5, 4, 3, 2, 1, 0, 9};
  gp::device_vector<int> keys = gp::to_device(before);
  EXPECT_THROW(gp::sort_batched(gp::cuda, keys, 2), std::invalid_argument);
  EXPECT_THROW(gp::sort_batched(gp::cuda, keys, 0), std::invalid_argument);
  const std::vector<std::vector<std::int64_t>> bad = {
      {0, 3}, {1, 7}, {0, 4, 2, 7}, {0, 3, 8}, {-1, 7}};
  for (const auto& offsets : bad) {
    EXPECT_THROW(gp::segmented_sort(gp::cuda, keys, gp::to_device(offsets)), std::invalid_argument);
  }
  EXPECT_THROW(gp::segmented_sort(gp::cuda, keys, gp::device_vector<std::int64_t>{}),
               std::invalid_argument);
  EXPECT_EQ(gp::to_host(keys), before);
}

TEST_F(cuda_test, sorting_networks_of_empty_and_single_inputs_do_nothing) {
  gp::device_vector<double> empty;
  gp::bitonic_sort(gp::cuda, empty);
  gp::odd_even_merge_sort(gp::cuda, empty);
  gp::sort_batched(gp::cuda, empty, 4);
  gp::segmented_sort(gp::cuda, empty, gp::to_device(std::vector<std::uint64_t>{0}));
  gp::device_vector<double> one = gp::to_device(std::vector<double>{-0.0});
  gp::bitonic_sort(gp::cuda, one);
  EXPECT_TRUE(std::signbit(gp::to_host(one)[0]));
}
