// CPU backend of the convolution family (OpenMP).
//
// Shape of the algorithm:
//  1. Every source row a call reads is first copied into a padded row of the
//     compute type (float, or double for double images): `kcols - 1` extra
//     pixels made by the border mode, the channel picked out of interleaved
//     pixels. The inner loops then run over plain contiguous arrays with no
//     index arithmetic and no edge cases, so the compiler vectorises them.
//  2. General filters: OpenMP over output rows (of every image and
//     channel); each row accumulates, for each filter row and each non-zero
//     weight, weight * (padded source row shifted by the tap) in one sweep.
//  3. Separable filters: OpenMP over bands of 32 output rows; a band first
//     runs the row pass over the band plus its `krows - 1` halo rows into a
//     thread-local buffer (which stays in L2), then the column pass from it.
//     The image is read about once and written once, not twice each as two
//     whole-image passes would.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/convolve/plan.hpp"

namespace gpuprim::host_impl {

// float and 8-bit images are computed in float, double images in double.
template <class T>
using convolve_acc_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

inline constexpr std::size_t convolve_band_rows = 32;

template <class T, class A>
T convolve_store(A v) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    if (!(v > 0)) return 0;  // NaN too
    if (v >= 255) return 255;
    return static_cast<std::uint8_t>(std::nearbyint(v));
  } else {
    return static_cast<T>(v);
  }
}

// pad[t] = channel `channel` of pixel t - ax of `row` (cols pixels,
// `channels` elements apart) under `mode`, for t in [0, width).
template <class T, class A>
void convolve_pad_row(const T* row, long long cols, std::size_t channels, int ax, int width,
                      border mode, A* pad) {
  // Pixels inside the row are [ax, ax + cols) of pad.
  const long long first = std::min<long long>(std::max(ax, 0), width);
  const long long last = std::max(first, std::min<long long>(width, ax + cols));
  for (long long t = 0; t < first; ++t) {
    const long long i = detail::border_index(t - ax, cols, mode);
    pad[t] = i < 0 ? A(0) : static_cast<A>(row[i * channels]);
  }
  if (channels == 1) {
    for (long long t = first; t < last; ++t)
      pad[t] = static_cast<A>(row[t - ax]);
  } else {
    for (long long t = first; t < last; ++t)
      pad[t] = static_cast<A>(row[(t - ax) * channels]);
  }
  for (long long t = last; t < width; ++t) {
    const long long i = detail::border_index(t - ax, cols, mode);
    pad[t] = i < 0 ? A(0) : static_cast<A>(row[i * channels]);
  }
}

// acc[x] += sum_t w[t] * src[t][x] for x in [0, n), four sources per sweep.
template <class A>
void convolve_sweeps(const A* w, const A* const* src, int m, std::size_t n, A* acc) {
  int t = 0;
  for (; t + 4 <= m; t += 4) {
    const A w0 = w[t], w1 = w[t + 1], w2 = w[t + 2], w3 = w[t + 3];
    const A* s0 = src[t];
    const A* s1 = src[t + 1];
    const A* s2 = src[t + 2];
    const A* s3 = src[t + 3];
#pragma omp simd
    for (std::size_t x = 0; x < n; ++x)
      acc[x] += (w0 * s0[x] + w1 * s1[x]) + (w2 * s2[x] + w3 * s3[x]);
  }
  for (; t < m; ++t) {
    const A w0 = w[t];
    const A* s0 = src[t];
#pragma omp simd
    for (std::size_t x = 0; x < n; ++x)
      acc[x] += w0 * s0[x];
  }
}

// acc[x] += sum_j taps[j] * pad[x + j] for x in [0, n), zero taps skipped.
// The non-zero taps go four to a sweep (four shifted rows added at once),
// so acc is loaded and stored a quarter as often as with one sweep per tap.
template <class A>
void convolve_row_taps(const A* pad, const A* taps, int k, std::size_t n, A* acc) {
  A w[64];
  const A* src[64];
  int m = 0;
  for (int j = 0; j < k; ++j) {
    if (taps[j] != A(0)) {
      w[m] = taps[j];
      src[m++] = pad + j;
    }
  }
  convolve_sweeps(w, src, m, n, acc);
}

inline int convolve_threads(host_backend backend) {
  return backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
}

