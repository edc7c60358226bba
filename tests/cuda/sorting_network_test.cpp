// The sorting networks: the cases of the GPU alone, from plain C++
// (precompiled kernels). The cases of both backends, whose sizes reach every
// GPU path (registers: <= 64 keys, one block's shared memory: <= 32 KiB,
// tiles plus global steps: longer), are in tests/sides/sorting_network_test.cpp.
// Skips without a device.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/sort.hpp"
#include "support/cuda_fixture.hpp"
#include "support/sorting_network_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

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
