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
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/sort/plan.hpp"
#include "gpuprim/detail/sort/radix_key.hpp"
#include "gpuprim/host/reduce.hpp"
#include "gpuprim/host/streaming_store.hpp"

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
//
// With `next_counts`, it also counts the next pass's digit of every key by
// the chunk of the destination it lands in (next_counts[u * radix + d],
// chunk u = [n u / team, n (u + 1) / team)), so the next pass need not read
// its keys to count them. A digit's destinations only grow, so each digit
// tracks its current chunk and that chunk's end.
template <class K, class W, class Digit>
void scatter_chunk(const K* key_src, const W* value_src, std::size_t lo, std::size_t hi, K* key_dst,
                   W* value_dst, std::array<std::size_t, radix>& next, Digit digit,
                   std::size_t* next_counts, Digit next_digit, std::size_t n, int team,
                   bool stream) {
  constexpr bool has_values = !std::is_same_v<W, no_value>;
  constexpr int run = 64 / sizeof(K);  // keys in one cache line
  struct buffers {
    alignas(64) K keys[radix][run];
    alignas(64) W values[radix][has_values ? run : 1];
    unsigned char fill[radix];
    unsigned char limit[radix];  // keys to gather before the next write-out
  };
  auto b = std::make_unique<buffers>();
  std::fill(std::begin(b->fill), std::end(b->fill), 0);
  // A digit's first write-out fills up to its destination's next line
  // boundary, so every later full run is one aligned line, which streaming
  // stores write without reading it first.
  for (int d = 0; d < radix; ++d) {
    const auto misalignment = reinterpret_cast<std::uintptr_t>(key_dst + next[d]) % 64;
    b->limit[d] =
        misalignment == 0 ? run : static_cast<unsigned char>((64 - misalignment) / sizeof(K));
  }
  std::array<int, radix> chunk{};
  std::array<std::size_t, radix> chunk_end{};
  if (next_counts) {
    for (int d = 0; d < radix; ++d) {
      // The chunk holding next[d]: the largest u with n u / team <= next[d].
      int u = 0;
      while (u + 1 < team && n * (u + 1) / team <= next[d])
        ++u;
      chunk[d] = u;
      chunk_end[d] = n * (u + 1) / team;
    }
  }
  for (std::size_t i = lo; i < hi; ++i) {
    const K key = key_src[i];
    const unsigned d = digit(key);
    const unsigned f = b->fill[d];
    if (next_counts) {
      const std::size_t at = next[d] + f;
      while (at >= chunk_end[d]) {
        ++chunk[d];
        chunk_end[d] = n * (chunk[d] + 1) / team;
      }
      ++next_counts[std::size_t(chunk[d]) * radix + next_digit(key)];
    }
    b->keys[d][f] = key;
    if constexpr (has_values) b->values[d][f] = value_src[i];
    if (f + 1 == b->limit[d]) {
      const std::size_t at = next[d];
      if (f + 1 == run && stream) {
        store_line_streaming(key_dst + at, b->keys[d]);
      } else {
        std::memcpy(key_dst + at, b->keys[d], (f + 1) * sizeof(K));
      }
      if constexpr (has_values) std::memcpy(value_dst + at, b->values[d], (f + 1) * sizeof(W));
      next[d] = at + f + 1;
      b->fill[d] = 0;
      b->limit[d] = run;
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
  if (stream) streaming_stores_done();
}

// Uninitialized storage for a large temporary array. On Linux it asks for
// transparent huge pages: a pass scatters to 256 places at once, and with
// 4 KiB pages nearly every one of those writes misses the TLB.
struct free_deleter {
  void operator()(void* p) const { std::free(p); }
};
template <class T>
using large_buffer = std::unique_ptr<T[], free_deleter>;

template <class T>
large_buffer<T> make_large_buffer(std::size_t n) {
  constexpr std::size_t huge_page = std::size_t{2} << 20;
  const std::size_t bytes = (n * sizeof(T) + huge_page - 1) / huge_page * huge_page;
  void* p = std::aligned_alloc(huge_page, bytes);
  if (!p) throw std::bad_alloc();
#if defined(__linux__)
  madvise(p, bytes, MADV_HUGEPAGE);  // a hint; failure only costs speed
#endif
  return large_buffer<T>(static_cast<T*>(p));
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
  const auto digit_for = [&plan](int p) {
    return digit_of<K>{plan.shift(p), plan.mask(p), plan.descending};
  };

  // One read counts every pass's digits per chunk: the totals show which
  // passes would move nothing, and the chunk counts serve the first pass
  // that moves something. (Chunk u is [n u / team, n (u + 1) / team).)
  int team = threads;
  std::vector<std::vector<std::size_t>> upfront(threads);
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    std::vector<std::size_t>& mine = upfront[t];
    mine.assign(std::size_t(passes) * radix, 0);
    const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
    for (std::size_t i = lo; i < hi; ++i) {
      const auto bits = radix_key<K>::to_bits(keys_in[i], plan.descending);
      for (int p = 0; p < passes; ++p)
        ++mine[std::size_t(p) * radix + ((bits >> plan.shift(p)) & plan.mask(p))];
    }
  }
  std::vector<int> moving;  // the passes that move keys
  for (int p = 0; p < passes; ++p) {
    std::array<std::size_t, radix> total{};
    for (int u = 0; u < team; ++u)
      for (int d = 0; d < radix; ++d)
        total[d] += upfront[u][std::size_t(p) * radix + d];
    if (std::none_of(total.begin(), total.end(), [n](std::size_t c) { return c == n; }))
      moving.push_back(p);
  }

  // chunk_counts[u][d]: keys of this pass's digit d in chunk u of the array
  // the pass reads. Each pass's scatter counts the next pass's digits by
  // destination chunk, so every pass reads its keys once.
  std::vector<std::array<std::size_t, radix>> chunk_counts(team);
  if (!moving.empty()) {
    for (int u = 0; u < team; ++u)
      for (int d = 0; d < radix; ++d)
        chunk_counts[u][d] = upfront[u][std::size_t(moving[0]) * radix + d];
  }
  upfront.clear();
  std::vector<std::vector<std::size_t>> next_counts(team);  // [t][u * radix + d]
  std::vector<std::array<std::size_t, radix>> offsets(team);

  // Arrays far larger than the caches are written with streaming stores:
  // the next pass reads them from memory anyway.
  const bool stream = n * sizeof(K) >= (std::size_t{32} << 20);
  large_buffer<K> key_temp;
  large_buffer<W> value_temp;
  const K* key_src = keys_in;
  const W* value_src = values_in;
  for (std::size_t m = 0; m < moving.size(); ++m) {
    if (!key_temp) {
      key_temp = make_large_buffer<K>(n);
      if constexpr (has_values) value_temp = make_large_buffer<W>(n);
    }
    // Alternate so that the last pass writes the output; a pass never
    // writes the array it reads (an in-place sort with an odd number of
    // passes ends with one copy).
    const bool to_output = (moving.size() - m) % 2 == 1;
    K* key_dst = to_output ? keys_out : key_temp.get();
    if (key_dst == key_src) key_dst = key_dst == keys_out ? key_temp.get() : keys_out;
    W* value_dst = nullptr;
    if constexpr (has_values) {
      value_dst = to_output ? values_out : value_temp.get();
      if (value_dst == value_src)
        value_dst = value_dst == values_out ? value_temp.get() : values_out;
    }
    const digit_of<K> digit = digit_for(moving[m]);
    const bool count_next = m + 1 < moving.size();
    const digit_of<K> next_digit = count_next ? digit_for(moving[m + 1]) : digit;

    // Where each chunk's keys of each digit go: digit-major, chunk-minor
    // (so chunk u's keys of digit d follow those of chunks < u: stable).
    std::size_t running = 0;
    for (int d = 0; d < radix; ++d) {
      for (int u = 0; u < team; ++u) {
        offsets[u][d] = running;
        running += chunk_counts[u][d];
      }
    }
    // The chunks and counts assume this team has the size the first one
    // had: OpenMP gives the size asked for when it is available, and it was.
#pragma omp parallel num_threads(team)
    {
      const int t = omp_get_thread_num();
      const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
      std::vector<std::size_t>& counts = next_counts[t];
      if (count_next) counts.assign(std::size_t(team) * radix, 0);
      scatter_chunk(key_src, value_src, lo, hi, key_dst, value_dst, offsets[t], digit,
                    count_next ? counts.data() : nullptr, next_digit, n, team, stream);
    }
    if (count_next) {
      for (int u = 0; u < team; ++u) {
        chunk_counts[u].fill(0);
        for (int t = 0; t < team; ++t)
          for (int d = 0; d < radix; ++d)
            chunk_counts[u][d] += next_counts[t][std::size_t(u) * radix + d];
      }
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
