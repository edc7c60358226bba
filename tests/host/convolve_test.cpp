// The convolution family's cases of the CPU backend alone, against the
// double-precision reference (tests/support/convolve_reference.hpp); the
// cases of both backends are in tests/sides/convolve_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "support/convolve_cases.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST(host_convolve_views, strided_matrix_views_leave_the_gaps_alone) {
  auto rng = make_rng(7);
  const std::size_t rows = 19, cols = 23, ld = 31;
  const auto in = random_pixels<float>(rows * ld, rng);
  std::vector<float> out(rows * ld, -7.0f);
  const gp::filter f = random_filter(5, 3, rng);
  gp::convolve(gp::host, gp::matrix_view<const float>(in.data(), rows, cols, ld), f,
               gp::matrix_view<float>(out.data(), rows, cols, ld), gp::border::mirror);
  std::vector<float> packed(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < cols; ++c)
      packed[r * cols + c] = in[r * ld + c];
  }
  const auto expected = reference_filter(packed, {1, rows, cols, 1}, f, gp::border::mirror, true);
  std::vector<float> got(rows * cols);
  for (std::size_t r = 0; r < rows; ++r) {
    for (std::size_t c = 0; c < ld; ++c) {
      if (c < cols) {
        got[r * cols + c] = out[r * ld + c];
      } else {
        ASSERT_EQ(out[r * ld + c], -7.0f) << "the gap between rows was written";
      }
    }
  }
  EXPECT_TRUE(matches_reference(got, expected, abs_sum(f.weights()), 15, "strided"));
}

TEST(host_convolve_views, even_filter_is_centred_at_size_over_2) {
  // scipy.ndimage.convolve(np.arange(12.).reshape(3, 4), [[1, 2], [3, 4]], mode='reflect'):
  // the centre of a 2 x 2 filter is (1, 1).
  const std::vector<double> in = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};
  std::vector<double> out(12);
  gp::convolve(gp::host, gp::matrix_view<const double>(in.data(), 3, 4),
               gp::filter(2, 2, {1, 2, 3, 4}), gp::matrix_view<double>(out.data(), 3, 4));
  // Derivation: out(y, x) = sum w(i, j) in(y - i + 1, x - j + 1).
  std::vector<double> direct(12);
  for (int y = 0; y < 3; ++y) {
    for (int x = 0; x < 4; ++x) {
      double s = 0;
      const double w[2][2] = {{1, 2}, {3, 4}};
      for (int i = 0; i < 2; ++i) {
        for (int j = 0; j < 2; ++j) {
          int sy = y - i + 1, sx = x - j + 1;
          if (sy > 2) sy = 5 - sy;
          if (sx > 3) sx = 7 - sx;
          s += w[i][j] * in[sy * 4 + sx];
        }
      }
      direct[y * 4 + x] = s;
    }
  }
  EXPECT_EQ(out, direct);
}

TEST(host_convolve_errors, bad_arguments_throw_before_writing) {
  std::vector<float> in(100, 1.0f), out(100, 5.0f);
  gp::matrix_view<const float> vin(in.data(), 10, 10);
  gp::matrix_view<float> vout(out.data(), 10, 10);
  // Aliasing: out overlapping in.
  gp::matrix_view<float> alias(in.data(), 10, 10);
  EXPECT_THROW(gp::convolve(gp::host, vin, gp::filters::box(1), alias), std::invalid_argument);
  gp::matrix_view<float> shifted(in.data() + 5, 9, 9, 10);
  EXPECT_THROW(gp::convolve(gp::host, gp::matrix_view<const float>(in.data(), 9, 9, 10),
                            gp::filters::box(1), shifted),
               std::invalid_argument);
  // Shapes.
  EXPECT_THROW(
      gp::convolve(gp::host, vin, gp::filters::box(1), gp::matrix_view<float>(out.data(), 10, 9)),
      std::invalid_argument);
  // Filter sizes.
  EXPECT_THROW(gp::convolve(gp::host, vin, gp::filter(), vout), std::invalid_argument);
  EXPECT_THROW(gp::convolve(gp::host, vin, gp::filter(64, 1, std::vector<double>(64, 1.0)), vout),
               std::invalid_argument);
  const std::vector<double> none;
  const std::vector<double> long_filter(64, 1.0);
  const std::vector<double> ok(3, 1.0);
  EXPECT_THROW(gp::convolve_separable(gp::host, vin, none, ok, vout), std::invalid_argument);
  EXPECT_THROW(gp::convolve_separable(gp::host, vin, ok, long_filter, vout), std::invalid_argument);
  EXPECT_THROW(gp::filters::gaussian(0.0), std::invalid_argument);
  EXPECT_THROW(gp::filters::gaussian(-1.0), std::invalid_argument);
  EXPECT_THROW(gp::filters::box(-1), std::invalid_argument);
  EXPECT_THROW(gp::filter(2, 2, {1, 2, 3}), std::invalid_argument);
  for (float v : out)
    ASSERT_EQ(v, 5.0f);
  // 63 x 63 is fine.
  EXPECT_NO_THROW(
      gp::convolve(gp::host, vin, gp::filter(63, 63, std::vector<double>(63 * 63, 1.0)), vout));
}

