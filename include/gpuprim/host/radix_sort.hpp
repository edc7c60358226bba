// Host backend of the radix sort: parallel LSD radix sort, 8 bits a pass.
//
// One read of the keys first counts every pass's digits at once; a pass
// whose digit is the same for every key (short keys in wide types, sorted
// bit ranges) is skipped. Each remaining pass splits the current array
// into one contiguous chunk per thread; threads count their chunk's
// digits, the counts are scanned digit-major and thread-minor (so thread
// t's keys of digit d land after those of threads < t: stable), and each
// thread scatters its chunk to the other buffer. Keys and values ping-pong
// between the output and one temporary array.
#pragma once

#include <omp.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/core/radix_key.hpp"
#include "gpuprim/host/reduce.hpp"

namespace gpuprim::detail {

// What one radix sort call does, after the public API's checks.
struct radix_sort_plan {
  std::size_t n = 0;
  int begin_bit = 0;
  int end_bit = 0;
  bool descending = false;
  int value_bytes = 0;  // 0: keys only; else 4 or 8 (values move as opaque words)

  int passes() const { return (end_bit - begin_bit + 7) / 8; }
  int shift(int pass) const { return begin_bit + 8 * pass; }
  unsigned mask(int pass) const {
    const int bits = std::min(8, end_bit - shift(pass));
    return (1u << bits) - 1u;
  }
};

}  // namespace gpuprim::detail

namespace gpuprim::host_detail {

inline constexpr int radix = 256;

template <class K>
struct digit_of {
  int shift;
  unsigned mask;
  bool descending;
  unsigned operator()(K key) const {
    return static_cast<unsigned>(radix_key<K>::to_bits(key, descending) >> shift) & mask;
  }
};

// Keys only: a value type that moves nothing.
struct no_value {};

// Moves src[lo, hi) to dst[next[digit]++] through a small buffer per digit:
// a key goes into its digit's buffer (a few cache lines, all 256 of them
// staying in L1), and a full buffer is written out as one run. Writing each
// key straight to its place touches 256 far-apart streams per chunk, which
// costs a cache-line fill and often a TLB miss per key.
template <class K, class W, class Digit>
void scatter_chunk(const K* key_src, const W* value_src, std::size_t lo, std::size_t hi, K* key_dst,
                   W* value_dst, std::array<std::size_t, radix>& next, Digit digit) {
  constexpr bool has_values = !std::is_same_v<W, no_value>;
  constexpr int run = 64 / sizeof(K) < 4 ? 4 : 64 / sizeof(K);
  struct buffers {
    alignas(64) K keys[radix][run];
    alignas(64) W values[radix][has_values ? run : 1];
    unsigned char fill[radix];
  };
  auto b = std::make_unique<buffers>();
  std::fill(std::begin(b->fill), std::end(b->fill), 0);
  for (std::size_t i = lo; i < hi; ++i) {
    const K key = key_src[i];
    const unsigned d = digit(key);
    const unsigned f = b->fill[d];
    b->keys[d][f] = key;
    if constexpr (has_values) b->values[d][f] = value_src[i];
    if (f + 1 == run) {
      const std::size_t at = next[d];
      std::memcpy(key_dst + at, b->keys[d], sizeof(b->keys[d]));
      if constexpr (has_values) std::memcpy(value_dst + at, b->values[d], sizeof(b->values[d]));
      next[d] = at + run;
      b->fill[d] = 0;
    } else {
      b->fill[d] = static_cast<unsigned char>(f + 1);
    }
  }
  for (int d = 0; d < radix; ++d) {
    const unsigned f = b->fill[d];
    std::memcpy(key_dst + next[d], b->keys[d], f * sizeof(K));
    if constexpr (has_values) std::memcpy(value_dst + next[d], b->values[d], f * sizeof(W));
    next[d] += f;
  }
}

// Sorts keys_in -> keys_out (the same memory for an in-place sort), values
// alongside unless W is no_value.
template <class K, class W>
void radix_sort(host_backend backend, const K* keys_in, K* keys_out, const W* values_in,
                W* values_out, const detail::radix_sort_plan& plan) {
  constexpr bool has_values = !std::is_same_v<W, no_value>;
  const std::size_t n = plan.n;
  if (n == 0) return;
  const int passes = plan.passes();
  const int threads = thread_count_for(backend, n);

  // Every pass's digit counts from one read, to find the passes that would
  // move nothing.
  std::vector<std::size_t> totals(std::size_t(passes) * radix, 0);
  {
    std::vector<std::vector<std::size_t>> partial(threads);
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const int team = omp_get_num_threads();
      std::vector<std::size_t>& mine = partial[t];
      mine.assign(std::size_t(passes) * radix, 0);
      const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
      for (std::size_t i = lo; i < hi; ++i) {
        const auto bits = radix_key<K>::to_bits(keys_in[i], plan.descending);
        for (int p = 0; p < passes; ++p)
          ++mine[std::size_t(p) * radix + ((bits >> plan.shift(p)) & plan.mask(p))];
      }
    }
    for (const auto& mine : partial)
      for (std::size_t i = 0; i < mine.size(); ++i)
        totals[i] += mine[i];
  }

  std::unique_ptr<K[]> key_temp;
  std::unique_ptr<W[]> value_temp;
  const K* key_src = keys_in;
  const W* value_src = values_in;
  std::vector<std::array<std::size_t, radix>> offsets(threads);
  for (int p = 0; p < passes; ++p) {
    const std::size_t* total = &totals[std::size_t(p) * radix];
    if (std::any_of(total, total + radix, [n](std::size_t c) { return c == n; })) continue;
    if (!key_temp) {
      key_temp = std::make_unique_for_overwrite<K[]>(n);
      if constexpr (has_values) value_temp = std::make_unique_for_overwrite<W[]>(n);
    }
    // Into the output unless the keys are already there (in place, or
    // after an odd number of passes).
    K* key_dst = key_src == keys_out ? key_temp.get() : keys_out;
    W* value_dst = nullptr;
    if constexpr (has_values) value_dst = value_src == values_out ? value_temp.get() : values_out;
    const digit_of<K> digit{plan.shift(p), plan.mask(p), plan.descending};
#pragma omp parallel num_threads(threads)
    {
      const int t = omp_get_thread_num();
      const int team = omp_get_num_threads();
      const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
      std::array<std::size_t, radix>& mine = offsets[t];
      mine.fill(0);
      for (std::size_t i = lo; i < hi; ++i)
        ++mine[digit(key_src[i])];
#pragma omp barrier
#pragma omp single
      {
        std::size_t running = 0;
        for (int d = 0; d < radix; ++d) {
          for (int u = 0; u < team; ++u) {
            const std::size_t c = offsets[u][d];
            offsets[u][d] = running;
            running += c;
          }
        }
      }
      scatter_chunk(key_src, value_src, lo, hi, key_dst, value_dst, mine, digit);
    }
    key_src = key_dst;
    if constexpr (has_values) value_src = value_dst;
  }
  if (key_src != keys_out) std::memcpy(keys_out, key_src, n * sizeof(K));
  if constexpr (has_values) {
    if (value_src != values_out) std::memcpy(values_out, value_src, n * sizeof(W));
  }
}

}  // namespace gpuprim::host_detail
