// The convolution family on the GPU, called from plain C++, against the
// double-precision reference: the same cases as tests/host/convolve_test.cpp
// (tests/support/convolve_cases.hpp), outputs poisoned before each call.
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

namespace {

template <class T>
std::vector<T> run_cuda(const std::vector<T>& in, conv_shape s, const conv_call& call) {
  const gp::device_vector<T> d_in = gp::to_device(in);
  gp::device_vector<T> d_out(s.size());
  d_out.fill_bytes(0x7F);  // poison: an unwritten float reads as a huge number
  const std::size_t ld = s.cols * s.channels;
  gp::device_image_view<const T> vin(d_in.data(), s.count, s.rows, s.cols, s.channels, ld,
                                     s.rows * ld);
  gp::device_image_view<T> vout(d_out.data(), s.count, s.rows, s.cols, s.channels, ld, s.rows * ld);
  invoke_call(gp::cuda, vin, vout, call);
  return gp::to_host(d_out);
}

template <class T>
class cuda_convolve : public typed_cuda_test<T> {};
using float_types = ::testing::Types<float, double>;
TYPED_TEST_SUITE(cuda_convolve, float_types);

}  // namespace

TYPED_TEST(cuda_convolve, every_border_at_every_edge_and_corner) {
  check_borders_and_sizes<TypeParam>(run_cuda<TypeParam>, 11);
}

TYPED_TEST(cuda_convolve, large_images_and_filters) {
  check_large<TypeParam>(run_cuda<TypeParam>, 12);
}

TYPED_TEST(cuda_convolve, named_filters) {
  check_named_filters<TypeParam>(run_cuda<TypeParam>, 13);
}

TYPED_TEST(cuda_convolve, nan_and_inf_propagate) {
  check_nan_inf<TypeParam>(run_cuda<TypeParam>, 14);
}

TYPED_TEST(cuda_convolve, batch_in_one_call) {
  check_batch<TypeParam>(run_cuda<TypeParam>, 15);
}

TEST_F(cuda_test, convolve_bytes_channels_batches_and_rounding) {
  check_bytes(run_cuda<std::uint8_t>, 16);
}

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