template <class T>
void convolve_general(host_backend backend, const detail::convolve_images<T>& im,
                      const detail::convolve_plan& plan) {
  using A = convolve_acc_t<T>;
  const std::vector<A> taps(plan.taps.begin(), plan.taps.end());
  const long long rows = static_cast<long long>(im.rows);
  const long long cols = static_cast<long long>(im.cols);
  const long long planes = static_cast<long long>(im.count * im.channels);
  const long long total = planes * rows;
  const int width = static_cast<int>(cols) + plan.kcols - 1;
#pragma omp parallel num_threads(convolve_threads(backend))
  {
    std::vector<A> acc(im.cols);
    std::vector<A> pad(static_cast<std::size_t>(width));
#pragma omp for schedule(static)
    for (long long item = 0; item < total; ++item) {
      const long long plane = item / rows;
      const long long y = item % rows;
      const std::size_t b = static_cast<std::size_t>(plane) / im.channels;
      const std::size_t c = static_cast<std::size_t>(plane) % im.channels;
      const T* image = im.in + b * im.in_stride + c;
      std::fill(acc.begin(), acc.end(), A(0));
      for (int i = 0; i < plan.krows; ++i) {
        const long long sy = detail::border_index(y + i - plan.ay, rows, plan.mode);
        if (sy < 0) continue;  // a zero row adds nothing
        convolve_pad_row(image + sy * im.in_ld, cols, im.channels, plan.ax, width, plan.mode,
                         pad.data());
        convolve_row_taps(pad.data(), taps.data() + i * plan.kcols, plan.kcols, im.cols,
                          acc.data());
      }
      T* out = im.out + b * im.out_stride + static_cast<std::size_t>(y) * im.out_ld + c;
      for (std::size_t x = 0; x < im.cols; ++x)
        out[x * im.channels] = convolve_store<T>(acc[x]);
    }
  }
}

template <class T>
void convolve_separable(host_backend backend, const detail::convolve_images<T>& im,
                        const detail::convolve_plan& plan) {
  using A = convolve_acc_t<T>;
  const std::vector<A> row_taps(plan.taps.begin(), plan.taps.begin() + plan.kcols);
  const std::vector<A> column_taps(plan.taps.begin() + plan.kcols, plan.taps.end());
  const long long rows = static_cast<long long>(im.rows);
  const long long cols = static_cast<long long>(im.cols);
  const long long bands =
      (rows + static_cast<long long>(convolve_band_rows) - 1) / convolve_band_rows;
  const long long planes = static_cast<long long>(im.count * im.channels);
  const long long total = planes * bands;
  const int width = static_cast<int>(cols) + plan.kcols - 1;
  const std::size_t halo_rows = convolve_band_rows + plan.krows - 1;
#pragma omp parallel num_threads(convolve_threads(backend))
  {
    std::vector<A> pad(static_cast<std::size_t>(width));
    std::vector<A> tmp(halo_rows * im.cols);
    std::vector<A> acc(im.cols);
#pragma omp for schedule(dynamic, 1)
    for (long long item = 0; item < total; ++item) {
      const long long plane = item / bands;
      const long long y0 = (item % bands) * static_cast<long long>(convolve_band_rows);
      const long long y1 = std::min<long long>(rows, y0 + convolve_band_rows);
      const std::size_t b = static_cast<std::size_t>(plane) / im.channels;
      const std::size_t c = static_cast<std::size_t>(plane) % im.channels;
      const T* image = im.in + b * im.in_stride + c;
      // Row pass: tmp row r holds source row y0 + r - ay, filtered along x.
      const long long needed = (y1 - y0) + plan.krows - 1;
      for (long long r = 0; r < needed; ++r) {
        A* t = tmp.data() + static_cast<std::size_t>(r) * im.cols;
        std::fill(t, t + im.cols, A(0));
        const long long sy = detail::border_index(y0 + r - plan.ay, rows, plan.mode);
        if (sy < 0) continue;
        convolve_pad_row(image + sy * im.in_ld, cols, im.channels, plan.ax, width, plan.mode,
                         pad.data());
        convolve_row_taps(pad.data(), row_taps.data(), plan.kcols, im.cols, t);
      }
      // Column pass.
      for (long long y = y0; y < y1; ++y) {
        A w[64];
        const A* src[64];
        int m = 0;
        for (int i = 0; i < plan.krows; ++i) {
          if (column_taps[i] == A(0)) continue;
          w[m] = column_taps[i];
          src[m++] = tmp.data() + static_cast<std::size_t>(y - y0 + i) * im.cols;
        }
        std::fill(acc.begin(), acc.end(), A(0));
        convolve_sweeps(w, src, m, im.cols, acc.data());
        T* out = im.out + b * im.out_stride + static_cast<std::size_t>(y) * im.out_ld + c;
        if (im.channels == 1) {
          for (std::size_t x = 0; x < im.cols; ++x)
            out[x] = convolve_store<T>(acc[x]);
        } else {
          for (std::size_t x = 0; x < im.cols; ++x)
            out[x * im.channels] = convolve_store<T>(acc[x]);
        }
      }
    }
  }
}

template <class T>
void convolve(host_backend backend, const detail::convolve_images<T>& im,
              const detail::convolve_plan& plan) {
  if (im.count == 0 || im.rows == 0 || im.cols == 0) return;
  if (plan.separable) {
    convolve_separable(backend, im, plan);
  } else {
    convolve_general(backend, im, plan);
  }
}

}  // namespace gpuprim::host_impl
