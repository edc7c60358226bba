// The host's N-D filters (gpuprim/convolve_nd.hpp) against a plain
// reference written from SciPy's definitions: every border mode, origins,
// 1-3 axes, strided views, output types and their casts, in place, errors.
// SciPy's own answers are checked bit for bit by the Python peer suite
// (python/tests/peers/scipy_ndimage_filters.py).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

#include "gpuprim/convolve_nd.hpp"

namespace gp = gpuprim;

namespace {

const gp::border kModes[] = {gp::border::zero, gp::border::replicate, gp::border::reflect,
                             gp::border::mirror, gp::border::wrap};

std::vector<double> random_values(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::normal_distribution<double> d(0.0, 10.0);
  std::vector<double> v(n);
  for (auto& x : v)
    x = d(rng);
  return v;
}

// out[x] = sum_t w[t] * in[x + t - (k / 2 + origin)] over a C-order array.
std::vector<double> reference_nd(const std::vector<double>& in,
                                 const std::vector<std::size_t>& shape,
                                 const std::vector<double>& w,
                                 const std::vector<std::size_t>& wshape, gp::border mode,
                                 double cval, const std::vector<long long>& origins) {
  const std::size_t nd = shape.size();
  std::size_t total = 1, taps = 1;
  for (auto s : shape)
    total *= s;
  for (auto s : wshape)
    taps *= s;
  std::vector<double> out(total, 0.0);
  for (std::size_t p = 0; p < total; ++p) {
    double acc = 0.0;
    for (std::size_t t = 0; t < taps; ++t) {
      std::size_t pi = p, ti = t, at = 0, scale = 1;
      bool outside = false;
      for (std::size_t a = nd; a-- > 0;) {
        const long long x = static_cast<long long>(pi % shape[a]);
        const long long j = static_cast<long long>(ti % wshape[a]);
        pi /= shape[a];
        ti /= wshape[a];
        const long long k = static_cast<long long>(wshape[a]);
        const long long i = gp::detail::border_index(x + j - (k / 2 + origins[a]),
                                                     static_cast<long long>(shape[a]), mode);
        if (i < 0) outside = true;
        at += static_cast<std::size_t>(i < 0 ? 0 : i) * scale;
        scale *= shape[a];
      }
      acc += w[t] * (outside ? cval : in[at]);
    }
    out[p] = acc;
  }
  return out;
}

void expect_close(const std::vector<double>& got, const std::vector<double>& want) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    EXPECT_NEAR(got[i], want[i], 1e-11 * (1.0 + std::fabs(want[i]))) << "at " << i;
}

}  // namespace

TEST(host_convolve_nd, correlate_nd_matches_the_definition_in_every_mode) {
  const std::vector<std::size_t> shape{4, 5, 6}, wshape{3, 2, 4};
  const auto in = random_values(120, 1);
  const auto w = random_values(24, 2);
  const std::vector<long long> origins{1, -1, 0};
  for (gp::border mode : kModes) {
    std::vector<double> out(120, -1.0);
    gp::correlate_nd(gp::host, gp::nd_view<const double>(in.data(), shape),
                     gp::nd_view<const double>(w.data(), wshape),
                     gp::nd_view<double>(out.data(), shape), mode, 2.5, origins);
    expect_close(out, reference_nd(in, shape, w, wshape, mode, 2.5, origins));
  }
}

TEST(host_convolve_nd, correlate1d_along_each_axis_is_the_nd_filter_with_one_long_axis) {
  const std::vector<std::size_t> shape{3, 7, 5};
  const auto in = random_values(105, 3);
  for (std::size_t axis = 0; axis < 3; ++axis) {
    for (const std::vector<double>& w :
         {std::vector<double>{1, 2, 1}, std::vector<double>{-1, 0, 1},
          std::vector<double>{0.5, -2, 3, 1}, std::vector<double>{1, 2, 3, 4, 5, 6, 7, 8, 9}}) {
      for (gp::border mode : kModes) {
        const long long origin = static_cast<long long>(w.size() - 1) / 2;
        std::vector<std::size_t> wshape{1, 1, 1};
        wshape[axis] = w.size();
        std::vector<long long> origins{0, 0, 0};
        origins[axis] = origin;
        std::vector<double> out(105);
        gp::correlate1d(gp::host, gp::nd_view<const double>(in.data(), shape), w, axis,
                        gp::nd_view<double>(out.data(), shape), mode, -1.0, origin);
        expect_close(out, reference_nd(in, shape, w, wshape, mode, -1.0, origins));
      }
    }
  }
}

TEST(host_convolve_nd, lines_across_the_last_axis_go_in_groups_with_a_partial_last_one) {
  // 37 lines along axis 0: groups of 16, 16 and 5.
  const std::vector<std::size_t> shape{11, 37};
  const auto in = random_values(11 * 37, 5);
  const std::vector<double> w{0.25, -1.0, 2.0, 0.5, 1.0};
  for (gp::border mode : kModes) {
    std::vector<double> out(in.size()), mean(in.size());
    gp::correlate1d(gp::host, gp::nd_view<const double>(in.data(), shape), w, 0,
                    gp::nd_view<double>(out.data(), shape), mode, 0.5, -1);
    expect_close(out, reference_nd(in, shape, w, {5, 1}, mode, 0.5, {-1, 0}));
    gp::uniform_filter1d(gp::host, gp::nd_view<const double>(in.data(), shape), 4, 0,
                         gp::nd_view<double>(mean.data(), shape), mode, 0.5, 1);
    expect_close(mean,
                 reference_nd(in, shape, std::vector<double>(4, 0.25), {4, 1}, mode, 0.5, {1, 0}));
  }
}

