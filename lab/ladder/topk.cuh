// The top-k ladder's own kernels (lab/ladder/topk_ladder.hpp): per-block
// bitonic top-k, between the full sort and the radix select of
// gpuprim/cuda/device/topk_select.cuh.
#pragma once

#include <cstdint>

#include "gpuprim/cuda/device/topk_select.cuh"

namespace gpuprim::ladder {

inline constexpr int topk_bitonic_threads = 512;
inline constexpr int topk_bitonic_batch = 2048;
inline constexpr int topk_bitonic_max_k = 1024;

// A float's key: its order pattern (NaN largest, -0.0 == +0.0) above the
// complement of its index (n < 2^32 - 1, so a key is never 0, the empty
// slot), so larger keys are the better elements and no two are equal.
__device__ inline std::uint64_t topk_bitonic_key(float x, std::uint64_t i) {
  return (cuda_impl::topk_pattern(x, true) << 32) | (0xFFFFFFFFull - i);
}

// Orders list[0, size) descending when `merge_only` is false (a full
// bitonic sort); when it is true the list is bitonic already and one merge
// (the half-cleaners of size, size / 2, ..., 2) sorts it.
__device__ inline void topk_bitonic_block(std::uint64_t* list, int size, bool merge_only) {
  for (int width = merge_only ? size : 2; width <= size; width *= 2) {
    for (int stride = width / 2; stride > 0; stride /= 2) {
      for (int p = threadIdx.x; p < size / 2; p += blockDim.x) {
        const int lo = 2 * p - (p & (stride - 1));
        const int hi = lo + stride;
        const bool descending = merge_only || (lo & width) == 0;
        const std::uint64_t a = list[lo], b = list[hi];
        if ((a < b) == descending) {
          list[lo] = b;
          list[hi] = a;
        }
      }
      __syncthreads();
    }
  }
}

// Rung 2: each block walks its chunk of the array in batches of 2048, sorts
// each batch in shared memory (bitonic) and folds the batch's best kp into
// its own best kp: best[i] = max(best[i], batch[kp - 1 - i]) is bitonic and
// holds the kp largest of both, one bitonic merge sorts it. kp is k rounded
// up to a power of two (<= 1024); the block's best kp go to out.
__global__ void __launch_bounds__(topk_bitonic_threads)
    topk_block_bitonic(const float* __restrict__ x, std::uint64_t n, std::uint64_t chunk, int kp,
                       std::uint64_t* __restrict__ out) {
  __shared__ std::uint64_t best[topk_bitonic_max_k];
  __shared__ std::uint64_t batch[topk_bitonic_batch];
  const std::uint64_t begin = std::uint64_t{blockIdx.x} * chunk;
  const std::uint64_t end = begin + chunk < n ? begin + chunk : n;
  for (int i = threadIdx.x; i < kp; i += blockDim.x)
    best[i] = 0;
  for (std::uint64_t base = begin; base < end; base += topk_bitonic_batch) {
    for (int j = threadIdx.x; j < topk_bitonic_batch; j += blockDim.x) {
      const std::uint64_t i = base + j;
      batch[j] = i < end ? topk_bitonic_key(x[i], i) : 0;
    }
    __syncthreads();
    topk_bitonic_block(batch, topk_bitonic_batch, false);
    for (int i = threadIdx.x; i < kp; i += blockDim.x) {
      const std::uint64_t b = batch[kp - 1 - i];
      if (b > best[i]) best[i] = b;
    }
    __syncthreads();
    topk_bitonic_block(best, kp, true);
    __syncthreads();  // (kp = 1 merges nothing, and batch is rewritten next)
  }
  for (int i = threadIdx.x; i < kp; i += blockDim.x)
    out[std::uint64_t{blockIdx.x} * kp + i] = best[i];
}

// The first k keys (sorted descending) back to values and indices.
__global__ void topk_bitonic_write(const float* __restrict__ x,
                                   const std::uint64_t* __restrict__ keys, std::uint64_t k,
                                   float* __restrict__ values, std::int64_t* __restrict__ indices) {
  for (std::uint64_t j = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x; j < k;
       j += std::uint64_t{gridDim.x} * blockDim.x) {
    const std::uint64_t i = 0xFFFFFFFFull - (keys[j] & 0xFFFFFFFFull);
    values[j] = x[i];
    indices[j] = static_cast<std::int64_t>(i);
  }
}

}  // namespace gpuprim::ladder
