// Device-wide histogram: privatized counts in shared memory, merged into the
// output with one global atomic per (block, non-empty bin).
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

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <tuple>
#include <type_traits>

#include "gpuprim/core/device_info.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/detail/histogram/histogram.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int histogram_threads = 256;
inline constexpr int histogram_unroll = 4;  // vector loads in flight per thread
// Shared sub-histograms of one block: as many copies (up to one per warp)
// as fit in this budget, so that several blocks stay resident per SM.
inline constexpr std::size_t histogram_copies_budget = 32 * 1024;
// One copy larger than this (12288 bins) takes the global-memory path.
inline constexpr std::size_t histogram_shared_limit = 48 * 1024;
// Samples per launch: every 32-bit count a block or a thread keeps stays
// exact (arrays longer than this take several launches).
inline constexpr std::uint64_t histogram_launch_samples = std::uint64_t{1} << 31;

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

// Resident blocks per SM of `kernel` with `shared_bytes` of dynamic shared
// memory (cached per kernel, size and device).
inline int histogram_resident_blocks(const void* kernel, int threads, std::size_t shared_bytes) {
  static std::mutex mutex;
  static std::map<std::tuple<const void*, std::size_t, int>, int> cache;
  const int device = current_device();
  std::lock_guard lock(mutex);
  const auto key = std::make_tuple(kernel, shared_bytes, device);
  if (const auto it = cache.find(key); it != cache.end()) return it->second;
  int blocks = 0;
  GPUPRIM_CUDA_CHECK(
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared_bytes),
      "histogram");
  blocks = std::max(blocks, 1);
  cache.emplace(key, blocks);
  return blocks;
}

// Lets `kernel` launch with `shared_bytes` of dynamic shared memory. Past
// 48 KiB of static + dynamic shared memory a kernel needs the opt-in
// attribute, which sets a maximum: it is only ever raised here (once per
// kernel and device to each new largest size), so a smaller launch never
// takes away what a larger one needs.
inline void histogram_allow_shared(const void* kernel, std::size_t shared_bytes) {
  static std::mutex mutex;
  static std::map<std::pair<const void*, int>, std::size_t> allowed;  // dynamic bytes
  const int device = current_device();
  std::lock_guard lock(mutex);
  std::size_t& current = allowed[{kernel, device}];
  if (shared_bytes <= current) return;
  cudaFuncAttributes attributes{};
  GPUPRIM_CUDA_CHECK(cudaFuncGetAttributes(&attributes, kernel), "histogram");
  if (attributes.sharedSizeBytes + shared_bytes > 48 * 1024) {
    GPUPRIM_CUDA_CHECK(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                            static_cast<int>(shared_bytes)),
                       "histogram");
  }
  current = shared_bytes;
}

// A persistent grid: resident blocks on every SM, no more than the work needs.
// `blocks_per_sm` > 0 (the tuner's choice) caps the blocks per SM below
// what is resident.
inline unsigned histogram_grid(int resident_per_sm, std::uint64_t n,
                               std::uint64_t samples_per_block_round, int blocks_per_sm = 0) {
  if (blocks_per_sm > 0) resident_per_sm = std::min(resident_per_sm, blocks_per_sm);
  const std::uint64_t full = static_cast<std::uint64_t>(resident_per_sm) *
                             static_cast<std::uint64_t>(current_multiprocessor_count());
  const std::uint64_t needed = std::max<std::uint64_t>(1, ceil_div(n, samples_per_block_round));
  return static_cast<unsigned>(std::min(full, needed));
}

// Whether the bins of an even histogram of bytes are the byte values.
template <class Binner>
bool bins_are_bytes(const Binner& binner, int bins) {
  if constexpr (std::is_same_v<Binner, detail::even_binner<std::uint8_t>>) {
    return bins == 256 && binner.lower == 0 && binner.upper == 256;
  } else {
    (void)binner;
    (void)bins;
    return false;
  }
}

// The bin of a one-byte sample whose bins are the byte values themselves:
// the byte (no range check, no left out).
struct byte_value_bin {
  template <class Sample>
  __device__ int operator()(Sample x) const {
    return static_cast<unsigned char>(x);
  }
};

// histogram_shared_atomics of Threads threads, Unroll 16-byte loads in
// flight per thread, with as many sub-histograms per block (up to
// MaxCopies, at most one per warp) as fit in histogram_copies_budget
// (Entries: see byte_binning).
template <byte_binning Entries = byte_binning::binner, int Threads = histogram_threads,
          int Unroll = histogram_unroll, int MaxCopies = Threads / 32, class Sample, class Counter,
          class Binner>
