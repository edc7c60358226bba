// CPU backend of the sorting networks (OpenMP). The networks are the GPU's:
// the array is padded to a power of two P, every comparator puts the smaller
// key at the lower index, and comparators that touch an index >= n are
// skipped (those positions act as +infinity; nothing is ever written there).
//  - Steps whose pairs lie within one cache-sized chunk run chunk by chunk
//    (each thread takes whole chunks through all such steps in a row); the
//    larger strides run as one parallel loop over the pairs per step.
//  - Batched and segmented sorts of many small arrays use std::sort per
//    array, arrays spread over the threads: for arrays of a few thousand
//    elements that is faster than a network on a CPU, and it orders keys
//    the same way (the comparator is the same strict weak order).
#pragma once

#include <omp.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <span>
#include <utility>

#include "gpuprim/core/backend.hpp"

namespace gpuprim::host_impl {

// Keys per chunk whose steps run without a barrier between them (fits L2).
inline constexpr std::size_t network_chunk_bytes = 256 * 1024;

inline int sorting_threads(host_backend backend, std::size_t work) {
  const int requested = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  // Fewer threads for small inputs: a parallel region costs microseconds.
  const std::size_t useful = std::max<std::size_t>(1, work / 16384);
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(requested), useful));
}

template <class T, class Comp>
inline void compare_exchange(T* data, std::size_t lo, std::size_t hi, std::size_t n, Comp& comp) {
  if (hi < n && comp(data[hi], data[lo])) std::swap(data[lo], data[hi]);
}

inline std::size_t insert_zero_bit(std::size_t t, std::size_t top) {
  return ((t & ~(top - 1)) << 1) | (t & (top - 1));
}

// The chunk: a power of two of keys that fits network_chunk_bytes (at least
// 2), never more than the padded size.
template <class T>
std::size_t network_chunk(std::size_t padded) {
  const std::size_t chunk =
      std::bit_floor(std::max<std::size_t>(2, network_chunk_bytes / sizeof(T)));
  return std::min(padded, chunk);
}

// ---- bitonic ---------------------------------------------------------------

// One step of the "all ascending" bitonic network over [begin, end) of the
// pair indices: pair t is (lo, lo ^ mask) with lo = t with a zero at `top`.
template <class T, class Comp>
void bitonic_pairs(T* data, std::size_t n, std::size_t mask, std::size_t top, std::size_t begin,
                   std::size_t end, Comp& comp) {
  for (std::size_t t = begin; t < end; ++t) {
    const std::size_t lo = insert_zero_bit(t, top);
    compare_exchange(data, lo, lo ^ mask, n, comp);
  }
}

// The steps with top < chunk of stage k (k <= chunk: the whole stage), over
// the pairs of one chunk.
template <class T, class Comp>
void bitonic_chunk_steps(T* data, std::size_t n, std::size_t k, std::size_t chunk,
                         std::size_t chunk_index, bool whole_stage, Comp& comp) {
  const std::size_t pairs = chunk / 2;
  const std::size_t begin = chunk_index * pairs;
  if (whole_stage) bitonic_pairs(data, n, k - 1, k / 2, begin, begin + pairs, comp);
  for (std::size_t j = whole_stage ? k / 4 : chunk / 2; j >= 1; j /= 2)
    bitonic_pairs(data, n, j, j, begin, begin + pairs, comp);
}

template <class T, class Comp>
void bitonic_sort(host_backend backend, T* data, std::size_t n, Comp comp) {
  if (n < 2) return;
  const std::size_t padded = std::bit_ceil(n);
  const std::size_t chunk = network_chunk<T>(padded);
  const std::size_t chunks = padded / chunk;
  // Chunks and pairs past n do nothing; leave them out of the loops.
  const std::size_t live_chunks = (n + chunk - 1) / chunk;
  const int threads = sorting_threads(backend, n);
#pragma omp parallel num_threads(threads)
  {
    // Stages up to the chunk size: each chunk on its own, no barriers.
#pragma omp for schedule(static)
    for (std::size_t c = 0; c < live_chunks; ++c) {
      for (std::size_t k = 2; k <= chunk; k *= 2)
        bitonic_chunk_steps(data, n, k, chunk, c, true, comp);
    }
    for (std::size_t k = 2 * chunk; k <= padded; k *= 2) {
      // Strides of a chunk or more: one parallel loop per step.
      for (std::size_t top = k / 2; top >= chunk; top /= 2) {
        const std::size_t mask = top == k / 2 ? k - 1 : top;
#pragma omp for schedule(static)
        for (std::size_t c = 0; c < chunks; ++c) {
          const std::size_t begin = c * (chunk / 2);
          bitonic_pairs(data, n, mask, top, begin, begin + chunk / 2, comp);
        }
      }
#pragma omp for schedule(static)
      for (std::size_t c = 0; c < live_chunks; ++c)
        bitonic_chunk_steps(data, n, k, chunk, c, false, comp);
    }
  }
}

