// gp::transpose: the cases of the host alone: the streaming-store path, the
// byte-generic entry, the refusals. The cases of both backends are in
// tests/sides/transpose_test.cpp.
#include <gtest/gtest.h>

#include <complex>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "gpuprim/transpose.hpp"
#include "support/dense_reference.hpp"
#include "support/test_data.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

namespace {

// Outputs of 32 MiB or more take the streaming-store and prefetch path (x86): output rows 16-byte
// aligned (2052 floats, 1026 doubles) and not (one row fewer), edge tiles on both sides.
TEST(host_transpose_large, streaming_stores_on_aligned_and_unaligned_rows) {
  auto rng = make_rng(304);
  const auto check = [&]<class T>(T, std::size_t rows, std::size_t cols) {
    ASSERT_GE(rows * cols * sizeof(T), std::size_t{32} << 20);
    const auto in = distinct_elements<T>(rows * cols, rng);
    std::vector<T> out(rows * cols);
    gp::transpose(gp::host, gp::matrix_view<const T>(in.data(), rows, cols),
                  gp::matrix_view<T>(out.data(), cols, rows));
    ASSERT_TRUE(is_transpose(in, rows, cols, cols, out, rows)) << rows << " x " << cols;
  };
  check(float{}, 2052, 4099);
  check(float{}, 2051, 4099);
  check(double{}, 1026, 4099);
  check(double{}, 1025, 4099);
}

// Streaming outputs whose rows all sit the same distance into a 64-byte line
// (ld_out x element size a multiple of 64) start their row tiles at the first
// line crossing: outputs placed 0-15 elements into a line, a thin first row of
// tiles wider than the matrix (20 rows, 13 before the crossing), and the
// elements before each output (the head of the buffer) and its row padding
// left alone.
TEST(host_transpose_large, row_tiles_start_at_the_output_lines) {
  auto rng = make_rng(305);
  const auto check = [&]<class T>(T, std::size_t rows, std::size_t cols, std::size_t ld_out,
                                  std::size_t offset) {
    ASSERT_GE(rows * cols * sizeof(T), std::size_t{32} << 20);
    const auto in = distinct_elements<T>(rows * cols, rng);
    const auto before = distinct_elements<T>(offset + cols * ld_out, rng);
    std::vector<T> buffer = before;
    gp::transpose(gp::host, gp::matrix_view<const T>(in.data(), rows, cols),
                  gp::matrix_view<T>(buffer.data() + offset, cols, rows, ld_out));
    const std::vector<T> out(buffer.begin() + std::ptrdiff_t(offset), buffer.end());
    ASSERT_TRUE(is_transpose(in, rows, cols, cols, out, ld_out))
        << rows << " x " << cols << ", output " << offset << " elements in";
    for (std::size_t i = 0; i < offset; ++i)
      ASSERT_TRUE(same_bits(buffer[i], before[i])) << i;
    for (std::size_t c = 0; c < cols; ++c)
      for (std::size_t r = rows; r < ld_out; ++r)
        ASSERT_TRUE(same_bits(out[c * ld_out + r], before[offset + c * ld_out + r]));
  };
  for (std::size_t offset : {0, 1, 3, 4, 15})
    check(float{}, 2048, 4099, 2048, offset);
  check(double{}, 1024, 4099, 1024, 1);
  check(double{}, 1029, 4099, 1032, 7);
  check(float{}, 20, std::size_t{1} << 19, 32, 3);
}

}  // namespace

// Unaligned buffers are fine on the host; the packed call (no leading
// dimensions).
TEST(host_transpose_bytes, unaligned_buffers_and_a_wrong_element_size) {
  std::vector<unsigned char> in(1 + 6 * 8), out(1 + 6 * 8);
  for (std::size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<unsigned char>(i);
  gp::transpose_bytes(gp::host, 8, in.data() + 1, 2, 3, out.data() + 1);
  EXPECT_EQ(0, std::memcmp(&out[1 + 8], &in[1 + 3 * 8], 8));  // out(0, 1) = in(1, 0)
  EXPECT_THROW(gp::transpose_bytes(gp::host, 3, in.data(), 2, 3, out.data()),
               std::invalid_argument);
}

TEST(host_transpose_errors, wrong_shape_and_aliasing_are_refused) {
  std::vector<float> a(12, 1.0f), b(12, 2.0f);
  const gp::matrix_view<const float> in(a.data(), 3, 4);
  EXPECT_THROW(gp::transpose(gp::host, in, gp::matrix_view<float>(b.data(), 3, 4)),
               std::invalid_argument);
  EXPECT_EQ(b, std::vector<float>(12, 2.0f));  // nothing written
  EXPECT_THROW(gp::transpose(gp::host, in, gp::matrix_view<float>(a.data(), 4, 3)),
               std::invalid_argument);
  // Overlapping but not identical ranges too.
  std::vector<float> big(40);
  EXPECT_THROW(gp::transpose(gp::host, gp::matrix_view<const float>(big.data(), 3, 4),
                             gp::matrix_view<float>(big.data() + 5, 4, 3)),
               std::invalid_argument);
  EXPECT_THROW(
      gp::transpose_batched(gp::host, std::span<const float>(a), std::span<float>(b), 2, 3, 4),
      std::invalid_argument);
  EXPECT_THROW(
      gp::transpose_batched(gp::host, std::span<const float>(a), std::span<float>(a), 1, 3, 4),
      std::invalid_argument);
  EXPECT_THROW(gp::matrix_view<float>(a.data(), 3, 4, 3), std::invalid_argument);
}

TEST(host_transpose_errors, floats_move_as_bits) {
  const float nan = std::bit_cast<float>(0x7FC01234u);
  const std::vector<float> in{nan, -0.0f, std::numeric_limits<float>::infinity(), 1.0f};
  std::vector<float> out(4);
  gp::transpose(gp::host, gp::matrix_view<const float>(in.data(), 2, 2),
                gp::matrix_view<float>(out.data(), 2, 2));
  EXPECT_EQ(std::bit_cast<std::uint32_t>(out[0]), 0x7FC01234u);
  EXPECT_EQ(std::bit_cast<std::uint32_t>(out[2]), 0x80000000u);
  EXPECT_EQ(out[1], std::numeric_limits<float>::infinity());
}
