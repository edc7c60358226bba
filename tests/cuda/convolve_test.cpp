// The convolution family's cases of the GPU alone, called from plain C++;
// the cases of both backends are in tests/sides/convolve_test.cpp.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <vector>

#include "gpuprim/convolve.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "support/convolve_cases.hpp"
#include "support/cuda_fixture.hpp"

namespace gp = gpuprim;
using namespace gpuprim::test;

TEST_F(cuda_test, convolve_matches_host_on_a_multi_tile_image) {
  auto rng = make_rng(17);
  const std::size_t rows = 1000, cols = 1500;
  const auto in = random_pixels<float>(rows * cols, rng);
  const auto g = gp::filters::gaussian_1d(2.0);
  std::vector<float> host_out(rows * cols);
  gp::convolve_separable(gp::host, gp::matrix_view<const float>(in.data(), rows, cols), g, g,
                         gp::matrix_view<float>(host_out.data(), rows, cols));
  const auto d_in = gp::to_device(in);
  gp::device_vector<float> d_out(rows * cols);
  d_out.fill_bytes(0x7F);
  gp::convolve_separable(gp::cuda, gp::device_matrix_view<const float>(d_in.data(), rows, cols), g,
                         g, gp::device_matrix_view<float>(d_out.data(), rows, cols));
  const auto got = gp::to_host(d_out);
  for (std::size_t i = 0; i < got.size(); ++i)
    ASSERT_NEAR(got[i], host_out[i], 1e-5f) << i;
}

TEST_F(cuda_test, convolve_strided_views_leave_the_gaps_alone) {
  auto rng = make_rng(18);
  const std::size_t rows = 70, cols = 250, ld = 263;  // odd ld: no 16-byte loads
  for (std::size_t row_stride : {ld, std::size_t{256}}) {
    const auto in = random_pixels<float>(rows * row_stride, rng);
    const auto d_in = gp::to_device(in);
    gp::device_vector<float> d_out(rows * row_stride);
    d_out.fill_bytes(0x11);
    const gp::filter f = random_filter(7, 4, rng);
    gp::correlate(
        gp::cuda, gp::device_matrix_view<const float>(d_in.data(), rows, cols, row_stride), f,
        gp::device_matrix_view<float>(d_out.data(), rows, cols, row_stride), gp::border::reflect);
    const auto out = gp::to_host(d_out);
    std::vector<float> packed(rows * cols), got(rows * cols);
    float poison;
    const unsigned char bytes[4] = {0x11, 0x11, 0x11, 0x11};
    std::memcpy(&poison, bytes, 4);
    for (std::size_t r = 0; r < rows; ++r) {
      for (std::size_t c = 0; c < row_stride; ++c) {
        if (c < cols) {
          packed[r * cols + c] = in[r * row_stride + c];
          got[r * cols + c] = out[r * row_stride + c];
        } else {
          ASSERT_EQ(std::memcmp(&out[r * row_stride + c], &poison, 4), 0) << "gap written";
        }
      }
    }
    const auto expected =
        reference_filter(packed, {1, rows, cols, 1}, f, gp::border::reflect, false);
    ASSERT_TRUE(matches_reference(got, expected, abs_sum(f.weights()), 28, "strided"));
  }
}

TEST_F(cuda_test, convolve_refuses_aliasing_and_bad_shapes_before_writing) {
  gp::device_vector<float> a(100), b(100);
  b.fill_bytes(0x22);
  gp::device_matrix_view<const float> in(a.data(), 10, 10);
  EXPECT_THROW(gp::convolve(gp::cuda, in, gp::filters::box(1),
                            gp::device_matrix_view<float>(a.data() + 3, 9, 9, 10)),
               std::invalid_argument);
  EXPECT_THROW(gp::convolve(gp::cuda, in, gp::filters::box(1),
                            gp::device_matrix_view<float>(b.data(), 9, 10)),
               std::invalid_argument);
  EXPECT_THROW(gp::convolve(gp::cuda, in, gp::filter(64, 64, std::vector<double>(64 * 64, 1.0)),
                            gp::device_matrix_view<float>(b.data(), 10, 10)),
               std::invalid_argument);
  for (float v : gp::to_host(b)) {
    unsigned char bytes[4];
    std::memcpy(bytes, &v, 4);
    ASSERT_EQ(bytes[0], 0x22);
  }
}
