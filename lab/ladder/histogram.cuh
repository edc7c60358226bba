// The histogram ladder: 64 bins of one-byte samples (bin = byte / 4), oldest
// kernel first. Every rung adds into `counts`, which the launcher zeroes
// first (lab/ladder/histogram_ladder.cu). The last rung, the library's own
// histogram_even, is in cuda/device/device_histogram.cuh.
#pragma once

#include <cstdint>

namespace gpuprim::ladder {

inline constexpr unsigned histogram_ladder_threads = 256;
// Rung 4: 128 threads x 64 one-byte counters = 8 KiB per block, and each
// thread folds its counters after 63 words (252 samples, < 256).
inline constexpr unsigned histogram_byte_counter_threads = 128;
inline constexpr unsigned histogram_words_per_fold = 63;

__device__ __forceinline__ unsigned ladder_bin(unsigned byte) {
  return byte >> 2;
}

// 1. Baseline: one global atomic per sample; every sample of a bin queues on one L2 address.
__global__ void __launch_bounds__(histogram_ladder_threads)
    histogram_global_atomics(const std::uint8_t* __restrict__ in, std::uint64_t n,
                             unsigned* __restrict__ counts) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&counts[ladder_bin(in[i])], 1u);
}

// 2. One histogram per block in shared memory: atomics stay on the SM, 64 global ones per block.
__global__ void __launch_bounds__(histogram_ladder_threads)
    histogram_block_shared_atomics(const std::uint8_t* __restrict__ in, std::uint64_t n,
                                   unsigned* __restrict__ counts) {
  __shared__ unsigned block_counts[64];
  if (threadIdx.x < 64) block_counts[threadIdx.x] = 0;
  __syncthreads();
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; i < n; i += stride)
    atomicAdd(&block_counts[ladder_bin(in[i])], 1u);
  __syncthreads();
  if (threadIdx.x < 64 && block_counts[threadIdx.x] != 0)
    atomicAdd(&counts[threadIdx.x], block_counts[threadIdx.x]);
}

// 3. One histogram per warp: 8x fewer threads contend for a counter; 4 samples per 32-bit load.
__global__ void __launch_bounds__(histogram_ladder_threads)
    histogram_warp_shared_atomics(const std::uint8_t* __restrict__ in, std::uint64_t n,
                                  unsigned* __restrict__ counts) {
  constexpr unsigned warps = histogram_ladder_threads / 32;
  __shared__ unsigned warp_counts[warps][64];
  for (unsigned i = threadIdx.x; i < warps * 64; i += blockDim.x)
    (&warp_counts[0][0])[i] = 0;
  __syncthreads();
  unsigned* mine = warp_counts[threadIdx.x / 32];
  // Whole 32-bit words (the caller passes a 4-byte aligned `in`), then the last n % 4 bytes.
  const auto* words = reinterpret_cast<const unsigned*>(in);
  const std::uint64_t num_words = n / 4;
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t w = thread; w < num_words; w += stride) {
    const unsigned word = words[w];
#pragma unroll
    for (int k = 0; k < 4; ++k)
      atomicAdd(&mine[ladder_bin((word >> (8 * k)) & 0xFFu)], 1u);
  }
  if (thread < n % 4) atomicAdd(&mine[ladder_bin(in[num_words * 4 + thread])], 1u);
  __syncthreads();
  for (unsigned b = threadIdx.x; b < 64; b += blockDim.x) {
    unsigned sum = 0;
    for (unsigned w = 0; w < warps; ++w)
      sum += warp_counts[w][b];
    if (sum != 0) atomicAdd(&counts[b], sum);
  }
}

// 4. Per-thread byte counters, no atomics; thread index bits permuted so a warp spans all 32 banks.
// Counter (bin, p) is byte bin * 128 + p: its bank is (p / 4) % 32, so with
// p = (lane << 2) | warp the 32 lanes of a warp sit in 32 different banks
// whatever their bins (the lecture's permutation, for 32 banks of 4 bytes).
__global__ void __launch_bounds__(histogram_byte_counter_threads)
    histogram_thread_byte_counters(const std::uint8_t* __restrict__ in, std::uint64_t n,
                                   unsigned* __restrict__ counts) {
  constexpr unsigned threads = histogram_byte_counter_threads;
  __shared__ unsigned packed[64 * threads / 4];  // 64 rows of 128 one-byte counters
  auto* bytes = reinterpret_cast<std::uint8_t*>(packed);
  for (unsigned i = threadIdx.x; i < 64 * threads / 4; i += threads)
    packed[i] = 0;
  __syncthreads();
  const unsigned p = ((threadIdx.x & 31) << 2) | (threadIdx.x >> 5);
  std::uint8_t* mine = bytes + p;
  unsigned total = 0;  // thread b < 64: bin b's count in this block

  const auto* words = reinterpret_cast<const unsigned*>(in);
  const std::uint64_t num_words = n / 4;
  constexpr std::uint64_t round = std::uint64_t(threads) * histogram_words_per_fold;
  // Block-uniform loop: every thread reaches each fold's barriers.
  for (std::uint64_t base = std::uint64_t(blockIdx.x) * round; base < num_words;
       base += std::uint64_t(gridDim.x) * round) {
    for (unsigned k = 0; k < histogram_words_per_fold; ++k) {
      const std::uint64_t w = base + k * threads + threadIdx.x;
      if (w < num_words) {
        const unsigned word = words[w];
#pragma unroll
        for (int j = 0; j < 4; ++j)
          ++mine[ladder_bin((word >> (8 * j)) & 0xFFu) * threads];
      }
    }
    __syncthreads();
    // Fold: thread b adds up row b (32 words, read in a rotated order:
    // bank (b + k) % 32) and clears it.
    if (threadIdx.x < 64) {
      unsigned even = 0, odd = 0;
      for (unsigned k = 0; k < 32; ++k) {
        const unsigned index = threadIdx.x * 32 + ((threadIdx.x + k) & 31);
        const unsigned word = packed[index];
        packed[index] = 0;
        even += word & 0x00FF00FFu;
        odd += (word >> 8) & 0x00FF00FFu;
      }
      total += (even & 0xFFFFu) + (even >> 16) + (odd & 0xFFFFu) + (odd >> 16);
    }
    __syncthreads();
  }
  if (threadIdx.x < 64 && total != 0) atomicAdd(&counts[threadIdx.x], total);
  // The last n % 4 samples.
  if (blockIdx.x == 0 && threadIdx.x < n % 4)
    atomicAdd(&counts[ladder_bin(in[num_words * 4 + threadIdx.x])], 1u);
}

}  // namespace gpuprim::ladder