TEST(host_convolve_filters, gaussian_and_box_weights) {
  const auto g = gp::filters::gaussian_1d(2.0);
  EXPECT_EQ(g.size(), 17u);  // radius int(4 * 2 + 0.5) = 8
  double sum = 0;
  for (double w : g)
    sum += w;
  EXPECT_NEAR(sum, 1.0, 1e-15);
  EXPECT_NEAR(g[8] / g[9], std::exp(0.5 / 4.0), 1e-12);
  EXPECT_EQ(gp::filters::gaussian_1d(1.0, 2).size(), 5u);
  EXPECT_EQ(gp::filters::gaussian_1d(0.3).size(), 3u);  // int(1.7) = 1
  const auto b = gp::filters::box(2);
  EXPECT_EQ(b.rows(), 5u);
  EXPECT_EQ(b.cols(), 5u);
  EXPECT_DOUBLE_EQ(b(0, 0), 1.0 / 25.0);
  const auto g2 = gp::filters::gaussian(1.0);
  EXPECT_EQ(g2.rows(), 9u);
  EXPECT_DOUBLE_EQ(g2(4, 4), gp::filters::gaussian_1d(1.0)[4] * gp::filters::gaussian_1d(1.0)[4]);
}

TEST(host_convolve_bytes, rounds_to_nearest_and_clamps) {
  // A 1 x 3 image and the filter [0.5]: 1 -> 0.5 -> 0 (ties to even), 3 ->
  // 1.5 -> 2, 255 -> 127.5 -> 128; [-1] clamps to 0, [2] to 255.
  const std::vector<std::uint8_t> in = {1, 3, 255};
  std::vector<std::uint8_t> out(3);
  gp::matrix_view<const std::uint8_t> vin(in.data(), 1, 3);
  gp::matrix_view<std::uint8_t> vout(out.data(), 1, 3);
  gp::convolve(gp::host, vin, gp::filter(1, 1, {0.5}), vout);
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0, 2, 128}));
  gp::convolve(gp::host, vin, gp::filter(1, 1, {-1.0}), vout);
  EXPECT_EQ(out, (std::vector<std::uint8_t>{0, 0, 0}));
  gp::convolve(gp::host, vin, gp::filter(1, 1, {2.0}), vout);
  EXPECT_EQ(out, (std::vector<std::uint8_t>{2, 6, 255}));
}

TEST(host_convolve_views, image_view_checks_its_shape) {
  std::vector<float> v(100);
  EXPECT_THROW(gp::image_view<float>(v.data(), 2, 2, 0), std::invalid_argument);  // no channels
  EXPECT_THROW(gp::image_view<float>(v.data(), 1, 4, 4, 3, 11, 44), std::invalid_argument);  // ld
  EXPECT_THROW(gp::image_view<float>(v.data(), 2, 4, 4, 1, 4, 15),
               std::invalid_argument);  // stride
  const gp::image_view<float> ok(v.data(), 2, 3, 4, 2, 10, 40);
  EXPECT_EQ(ok.extent(), 40u + 2 * 10 + 4 * 2);
  const gp::image_view<const float> from_matrix(gp::matrix_view<float>(v.data(), 5, 6, 7));
  EXPECT_EQ(from_matrix.channels(), 1u);
  EXPECT_EQ(from_matrix.ld(), 7u);
  EXPECT_EQ(from_matrix.extent(), 4u * 7 + 6);
}
