// Launch-shape arithmetic shared by the device algorithms.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/cuda/detail/check.cuh"

namespace gpuprim::cuda_detail {

constexpr std::uint64_t ceil_div(std::uint64_t a, std::uint64_t b) {
  return (a + b - 1) / b;
}
constexpr std::size_t align_up(std::size_t x, std::size_t a) {
  return (x + a - 1) / a * a;
}

// Multiprocessor count of the current device (cached per device).
int current_multiprocessor_count();

// Occupancy calculator's maximum resident blocks of `kernel` per
// multiprocessor at `threads` per block (cached per kernel and block size).
int occupancy_blocks_per_multiprocessor(const void* kernel, int threads);

// Blocks of `kernel` to launch as a persistent grid on the current device:
// `blocks_per_multiprocessor` per SM, or fewer if that many cannot be
// resident at once (a persistent grid must fit in one wave).
template <class Kernel>
unsigned persistent_grid_size(Kernel kernel, int threads, int blocks_per_multiprocessor) {
  const int resident =
      occupancy_blocks_per_multiprocessor(reinterpret_cast<const void*>(kernel), threads);
  const int per_sm =
      blocks_per_multiprocessor > 0 ? std::min(blocks_per_multiprocessor, resident) : resident;
  return static_cast<unsigned>(per_sm) * static_cast<unsigned>(current_multiprocessor_count());
}

}  // namespace gpuprim::cuda_detail
