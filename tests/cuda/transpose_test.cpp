// gp::transpose on the GPU, called from plain C++: every element size, the
// shared shapes, leading dimensions, unaligned views (element path), thin
// and prime shapes, stacks, the byte-generic entry and the refusals. Outputs
// are poisoned first, so an unwritten element fails.
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

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

template <class T>
class cuda_transpose : public typed_cuda_test<T> {};
using element_types = ::testing::Types<std::int8_t, std::uint16_t, float, double,
                                       std::complex<double>, int_float_pair>;
TYPED_TEST_SUITE(cuda_transpose, element_types);

template <class T>
void check_device_transpose(std::mt19937_64& rng, std::size_t rows, std::size_t cols,
                            std::size_t ld_in, std::size_t ld_out, std::size_t offset = 0) {
  const auto in = distinct_elements<T>(offset + rows * ld_in, rng);
  auto out = distinct_elements<T>(offset + cols * ld_out, rng);
  const gp::device_vector<T> d_in = gp::to_device(in);
  gp::device_vector<T> d_out = gp::to_device(out);
  gp::transpose(gp::cuda, gp::device_matrix_view<const T>(d_in.data() + offset, rows, cols, ld_in),
                gp::device_matrix_view<T>(d_out.data() + offset, cols, rows, ld_out));
  const auto got = gp::to_host(d_out);
  const std::vector<T> in_view(in.begin() + offset, in.end());
  const std::vector<T> got_view(got.begin() + offset, got.end());
  ASSERT_TRUE(is_transpose(in_view, rows, cols, ld_in, got_view, ld_out))
      << rows << " x " << cols << " ld " << ld_in << "/" << ld_out << " offset " << offset;
  for (std::size_t c = 0; c < cols; ++c)  // padding untouched
    for (std::size_t r = rows; r < ld_out; ++r)
      ASSERT_TRUE(same_bits(got[offset + c * ld_out + r], out[offset + c * ld_out + r]));
}

TYPED_TEST(cuda_transpose, every_shape_packed_padded_and_unaligned) {
  using T = TypeParam;
  auto rng = make_rng(401);
  for (const auto [rows, cols] : transpose_shapes()) {
    check_device_transpose<T>(rng, rows, cols, cols, rows);
    check_device_transpose<T>(rng, rows, cols, cols + 3, rows + 5);
    check_device_transpose<T>(rng, rows, cols, cols + 16, rows + 16, 1);  // not 16-byte aligned
  }
}

TYPED_TEST(cuda_transpose, primes_and_thin_shapes) {
  using T = TypeParam;
  auto rng = make_rng(402);
  check_device_transpose<T>(rng, 10007, 301, 301, 10007);
  check_device_transpose<T>(rng, (1u << 16) + 3, 4, 4, (1u << 16) + 3);
  check_device_transpose<T>(rng, 4, (1u << 16) + 1, (1u << 16) + 1, 4);
  check_device_transpose<T>(rng, 3, 100003, 100003, 3);
}

TYPED_TEST(cuda_transpose, batched_stack) {
  using T = TypeParam;
  auto rng = make_rng(403);
  for (const auto [rows, cols] : {dense_shape{3, 5}, dense_shape{65, 130}, dense_shape{1, 7}}) {
    const std::size_t batch = 7;
    const auto in = distinct_elements<T>(batch * rows * cols, rng);
    gp::device_vector<T> d_out(in.size());
    d_out.fill_bytes(0xA5);
    const auto d_in = gp::to_device(in);
    gp::transpose_batched(gp::cuda, d_in, d_out, batch, rows, cols);
    const auto out = gp::to_host(d_out);
    for (std::size_t b = 0; b < batch; ++b) {
      const std::vector<T> one_in(in.begin() + b * rows * cols, in.begin() + (b + 1) * rows * cols);
      const std::vector<T> one_out(out.begin() + b * rows * cols,
                                   out.begin() + (b + 1) * rows * cols);
      ASSERT_TRUE(is_transpose(one_in, rows, cols, cols, one_out, rows)) << "matrix " << b;
    }
  }
}

}  // namespace

TEST_F(cuda_test, transpose_large_tall_matrix) {
  auto rng = make_rng(404);
  const std::size_t rows = std::size_t{1} << 22, cols = 4;  // 2^22 x 4 floats
  check_device_transpose<float>(rng, rows, cols, cols, rows);
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
