// gp::gemm: the cases of the GPU alone (cuBLAS / cuBLASLt), from plain C++:
// zero sizes, strided batches, TF32 only on request, refusals. The cases of
// both backends are in tests/sides/gemm_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/gemm.hpp"
#include "support/cuda_fixture.hpp"
#include "support/dense_reference.hpp"
#include "support/gemm_cases.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, gemm_tf32_only_on_request) {
  auto rng = make_rng(413);
  // fp32 default: fp32 accuracy at k = 1024 (TF32 would miss this bound).
  check_gemm<cuda_side, float, float>(rng, {64, 64, 1024}, gp::matrix_op::none, gp::matrix_op::none,
                                      1.0, 0.0);
  check_gemm<cuda_side, float, float>(rng, {64, 64, 1024}, gp::matrix_op::none, gp::matrix_op::none,
                                      1.0, 0.0, 0, gp::precision::tf32);
}

TEST_F(cuda_test, gemm_zero_sizes) {
  gp::device_vector<float> a(6), b(6);
  a.fill_bytes(0xFF);  // NaNs: k = 0 and alpha = 0 must not read A or B
  b.fill_bytes(0xFF);
  auto d_c = gp::to_device(std::vector<float>(4, 5.0f));
  gp::gemm(gp::cuda, gp::device_matrix_view<const float>(a.data(), 2, 0),
           gp::device_matrix_view<const float>(b.data(), 0, 2),
           gp::device_matrix_view<float>(d_c.data(), 2, 2), 1.0f, 2.0f);
  EXPECT_EQ(gp::to_host(d_c), std::vector<float>(4, 10.0f));
  gp::gemm(gp::cuda, gp::device_matrix_view<const float>(a.data(), 2, 3),
           gp::device_matrix_view<const float>(b.data(), 3, 2),
           gp::device_matrix_view<float>(d_c.data(), 2, 2), 0.0f, 0.5f);
  EXPECT_EQ(gp::to_host(d_c), std::vector<float>(4, 5.0f));
  d_c.fill_bytes(0xFF);
  gp::gemm(gp::cuda, gp::device_matrix_view<const float>(a.data(), 2, 0),
           gp::device_matrix_view<const float>(b.data(), 0, 2),
           gp::device_matrix_view<float>(d_c.data(), 2, 2), 1.0f, 0.0f);
  EXPECT_EQ(gp::to_host(d_c), std::vector<float>(4, 0.0f));
  gp::gemm(gp::cuda, gp::device_matrix_view<const float>(a.data(), 0, 3),
           gp::device_matrix_view<const float>(b.data(), 3, 2),
           gp::device_matrix_view<float>(d_c.data(), 0, 2));
  gp::synchronize();
}

TEST_F(cuda_test, gemm_strided_batch_every_type) {
  auto rng = make_rng(414);
  const std::size_t m = 33, n = 17, k = 65, batch = 6;
  const auto check = [&]<class In>(In) {
    const auto a = random_matrix<In>(batch * m * k, rng);
    const auto b = random_matrix<In>(batch * k * n, rng);
    const auto d_a = gp::to_device(a);
    const auto d_b = gp::to_device(b);
    using Out = std::conditional_t<std::is_same_v<In, double>, double, float>;
    gp::device_vector<Out> d_c(batch * m * n);
    d_c.fill_bytes(0xFF);
    gp::gemm_batched(gp::cuda, gp::device_matrix_view<const In>(d_a.data(), m, k), m * k,
                     gp::device_matrix_view<const In>(d_b.data(), k, n), k * n,
                     gp::device_matrix_view<Out>(d_c.data(), m, n), m * n, batch);
    const auto c = gp::to_host(d_c);
    for (std::size_t i = 0; i < batch; ++i) {
      const std::vector<In> ai(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
      const std::vector<In> bi(b.begin() + i * k * n, b.begin() + (i + 1) * k * n);
      const std::vector<Out> ci(c.begin() + i * m * n, c.begin() + (i + 1) * m * n);
      const auto expected = reference_gemm(ai, k, gp::matrix_op::none, bi, n, gp::matrix_op::none,
                                           ci, n, m, n, k, 1.0, 0.0);
      ASSERT_TRUE(gemm_close(ci, n, expected, m, n, k, double(k))) << "matrix " << i;
    }
  };
  check(float{});
  check(double{});
  check(gp::bfloat16{});
  check(gp::half{});
}

TEST_F(cuda_test, gemm_refuses_bad_shapes_and_aliasing) {
  gp::device_vector<float> a(12), b(12), c(9);
  c.fill_bytes(0x11);
  const gp::device_matrix_view<const float> A(a.data(), 3, 4), B(b.data(), 4, 3);
  EXPECT_THROW(gp::gemm(gp::cuda, A, gp::device_matrix_view<const float>(b.data(), 3, 4),
                        gp::device_matrix_view<float>(c.data(), 3, 3)),
               std::invalid_argument);
  EXPECT_THROW(gp::gemm(gp::cuda, A, B, gp::device_matrix_view<float>(c.data(), 3, 2)),
               std::invalid_argument);
  EXPECT_THROW(gp::gemm(gp::cuda, A, B, gp::device_matrix_view<float>(a.data(), 3, 3)),
               std::invalid_argument);
  EXPECT_THROW(gp::gemm(gp::cuda, A, B, gp::device_matrix_view<float>(b.data() + 3, 3, 3)),
               std::invalid_argument);
  EXPECT_EQ(gp::to_host(c), std::vector<float>(9, std::bit_cast<float>(0x11111111u)));
}
