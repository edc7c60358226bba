// What the convolution family's backends share: the index arithmetic that
// extends an image past its edges (under gp::border, convolve_types.hpp),
// and the checked description of one call (the images, the taps) that the public header
// hands to a backend.
#pragma once

#include <cstddef>
#include <vector>

#include "gpuprim/convolve_types.hpp"
#include "gpuprim/core/macros.hpp"

namespace gpuprim {

namespace detail {

// The index in [0, n) that index i (any integer) reads under `mode`, or -1
// for a zero pixel. n >= 1.
GPUPRIM_HD inline long long border_index(long long i, long long n, border mode) {
  if (i >= 0 && i < n) return i;
  switch (mode) {
    case border::zero:
      return -1;
    case border::replicate:
      return i < 0 ? 0 : n - 1;
    case border::reflect: {
      const long long period = 2 * n;
      long long m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - 1 - m;
    }
    case border::mirror: {
      if (n == 1) return 0;
      const long long period = 2 * n - 2;
      long long m = i % period;
      if (m < 0) m += period;
      return m < n ? m : period - m;
    }
    case border::wrap: {
      long long m = i % n;
      return m < 0 ? m + n : m;
    }
  }
  return -1;
}

// One checked call: out(y, x) = sum_{i, j} taps(i, j) * in(y + i - ay, x + j - ax)
// (a correlation; convolve's taps arrive flipped). General: krows x kcols
// taps, row-major. Separable: kcols row taps, then krows column taps.
// Skipped weights are exactly 0.
struct convolve_plan {
  bool separable = false;
  int krows = 0;
  int kcols = 0;
  int ay = 0;
  int ax = 0;
  border mode = border::reflect;
  std::vector<double> taps;
};

// The images of one call, element strides: channel c of pixel (r, x) of
// image b is at b * stride + r * ld + x * channels + c.
template <class T>
struct convolve_images {
  const T* in = nullptr;
  T* out = nullptr;
  std::size_t count = 0, rows = 0, cols = 0, channels = 1;
  std::size_t in_ld = 0, in_stride = 0, out_ld = 0, out_stride = 0;
};

}  // namespace detail
}  // namespace gpuprim