// ---- odd-even merge ----------------------------------------------------------

// Step (p, k) of Batcher's odd-even merge sort (merging sorted runs of p
// into runs of 2p, stride k): pair t is (a, a + k) with a = t with a zero at
// bit k when k == p; otherwise (a + k, a + 2k), kept only when both lie in
// the same run of 2p.
template <class T, class Comp>
void odd_even_pairs(T* data, std::size_t n, std::size_t p, std::size_t k, std::size_t begin,
                    std::size_t end, Comp& comp) {
  for (std::size_t t = begin; t < end; ++t) {
    const std::size_t a = insert_zero_bit(t, k);
    if (k == p) {
      compare_exchange(data, a, a + k, n, comp);
    } else if ((a + k) / (2 * p) == (a + 2 * k) / (2 * p)) {
      compare_exchange(data, a + k, a + 2 * k, n, comp);
    }
  }
}

template <class T, class Comp>
void odd_even_merge_sort(host_backend backend, T* data, std::size_t n, Comp comp) {
  if (n < 2) return;
  const std::size_t padded = std::bit_ceil(n);
  const std::size_t chunk = network_chunk<T>(padded);
  const std::size_t pairs = padded / 2;
  const std::size_t live_chunks = (n + chunk - 1) / chunk;
  const int threads = sorting_threads(backend, n);
#pragma omp parallel num_threads(threads)
  {
    // Merges into runs of up to a chunk stay within the chunk.
#pragma omp for schedule(static)
    for (std::size_t c = 0; c < live_chunks; ++c) {
      const std::size_t begin = c * (chunk / 2);
      for (std::size_t p = 1; p < chunk; p *= 2) {
        for (std::size_t k = p; k >= 1; k /= 2)
          odd_even_pairs(data, n, p, k, begin, begin + chunk / 2, comp);
      }
    }
    // Larger merges: pairs (a + k, a + 2k) cross chunk boundaries at every
    // stride, so each step is one parallel loop.
    for (std::size_t p = chunk; p < padded; p *= 2) {
      for (std::size_t k = p; k >= 1; k /= 2) {
#pragma omp for schedule(static)
        for (std::size_t c = 0; c < pairs / (chunk / 2); ++c) {
          const std::size_t begin = c * (chunk / 2);
          odd_even_pairs(data, n, p, k, begin, begin + chunk / 2, comp);
        }
      }
    }
  }
}

// ---- many small arrays -----------------------------------------------------

template <class T, class Comp>
void sort_batched(host_backend backend, T* data, std::size_t n, std::size_t array_size, Comp comp) {
  if (array_size < 2 || n == 0) return;
  const std::size_t count = n / array_size;
  const int threads = sorting_threads(backend, n);
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::size_t a = 0; a < count; ++a)
    std::sort(data + a * array_size, data + (a + 1) * array_size, comp);
}

// offsets: checked to partition [0, n).
template <class T, class Offset, class Comp>
void segmented_sort(host_backend backend, T* data, std::span<const Offset> offsets, Comp comp) {
  if (offsets.size() < 2) return;
  const std::size_t segments = offsets.size() - 1;
  const std::size_t n = static_cast<std::size_t>(offsets.back());
  const int threads = sorting_threads(backend, n);
  // Dynamic: segment lengths may differ wildly.
#pragma omp parallel for num_threads(threads) schedule(dynamic, 64)
  for (std::size_t s = 0; s < segments; ++s) {
    std::sort(data + static_cast<std::size_t>(offsets[s]),
              data + static_cast<std::size_t>(offsets[s + 1]), comp);
  }
}

}  // namespace gpuprim::host_impl
