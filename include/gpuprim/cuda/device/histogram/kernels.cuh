// Device-wide histogram, the kernels: privatized counts in shared memory,
// merged into the output with one global atomic per (block, non-empty
// bin). The host driver that picks a kernel and its grid and launches
// them is cuda/device/device_histogram.cuh.
//
// Two kernels, chosen on the host from the sample size and the bin count:
//  - histogram_shared_atomics: 32-bit sub-histograms in shared memory,
//    incremented with shared atomics, summed per block at the end. Its
//    entries (byte_binning):
//     - one-byte samples, every bin count and binning: the byte itself
//       (256 entries, one sub-histogram shared by a block of 768 threads),
//       and at the end the block folds its 256 per-byte counts into the
//       bins through the binner (256 binner calls a block instead of one a
//       sample). The bound is the shared-memory atomic unit (one atomic a
//       byte, whatever the bins), so no per-sample work is added to it.
//     - other samples, bins * 4 bytes fit in 48 KiB: the binner's bin, one
//       sub-histogram per warp when they fit in 32 KiB (fewer, shared by
//       several warps, otherwise).
//  - histogram_global_atomics (more bins, samples wider than a byte):
//    global atomics on the output.
// Both read the samples with 16-byte vector loads from the first 16-byte
// boundary on (the few samples before and after one by one), several loads
// in flight per thread, over a persistent grid (as many blocks as are
// resident at once). Counts start from a zeroing kernel on the same stream.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/core/macros.hpp"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/detail/histogram/histogram.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int histogram_threads = 256;
inline constexpr int histogram_unroll = 4;  // vector loads in flight per thread
// Shared sub-histograms of one block: as many copies (up to one per warp)
// as fit in this budget, so that several blocks stay resident per SM.
inline constexpr std::size_t histogram_copies_budget = 32 * 1024;
// One copy larger than this (12288 bins) takes the global-memory path.
inline constexpr std::size_t histogram_shared_limit = 48 * 1024;

template <class Counter>
__device__ __forceinline__ void add_to_counter(Counter* counter, unsigned value) {
  if constexpr (sizeof(Counter) == 4) {
    atomicAdd(reinterpret_cast<unsigned int*>(counter), value);
  } else {
    atomicAdd(reinterpret_cast<unsigned long long*>(counter),
              static_cast<unsigned long long>(value));
  }
}

// Adds every thread's `left` to *block_total (shared; all threads call it).
__device__ __forceinline__ void add_block_left_out(unsigned left, unsigned* block_total) {
  left = __reduce_add_sync(0xffffffffu, left);
  if (threadIdx.x % 32 == 0 && left != 0) atomicAdd(block_total, left);
}

__device__ __forceinline__ void publish_left_out(std::uint64_t* left_out, unsigned block_total) {
  if (threadIdx.x == 0 && left_out != nullptr && block_total != 0) {
    atomicAdd(reinterpret_cast<unsigned long long*>(left_out),
              static_cast<unsigned long long>(block_total));
  }
}

// Calls count(x) for every sample of in[0, n): from the first 16-byte
// boundary on as vectors, grid-strided with Unroll loads in flight per
// thread; the samples before that boundary and after the last whole vector
// one by one.
template <int Threads, int Unroll, class Sample, class Count>
__device__ __forceinline__ void for_each_sample(const Sample* __restrict__ in, std::uint64_t n,
                                                Count& count) {
  constexpr int Vec = vector_items<Sample>;
  const std::uint64_t thread = std::uint64_t(blockIdx.x) * Threads + threadIdx.x;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * Threads;
  const auto misalignment = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(in) % 16);
  std::uint64_t head = Vec > 1 && misalignment != 0 ? (16 - misalignment) / sizeof(Sample) : 0;
  head = head < n ? head : n;
  const std::uint64_t vectors = (n - head) / Vec;
  const Sample* body = in + head;
  std::uint64_t v = thread;
  for (; v + (Unroll - 1) * stride < vectors; v += Unroll * stride) {
    vector_of<Sample, Vec> r[Unroll];
#pragma unroll
    for (int u = 0; u < Unroll; ++u)
      r[u] = load_vector<Vec>(body + (v + u * stride) * Vec);
#pragma unroll
    for (int u = 0; u < Unroll; ++u) {
#pragma unroll
      for (int k = 0; k < Vec; ++k)
        count(r[u].items[k]);
    }
  }
  for (; v < vectors; v += stride) {
    const vector_of<Sample, Vec> r = load_vector<Vec>(body + v * Vec);
#pragma unroll
    for (int k = 0; k < Vec; ++k)
      count(r.items[k]);
  }
  const std::uint64_t tail = head + vectors * Vec;
  if (thread < head) count(in[thread]);
  if (thread < n - tail) count(in[tail + thread]);
}

