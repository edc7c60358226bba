// Segmented scans on the GPU: the single-pass scan (device_scan.cuh) over
// (value, head) pairs with the segmented operator, plus the small kernel
// that turns segment offsets into head flags.
#pragma once

#include <cuda_runtime_api.h>

#include <cstdint>

#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/detail/segmented/segmented.hpp"

namespace gpuprim::cuda_detail {

// flags[offsets[s]] = 1 for each offset inside the array. Several empty
// segments may share a position; they all write the same byte.
template <class Offset>
__global__ void mark_segment_heads(const Offset* offsets, std::uint64_t num_offsets,
                                   std::uint8_t* flags, std::uint64_t n) {
  for (std::uint64_t s = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; s < num_offsets;
       s += std::uint64_t(gridDim.x) * blockDim.x) {
    const auto o = static_cast<std::uint64_t>(offsets[s]);
    if (o < n) flags[o] = 1;
  }
}

}  // namespace gpuprim::cuda_detail

namespace gpuprim::detail {

template <class Offset>
void cuda_mark_segment_heads(const Offset* offsets, std::size_t num_offsets, std::uint8_t* flags,
                             std::size_t n, stream_t stream) {
  constexpr int threads = 256;
  const auto blocks = static_cast<unsigned>(
      std::min<std::uint64_t>(cuda_detail::ceil_div(num_offsets, threads), 4096));
  cuda_detail::launch("mark_segment_heads", "segmented_scan",
                      cuda_detail::mark_segment_heads<Offset>, {blocks, threads, 0, stream},
                      offsets, num_offsets, flags, n);
}

}  // namespace gpuprim::detail