TEST(host_convolve_nd, uniform_filter1d_is_the_mean_of_the_window) {
  const std::vector<std::size_t> shape{6, 9};
  const auto in = random_values(54, 4);
  for (std::size_t size : {1u, 2u, 5u, 12u}) {
    for (gp::border mode : kModes) {
      std::vector<double> out(54);
      gp::uniform_filter1d(gp::host, gp::nd_view<const double>(in.data(), shape), size, 1,
                           gp::nd_view<double>(out.data(), shape), mode, 3.0, 0);
      const std::vector<double> w(size, 1.0 / static_cast<double>(size));
      auto want = reference_nd(in, shape, w, {1, size}, mode, 3.0, {0, 0});
      expect_close(out, want);
    }
  }
}

TEST(host_convolve_nd, strided_views_and_in_place_passes) {
  // A column of a 2-D array (stride 4) filtered in place along its axis.
  std::vector<float> a{1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0};
  gp::nd_view<float> col(a.data(), {3}, {4});
  const double w[] = {1, 1, 1};
  gp::correlate1d(gp::host, gp::nd_view<const float>(col), w, 0, col, gp::border::zero);
  EXPECT_EQ(a[0], 3.0f);
  EXPECT_EQ(a[4], 7.0f);
  EXPECT_EQ(a[8], 6.0f);
  EXPECT_EQ(a[1], 0.0f);
}

TEST(host_convolve_nd, float_data_summed_in_double_and_rounded_once) {
  std::vector<float> in(25, 5000.0f), out(25);
  std::vector<double> w(9, 1.0 / 9.0);
  gp::correlate_nd(gp::host, gp::nd_view<const float>(in.data(), {5, 5}),
                   gp::nd_view<const double>(w.data(), {3, 3}),
                   gp::nd_view<float>(out.data(), {5, 5}));
  for (float v : out)
    EXPECT_EQ(v, 5000.0f);
}

TEST(host_convolve_nd, integer_outputs_truncate_and_wrap_as_scipy) {
  const std::vector<std::int16_t> in{10, 3, -7, 250, 0};
  const double w[] = {-1.0, 0.0, 1.5};
  std::vector<std::uint8_t> u8(5);
  std::vector<std::int8_t> i8(5);
  gp::correlate1d(gp::host, gp::nd_view<const std::int16_t>(in.data(), {5}), w, 0,
                  gp::nd_view<std::uint8_t>(u8.data(), {5}), gp::border::zero);
  gp::correlate1d(gp::host, gp::nd_view<const std::int16_t>(in.data(), {5}), w, 0,
                  gp::nd_view<std::int8_t>(i8.data(), {5}), gp::border::zero);
  // sums: 4.5, -20.5, 372, 7, -250
  const std::vector<double> sums{4.5, -20.5, 372.0, 7.0, -250.0};
  for (std::size_t i = 0; i < 5; ++i) {
    const auto t = static_cast<std::int64_t>(sums[i]);  // toward zero
    EXPECT_EQ(u8[i], static_cast<std::uint8_t>(t)) << i;
    EXPECT_EQ(i8[i], static_cast<std::int8_t>(static_cast<std::uint8_t>(t))) << i;
  }
  EXPECT_EQ(gp::host_impl::nd_store<std::uint64_t>(-1.0), ~std::uint64_t{0});
  EXPECT_EQ(gp::host_impl::nd_store<std::uint64_t>(1e19), std::uint64_t{10000000000000000000u});
  EXPECT_EQ(gp::host_impl::nd_store<std::uint64_t>(3e19), std::uint64_t{0});
  EXPECT_EQ(gp::host_impl::nd_store_unsigned_safe<std::uint64_t>(-1e19),
            std::uint64_t{0} - std::uint64_t{10000000000000000000u});
}

TEST(host_convolve_nd, bad_arguments_throw_before_writing) {
  std::vector<double> in(12, 1.0), out(12, -3.0);
  const double w[] = {1.0, 2.0, 1.0};
  gp::nd_view<const double> vin(in.data(), {3, 4});
  gp::nd_view<double> vout(out.data(), {3, 4});
  EXPECT_THROW(gp::correlate1d(gp::host, vin, w, 2, vout), std::invalid_argument);
  EXPECT_THROW(gp::correlate1d(gp::host, vin, w, 0, vout, gp::border::reflect, 0.0, 2),
               std::invalid_argument);
  EXPECT_THROW(gp::correlate1d(gp::host, vin, std::span<const double>(), 0, vout),
               std::invalid_argument);
  EXPECT_THROW(gp::uniform_filter1d(gp::host, vin, 0, 0, vout), std::invalid_argument);
  EXPECT_THROW(gp::correlate1d(gp::host, vin, w, 0, gp::nd_view<double>(out.data(), {4, 3})),
               std::invalid_argument);
  std::vector<double> w2(6, 1.0);
  EXPECT_THROW(gp::correlate_nd(gp::host, vin, gp::nd_view<const double>(w2.data(), {6}), vout),
               std::invalid_argument);
  const long long bad[] = {0, 2};
  EXPECT_THROW(gp::correlate_nd(gp::host, vin, gp::nd_view<const double>(w2.data(), {2, 3}), vout,
                                gp::border::reflect, 0.0, bad),
               std::invalid_argument);
  for (double v : out)
    EXPECT_EQ(v, -3.0);
}
