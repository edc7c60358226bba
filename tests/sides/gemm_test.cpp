// gp::gemm on each backend (support/side_test.hpp; the host: OpenBLAS or the
// library's loop, the GPU: cuBLAS / cuBLASLt) against a double-precision
// reference: every type pair, op combination, odd shapes, leading
// dimensions, alpha / beta (beta = 0 with NaN in C), zero sizes, strided
// batches, refusals. The backends' own cases are in tests/host/gemm_test.cpp
// and tests/cuda/gemm_test.cpp.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprim/gemm.hpp"
#include "support/dense_reference.hpp"
#include "support/gemm_cases.hpp"
#include "support/side_test.hpp"
#include "support/test_data.hpp"

SIDE_TYPED_SUITE(gemm, gemm_pairs);

SIDE_TYPED_TEST(gemm, every_shape_and_op_against_double_reference) {
  using In = typename T::in;
  using Out = typename T::out;
  auto rng = make_rng(411);
  for (const gemm_case& g : gemm_cases())
    for (const auto op_a : {gp::matrix_op::none, gp::matrix_op::transpose})
      for (const auto op_b : {gp::matrix_op::none, gp::matrix_op::transpose})
        check_gemm<side, In, Out>(rng, g, op_a, op_b, 1.0, 0.0);
}

SIDE_TYPED_TEST(gemm, alpha_beta_and_leading_dimensions) {
  using In = typename T::in;
  using Out = typename T::out;
  auto rng = make_rng(412);
  for (const auto [op_a, op_b] : {std::pair{gp::matrix_op::none, gp::matrix_op::transpose},
                                  {gp::matrix_op::transpose, gp::matrix_op::none}})
    for (const auto [alpha, beta] :
         {std::pair{1.0, 1.0}, {2.0, 0.0}, {-0.5, 2.0}, {0.0, 3.0}, {0.0, 0.0}, {1.5, -1.0}})
      check_gemm<side, In, Out>(rng, {37, 29, 43}, op_a, op_b, alpha, beta, 5);
}

namespace {

using in_view = side::matrix_view<const float>;
using out_view = side::matrix_view<float>;

}  // namespace

// k = 0 gives C = beta C, and so does alpha = 0: A and B, all NaN, are not
// read. m = 0 or n = 0 does nothing.
SIDE_TEST(gemm_edges, zero_sizes) {
  const auto a = side::filled_bytes<float>(6, 0xFF), b = side::filled_bytes<float>(6, 0xFF);
  auto c = side::put(std::vector<float>(4, 5.0f));
  const auto gemm = [&](std::size_t m, std::size_t n, std::size_t k, float alpha, float beta) {
    gp::gemm(side::backend(), in_view(a.data(), m, k), in_view(b.data(), k, n),
             out_view(c.data(), m, n), alpha, beta);
    return side::get(c);
  };
  EXPECT_EQ(gemm(2, 2, 0, 1.0f, 2.0f), std::vector<float>(4, 10.0f));
  EXPECT_EQ(gemm(2, 2, 3, 0.0f, 0.5f), std::vector<float>(4, 5.0f));
  c = side::filled_bytes<float>(4, 0xFF);
  EXPECT_EQ(gemm(2, 2, 0, 1.0f, 0.0f), std::vector<float>(4, 0.0f));
  EXPECT_EQ(gemm(0, 2, 3, 1.0f, 0.0f), std::vector<float>(4, 0.0f));
  EXPECT_EQ(gemm(2, 0, 3, 1.0f, 0.0f), std::vector<float>(4, 0.0f));
}

