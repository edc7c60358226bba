// The N-D filters on the GPU (gpuprim/convolve_nd.hpp), the host driver:
// the taps uploaded to scratch memory, an overlapping input copied first,
// the grid and the launch. The kernels and the shape of their algorithm:
// cuda/device/convolve/nd_kernels.cuh.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "gpuprim/cuda/device/convolve/nd_kernels.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/detail/convolve/entry.hpp"

namespace gpuprim::cuda_impl {

inline constexpr unsigned nd_threads_per_block = 256;

// Blocks for `items` grid-stride items: enough to fill the device several
// times over, no more.
inline unsigned nd_blocks(long long items) {
  const long long cap = 32LL * current_multiprocessor_count();
  return static_cast<unsigned>(std::max<long long>(
      1, std::min<long long>(cap, (items + nd_threads_per_block - 1) / nd_threads_per_block)));
}

inline std::size_t nd_type_size(detail::nd_type t) {
  switch (t) {
#define GPUPRIM_ND_SIZE(name, type) \
  case detail::nd_type::name:       \
    return sizeof(type);
    GPUPRIM_CONVOLVE_ND_TYPES(GPUPRIM_ND_SIZE)
#undef GPUPRIM_ND_SIZE
  }
  return 1;
}

inline long long nd_total(const detail::nd_array& a) {
  long long n = 1;
  for (int i = 0; i < a.ndim; ++i)
    n *= a.shape[i];
  return n;
}

// The byte range [first, last) of a's elements.
inline std::pair<std::uintptr_t, std::uintptr_t> nd_byte_range(const detail::nd_array& a) {
  long long lo = 0, hi = 0;
  for (int i = 0; i < a.ndim; ++i) {
    const long long reach = (a.shape[i] - 1) * a.strides[i];
    (reach < 0 ? lo : hi) += reach;
  }
  const auto size = static_cast<long long>(nd_type_size(a.type));
  const auto base = reinterpret_cast<std::uintptr_t>(a.data);
  return {base + static_cast<std::uintptr_t>(lo * size),
          base + static_cast<std::uintptr_t>((hi + 1) * size)};
}

inline bool nd_arrays_overlap(const detail::nd_array& a, const detail::nd_array& b) {
  const auto ra = nd_byte_range(a);
  const auto rb = nd_byte_range(b);
  return ra.first < rb.second && rb.first < ra.second;
}

// Copies `bytes` of host memory to dst through upload launches on `stream`.
inline void nd_upload(const void* src, std::size_t bytes, void* dst, stream_t stream) {
  const auto* from = static_cast<const unsigned char*>(src);
  auto* to = static_cast<unsigned char*>(dst);
  for (std::size_t done = 0; done < bytes; done += nd_upload_bytes) {
    nd_upload_chunk chunk;
    const std::size_t n = std::min(nd_upload_bytes, bytes - done);
    std::memcpy(chunk.bytes, from + done, n);
    launch("nd_upload_kernel", "convolve_nd", nd_upload_kernel<>,
           launch_shape{dim3(static_cast<unsigned>((n + 255) / 256)), dim3(256), 0, stream}, chunk,
           static_cast<unsigned>(n), to + done);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class In>
void cuda_nd_filter(const nd_call& call, stream_t stream) {
  using namespace cuda_impl;
  nd_array in = call.in;
  const long long total = nd_total(in);
  if (total == 0) return;
  // 1. The taps: the weights, then (correlate) the offsets.
  const std::size_t weight_bytes = call.weights.size() * sizeof(double);
  const std::size_t offset_bytes = call.offsets.size() * sizeof(long long);
  const scratch_buffer taps(weight_bytes + offset_bytes, stream);
  nd_upload(call.weights.data(), weight_bytes, taps.get(), stream);
  nd_upload(call.offsets.data(), offset_bytes, taps.get<unsigned char>() + weight_bytes, stream);
  const auto* w = taps.get<const double>();
  const auto* off = reinterpret_cast<const long long*>(taps.get<unsigned char>() + weight_bytes);
  // 2. An input that overlaps the output, copied first (C order).
  const bool copy = nd_arrays_overlap(in, call.out);
  const scratch_buffer copied(copy ? static_cast<std::size_t>(total) * sizeof(In) : 0, stream);
  if (copy) {
    launch("nd_gather_kernel", "convolve_nd", nd_gather_kernel<In>,
           launch_shape{dim3(nd_blocks(total)), dim3(nd_threads_per_block), 0, stream}, in,
           copied.get<In>(), total);
    in.data = copied.get();
    long long stride = 1;
    for (int a = in.ndim - 1; a >= 0; --a) {
      in.strides[a] = stride;
      stride *= in.shape[a];
    }
  }
  // 3. The filter.
  const auto shape_of = [&](long long items) {
    return launch_shape{dim3(nd_blocks(items)), dim3(nd_threads_per_block), 0, stream};
  };
  switch (call.kind) {
    case nd_filter::correlate1d:
      launch("nd_correlate1d_kernel", "convolve_nd", nd_correlate1d_kernel<In>, shape_of(total), in,
             call.out, w, total, call.axis, call.size, call.origin, call.sym, call.mode, call.cval);
      return;
    case nd_filter::uniform1d: {
      const long long lines = total / in.shape[call.axis];
      const int group = call.axis + 1 == in.ndim ? 1 : nd_mean_group;
      const long long groups = (lines + group - 1) / group;
      const long long cap = 32LL * current_multiprocessor_count();
      launch("nd_uniform1d_kernel", "convolve_nd", nd_uniform1d_kernel<In>,
             launch_shape{dim3(static_cast<unsigned>(std::min(groups, cap))), dim3(nd_mean_threads),
                          0, stream},
             in, call.out, lines, group, call.axis, call.size, call.origin, call.mode, call.cval);
      return;
    }
    case nd_filter::correlate:
      launch("nd_correlate_kernel", "convolve_nd", nd_correlate_kernel<In>, shape_of(total), in,
             call.out, w, off, static_cast<long long>(call.weights.size()), total, call.mode,
             call.cval);
      return;
  }
}

}  // namespace gpuprim::detail
