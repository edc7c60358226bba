// The convolution family's test cases, shared by the host and GPU tests: a
// backend is a runner that filters a packed image batch (count x rows x
// cols x channels) with one call and returns the output.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstddef>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "support/convolve_reference.hpp"
#include "support/test_data.hpp"

namespace gpuprim::test {

enum class conv_op { convolve, correlate, convolve_separable, correlate_separable };

struct conv_call {
  conv_op op = conv_op::convolve;
  filter f;                 // general calls
  std::vector<double> row;  // separable calls
  std::vector<double> column;
  border mode = border::reflect;

  bool separable() const {
    return op == conv_op::convolve_separable || op == conv_op::correlate_separable;
  }
  bool convolution() const { return op == conv_op::convolve || op == conv_op::convolve_separable; }
  std::string describe() const {
    const char* names[] = {"convolve", "correlate", "convolve_separable", "correlate_separable"};
    std::string s = names[static_cast<int>(op)];
    if (separable()) {
      s += " " + std::to_string(row.size()) + "x" + std::to_string(column.size());
    } else {
      s += " " + std::to_string(f.rows()) + "x" + std::to_string(f.cols());
    }
    return s + " " + border_name(mode);
  }
};

// Runs `call` through the public API on any backend's views.
template <class Backend, class In, class Out>
void invoke_call(Backend backend, In in, Out out, const conv_call& call) {
  switch (call.op) {
    case conv_op::convolve:
      return convolve(backend, in, call.f, out, call.mode);
    case conv_op::correlate:
      return correlate(backend, in, call.f, out, call.mode);
    case conv_op::convolve_separable:
      return convolve_separable(backend, in, call.row, call.column, out, call.mode);
    case conv_op::correlate_separable:
      return correlate_separable(backend, in, call.row, call.column, out, call.mode);
  }
}

template <class T>
using conv_runner =
    std::function<std::vector<T>(const std::vector<T>&, conv_shape, const conv_call&)>;

template <class T>
std::vector<double> reference_of(const std::vector<T>& in, conv_shape s, const conv_call& call) {
  if (call.separable()) {
    return reference_separable(in, s, call.row, call.column, call.mode, call.convolution());
  }
  return reference_filter(in, s, call.f, call.mode, call.convolution());
}

template <class T>
::testing::AssertionResult check_call(const conv_runner<T>& run, const std::vector<T>& in,
                                      conv_shape s, const conv_call& call) {
  const std::vector<T> got = run(in, s, call);
  const std::vector<double> expected = reference_of(in, s, call);
  const double weight_sum =
      call.separable() ? abs_sum(call.row) * abs_sum(call.column) : abs_sum(call.f.weights());
  const std::size_t taps =
      call.separable() ? call.row.size() + call.column.size() : call.f.rows() * call.f.cols();
  return matches_reference(got, expected, weight_sum, taps,
                           call.describe() + " on " + std::to_string(s.count) + "x" +
                               std::to_string(s.rows) + "x" + std::to_string(s.cols) + "x" +
                               std::to_string(s.channels));
}

inline conv_call general(conv_op op, filter f, border mode) {
  conv_call c;
  c.op = op;
  c.f = std::move(f);
  c.mode = mode;
  return c;
}
inline conv_call separable(conv_op op, std::vector<double> row, std::vector<double> column,
                           border mode) {
  conv_call c;
  c.op = op;
  c.row = std::move(row);
  c.column = std::move(column);
  c.mode = mode;
  return c;
}

// Every border mode at every edge and corner: filters larger than the
// image, odd, even and non-square, general and separable, both directions.
template <class T>
void check_borders_and_sizes(const conv_runner<T>& run, std::size_t salt) {
  auto rng = make_rng(salt);
  const std::vector<conv_shape> shapes = {{1, 1, 1, 1}, {1, 1, 7, 1}, {1, 6, 1, 1},
                                          {1, 5, 7, 1}, {1, 2, 3, 1}, {1, 33, 47, 1}};
  const std::vector<std::pair<std::size_t, std::size_t>> sizes = {
      {1, 1}, {3, 3}, {1, 5}, {4, 1}, {2, 6}, {5, 4}, {11, 13}, {17, 17}};
  for (const conv_shape& s : shapes) {
    const auto in = random_pixels<T>(s.size(), rng);
    for (const auto& [kr, kc] : sizes) {
      for (border mode : all_borders) {
        for (conv_op op : {conv_op::convolve, conv_op::correlate}) {
          ASSERT_TRUE(check_call(run, in, s, general(op, random_filter(kr, kc, rng), mode)));
        }
        for (conv_op op : {conv_op::convolve_separable, conv_op::correlate_separable}) {
          ASSERT_TRUE(check_call(
              run, in, s, separable(op, random_weights(kc, rng), random_weights(kr, rng), mode)));
        }
      }
    }
  }
}

// Larger images over several tiles, and the largest filters.
template <class T>
void check_large(const conv_runner<T>& run, std::size_t salt) {
  auto rng = make_rng(salt);
  const conv_shape s{1, 150, 203, 1};
  const auto in = random_pixels<T>(s.size(), rng);
  for (std::size_t k : {3u, 8u, 9u, 17u, 24u, 33u, 63u}) {
    const border mode = all_borders[k % 5];
    ASSERT_TRUE(check_call(run, in, s, general(conv_op::convolve, random_filter(k, k, rng), mode)));
    ASSERT_TRUE(check_call(run, in, s,
                           separable(conv_op::convolve_separable, random_weights(k, rng),
                                     random_weights(k, rng), mode)));
  }
  ASSERT_TRUE(check_call(run, in, s,
                         general(conv_op::correlate, random_filter(63, 1, rng), border::mirror)));
  ASSERT_TRUE(
      check_call(run, in, s, general(conv_op::correlate, random_filter(1, 63, rng), border::wrap)));
  ASSERT_TRUE(check_call(run, in, s,
                         separable(conv_op::correlate_separable, random_weights(63, rng),
                                   random_weights(2, rng), border::reflect)));
}

// The named filters against the reference.
template <class T>
void check_named_filters(const conv_runner<T>& run, std::size_t salt) {
  auto rng = make_rng(salt);
  const conv_shape s{1, 64, 71, 1};
  const auto in = random_pixels<T>(s.size(), rng);
  for (const filter& f :
       {filters::box(1), filters::box(3), filters::gaussian(1.5), filters::gaussian(2.0, 3),
        filters::sobel_x(), filters::sobel_y(), filters::laplacian()}) {
    ASSERT_TRUE(check_call(run, in, s, general(conv_op::convolve, f, border::reflect)));
    ASSERT_TRUE(check_call(run, in, s, general(conv_op::correlate, f, border::zero)));
  }
  const auto g = filters::gaussian_1d(2.0);
  ASSERT_TRUE(check_call(run, in, s, separable(conv_op::convolve_separable, g, g, border::mirror)));
}

// NaN and inf propagate as arithmetic does; a zero weight skips its pixel.
template <class T>
void check_nan_inf(const conv_runner<T>& run, std::size_t salt) {
  auto rng = make_rng(salt);
  const conv_shape s{1, 20, 23, 1};
  auto in = random_pixels<T>(s.size(), rng);
  in[5 * 23 + 7] = std::numeric_limits<T>::quiet_NaN();
  in[14 * 23 + 15] = std::numeric_limits<T>::infinity();
  in[0] = -std::numeric_limits<T>::infinity();
  for (border mode : all_borders) {
    ASSERT_TRUE(check_call(run, in, s, general(conv_op::convolve, filters::laplacian(), mode)));
    ASSERT_TRUE(check_call(run, in, s, general(conv_op::correlate, filters::sobel_x(), mode)));
    ASSERT_TRUE(check_call(run, in, s, general(conv_op::convolve, filters::box(2), mode)));
  }
  const auto g = filters::gaussian_1d(1.0);
  ASSERT_TRUE(check_call(run, in, s, separable(conv_op::convolve_separable, g, g, border::zero)));
  // The NaN spreads to exactly the pixels whose window holds it (3x3 box:
  // rows 4..6, columns 6..8).
  const auto out = run(in, s, general(conv_op::convolve, filters::box(1), border::zero));
  for (std::size_t y = 0; y < s.rows; ++y) {
    for (std::size_t x = 0; x < s.cols; ++x) {
      const bool near_nan = y >= 4 && y <= 6 && x >= 6 && x <= 8;
      const bool near_inf = y >= 13 && y <= 15 && x >= 14 && x <= 16;
      const double v = static_cast<double>(out[y * s.cols + x]);
      if (near_nan) {
        ASSERT_TRUE(std::isnan(v)) << y << "," << x;
      } else if (near_inf) {
        ASSERT_TRUE(std::isinf(v) && v > 0) << y << "," << x;
      } else if (!(y <= 1 && x <= 1)) {
        ASSERT_TRUE(std::isfinite(v)) << y << "," << x;
      }
    }
  }
}

// 8-bit images of 1 to 4 interleaved channels, and a batch of them.
inline void check_bytes(const conv_runner<std::uint8_t>& run, std::size_t salt) {
  auto rng = make_rng(salt);
  for (std::size_t channels : {1u, 2u, 3u, 4u}) {
    for (const conv_shape& s : {conv_shape{1, 37, 29, channels}, conv_shape{3, 9, 130, channels},
                                conv_shape{1, 1, 1, channels}}) {
      const auto in = random_pixels<std::uint8_t>(s.size(), rng);
      for (border mode : all_borders) {
        ASSERT_TRUE(
            check_call(run, in, s, general(conv_op::convolve, filters::gaussian(1.0), mode)));
        ASSERT_TRUE(check_call(run, in, s, general(conv_op::correlate, filters::sobel_y(), mode)));
        const auto g = filters::gaussian_1d(1.5);
        ASSERT_TRUE(check_call(run, in, s, separable(conv_op::convolve_separable, g, g, mode)));
      }
    }
  }
}

// A batch of float / double images in one call.
template <class T>
void check_batch(const conv_runner<T>& run, std::size_t salt) {
  auto rng = make_rng(salt);
  const conv_shape s{5, 41, 67, 1};
  const auto in = random_pixels<T>(s.size(), rng);
  ASSERT_TRUE(
      check_call(run, in, s, general(conv_op::convolve, random_filter(5, 7, rng), border::wrap)));
  ASSERT_TRUE(check_call(run, in, s,
                         separable(conv_op::correlate_separable, random_weights(9, rng),
                                   random_weights(4, rng), border::reflect)));
}

}  // namespace gpuprim::test
