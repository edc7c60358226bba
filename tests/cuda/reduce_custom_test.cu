// GPU reduction of user types and operators (needs nvcc: instantiates the
// templates of gpuprim/cuda/reduce.cuh in this file).
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "gpuprim/cuda/reduce.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, non_commutative_operator_keeps_order) {
  auto rng = make_rng(21);
  for (std::size_t n : standard_sizes()) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    mat2 want = mat2_identity();
    for (const auto& m : x)
      want = mat2_product{}(want, m);
    const auto dx = gp::to_device(x);
    EXPECT_EQ(gp::reduce(gp::cuda, dx, mat2_identity(), mat2_product{}), want) << "n=" << n;
  }
}

TEST_F(cuda_test, custom_struct_type_and_transform) {
  const std::vector<float> x = float_ramp(123457, 1000);
  const auto dx = gp::to_device(x);
  const stats got =
      gp::transform_reduce(gp::cuda, dx, stats{0, 0, -1.0f}, stats_merge{}, stats_of{});
  double want = 0;
  for (float v : x)
    want += v;
  EXPECT_EQ(got.count, 123457);
  EXPECT_EQ(got.max, 999.0f);
  EXPECT_DOUBLE_EQ(got.sum, want);
}

TEST_F(cuda_test, int8_sum_widened_to_int64) {
  auto rng = make_rng(22);
  std::uniform_int_distribution<int> d(-128, 127);
  std::vector<std::int8_t> x(3'000'001);
  std::int64_t want = 0;
  for (auto& v : x)
    want += (v = static_cast<std::int8_t>(d(rng)));
  EXPECT_EQ(gp::reduce(gp::cuda, gp::to_device(x), std::int64_t{0}), want);
}

// Both ways the block partials meet (cuda_impl::reduce_finish): the last
// block polling published partials (in the status word for 4-byte values,
// behind a fence for wider ones) and the atomic ticket, each exact (integer
// sums) and each leaving its workspace ready for the next call, on sizes
// from one block to a full persistent grid, several calls in a row.
TEST_F(cuda_test, reduce_finishes_polled_and_ticket_sum_exactly) {
  namespace gc = gpuprim::cuda_impl;
  auto rng = make_rng(22);
  const auto check = [&]<class T, gc::reduce_finish Finish>(const char* what) {
    for (std::size_t n : test_sizes({1, 1000, 65537, 5'000'011})) {
      std::vector<T> x(n);
      T want = 0;
      for (auto& v : x) {
        v = static_cast<T>(rng() % 2001) - T(1000);
        want += v;
      }
      const auto dx = gp::to_device(x);
      gp::device_vector<T> out(1);
      for (int call = 0; call < 3; ++call) {
        out.fill_bytes(0x5A);
        gc::launch_reduce_single_pass<16 / sizeof(T), gc::reduce_config::threads,
                                      gc::reduce_config::unroll, Finish>(
            dx.data(), n, out.data(), T(7), gp::plus{}, gp::detail::unary_fetch<gp::identity>{},
            nullptr, gc::reduce_config{});
        ASSERT_EQ(gp::to_host(out)[0], want + T(7)) << what << " n=" << n << " call " << call;
      }
    }
  };
  check.template operator()<std::int32_t, gc::reduce_finish::polled>("int32 polled");
  check.template operator()<std::int32_t, gc::reduce_finish::ticket>("int32 ticket");
  check.template operator()<std::int64_t, gc::reduce_finish::polled>("int64 polled (fenced)");
  check.template operator()<std::int64_t, gc::reduce_finish::ticket>("int64 ticket");
}

// x -> a x + b modulo 2^16, composed left to right: associative, not
// commutative, and 4 bytes, so it takes the polled finish. The sizes put
// the boundaries of the work split (cuda_impl::split_warp_tiles) in
// different places: no full warp tile, one tile, fewer tiles than warps
// (the last block partly idle, the tail mid-grid), just under and at one
// tile per warp of a full persistent grid, and several tiles per warp with
// some warps taking one more; a tail of elements after the last full
// tile in most of them.
struct affine16 {
  std::uint16_t a, b;
  bool operator==(const affine16&) const = default;
};
struct affine16_then {
  __host__ __device__ affine16 operator()(affine16 f, affine16 g) const {
    return {static_cast<std::uint16_t>(g.a * f.a), static_cast<std::uint16_t>(g.a * f.b + g.b)};
  }
};

TEST_F(cuda_test, non_commutative_polled_finish_keeps_order_across_the_work_split) {
  auto rng = make_rng(23);
  const std::size_t tile = 512;         // 4-byte elements per warp tile (16-byte loads, unroll 4)
  const std::size_t grid_tiles = 4224;  // 132 SMs x 4 blocks x 8 warps; other GPUs land elsewhere
  for (std::size_t n :
       test_sizes({511, 512, 513, 26 * tile + 100, 2049 * tile + 37, grid_tiles * tile - 1,
                   grid_tiles * tile + 300, 3 * grid_tiles * tile + 5 * tile + 17})) {
    std::vector<affine16> x(n);
    affine16 want{1, 0};
    for (auto& f : x) {
      f = {static_cast<std::uint16_t>(rng() | 1), static_cast<std::uint16_t>(rng())};
      want = affine16_then{}(want, f);
    }
    const auto dx = gp::to_device(x);
    for (int call = 0; call < 2; ++call) {
      EXPECT_EQ(gp::reduce(gp::cuda, dx, affine16{1, 0}, affine16_then{}), want)
          << "n=" << n << " call " << call;
    }
  }
}