template <class Counter>
__global__ void histogram_zero(Counter* __restrict__ counts, int bins,
                               std::uint64_t* __restrict__ left_out) {
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  for (std::uint64_t i = std::uint64_t(blockIdx.x) * blockDim.x + threadIdx.x;
       i < static_cast<std::uint64_t>(bins); i += stride)
    counts[i] = 0;
  if (left_out != nullptr && blockIdx.x == 0 && threadIdx.x == 0) *left_out = 0;
}

// What a sample of histogram_shared_atomics counts into.
enum class byte_binning {
  // The binner's bin (any sample type): `bins` entries a sub-histogram.
  binner,
  // One-byte samples, a tuning variant (see lab/probes/probe_histogram.cu and
  // tests/cuda/histogram_variants_test.cu): the block first maps all 256
  // byte values through the binner into a table in shared memory, and each
  // sample then costs one table read instead of the binner's arithmetic.
  table,
  // One-byte samples: the byte itself (256 entries a sub-histogram); the
  // block folds its per-byte counts into the bins at the end, so a sample
  // costs one shared atomic and nothing else.
  fold,
};

// The fold's per-bin sums of a block sit in shared memory (beside the
// sub-histograms) when they fit in histogram_shared_limit; otherwise each
// byte's count goes to its bin's global counter directly.
GPUPRIM_HD constexpr bool fold_in_shared(int bins) {
  return std::size_t(bins) * sizeof(unsigned) <= histogram_shared_limit;
}

// Blocks that must stay resident per SM for a binner and an entry rule:
// the NumPy rule's inline near-edge arithmetic would otherwise take a
// kernel of 256 threads past 64 registers (3 blocks instead of 4), and the
// binner a fold calls once a block must not take the kernel's registers
// past what keeps every thread slot of an SM filled (40 at 768 threads: two
// blocks).
template <class Binner>
constexpr int min_resident_blocks = 1;
template <class T>
constexpr int min_resident_blocks<detail::numpy_binner<T>> = 4;
template <int Threads, byte_binning Entries, class Binner>
constexpr int shared_atomics_min_blocks = Entries == byte_binning::fold
                                              ? 2048 / Threads
                                              : (Threads == 256 ? min_resident_blocks<Binner> : 1);

template <int Threads, int Unroll, class Sample, class Counter, class Binner,
          byte_binning Entries = byte_binning::binner>
