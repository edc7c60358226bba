// Device-wide 2-D convolution, the host driver: the compiled capacity for
// the filter, the variant that skips zero taps, the geometry and grid of
// the image planes, the tuner's choice, the launches. The kernels and the
// shape of their algorithm: cuda/device/convolve/kernels.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/cuda/device/convolve/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/detail/convolve/convolve.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Lets `kernel` use `bytes` of dynamic shared memory (the opt-in past 48
// KiB is only ever raised, once per kernel, device and new largest size).
inline void convolve_allow_shared(const void* kernel, std::size_t bytes) {
  if (bytes <= 48 * 1024) return;
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, std::size_t> allowed;
  const int device = current_device();
  std::lock_guard lock(mutex);
  std::size_t& current = allowed[{kernel, device}];
  if (bytes <= current) return;
  GPUPRIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                          static_cast<int>(bytes)),
                     "convolve");
  current = bytes;
}

// The smallest compiled capacity that holds a filter side of k.
inline int convolve_capacity(int k) {
  for (int cap : {3, 5, 9, 17, 33, 63}) {
    if (k <= cap) return cap;
  }
  throw std::invalid_argument("gpuprim::convolve: filter side " + std::to_string(k) +
                              " is over 63");
}

// Whether any of the taps a kernel multiplies (K per filter row, padding
// included) is zero: then the kernel must skip zero taps.
template <int K, class A>
bool convolve_has_zero_tap(const convolve_taps<A>& taps, const detail::convolve_plan& plan) {
  if (plan.separable) {
    for (int f = 0; f < K; ++f) {
      if (taps.w[f] == A(0) || taps.w[convolve_column_taps_at + f] == A(0)) return true;
    }
    return false;
  }
  for (int i = 0; i < plan.krows * K; ++i) {
    if (taps.w[i] == A(0)) return true;
  }
  return false;
}

