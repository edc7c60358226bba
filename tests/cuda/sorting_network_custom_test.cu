// GPU sorting networks over a user struct and user comparators
// (instantiated here from gpuprim/cuda/sorting_network.cuh).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "gpuprim/cuda/sorting_network.cuh"
#include "support/cuda_fixture.hpp"
#include "support/sorting_network_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

// 16 bytes: two keys per lane in registers, 2048 per shared-memory tile.
struct record {
  std::uint32_t key;
  std::uint32_t index;
  double weight;
};

struct by_key_then_weight {
  __host__ __device__ bool operator()(const record& a, const record& b) const {
    return a.key != b.key ? a.key < b.key : a.weight > b.weight;
  }
};

struct by_magnitude {
  __host__ __device__ bool operator()(float a, float b) const { return fabsf(a) < fabsf(b); }
};

std::vector<record> make_records(std::size_t n, std::mt19937_64& rng) {
  std::vector<record> r(n);
  for (std::size_t i = 0; i < n; ++i)
    r[i] = {static_cast<std::uint32_t>(rng() % 50), static_cast<std::uint32_t>(i),
            static_cast<double>(rng() % 7)};
  return r;
}

// Every record is still there once (the indices are a permutation).
::testing::AssertionResult keeps_every_record(const std::vector<record>& got) {
  std::vector<bool> seen(got.size(), false);
  for (const record& r : got) {
    if (r.index >= got.size() || seen[r.index]) {
      return ::testing::AssertionFailure() << "record " << r.index << " lost or duplicated";
    }
    seen[r.index] = true;
  }
  return ::testing::AssertionSuccess();
}

}  // namespace

TEST_F(cuda_test, sorting_networks_sort_a_struct_with_a_custom_comparator) {
  auto rng = make_rng(81);
  for (std::size_t n : {0u, 1u, 2u, 31u, 33u, 64u, 1000u, 2049u, 7919u, 100003u}) {
    const auto input = make_records(n, rng);
    gp::device_vector<record> a = gp::to_device(input), b = gp::to_device(input);
    gp::bitonic_sort(gp::cuda, a, by_key_then_weight{});
    gp::odd_even_merge_sort(gp::cuda, b, by_key_then_weight{});
    const auto got_a = gp::to_host(a), got_b = gp::to_host(b);
    EXPECT_TRUE(is_network_sort_of<record>(got_a, input, by_key_then_weight{})) << "n=" << n;
    EXPECT_TRUE(is_network_sort_of<record>(got_b, input, by_key_then_weight{})) << "n=" << n;
    EXPECT_TRUE(keeps_every_record(got_a));
    EXPECT_TRUE(keeps_every_record(got_b));
  }
}

// Full arrays of 64 to 1024 records take the full-tile kernel with the
// comparator's own compare-exchange, 2048 the shared tiles; arrays of 5000
// records are past a shared-memory tile: the global path.
TEST_F(cuda_test, sorting_networks_batched_and_segmented_structs) {
  auto rng = make_rng(82);
  for (std::size_t array_size : {3u, 32u, 64u, 100u, 128u, 1024u, 2048u, 5000u}) {
    const auto input = make_records(array_size * 37, rng);
    gp::device_vector<record> d = gp::to_device(input);
    gp::sort_batched(gp::cuda, d, array_size, by_key_then_weight{});
    const auto got = gp::to_host(d);
    EXPECT_TRUE(is_batched_sort_of<record>(got, input, array_size, by_key_then_weight{}))
        << "array_size=" << array_size;
    EXPECT_TRUE(keeps_every_record(got));
  }
  const auto input = make_records(200003, rng);
  for (const auto& offsets : segment_layouts(input.size(), rng)) {
    gp::device_vector<record> d = gp::to_device(input);
    gp::segmented_sort(gp::cuda, d, gp::to_device(offsets), by_key_then_weight{});
    const auto got = gp::to_host(d);
    EXPECT_TRUE(
        (is_segmented_sort_of<record, std::uint64_t>(got, input, offsets, by_key_then_weight{})));
    EXPECT_TRUE(keeps_every_record(got));
  }
}

// A float comparator other than the key order: the generic (uncoded) path.
TEST_F(cuda_test, sorting_networks_custom_float_comparator) {
  auto rng = make_rng(83);
  for (std::size_t n : {33u, 1025u, 20000u}) {
    const auto input = make_keys<float>(n, key_pattern::random, rng);
    gp::device_vector<float> d = gp::to_device(input);
    gp::bitonic_sort(gp::cuda, d, by_magnitude{});
    EXPECT_TRUE(is_network_sort_of<float>(gp::to_host(d), input, by_magnitude{})) << "n=" << n;
    d = gp::to_device(input);
    gp::sort_batched(gp::cuda, d, n, by_magnitude{});
    EXPECT_TRUE(is_network_sort_of<float>(gp::to_host(d), input, by_magnitude{})) << "n=" << n;
  }
}

// Full aligned arrays of floats under a user comparator: the full-tile
// kernel with the comparator's own compare-exchange up to 4096, the shared
// tiles at 8192.
TEST_F(cuda_test, sorting_networks_full_tiles_with_a_custom_float_comparator) {
  auto rng = make_rng(84);
  for (std::size_t array_size : {256u, 1024u, 4096u, 8192u}) {
    const auto input = make_keys<float>(array_size * 37, key_pattern::random, rng);
    gp::device_vector<float> d = gp::to_device(input);
    gp::sort_batched(gp::cuda, d, array_size, by_magnitude{});
    EXPECT_TRUE(is_batched_sort_of<float>(gp::to_host(d), input, array_size, by_magnitude{}))
        << "array_size=" << array_size;
  }
}