__global__ void __launch_bounds__(Threads, shared_atomics_min_blocks<Threads, Entries, Binner>)
    histogram_shared_atomics(const Sample* __restrict__ in, std::uint64_t n, Binner binner,
                             int bins, int copies, Counter* __restrict__ counts,
                             std::uint64_t* __restrict__ left_out) {
  constexpr bool table = Entries == byte_binning::table;
  constexpr bool fold = Entries == byte_binning::fold;
  static_assert(Entries == byte_binning::binner || sizeof(Sample) == 1,
                "a byte table or a fold needs one-byte samples");
  // 1. Zero the sub-histograms (copies x entries) and, for a fold, the
  //    block's per-bin sums after them; fill the byte -> bin table.
  extern __shared__ unsigned sub_histograms[];
  __shared__ unsigned block_left_out;
  __shared__ short bin_of_byte[table ? 256 : 1];  // -1: left out
  const int entries = fold ? 256 : bins;
  const bool folded_in_shared = fold && fold_in_shared(bins);
  unsigned* const folded = sub_histograms + copies * entries;  // bins, when folded_in_shared
  const int words = copies * entries + (folded_in_shared ? bins : 0);
  for (int i = threadIdx.x; i < words; i += Threads)
    sub_histograms[i] = 0;
  if constexpr (table) {
    for (int v = threadIdx.x; v < 256; v += Threads) {
      const int b = binner(static_cast<Sample>(static_cast<std::uint8_t>(v)));
      bin_of_byte[v] = static_cast<short>(b >= 0 ? b : -1);
    }
  }
  if (threadIdx.x == 0) block_left_out = 0;
  __syncthreads();

  // 2. Count: warp w into copy w % copies, one shared atomic a sample.
  unsigned* mine = sub_histograms + (threadIdx.x / 32 % copies) * entries;
  unsigned left = 0;
  auto count = [&](Sample x) {
    if constexpr (fold) {
      atomicAdd(mine + static_cast<std::uint8_t>(x), 1u);
    } else {
      int b;
      if constexpr (table) {
        b = bin_of_byte[static_cast<std::uint8_t>(x)];
      } else {
        b = binner(x);
      }
      if (b >= 0) {
        atomicAdd(mine + b, 1u);
      } else {
        ++left;
      }
    }
  };
  for_each_sample<Threads, Unroll>(in, n, count);
  if constexpr (!fold) add_block_left_out(left, &block_left_out);
  __syncthreads();

  // 3. Merge: each entry's sum over the copies. A fold maps byte v to its
  //    bin (or to the left out) and adds the byte's count there: into the
  //    block's per-bin sums, then one global atomic per non-empty bin; or,
  //    for more bins than fit in shared memory, straight to the bin's
  //    global counter.
  for (int e = threadIdx.x; e < entries; e += Threads) {
    unsigned sum = 0;
    for (int c = 0; c < copies; ++c)
      sum += sub_histograms[c * entries + e];
    if (sum == 0) continue;
    if constexpr (fold) {
      const int b = binner(static_cast<Sample>(static_cast<std::uint8_t>(e)));
      if (b < 0) {
        atomicAdd(&block_left_out, sum);
      } else if (folded_in_shared) {
        atomicAdd(folded + b, sum);
      } else {
        add_to_counter(counts + b, sum);
      }
    } else {
      add_to_counter(counts + e, sum);
    }
  }
  if constexpr (fold) {
    __syncthreads();
    if (folded_in_shared) {
      for (int b = threadIdx.x; b < bins; b += Threads)
        if (folded[b] != 0) add_to_counter(counts + b, folded[b]);
    }
  }
  publish_left_out(left_out, block_left_out);
}

template <int Threads, int Unroll, class Sample, class Counter, class Binner>
__global__ void __launch_bounds__(Threads)
    histogram_global_atomics(const Sample* __restrict__ in, std::uint64_t n, Binner binner,
                             Counter* __restrict__ counts, std::uint64_t* __restrict__ left_out) {
  __shared__ unsigned block_left_out;
  if (threadIdx.x == 0) block_left_out = 0;
  __syncthreads();
  unsigned left = 0;
  auto count = [&](Sample x) {
    const int b = binner(x);
    if (b >= 0) {
      add_to_counter(counts + b, 1u);
    } else {
      ++left;
    }
  };
  for_each_sample<Threads, Unroll>(in, n, count);
  add_block_left_out(left, &block_left_out);
  __syncthreads();
  publish_left_out(left_out, block_left_out);
}

// The bin of a one-byte sample whose bins are the byte values themselves:
// the byte (no range check, no left out).
struct byte_value_bin {
  template <class Sample>
  __device__ int operator()(Sample x) const {
    return static_cast<unsigned char>(x);
  }
};

}  // namespace gpuprim::cuda_impl
