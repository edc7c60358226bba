// CPU backend of the histogram family: per-thread histograms, merged.
//
// Each OpenMP thread counts one contiguous chunk of the samples into its own
// 64-bit counters (no sharing, no atomics); the threads then add the copies
// bin by bin, in parallel over the bins, and write `counts` once. One-byte
// samples are classified through a 256-entry table built once (any binner
// becomes one load), and counted into four interleaved copies so that runs
// of equal bytes do not wait on the store of the previous increment. Fewer
// threads are used when the samples per thread would not pay for a copy of
// the bins.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "gpuprim/core/backend.hpp"

namespace gpuprim::host_detail {

inline constexpr std::size_t histogram_min_samples_per_thread = std::size_t{1} << 15;

inline int histogram_thread_count(host_backend backend, std::size_t n, int bins) {
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  const std::size_t per_thread =
      std::max(histogram_min_samples_per_thread, static_cast<std::size_t>(bins));
  return static_cast<int>(
      std::max<std::size_t>(1, std::min<std::size_t>(requested, n / per_thread)));
}

// Counts samples[begin, end) into local[0, bins) and returns how many were
// left out.
template <class Sample, class Binner>
std::uint64_t count_chunk(const Sample* samples, std::size_t begin, std::size_t end,
                          std::uint64_t* local, int bins, const Binner& binner,
                          const int* byte_table) {
  std::uint64_t left_out = 0;
  if constexpr (sizeof(Sample) == 1) {
    // Slot `bins` of each copy counts the left-out samples.
    const std::size_t stride = static_cast<std::size_t>(bins) + 1;
    std::vector<std::uint64_t> copies(4 * stride, 0);
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
      for (std::size_t k = 0; k < 4; ++k)
        ++copies[k * stride + byte_table[static_cast<std::uint8_t>(samples[i + k])]];
    }
    for (; i < end; ++i)
      ++copies[byte_table[static_cast<std::uint8_t>(samples[i])]];
    for (std::size_t k = 0; k < 4; ++k) {
      for (std::size_t b = 0; b < static_cast<std::size_t>(bins); ++b)
        local[b] += copies[k * stride + b];
      left_out += copies[k * stride + static_cast<std::size_t>(bins)];
    }
    (void)binner;
  } else {
    (void)byte_table;
    for (std::size_t i = begin; i < end; ++i) {
      const int b = binner(samples[i]);
      if (b >= 0) {
        ++local[b];
      } else {
        ++left_out;
      }
    }
  }
  return left_out;
}

// Writes the histogram of samples[0, n) under `binner` to counts[0, bins)
// and returns the number of samples left out.
template <class Sample, class Counter, class Binner>
std::uint64_t histogram(host_backend backend, const Sample* samples, std::size_t n, Counter* counts,
                        int bins, Binner binner) {
  // One-byte samples: the bin of every possible value, `bins` for "left out".
  int byte_table[256] = {};
  if constexpr (sizeof(Sample) == 1) {
    for (int v = 0; v < 256; ++v) {
      const int b = binner(static_cast<Sample>(static_cast<std::uint8_t>(v)));
      byte_table[v] = b >= 0 ? b : bins;
    }
  }
  const std::size_t num_bins = static_cast<std::size_t>(bins);
  const int threads = histogram_thread_count(backend, n, bins);
  std::vector<std::uint64_t> local(static_cast<std::size_t>(threads) * num_bins, 0);
  std::vector<std::uint64_t> left_out(static_cast<std::size_t>(threads), 0);
  int team = 1;  // OpenMP may give fewer threads than asked for
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    // (implicit barrier: every thread sees `team`)
    const std::size_t begin = n * static_cast<std::size_t>(t) / static_cast<std::size_t>(team);
    const std::size_t end = n * static_cast<std::size_t>(t + 1) / static_cast<std::size_t>(team);
    left_out[t] = count_chunk(samples, begin, end, &local[t * num_bins], bins, binner, byte_table);
  }
  // Merge the copies bin by bin; counters wrap like the GPU's.
  const int merge_threads = num_bins >= 4096 ? threads : 1;
#pragma omp parallel for num_threads(merge_threads) schedule(static)
  for (std::size_t b = 0; b < num_bins; ++b) {
    std::uint64_t sum = 0;
    for (int t = 0; t < team; ++t)
      sum += local[static_cast<std::size_t>(t) * num_bins + b];
    counts[b] = static_cast<Counter>(sum);
  }
  std::uint64_t total_left_out = 0;
  for (int t = 0; t < team; ++t)
    total_left_out += left_out[t];
  return total_left_out;
}

}  // namespace gpuprim::host_detail
