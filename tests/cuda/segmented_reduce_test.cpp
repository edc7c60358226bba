// segmented_reduce: the cases of the GPU alone, called from plain C++ (the
// library's precompiled kernels); the cases of both backends are in
// tests/sides/segmented_reduce_test.cpp. Every test skips without a CUDA
// device.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

#include "gpuprim/segmented.hpp"
#include "support/cuda_fixture.hpp"
#include "support/segmented_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, segmented_reduce_of_an_unaligned_subspan) {
  auto rng = make_rng(53);
  const auto x = random_vector<float>(200003, rng);
  const auto d = gp::to_device(x);
  for (std::size_t shift : {1u, 2u, 3u}) {
    const std::size_t n = x.size() - shift;
    const std::vector<std::uint64_t> offsets = {0, 5, 8, 16, 1040, 1041, 70000, n};
    const auto d_offsets = gp::to_device(offsets);
    gp::device_vector<float> out(offsets.size() - 1);
    out.fill_bytes(0xFF);
    gp::segmented_reduce(gp::cuda, d.span().subspan(shift, n), d_offsets, out, 0.0f);
    const auto got = gp::to_host(out);
    const auto want = reference_segmented_reduce<double>(
        std::span<const float>(x).subspan(shift, n), offsets, 0.0, gp::plus{});
    for (std::size_t s = 0; s < got.size(); ++s)
      EXPECT_NEAR(got[s], want[s], sum_tolerance<float>(offsets[s + 1] - offsets[s], 1.0))
          << "shift " << shift << " segment " << s;
  }
}

TEST_F(cuda_test, segmented_float_sums_are_deterministic) {
  auto rng = make_rng(54);
  const auto d = gp::to_device(random_vector<float>(3'000'000, rng));
  for (std::uint64_t length : {std::uint64_t{7}, std::uint64_t{1000}, std::uint64_t{1'000'000}}) {
    std::vector<std::uint64_t> offsets;
    for (std::uint64_t o = 0; o <= 3'000'000; o += length)
      offsets.push_back(o);
    const auto d_offsets = gp::to_device(offsets);
    gp::device_vector<float> out(offsets.size() - 1);
    gp::segmented_reduce(gp::cuda, d, d_offsets, out, 0.0f);
    const auto first = gp::to_host(out);
    for (int i = 0; i < 3; ++i) {
      gp::segmented_reduce(gp::cuda, d, d_offsets, out, 0.0f);
      EXPECT_EQ(gp::to_host(out), first) << "length " << length;
    }
  }
}
