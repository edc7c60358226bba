// The selection ladder's kernels (lab/ladder/select_ladder.hpp): stream
// compaction as it was taught, before the single pass of
// gpuprim/cuda/device/device_select.cuh.
#pragma once

#include <cstdint>

namespace gpuprim::ladder {

// Rung 1: every selected element takes the next output slot from one global
// counter. One read and one write per element, but the slots go in the
// order the atomics happen to land: the output order changes from run to
// run, and every selected element queues at one address.
__global__ void select_atomic_counter(const float* in, float* out, std::uint64_t n, float threshold,
                                      unsigned long long* counter) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    const float x = in[i];
    if (x > threshold) out[atomicAdd(counter, 1ull)] = x;
  }
}

// Rung 2, pass 1: one 0/1 flag per element (a 4-byte word, what the scan
// sums).
__global__ void select_flags(const float* in, std::uint32_t* flags, std::uint64_t n,
                             float threshold) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x)
    flags[i] = in[i] > threshold ? 1u : 0u;
}

// Rung 2, pass 3 (after an exclusive scan of the flags into `positions`):
// each selected element to its position; the last thread writes the count.
// Order kept, but the flags and positions cross memory twice more.
__global__ void select_scatter(const float* in, const std::uint32_t* flags,
                               const std::uint32_t* positions, float* out, std::uint64_t n,
                               unsigned long long* count) {
  for (std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; i < n;
       i += std::uint64_t(gridDim.x) * blockDim.x) {
    if (flags[i]) out[positions[i]] = in[i];
    if (i == n - 1) *count = std::uint64_t(positions[i]) + flags[i];
  }
}

}  // namespace gpuprim::ladder
