// segmented_reduce on each backend (support/side_test.hpp) against the
// sequential reference: every type, both offset types, plus / min / max,
// outputs poisoned before each run. The backends' own cases are in
// tests/host/segmented_reduce_test.cpp and tests/cuda/segmented_reduce_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/segmented.hpp"
#include "support/segmented_reference.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

namespace {

// The backends a case runs on: the host on 1 and on 4 threads.
auto backends_of_this_side() {
  if constexpr (on_cuda) {
    return std::array{side::backend()};
  } else {
    return std::array{gp::host.threads(1), gp::host.threads(4)};
  }
}

template <class T, class Offset, class Backend, class Values, class Op>
std::vector<T> run_on_side(Backend backend, const Values& values,
                           const std::vector<std::uint64_t>& offsets, T init, Op op) {
  const std::vector<Offset> typed(offsets.begin(), offsets.end());
  const auto d_offsets = side::put(typed);
  auto out = side::filled_bytes<T>(offsets.size() - 1, 0xA5);  // an unwritten element fails
  gp::segmented_reduce(backend, values, d_offsets, out, init, op);
  return side::get(out);
}

template <class T, class Offset>
void check_layout(const segment_layout& layout, std::mt19937_64& rng) {
  const auto x = random_vector<T>(layout.num_values, rng);
  const auto d = side::put(x);
  const std::span<const T> values(x);
  const std::size_t segments = layout.offsets.size() - 1;
  const T low = std::numeric_limits<T>::max(), high = std::numeric_limits<T>::lowest();
  for (const auto backend : backends_of_this_side()) {
    const auto lows = run_on_side<T, Offset>(backend, d, layout.offsets, low, gp::minimum{});
    const auto highs = run_on_side<T, Offset>(backend, d, layout.offsets, high, gp::maximum{});
    const auto sums = run_on_side<T, Offset>(backend, d, layout.offsets, T{}, gp::plus{});
    const auto want_lows =
        reference_segmented_reduce<T>(values, layout.offsets, low, gp::minimum{});
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
}

}  // namespace

SIDE_TYPED_SUITE(segmented_reduce, side_value_types);

SIDE_TYPED_TEST(segmented_reduce, matches_reference_on_every_layout_with_uint64_offsets) {
  auto rng = make_rng(51);
  for (const segment_layout& layout : segment_layouts(rng))
    check_layout<T, std::uint64_t>(layout, rng);
}

#if GPUPRIM_TEST_ON_CUDA
SIDE_TYPED_TEST(segmented_reduce, matches_reference_on_every_layout_with_int64_offsets) {
  auto rng = make_rng(52);
  for (const segment_layout& layout : segment_layouts(rng))
    check_layout<T, std::int64_t>(layout, rng);
}
#endif

SIDE_TEST(segmented_reduce, bad_arguments_throw_and_leave_the_output_alone) {
  const auto x = side::put(std::vector<float>(10, 1.0f));
  auto out = side::filled_bytes<float>(2, 0x7F);
  const auto untouched = side::get(out);
  const auto offsets = [](std::vector<std::uint64_t> o) { return side::put(o); };
  // Sizes: offsets empty, output too short / too long.
  EXPECT_THROW(gp::segmented_reduce(side::backend(), x, offsets({}), out, 0.0f),
               std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(side::backend(), x, offsets({0, 5}), out, 0.0f),
               std::invalid_argument);
  EXPECT_THROW(gp::segmented_reduce(side::backend(), x, offsets({0, 1, 2, 3}), out, 0.0f),
               std::invalid_argument);
  if (!on_cuda) {
    // Contents (the host reads the offsets): decreasing, past the end, negative.
    EXPECT_THROW(gp::segmented_reduce(side::backend(), x, offsets({0, 6, 5}), out, 0.0f),
                 std::invalid_argument);
    EXPECT_THROW(gp::segmented_reduce(side::backend(), x, offsets({0, 6, 11}), out, 0.0f),
                 std::invalid_argument);
    EXPECT_THROW(gp::segmented_reduce(side::backend(), x,
                                      side::put(std::vector<std::int64_t>{-1, 6, 8}), out, 0.0f),
                 std::invalid_argument);
  }
  if (on_cuda) gp::synchronize();
  EXPECT_EQ(side::get(out), untouched);
  try {
    gp::segmented_reduce(side::backend(), x, offsets({0, 5}), out, 0.0f);
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("2 offsets describe 1 segments, but the output has 2"),
              std::string::npos)
        << e.what();
  }
}
