// gp::transpose: the cases of the GPU alone, called from plain C++: a tall
// matrix, over 2^31 bytes, the byte-generic entry and the refusals. The
// cases of both backends are in tests/sides/transpose_test.cpp.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/transpose.hpp"
#include "support/cuda_fixture.hpp"
#include "support/dense_reference.hpp"
#include "support/test_data.hpp"
#include "support/transpose_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, transpose_large_tall_matrix) {
  auto rng = make_rng(404);
  const std::size_t rows = std::size_t{1} << 22, cols = 4;  // 2^22 x 4 floats
  check_transpose<cuda_side, float>(rng, rows, cols, cols, rows);
}

// Over 2^31 bytes (DESIGN.md section 5): 46349 x 46349 int8, checked at
// sampled positions and along the last rows and columns.
TEST_F(cuda_test, transpose_over_two_gigabytes_of_bytes) {
  const std::size_t n = 46349;  // n * n > 2^31
  std::vector<std::uint8_t> in(n * n);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<std::uint8_t>((i * 2654435761u) >> 13);
  const auto d_in = gp::to_device(in);
  gp::device_vector<std::uint8_t> d_out(n * n);
  d_out.fill_bytes(0);
  gp::transpose(gp::cuda, gp::make_matrix_view(d_in.span(), n, n),
                gp::make_matrix_view(d_out.span(), n, n));
  const auto out = gp::to_host(d_out);
  for (std::size_t r = 0; r < n; r += 997)
    for (std::size_t c = 0; c < n; c += 991)
      ASSERT_EQ(out[c * n + r], in[r * n + c]) << r << ", " << c;
  for (std::size_t k = 0; k < n; ++k) {
    ASSERT_EQ(out[(n - 1) * n + k], in[k * n + n - 1]) << k;
    ASSERT_EQ(out[k * n + n - 1], in[(n - 1) * n + k]) << k;
  }
}

TEST_F(cuda_test, transpose_bytes_matches_host) {
  auto rng = make_rng(405);
  const std::size_t rows = 129, cols = 67;
  for (const std::size_t size : {1u, 2u, 4u, 8u, 16u}) {
    const auto in = distinct_elements<unsigned char>(rows * cols * size, rng);
    std::vector<unsigned char> expected(in.size());
    gp::transpose_bytes(gp::host, size, in.data(), rows, cols, expected.data());
    const auto d_in = gp::to_device(in);
    gp::device_vector<unsigned char> d_out(in.size());
    d_out.fill_bytes(0);
    gp::transpose_bytes(gp::cuda, size, d_in.data(), rows, cols, cols, d_out.data(), rows);
    ASSERT_EQ(gp::to_host(d_out), expected) << "size " << size;
  }
}

TEST_F(cuda_test, transpose_refuses_bad_arguments) {
  gp::device_vector<float> a(12), b(12);
  b.fill_bytes(0x11);
  const auto in = gp::make_matrix_view(gp::device_span<const float>(a.span()), 3, 4);
  EXPECT_THROW(gp::transpose(gp::cuda, in, gp::make_matrix_view(b.span(), 3, 4)),
               std::invalid_argument);
  EXPECT_THROW(gp::transpose(gp::cuda, in, gp::make_matrix_view(a.span(), 4, 3)),
               std::invalid_argument);
  EXPECT_THROW(gp::make_matrix_view(b.span(), 4, 4), std::invalid_argument);
  EXPECT_THROW(gp::transpose_batched(gp::cuda, a, b, 2, 3, 4), std::invalid_argument);
  EXPECT_EQ(gp::to_host(b), std::vector<float>(12, std::bit_cast<float>(0x11111111u)));
  // Empty shapes do nothing.
  gp::transpose(gp::cuda, gp::device_matrix_view<const float>(a.data(), 0, 4),
                gp::device_matrix_view<float>(b.data(), 4, 0));
  gp::synchronize();
}