void launch_shared_atomics(const Sample* in, std::uint64_t n, Counter* counts, int bins,
                           Binner binner, std::uint64_t* left_out, cudaStream_t s,
                           int blocks_per_sm = 0) {
  static_assert(MaxCopies >= 1 && MaxCopies <= Threads / 32, "one to one copy per warp");
  constexpr bool fold = Entries == byte_binning::fold;
  const std::size_t copy_bytes = std::size_t(fold ? 256 : bins) * sizeof(unsigned);
  int copies = 1;
  while (copies * 2 <= MaxCopies && copy_bytes * copies * 2 <= histogram_copies_budget)
    copies *= 2;
  const std::size_t folded_bytes =
      fold && fold_in_shared(bins) ? std::size_t(bins) * sizeof(unsigned) : 0;
  const std::size_t shared = copy_bytes * copies + folded_bytes;
  const auto kernel = &histogram_shared_atomics<Threads, Unroll, Sample, Counter, Binner, Entries>;
  const void* key = reinterpret_cast<const void*>(kernel);
  histogram_allow_shared(key, shared);
  const unsigned grid =
      histogram_grid(histogram_resident_blocks(key, Threads, shared), n,
                     std::uint64_t(Threads) * vector_items<Sample> * Unroll, blocks_per_sm);
  report_launch_to_tuner(kernel, Threads, shared, grid);
  launch("histogram_shared_atomics", "histogram", kernel, {grid, Threads, unsigned(shared), s}, in,
         n, binner, bins, copies, counts, left_out);
}

// One-byte samples: 768 threads sharing one sub-histogram of the 256 byte
// values per block, 4 loads in flight per thread. Measured
// (lab/probes/probe_histogram.cu, CUB = 1, random bytes at 2^22 / 2^24 / 2^28):
// 1.16x / 1.10x / 1.08x, where 256 threads with one copy per warp gave
// 1.11x / 0.84x / 1.11x: at 2^24 (one round of loads per thread) zeroing
// and merging eight copies per block cost more than the atomics' conflicts
// save. On runs of one value (every lane of a warp on one bin) one copy
// gave 1.21x / 0.97x / 1.09x.
inline constexpr int byte_histogram_threads = 768;
inline constexpr int byte_histogram_copies = 1;

template <class Sample, class Counter, class Binner>
void histogram_launch(const Sample* in, std::uint64_t n, Counter* counts, int bins, Binner binner,
                      std::uint64_t* left_out, stream_t stream, int blocks_per_sm = 0) {
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  if constexpr (sizeof(Sample) == 1) {
    // Bytes: shared atomics with the byte as the entry (see
    // byte_histogram_threads). Into their own 256 values the entries are
    // the bins (byte_value_bin: no fold, no range test); any other bins and
    // binning fold the block's 256 per-byte counts at the end. Measured on
    // an H200 at 2^28 (random bytes / runs of one value): the per-lane
    // 8-bit counters this replaced for 64 even bins took 214 us / 202 us,
    // the byte entries' loop (256 bins) 128 us / 76 us; the bin by the
    // binner per sample took 666 us, a byte -> bin table read per sample
    // (a second shared-memory access a byte) 193 us / 202 us.
    if (bins_are_bytes(binner, bins)) {
      launch_shared_atomics<byte_binning::binner, byte_histogram_threads, histogram_unroll,
                            byte_histogram_copies>(in, n, counts, bins, byte_value_bin{}, left_out,
                                                   s, blocks_per_sm);
    } else {
      launch_shared_atomics<byte_binning::fold, byte_histogram_threads, histogram_unroll,
                            byte_histogram_copies>(in, n, counts, bins, binner, left_out, s,
                                                   blocks_per_sm);
    }
  } else if (std::size_t(bins) * sizeof(unsigned) <= histogram_shared_limit) {
    launch_shared_atomics(in, n, counts, bins, binner, left_out, s, blocks_per_sm);
  } else {
    constexpr int threads = histogram_threads;
    const auto kernel =
        &histogram_global_atomics<threads, histogram_unroll, Sample, Counter, Binner>;
    const void* key = reinterpret_cast<const void*>(kernel);
    const unsigned grid = histogram_grid(
        histogram_resident_blocks(key, threads, 0), n,
        std::uint64_t(threads) * vector_items<Sample> * histogram_unroll, blocks_per_sm);
    report_launch_to_tuner(kernel, threads, 0, grid);
    launch("histogram_global_atomics", "histogram", kernel, {grid, threads, 0, s}, in, n, binner,
           counts, left_out);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class Sample, class Counter, class Binner>
void cuda_histogram_into(const Sample* samples, std::size_t n, Counter* counts, int bins,
                         Binner binner, std::uint64_t* left_out, stream_t stream) {
  using namespace cuda_impl;
  const cudaStream_t s = reinterpret_cast<cudaStream_t>(stream);
  // The tuner's space "histogram" (src/tune/config.cpp): blocks per SM of
  // the persistent grid, 0 = as many as are resident (the default).
  const int blocks_per_sm =
      tuning::choose(tuning::algorithm::histogram, tuning::element_type_of<Sample>(), n).choice[0];
  const unsigned zero_grid =
      static_cast<unsigned>(std::min<std::uint64_t>(ceil_div(std::uint64_t(bins), 256), 1024));
  launch("histogram_zero", "histogram", histogram_zero<Counter>, {zero_grid, 256, 0, s}, counts,
         bins, left_out);
  for (std::uint64_t offset = 0; offset < n; offset += histogram_launch_samples) {
    const std::uint64_t chunk = std::min<std::uint64_t>(n - offset, histogram_launch_samples);
    histogram_launch(samples + offset, chunk, counts, bins, binner, left_out, stream,
                     blocks_per_sm);
  }
}

}  // namespace gpuprim::detail