// Wrong shapes, C overlapping A or B and TF32 for doubles are refused, C
// untouched; A and B may overlap each other (both are only read).
SIDE_TEST(gemm_edges, shapes_aliasing_and_precision_are_checked) {
  auto a = side::put(std::vector<float>(12, 1.0f)), b = side::put(std::vector<float>(12, 1.0f));
  auto c = side::put(std::vector<float>(9, 7.0f));
  const in_view A(a.data(), 3, 4), B(b.data(), 4, 3);
  const auto refused = [&](in_view a_view, in_view b_view, out_view c_view) {
    EXPECT_THROW(gp::gemm(side::backend(), a_view, b_view, c_view), std::invalid_argument);
  };
  refused(A, in_view(b.data(), 3, 4), out_view(c.data(), 3, 3));
  refused(A, B, out_view(c.data(), 3, 2));
  EXPECT_EQ(side::get(c), std::vector<float>(9, 7.0f));
  refused(A, B, out_view(a.data(), 3, 3));
  refused(A, B, out_view(b.data() + 2, 3, 3));
  refused(A, B, out_view(b.data() + 3, 3, 3));
  EXPECT_EQ(side::get(c), std::vector<float>(9, 7.0f));
  gp::gemm(side::backend(), A, in_view(a.data(), 4, 3), out_view(c.data(), 3, 3));
  EXPECT_EQ(side::get(c), std::vector<float>(9, 4.0f));
  auto ad = side::put(std::vector<double>(4)), cd = side::put(std::vector<double>(4));
  using in_d = side::matrix_view<const double>;
  EXPECT_THROW(gp::gemm(side::backend(), in_d(ad.data(), 2, 2), in_d(ad.data(), 2, 2),
                        side::matrix_view<double>(cd.data(), 2, 2), 1.0, 0.0, gp::matrix_op::none,
                        gp::matrix_op::none, gp::precision::tf32),
               std::invalid_argument);
}

// gemm_batched over matrices at a stride, every input type, each product
// against the reference; outputs that overlap each other are refused.
SIDE_TEST(gemm_edges, strided_batch) {
  auto rng = make_rng(414);
  const auto check = [&]<class In>(In, std::size_t m, std::size_t n, std::size_t k,
                                   std::size_t batch) {
    using Out = std::conditional_t<std::is_same_v<In, double>, double, float>;
    const auto a = random_matrix<In>(batch * m * k, rng);
    const auto b = random_matrix<In>(batch * k * n, rng);
    const auto d_a = side::put(a), d_b = side::put(b);
    auto d_c = side::filled_bytes<Out>(batch * m * n, 0xFF);
    using in = side::matrix_view<const In>;
    gp::gemm_batched(side::backend(), in(d_a.data(), m, k), m * k, in(d_b.data(), k, n), k * n,
                     side::matrix_view<Out>(d_c.data(), m, n), m * n, batch);
    const auto c = side::get(d_c);
    for (std::size_t i = 0; i < batch; ++i) {
      const std::vector<In> ai(a.begin() + i * m * k, a.begin() + (i + 1) * m * k);
      const std::vector<In> bi(b.begin() + i * k * n, b.begin() + (i + 1) * k * n);
      const std::vector<Out> ci(c.begin() + i * m * n, c.begin() + (i + 1) * m * n);
      const auto expected = reference_gemm(ai, k, gp::matrix_op::none, bi, n, gp::matrix_op::none,
                                           ci, n, m, n, k, 1.0, 0.0);
      ASSERT_TRUE(gemm_close(ci, n, expected, m, n, k, double(k)))
          << m << " x " << n << " x " << k << ", matrix " << i;
    }
    EXPECT_THROW(
        gp::gemm_batched(side::backend(), in(d_a.data(), m, k), m * k, in(d_b.data(), k, n), k * n,
                         side::matrix_view<Out>(d_c.data(), m, n), n, batch),
        std::invalid_argument);
  };
  for (const auto [m, n, k, batch] : {std::array<std::size_t, 4>{13, 11, 9, 5}, {33, 17, 65, 6}}) {
    check(float{}, m, n, k, batch);
    check(double{}, m, n, k, batch);
    check(gp::bfloat16{}, m, n, k, batch);
    check(gp::half{}, m, n, k, batch);
  }
}
