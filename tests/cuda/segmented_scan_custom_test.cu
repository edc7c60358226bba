// GPU segmented scan with a non-commutative operator (instantiated here from
// gpuprim/cuda/segmented.cuh).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "gpuprim/cuda/segmented.cuh"
#include "support/cuda_fixture.hpp"
#include "support/reduce_reference.hpp"
#include "support/segmented_scan_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, segmented_scan_non_commutative_operator_keeps_order) {
  auto rng = make_rng(81);
  for (std::size_t n : {std::size_t{1}, std::size_t{1025}, std::size_t{700001}}) {
    const std::vector<mat2> x = random_mat2s(n, rng);
    const auto lengths = random_lengths(n, 3000, rng);
    const auto flags = flags_from_lengths(lengths, n);
    const auto dx = gp::to_device(x);
    gp::device_vector<mat2> out(n);
    out.fill_bytes(0xA5);
    gp::inclusive_segmented_scan(gp::cuda, dx, gp::to_device(flags), out, mat2_product{});
    const auto got = gp::to_host(out);
    mat2 acc = mat2_identity();
    for (std::size_t i = 0; i < n; ++i) {
      acc = (i == 0 || flags[i]) ? x[i] : mat2_product{}(acc, x[i]);
      ASSERT_EQ(got[i], acc) << "n=" << n << " i=" << i;
    }
    gp::exclusive_segmented_scan(gp::cuda, dx, gp::to_device(offsets_from_lengths(lengths)), out,
                                 mat2_identity(), mat2_product{});
    const auto got_ex = gp::to_host(out);
    for (std::size_t i = 0; i < n; ++i) {
      acc = (i == 0 || flags[i]) ? mat2_identity() : mat2_product{}(acc, x[i - 1]);
      ASSERT_EQ(got_ex[i], acc) << "exclusive n=" << n << " i=" << i;
    }
  }
}