// unrolled_rows: square float filters up to 17 x 17 may take the kernel
// with the input-row loop unrolled (below); false keeps the loop.
template <class T, int K>
void convolve_launch(const detail::convolve_images<T>& im, const detail::convolve_plan& plan,
                     stream_t stream, bool unrolled_rows = true) {
  using A = convolve_acc_t<T>;
  convolve_taps<A> taps{};
  convolve_geometry g{};
  g.rows = static_cast<long long>(im.rows);
  g.cols = static_cast<long long>(im.cols);
  g.channels = static_cast<long long>(im.channels);
  g.in_ld = static_cast<long long>(im.in_ld);
  g.in_stride = static_cast<long long>(im.in_stride);
  g.out_ld = static_cast<long long>(im.out_ld);
  g.out_stride = static_cast<long long>(im.out_stride);
  g.krows = plan.krows;
  g.ay = plan.ay;
  g.ax = plan.ax;
  g.ax4 = (plan.ax + 3) / 4 * 4;
  g.sw = static_cast<int>(align_up(g.ax4 - g.ax + convolve_tile_w + K - 1, 4));
  g.mode = static_cast<int>(plan.mode);
  if (plan.separable) {
    g.sh = convolve_separable_tile_h<A, K> + K - 1;  // the column windows reach K - 1 rows down
    for (int j = 0; j < plan.kcols; ++j)
      taps.w[j] = static_cast<A>(plan.taps[j]);
    for (int i = 0; i < plan.krows; ++i)
      taps.w[convolve_column_taps_at + i] = static_cast<A>(plan.taps[plan.kcols + i]);
  } else {
    g.sh = convolve_tile_h + plan.krows - 1;
    for (int i = 0; i < plan.krows; ++i) {
      for (int j = 0; j < plan.kcols; ++j)
        taps.w[i * K + j] = static_cast<A>(plan.taps[i * plan.kcols + j]);
    }
  }
  constexpr std::size_t vec = 16;
  const bool one_channel = im.channels == 1 && sizeof(T) >= 4;
  g.vector_in = one_channel && is_aligned(im.in, vec) && (im.in_ld * sizeof(T)) % vec == 0 &&
                (im.count == 1 || (im.in_stride * sizeof(T)) % vec == 0);
  g.vector_out = one_channel && is_aligned(im.out, vec) && (im.out_ld * sizeof(T)) % vec == 0 &&
                 (im.count == 1 || (im.out_stride * sizeof(T)) % vec == 0);

  const bool skip_zeros = convolve_has_zero_tap<K>(taps, plan);
  auto kernel = plan.separable ? (skip_zeros ? convolve_separable_kernel<T, K, true>
                                             : convolve_separable_kernel<T, K, false>)
                               : (skip_zeros ? convolve_general_kernel<T, K, true, false>
                                             : convolve_general_kernel<T, K, false, false>);
  // Square float filters up to 17 x 17: the variant with the input-row loop
  // unrolled (taps as immediate constant-bank operands). Only float, to
  // keep the double and 8-bit objects' size and build time as they were.
  if constexpr (std::is_same_v<T, float> && K <= 17) {
    if (unrolled_rows && !plan.separable && plan.krows == K) {
      kernel = skip_zeros ? convolve_general_kernel<T, K, true, true>
                          : convolve_general_kernel<T, K, false, true>;
    }
  }
  const char* name = plan.separable ? "convolve_separable_kernel" : "convolve_general_kernel";
  const std::size_t shared = static_cast<std::size_t>(g.sh) * g.sw * sizeof(A);
  convolve_allow_shared(reinterpret_cast<const void*>(kernel), shared);

  launch_shape shape;
  shape.block = dim3(convolve_threads_x, convolve_threads_y);
  shape.shared_bytes = static_cast<unsigned>(shared);
  shape.stream = stream;
  const auto tiles_x = static_cast<unsigned>(ceil_div(im.cols, convolve_tile_w));
  const int tile_h = plan.separable ? convolve_separable_tile_h<A, K> : convolve_tile_h;
  const auto tiles_y = ceil_div(im.rows, tile_h);
  const std::uint64_t planes = im.count * im.channels;
  constexpr std::uint64_t max_y = 65535, max_z = 65535;
  if (tiles_y > max_y) {
    throw std::invalid_argument("gpuprim::convolve: images of more than " +
                                std::to_string(max_y * tile_h) +
                                " rows are not supported on the GPU");
  }
  report_launch_to_tuner(kernel, convolve_threads_x * convolve_threads_y, shared,
                         static_cast<unsigned>(std::min<std::uint64_t>(
                             std::uint64_t(tiles_x) * tiles_y * planes, 0xffffffffu)));
  for (std::uint64_t first = 0; first < planes; first += max_z) {
    g.plane_offset = static_cast<long long>(first);
    shape.grid = dim3(tiles_x, static_cast<unsigned>(tiles_y),
                      static_cast<unsigned>(std::min(max_z, planes - first)));
    launch(name, "convolve", kernel, shape, im.in, im.out, g, taps);
  }
}

template <class T>
void cuda_convolve_dispatch(const detail::convolve_images<T>& im, const detail::convolve_plan& plan,
                            stream_t stream) {
  const int side = plan.separable ? std::max(plan.krows, plan.kcols) : plan.kcols;
  // The tuner's "convolve" space (src/tune/config.cpp): the unrolled-rows
  // kernel or the loop, and the smallest compiled capacity that holds the
  // filter or the next one (zero taps pad it; the kernels skip them).
  const tuning::config c = tuning::choose(tuning::algorithm::convolve, tuning::element_type_of<T>(),
                                          std::uint64_t(im.rows) * im.cols * im.channels * im.count)
                               .choice;
  const bool unrolled = c[0] != 0;
  int capacity = convolve_capacity(side);
  if (c[1] > 0 && capacity < 63) capacity = convolve_capacity(capacity + 1);
  switch (capacity) {
    case 3:
      return convolve_launch<T, 3>(im, plan, stream, unrolled);
    case 5:
      return convolve_launch<T, 5>(im, plan, stream, unrolled);
    case 9:
      return convolve_launch<T, 9>(im, plan, stream, unrolled);
    case 17:
      return convolve_launch<T, 17>(im, plan, stream, unrolled);
    case 33:
      return convolve_launch<T, 33>(im, plan, stream, unrolled);
    default:
      return convolve_launch<T, 63>(im, plan, stream, unrolled);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class T>
void cuda_convolve(const convolve_images<T>& images, const convolve_plan& plan, stream_t stream) {
  cuda_impl::cuda_convolve_dispatch(images, plan, stream);
}

}  // namespace gpuprim::detail
