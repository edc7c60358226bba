// GPU backend of segmented_reduce, called from plain C++ (the library's
// precompiled kernels, every type, both offset types, plus/min/max). Every
// test skips without a CUDA device; outputs are poisoned before each run.
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

template <class T>
class cuda_segmented_reduce : public typed_cuda_test<T> {};
using segmented_types =
    ::testing::Types<std::int32_t, std::uint32_t, std::int64_t, std::uint64_t, float, double>;
TYPED_TEST_SUITE(cuda_segmented_reduce, segmented_types);

namespace {

template <class T, class Offset, class Op>
std::vector<T> run_on_device(const gp::device_vector<T>& values,
                             const std::vector<std::uint64_t>& offsets, T init, Op op) {
  const std::vector<Offset> typed(offsets.begin(), offsets.end());
  const auto d_offsets = gp::to_device(typed);
  gp::device_vector<T> out(offsets.size() - 1);
  out.fill_bytes(0xA5);  // an unwritten element fails
  gp::segmented_reduce(gp::cuda, values, d_offsets, out, init, op);
  return gp::to_host(out);
}

template <class T, class Offset>
void check_layout(const segment_layout& layout, std::mt19937_64& rng) {
  const auto x = random_vector<T>(layout.num_values, rng);
  const auto d = gp::to_device(x);
  const std::span<const T> values(x);
  const std::size_t segments = layout.offsets.size() - 1;
  const T low = std::numeric_limits<T>::max(), high = std::numeric_limits<T>::lowest();

  const auto lows = run_on_device<T, Offset>(d, layout.offsets, low, gp::minimum{});
  const auto highs = run_on_device<T, Offset>(d, layout.offsets, high, gp::maximum{});
  const auto sums = run_on_device<T, Offset>(d, layout.offsets, T{}, gp::plus{});
  const auto want_lows = reference_segmented_reduce<T>(values, layout.offsets, low, gp::minimum{});
  const auto want_highs =
      reference_segmented_reduce<T>(values, layout.offsets, high, gp::maximum{});
  for (std::size_t s = 0; s < segments; ++s) {
    ASSERT_EQ(lows[s], want_lows[s]) << layout.name << " segment " << s;
    ASSERT_EQ(highs[s], want_highs[s]) << layout.name << " segment " << s;
  }
  if constexpr (std::is_floating_point_v<T>) {
    const auto want = reference_segmented_reduce<double>(values, layout.offsets, 0.0, gp::plus{});
    for (std::size_t s = 0; s < segments; ++s) {
      const std::size_t n = layout.offsets[s + 1] - layout.offsets[s];
      ASSERT_NEAR(sums[s], want[s], sum_tolerance<T>(n, 1.0)) << layout.name << " segment " << s;
    }
  } else {
    const auto want = reference_segmented_reduce<T>(values, layout.offsets, T{}, gp::plus{});
    for (std::size_t s = 0; s < segments; ++s)
      ASSERT_EQ(sums[s], want[s]) << layout.name << " segment " << s;
  }
}

}  // namespace

TYPED_TEST(cuda_segmented_reduce, matches_reference_on_every_layout_with_uint64_offsets) {
  auto rng = make_rng(51);
  for (const segment_layout& layout : segment_layouts(rng))
    check_layout<TypeParam, std::uint64_t>(layout, rng);
}

TYPED_TEST(cuda_segmented_reduce, matches_reference_on_every_layout_with_int64_offsets) {
  auto rng = make_rng(52);
  for (const segment_layout& layout : segment_layouts(rng))
    check_layout<TypeParam, std::int64_t>(layout, rng);
}

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

TEST_F(cuda_test, segmented_reduce_rejects_bad_sizes_and_leaves_the_output_alone) {
  const gp::device_vector<float> x(10);
  gp::device_vector<float> out(2);
  out.fill_bytes(0x7F);
  const auto before = gp::to_host(out);
  const gp::device_vector<std::uint64_t> no_offsets;
  const auto one_segment = gp::to_device(std::vector<std::uint64_t>{0, 5});
  const auto three_segments = gp::to_device(std::vector<std::uint64_t>{0, 1, 2, 3});
  EXPECT_THROW(gp::segmented_reduce(gp::cuda, x, no_offsets, out, 0.0f), std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(gp::cuda, x, one_segment, out, 0.0f), std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(gp::cuda, x, three_segments, out, 0.0f), std::invalid_argument);
  gp::synchronize();
  EXPECT_EQ(gp::to_host(out), before);
}
