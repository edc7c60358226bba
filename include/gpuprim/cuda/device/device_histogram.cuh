// Device-wide histogram, the host driver: which kernel (shared or global
// atomics, and for one-byte samples which entries), its persistent grid
// and shared memory, the tuner's blocks per SM, launches of at most
// histogram_launch_samples samples. The kernels and the shape of their
// algorithm: cuda/device/histogram/kernels.cuh.
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
#include "gpuprim/cuda/device/histogram/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/detail/histogram/histogram.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Samples per launch: every 32-bit count a block or a thread keeps stays
// exact (arrays longer than this take several launches).
inline constexpr std::uint64_t histogram_launch_samples = std::uint64_t{1} << 31;

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
