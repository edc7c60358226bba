// gp::transpose: the cases of the GPU alone, called from plain C++: a tall
// matrix, over 2^31 bytes, the byte-generic entry, shapes that take each
// kernel for every element size, stacks, and the refusals. The
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

// One shape of the byte-generic check below: rows x cols with leading
// dimensions ld_in / ld_out, `in_at` / `out_at` elements into the buffers.
struct strided_case {
  std::size_t rows, cols, ld_in, ld_out, in_at, out_at;
};

// Shapes that take each of the CUDA kernels (device_transpose.cuh):
// vector tiles (rows on 16-byte boundaries), sector-owned tiles (other
// alignments, both dimensions at least 64, elements of 1, 2 and 4 bytes:
// odd sizes, sizes just over a tile, aligned input with odd output rows and
// the reverse, output rows starting at every sector offset) and the peeled
// tiles (a dimension under 64; 8-byte elements at every other alignment).
// Every element size; the host transpose is the reference, and the padding
// of the output must keep its bytes.
TEST_F(cuda_test, transpose_every_kernel_every_element_size) {
  auto rng = make_rng(406);
  const strided_case cases[] = {
      {128, 192, 192, 128, 0, 0}, {64, 64, 64, 64, 0, 0},   {1031, 777, 777, 1031, 0, 0},
      {65, 129, 129, 65, 0, 0},   {129, 65, 65, 129, 0, 0}, {193, 257, 257, 193, 0, 0},
      {64, 64, 67, 71, 0, 5},     {97, 256, 256, 97, 0, 0}, {256, 97, 97, 256, 0, 0},
      {300, 200, 203, 307, 1, 3}, {640, 64, 64, 641, 0, 7}, {64, 1000, 1003, 64, 2, 0},
      {1, 1000, 1000, 1, 0, 0},   {1000, 1, 1, 1000, 0, 0}, {63, 1001, 1001, 63, 0, 0},
      {1001, 63, 63, 1001, 0, 0}, {1, 1, 1, 1, 0, 0},       {2, 3, 5, 7, 1, 1},
  };
  for (const std::size_t size : {1u, 2u, 4u, 8u, 16u}) {
    for (const auto& k : cases) {
      const auto in = distinct_elements<unsigned char>((k.in_at + k.rows * k.ld_in) * size, rng);
      const auto poison =
          distinct_elements<unsigned char>((k.out_at + k.cols * k.ld_out) * size, rng);
      std::vector<unsigned char> expected = poison;
      gp::transpose_bytes(gp::host, size, in.data() + k.in_at * size, k.rows, k.cols, k.ld_in,
                          expected.data() + k.out_at * size, k.ld_out);
      const auto d_in = gp::to_device(in);
      auto d_out = gp::to_device(poison);
      gp::transpose_bytes(gp::cuda, size, d_in.data() + k.in_at * size, k.rows, k.cols, k.ld_in,
                          d_out.data() + k.out_at * size, k.ld_out);
      ASSERT_EQ(gp::to_host(d_out), expected)
          << "size " << size << ", " << k.rows << " x " << k.cols << " ld " << k.ld_in << "/"
          << k.ld_out << " at " << k.in_at << "/" << k.out_at;
    }
  }
}

// Stacks (the last two axes of a 3-D array): each matrix of an odd size
// starts at another offset within a sector, so the sector-owned tiles'
// halo and ownership change from matrix to matrix.
TEST_F(cuda_test, transpose_batched_every_kernel_every_element_size) {
  auto rng = make_rng(407);
  const dense_shape shapes[] = {{64, 64}, {65, 67}, {97, 130}, {128, 64}, {70, 3}, {1, 9}};
  for (const std::size_t size : {1u, 2u, 4u, 8u, 16u}) {
    for (const auto [rows, cols] : shapes) {
      for (const std::size_t batch : {3, 5}) {
        const auto in = distinct_elements<unsigned char>(batch * rows * cols * size, rng);
        std::vector<unsigned char> expected(in.size());
        gp::transpose_bytes_batched(gp::host, size, in.data(), expected.data(), batch, rows, cols);
        const auto d_in = gp::to_device(in);
        gp::device_vector<unsigned char> d_out(in.size());
        d_out.fill_bytes(0xA5);
        gp::transpose_bytes_batched(gp::cuda, size, d_in.data(), d_out.data(), batch, rows, cols);
        ASSERT_EQ(gp::to_host(d_out), expected)
            << "size " << size << ", " << batch << " x " << rows << " x " << cols;
      }
    }
  }
}

// A stack longer than a launch's 65535 matrices: the sector-owned tiles'
// blocks step on to matrix y + 65535 and reuse their shared tile (64 x 65
// bytes, odd rows: sector-owned tiles).
TEST_F(cuda_test, transpose_batched_past_the_grid_limit) {
  const std::size_t batch = 65535 + 3, rows = 64, cols = 65;
  std::vector<unsigned char> in(batch * rows * cols);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<unsigned char>((i * 2654435761u) >> 13);
  std::vector<unsigned char> expected(in.size());
  gp::transpose_bytes_batched(gp::host, 1, in.data(), expected.data(), batch, rows, cols);
  const auto d_in = gp::to_device(in);
  gp::device_vector<unsigned char> d_out(in.size());
  d_out.fill_bytes(0xA5);
  gp::transpose_bytes_batched(gp::cuda, 1, d_in.data(), d_out.data(), batch, rows, cols);
  ASSERT_EQ(gp::to_host(d_out), expected);
}

// The bench's odd row: 10007 x 3001 floats (sector-owned tiles, every
// output row at another offset within its sector).
TEST_F(cuda_test, transpose_odd_bench_shape) {
  auto rng = make_rng(408);
  check_transpose<cuda_side, float>(rng, 10007, 3001, 3001, 10007);
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
