// Launch-shape arithmetic shared by the device algorithms.
#pragma once

#include <cuda_runtime_api.h>

#include <atomic>
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

// Blocks of `kernel` that can be resident at once on the current device:
// the grid of a persistent kernel. `blocks_per_multiprocessor` of 0 takes
// the occupancy maximum (computed once per kernel).
template <class Kernel>
unsigned persistent_grid_size(Kernel kernel, int threads, int blocks_per_multiprocessor) {
  static std::atomic<int> occupancy{0};
  int per_sm = blocks_per_multiprocessor;
  if (per_sm <= 0) {
    per_sm = occupancy.load(std::memory_order_relaxed);
    if (per_sm == 0) {
      GPUPRIM_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
                             &per_sm, reinterpret_cast<const void*>(kernel), threads, 0),
                         "occupancy");
      per_sm = per_sm > 0 ? per_sm : 1;
      occupancy.store(per_sm, std::memory_order_relaxed);
    }
  }
  return static_cast<unsigned>(per_sm) * static_cast<unsigned>(current_multiprocessor_count());
}

}  // namespace gpuprim::cuda_detail
