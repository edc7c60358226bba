// The sorting networks on each backend (support/side_test.hpp) against
// std::stable_sort (support/sorting_network_reference.hpp). The backends'
// own cases are in tests/host/sorting_network_test.cpp and
// tests/cuda/sorting_network_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/side_test.hpp"
#include "support/sorting_network_reference.hpp"
#include "support/test_data.hpp"

namespace {

// Every pattern, both orders, at the sizes below `every_pattern_up_to`; past
// it random keys ascending (on the GPU: random and special ones, both
// orders). The GPU adds the sizes around its tiles.
template <class T, class Sort>
void check_every_size_and_pattern(Sort sort, std::size_t salt) {
  auto rng = make_rng(salt);
  std::vector<std::size_t> sizes = standard_sizes();
  if (on_cuda) {
    for (std::size_t n : {63u, 64u, 65u, 4096u, 8191u, 8193u, 16385u})
      sizes.push_back(n);
  }
  const std::size_t every_pattern_up_to = on_cuda ? 100000 : 10000;
  for (std::size_t n : test_sizes(sizes)) {
    for (key_pattern pattern : all_key_patterns) {
      const bool big = n > every_pattern_up_to;
      if (big && pattern != key_pattern::random && !(on_cuda && pattern == key_pattern::special)) {
        continue;
      }
      const auto input = make_keys<T>(n, pattern, rng);
      auto up = side::put(input);
      sort(up, gp::sort_less{});
      EXPECT_TRUE(is_network_sort_of<T>(side::get(up), input, gp::sort_less{}))
          << "ascending, n=" << n << ", " << name_of(pattern);
      if (big && !on_cuda) continue;
      auto down = side::put(input);
      sort(down, gp::sort_greater{});
      EXPECT_TRUE(is_network_sort_of<T>(side::get(down), input, gp::sort_greater{}))
          << "descending, n=" << n << ", " << name_of(pattern);
    }
  }
}

}  // namespace

SIDE_TYPED_SUITE(sorting_network, side_value_types);

SIDE_TYPED_TEST(sorting_network, bitonic_sort_every_size_and_pattern) {
  check_every_size_and_pattern<T>(
      [](auto& keys, auto comp) { gp::bitonic_sort(side::backend(), keys, comp); }, 71);
}

SIDE_TYPED_TEST(sorting_network, odd_even_merge_sort_every_size_and_pattern) {
  check_every_size_and_pattern<T>(
      [](auto& keys, auto comp) { gp::odd_even_merge_sort(side::backend(), keys, comp); }, 72);
}

// 5000 keys: on the GPU a tile for 4-byte keys, past one for 8-byte keys
// (global steps). The powers of two from 128 to 4096 are the GPU's full
// tiles (one chunk of a warp's keys up to the largest that fits twice in
// shared memory).
SIDE_TYPED_TEST(sorting_network, batched_every_array_size) {
  auto rng = make_rng(73);
  const std::size_t many_arrays = on_cuda ? 300 : 40;
  for (std::size_t array_size :
       {1u, 2u, 3u, 31u, 32u, 33u, 64u, 65u, 128u, 256u, 512u, 1000u, 1024u, 2048u, 4096u, 5000u}) {
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, many_arrays}) {
      for (key_pattern pattern : {key_pattern::special, key_pattern::reversed}) {
        const auto input = make_keys<T>(array_size * count, pattern, rng);
        auto keys = side::put(input);
        gp::sort_batched(side::backend(), keys, array_size);
        EXPECT_TRUE(is_batched_sort_of<T>(side::get(keys), input, array_size, gp::sort_less{}))
            << "array_size=" << array_size << " count=" << count << ", " << name_of(pattern);
      }
    }
  }
}

// Full arrays of powers of two, descending, every pattern: on the GPU the
// full-tile kernel's sizes (from one warp's chunk, 128 keys of 8 bytes or
// 256 of 4, to 2048 or 4096), the sizes past it that take the shared tiles
// (4096 keys of 8 bytes, 8192 of 4), and one array of each (a single block).
SIDE_TYPED_TEST(sorting_network, batched_full_arrays_descending) {
  auto rng = make_rng(77);
  for (std::size_t array_size : {128u, 256u, 512u, 1024u, 2048u, 4096u, 8192u}) {
    for (std::size_t count : {std::size_t{1}, std::size_t{33}}) {
      for (key_pattern pattern : all_key_patterns) {
        const auto input = make_keys<T>(array_size * count, pattern, rng);
        auto keys = side::put(input);
        gp::sort_batched(side::backend(), keys, array_size, gp::sort_greater{});
        EXPECT_TRUE(is_batched_sort_of<T>(side::get(keys), input, array_size, gp::sort_greater{}))
            << "array_size=" << array_size << " count=" << count << ", " << name_of(pattern);
      }
    }
  }
}

