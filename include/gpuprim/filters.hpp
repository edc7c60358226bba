// Filters for gp::convolve / gp::correlate (gpuprim/convolve.hpp): a 2-D
// array of weights, row-major, in double precision (the convolution converts
// them to the image's compute type), and the common ones.
//
//   gp::filter f = gp::filters::gaussian(2.0);        // 17 x 17, sums to 1
//   gp::filter g(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});  // any user array
//   std::vector<double> row = gp::filters::gaussian_1d(2.0);  // for convolve_separable
//
// The centre of a filter of size k (along either axis) is index k / 2, as
// in scipy.ndimage. gaussian / box are outer products of their 1-D forms;
// run them as separable filters with the 1-D forms (the library does not
// detect separability by itself).
#pragma once

#include <cmath>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/convolve_types.hpp"

namespace gpuprim {

namespace filters {

// 2 * radius + 1 weights of 1 / (2 * radius + 1).
inline std::vector<double> box_1d(int radius) {
  if (radius < 0) {
    throw std::invalid_argument("gpuprim::filters::box: radius " + std::to_string(radius) +
                                " is negative");
  }
  const std::size_t k = 2 * static_cast<std::size_t>(radius) + 1;
  return std::vector<double>(k, 1.0 / static_cast<double>(k));
}

// scipy.ndimage.gaussian_filter's default radius: int(4 sigma + 0.5).
inline int gaussian_radius(double sigma) {
  return static_cast<int>(4.0 * sigma + 0.5);
}

// Weights exp(-x^2 / (2 sigma^2)) for x in [-radius, radius], normalised to
// sum 1 (scipy.ndimage's _gaussian_kernel1d). radius < 0: the default.
inline std::vector<double> gaussian_1d(double sigma, int radius = -1) {
  if (!(sigma > 0) || !std::isfinite(sigma)) {
    throw std::invalid_argument("gpuprim::filters::gaussian: sigma " + std::to_string(sigma) +
                                " must be a positive number");
  }
  if (radius < 0) radius = gaussian_radius(sigma);
  std::vector<double> w(2 * static_cast<std::size_t>(radius) + 1);
  double sum = 0.0;
  for (int x = -radius; x <= radius; ++x) {
    const double v = std::exp(-0.5 * static_cast<double>(x) * x / (sigma * sigma));
    w[static_cast<std::size_t>(x + radius)] = v;
    sum += v;
  }
  for (double& v : w)
    v /= sum;
  return w;
}

// (2 radius + 1)^2 weights of 1 / (2 radius + 1)^2.
inline filter box(int radius) {
  const auto w = box_1d(radius);
  return filter::outer(w, w);
}

inline filter gaussian(double sigma, int radius = -1) {
  const auto w = gaussian_1d(sigma, radius);
  return filter::outer(w, w);
}

// The derivative along x (columns) as scipy.ndimage.sobel(axis=1) applies it
// (a correlation): [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]. Convolving with it
// gives the negated derivative, as scipy.ndimage.convolve would.
inline filter sobel_x() {
  return filter(3, 3, {-1, 0, 1, -2, 0, 2, -1, 0, 1});
}
// The derivative along y (rows): [[-1, -2, -1], [0, 0, 0], [1, 2, 1]].
inline filter sobel_y() {
  return filter(3, 3, {-1, -2, -1, 0, 0, 0, 1, 2, 1});
}
// The 5-point Laplacian [[0, 1, 0], [1, -4, 1], [0, 1, 0]].
inline filter laplacian() {
  return filter(3, 3, {0, 1, 0, 1, -4, 1, 0, 1, 0});
}

}  // namespace filters
}  // namespace gpuprim
