// GPU segmented reduction of user types, operators and offset types (needs
// nvcc: instantiates the templates of the cuda/device header in this file).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpuprim/cuda/device/device_segmented_reduce.cuh"
#include "gpuprim/segmented.hpp"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/segmented_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

// mat2_product is associative but not commutative: any reordering inside a
// segment (lanes, loads, parts of a long segment) changes the result.
TEST_F(cuda_test, segmented_non_commutative_operator_keeps_order) {
  auto rng = make_rng(61);
  for (const segment_layout& layout : segment_layouts(rng)) {
    const std::vector<mat2> x = random_mat2s(layout.num_values, rng);
    const auto want = reference_segmented_reduce<mat2>(std::span<const mat2>(x), layout.offsets,
                                                       mat2_identity(), mat2_product{});
    const auto dx = gp::to_device(x);
    const auto d_offsets = gp::to_device(layout.offsets);
    gp::device_vector<mat2> out(layout.offsets.size() - 1);
    out.fill_bytes(0xA5);
    gp::segmented_reduce(gp::cuda, dx, d_offsets, out, mat2_identity(), mat2_product{});
    EXPECT_EQ(gp::to_host(out), want) << layout.name;
  }
}

// Elements smaller than a word (four per 4-byte lane load, sixteen per
// vector) with a non-commutative operator: exercises the scalar head and
// tail around the vector loads.
struct keep_last_nonzero {
  __host__ __device__ std::int32_t operator()(std::int32_t a, std::int32_t b) const {
    return b != 0 ? b : a;
  }
};

TEST_F(cuda_test, segmented_int32_offsets_and_byte_values) {
  auto rng = make_rng(62);
  std::uniform_int_distribution<int> byte(0, 3);
  std::vector<std::uint8_t> x(50011);
  for (auto& v : x)
    v = static_cast<std::uint8_t>(byte(rng));
  std::vector<std::uint64_t> offsets = {0};
  std::uniform_int_distribution<int> length(0, 90);
  while (offsets.back() + 90 < x.size())
    offsets.push_back(offsets.back() + length(rng));
  const std::vector<std::int32_t> offsets32(offsets.begin(), offsets.end());
  const auto dx = gp::to_device(x);
  const auto d_offsets = gp::to_device(offsets32);
  gp::device_vector<std::int32_t> out(offsets.size() - 1);
  out.fill_bytes(0xA5);
  gp::segmented_reduce(gp::cuda, dx, d_offsets, out, std::int32_t{-1}, keep_last_nonzero{});
  const auto want = reference_segmented_reduce<std::int32_t>(std::span<const std::uint8_t>(x),
                                                             offsets, -1, keep_last_nonzero{});
  EXPECT_EQ(gp::to_host(out), want);
}