#if GPUPRIM_TEST_ON_CUDA
// Full aligned arrays (the full-tile kernel up to 2048 keys of 8 bytes or
// 4096 of 4) give the same bits as the same arrays one key off alignment
// (the guarded shared-memory kernel), NaN payloads and signed zeros
// included, in both orders; and both are sorted.
SIDE_TYPED_TEST(sorting_network, batched_full_tiles_same_bits_as_unaligned) {
  auto rng = make_rng(79);
  for (std::size_t array_size : {128u, 256u, 512u, 1024u, 2048u, 4096u, 8192u}) {
    const std::size_t n = array_size * 37;
    for (bool descending : {false, true}) {
      const auto input = make_keys<T>(n + 1, key_pattern::special, rng);
      auto aligned = side::put(std::vector<T>(input.begin() + 1, input.end()));
      auto shifted = side::put(input);
      const auto sort = [&](auto data) {
        if (descending) {
          gp::sort_batched(side::backend(), data, array_size, gp::sort_greater{});
        } else {
          gp::sort_batched(side::backend(), data, array_size, gp::sort_less{});
        }
      };
      sort(side::span(aligned));
      sort(side::span(shifted).subspan(1, n));
      const auto got = side::get(aligned);
      const auto got_shifted = side::get(shifted);
      const std::span<const T> rest = std::span<const T>(input).subspan(1);
      const std::string what = "array_size=" + std::to_string(array_size) +
                               (descending ? ", descending" : ", ascending");
      EXPECT_EQ(std::memcmp(got.data(), got_shifted.data() + 1, n * sizeof(T)), 0) << what;
      EXPECT_EQ(std::memcmp(got_shifted.data(), input.data(), sizeof(T)), 0) << what;
      if (descending) {
        EXPECT_TRUE(is_batched_sort_of<T>(got, rest, array_size, gp::sort_greater{})) << what;
      } else {
        EXPECT_TRUE(is_batched_sort_of<T>(got, rest, array_size, gp::sort_less{})) << what;
      }
    }
  }
}

namespace {

// sort_batched of `arrays` arrays of array_size random keys that start one
// key into the buffer (off a 16-byte boundary); the key before them stays.
template <class T, class Comp>
void check_unaligned_batches(std::size_t array_size, std::size_t arrays, Comp comp,
                             std::size_t salt) {
  auto rng = make_rng(salt);
  const auto input = make_keys<T>(array_size * arrays + 1, key_pattern::random, rng);
  auto keys = side::put(input);
  gp::sort_batched(side::backend(), side::span(keys).subspan(1, array_size * arrays), array_size,
                   comp);
  const auto got = side::get(keys);
  EXPECT_EQ(got[0], input[0]);
  EXPECT_TRUE(is_batched_sort_of<T>(std::span<const T>(got).subspan(1),
                                    std::span<const T>(input).subspan(1), array_size, comp));
}

}  // namespace

// Arrays of a full tile that are not 16-byte aligned take the shared-memory
// tiles with their guards.
SIDE_TYPED_TEST(sorting_network, batched_unaligned_full_tiles) {
  check_unaligned_batches<T>(1024, 40, gp::sort_less{}, 78);
}

// Unaligned data takes the guarded loads of full arrays.
SIDE_TYPED_TEST(sorting_network, batched_unaligned_subspan) {
  check_unaligned_batches<T>(32, 1000, gp::sort_greater{}, 74);
}

// The benchmark's shape: 2^20 arrays of 32 keys.
SIDE_TYPED_TEST(sorting_network, batched_many_arrays_of_32) {
  auto rng = make_rng(75);
  const auto input = make_keys<T>(std::size_t{32} << 20, key_pattern::random, rng);
  auto keys = side::put(input);
  gp::sort_batched(side::backend(), keys, 32);
  EXPECT_TRUE(is_batched_sort_of<T>(side::get(keys), input, 32, gp::sort_less{}));
}
#endif

SIDE_TYPED_TEST(sorting_network, segmented_every_layout) {
  auto rng = make_rng(76);
  for (std::size_t n : {0u, 1u, 1000u, 100003u}) {
    const auto input = make_keys<T>(n, key_pattern::special, rng);
    for (const auto& offsets : segment_layouts(n, rng)) {
      auto keys = side::put(input);
      gp::segmented_sort(side::backend(), keys, side::put(offsets), gp::sort_greater{});
      EXPECT_TRUE((is_segmented_sort_of<T, std::uint64_t>(side::get(keys), input, offsets,
                                                          gp::sort_greater{})))
          << "n=" << n << ", " << offsets.size() - 1 << " segments";
    }
  }
}
