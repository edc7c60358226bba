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
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <vector>

#include "gpuprim/core/backend.hpp"

namespace gpuprim::host_impl {

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

// Weighted histograms, numpy.histogram(..., weights=w) operation by
// operation: the samples are taken in blocks of numpy's size (65536), and
// the sums come out as numpy's for the same weights.
inline constexpr std::size_t numpy_weighted_block = 65536;

// Even bins: in each block the weights of each bin are added in sample
// order in double (numpy's bincount), then converted to the weights' type
// W and added to sums[b] in W (numpy's n += bincount(...).astype(W)).
template <class Sample, class W, class Binner>
void weighted_histogram(const Sample* samples, const W* weights, std::size_t n, W* sums, int bins,
                        Binner binner) {
  const std::size_t num_bins = static_cast<std::size_t>(bins);
  std::fill(sums, sums + num_bins, W{});
  std::vector<double> block(num_bins);
  for (std::size_t begin = 0; begin < n; begin += numpy_weighted_block) {
    const std::size_t end = std::min(n, begin + numpy_weighted_block);
    std::fill(block.begin(), block.end(), 0.0);
    for (std::size_t i = begin; i < end; ++i) {
      const int b = binner(samples[i]);
      if (b >= 0) block[static_cast<std::size_t>(b)] += static_cast<double>(weights[i]);
    }
    for (std::size_t b = 0; b < num_bins; ++b)
      sums[b] = static_cast<W>(sums[b] + static_cast<W>(block[b]));
  }
}

// An array of edges (float64, not decreasing): numpy's cumulative form. In
// each block the samples are sorted (compared as doubles, NaN last; equal
// samples keep their order), their weights summed in that order in W (a
// cumsum from 0), and the running sum read where each edge would be
// inserted (before equal samples; after them for the last edge) is added
// to the edge's total; bin b is total[b + 1] - total[b], in W.
template <class Sample, class W, class Compared>
void weighted_histogram_of_edges(const Sample* samples, const W* weights, std::size_t n, W* sums,
                                 const double* edges, int bins, Compared compared) {
  const std::size_t num_edges = static_cast<std::size_t>(bins) + 1;
  std::vector<W> total(num_edges, W{});
  std::vector<std::size_t> order;
  std::vector<double> sorted;
  std::vector<W> running;
  for (std::size_t begin = 0; begin < n; begin += numpy_weighted_block) {
    const std::size_t m = std::min(n, begin + numpy_weighted_block) - begin;
    order.resize(m);
    std::iota(order.begin(), order.end(), begin);
    const auto key = [&](std::size_t i) { return compared(samples[i]); };
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
      const double x = key(a), y = key(b);
      return x < y || (!std::isnan(x) && std::isnan(y));
    });
    sorted.resize(m);
    running.assign(m + 1, W{});
    for (std::size_t k = 0; k < m; ++k) {
      sorted[k] = key(order[k]);
      // numpy's cumsum: the first running sum is the first weight itself
      // (for a number type the same as 0 + w; for an object type, such as
      // a decimal, no addition it would round or refuse)
      running[k + 1] = k == 0 ? static_cast<W>(weights[order[k]])
                              : static_cast<W>(running[k] + weights[order[k]]);
    }
    // NaN last: a NaN is never below an edge, and every edge is below it.
    const auto below = [](double x, double edge) { return x < edge; };
    const auto not_above = [](double edge, double x) { return edge < x || std::isnan(x); };
    for (std::size_t j = 0; j < num_edges; ++j) {
      const auto at = j + 1 < num_edges
                          ? std::lower_bound(sorted.begin(), sorted.end(), edges[j], below)
                          : std::upper_bound(sorted.begin(), sorted.end(), edges[j], not_above);
      total[j] = static_cast<W>(total[j] + running[static_cast<std::size_t>(at - sorted.begin())]);
    }
  }
  for (std::size_t b = 0; b + 1 < num_edges; ++b)
    sums[b] = static_cast<W>(total[b + 1] - total[b]);
}

}  // namespace gpuprim::host_impl
