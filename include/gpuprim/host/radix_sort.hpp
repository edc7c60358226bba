// Host backend of the radix sort: a parallel LSD radix sort in one OpenMP
// region. The shape of the algorithm:
//  1. Digits of 11 bits when that takes fewer passes than 8 bits (32-bit
//     keys: 3 passes, not 4; 64-bit: 6, not 8) and the array is large enough
//     to pay for 2048-bucket tables; else 8 bits.
//  2. One read of the keys counts every pass's digits, per chunk (one
//     contiguous chunk per thread); a pass whose digit is the same for every
//     key (short keys in wide types, sorted bit ranges) is skipped.
//  3. Each remaining pass scans the chunk counts digit-major, chunk-minor
//     (so chunk u's keys of digit d land after those of chunks < u: stable)
//     and each thread scatters its chunk to the other buffer through one
//     cache-line buffer per digit. Writing a full buffer out also counts the
//     next pass's digits by the chunk of the destination it lands in, so
//     every pass reads its keys once.
//  4. Keys and values ping-pong between the output and one temporary array.
// Keys-only sorts of 8- and 16-bit integers over all their bits are counting
// sorts instead: a key is its bit pattern, so the counts are the output.
#pragma once

#include <omp.h>
#if defined(__linux__)
#include <sys/mman.h>
#endif

#include <algorithm>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <type_traits>
#include <vector>

#include "gpuprim/core/backend.hpp"
#include "gpuprim/detail/sort/plan.hpp"
#include "gpuprim/detail/sort/radix_key.hpp"
#include "gpuprim/host/reduce.hpp"
#include "gpuprim/host/streaming_store.hpp"

namespace gpuprim::host_detail {

// Keys only: a value type that moves nothing.
struct no_value {};

// Below this many keys a pass of 2048 buckets costs more in tables than
// the pass it saves.
inline constexpr std::size_t wide_digit_min_keys = std::size_t{1} << 16;

// The digits of one host sort: `width` bits a pass over [begin, end).
struct host_digits {
  int begin = 0;
  int end = 0;
  int width = 8;
  int passes() const { return (end - begin + width - 1) / width; }
  int shift(int pass) const { return begin + width * pass; }
  unsigned mask(int pass) const {
    const int bits = std::min(width, end - shift(pass));
    return (1u << bits) - 1u;
  }
};

// (Each thread counts the next pass's digits for every chunk: team^2
// tables, which 2048 buckets make too large for big teams.)
inline host_digits choose_host_digits(const detail::radix_sort_plan& plan, int threads) {
  const int bits = plan.end_bit - plan.begin_bit;
  const bool wide =
      plan.n >= wide_digit_min_keys && threads <= 16 && (bits + 10) / 11 < (bits + 7) / 8;
  return {plan.begin_bit, plan.end_bit, wide ? 11 : 8};
}

template <class K>
struct digit_of {
  int shift;
  unsigned mask;
  bool descending;
  unsigned operator()(K key) const {
    return static_cast<unsigned>(radix_key<K>::to_bits(key, descending) >> shift) & mask;
  }
};

// Uninitialized storage for a large temporary array. On Linux it asks for
// transparent huge pages: a pass scatters to thousands of places at once,
// and with 4 KiB pages nearly every one of those writes misses the TLB.
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

// One thread's digit buffers, kept by the thread between calls (up to a
// quarter of a MiB, for 2048 digits of 8-byte keys and values: an
// allocation that large is a fresh mapping, and its page faults, every
// call). One block a thread serves every key and value type; it grows to
// the largest asked for. Null when memory is short (inside a parallel
// region nothing may throw).
inline void* thread_scratch(std::size_t bytes) noexcept {
  struct block {
    void* p = nullptr;
    std::size_t size = 0;
    ~block() { std::free(p); }
  };
  thread_local block b;
  if (b.size < bytes) {
    std::free(b.p);
    b.size = (bytes + 4095) / 4096 * 4096;
    b.p = std::aligned_alloc(64, b.size);
    if (!b.p) b.size = 0;
  }
  return b.p;
}

template <class Buffers>
Buffers* thread_buffers() noexcept {
  static_assert(std::is_trivially_default_constructible_v<Buffers>);
  return static_cast<Buffers*>(thread_scratch(sizeof(Buffers)));
}

// Moves keys[lo, hi) (and values) of one chunk to dst[next[digit]++]. A key
// goes into its digit's buffer of one cache line and a full buffer is
// written out as one run: writing each key straight to its place touches
// thousands of far-apart streams per chunk, a cache-line fill and often a
// TLB miss per key.
template <class K, class W, int Radix>
class chunk_scatter {
 public:
  static constexpr bool has_values = !std::is_same_v<W, no_value>;
  static constexpr int run = 64 / sizeof(K);  // keys in one cache line

  struct buffers {
    alignas(64) K keys[Radix][run];
    alignas(64) W values[Radix][has_values ? run : 1];
    unsigned char fill[Radix];
    unsigned char limit[Radix];  // keys to gather before the next write-out
    int chunk[Radix];            // the destination chunk next[d] lies in
    std::size_t chunk_end[Radix];
  };

  // next_counts (team * Radix, zeroed), when not null, receives the next
  // pass's digit counts by destination chunk: chunk u is [n u / team,
  // n (u + 1) / team) of the destination.
  chunk_scatter(buffers& b, K* key_dst, W* value_dst, std::size_t* next, digit_of<K> digit,
                std::size_t* next_counts, digit_of<K> next_digit, std::size_t n, int team,
                bool stream)
      : b_(b),
        key_dst_(key_dst),
        value_dst_(value_dst),
        next_(next),
        digit_(digit),
        next_counts_(next_counts),
        next_digit_(next_digit),
        n_(n),
        team_(team),
        stream_(stream) {
    std::fill(std::begin(b_.fill), std::end(b_.fill), 0);
    for (int d = 0; d < Radix; ++d) {
      // A digit's first write-out fills up to its destination's next line
      // boundary, so every later full run is one aligned line, which
      // streaming stores write without reading it first.
      const auto misalignment = reinterpret_cast<std::uintptr_t>(key_dst + next[d]) % 64;
      b_.limit[d] =
          misalignment == 0 ? run : static_cast<unsigned char>((64 - misalignment) / sizeof(K));
      if (next_counts) {
        // The chunk holding next[d]: the largest u with n u / team <= next[d].
        int u = 0;
        while (u + 1 < team && n * (u + 1) / team <= next[d])
          ++u;
        b_.chunk[d] = u;
        b_.chunk_end[d] = n * (u + 1) / team;
      }
    }
  }

  void scatter(const K* key_src, const W* value_src, std::size_t lo, std::size_t hi) {
    // Locals, not members, in the loop: the byte-sized stores to `fill`
    // may alias anything, and members would be reloaded after each.
    buffers& b = b_;
    const digit_of<K> digit = digit_;
    for (std::size_t i = lo; i < hi; ++i) {
      const K key = key_src[i];
      const unsigned d = digit(key);
      const unsigned f = b.fill[d];
      b.keys[d][f] = key;
      if constexpr (has_values) b.values[d][f] = value_src[i];
      if (f + 1 == b.limit[d]) {
        write_out(d, f + 1);
        b.limit[d] = run;
      } else {
        b.fill[d] = static_cast<unsigned char>(f + 1);
      }
    }
  }

  // Writes out what is left in the buffers.
  void finish() {
    for (int d = 0; d < Radix; ++d) {
      if (b_.fill[d]) write_out(d, b_.fill[d]);
    }
    if (stream_) streaming_stores_done();
  }

 private:
  void write_out(unsigned d, unsigned count) {
    const std::size_t at = next_[d];
    if (count == run && stream_) {
      store_line_streaming(key_dst_ + at, b_.keys[d]);
    } else {
      std::memcpy(key_dst_ + at, b_.keys[d], count * sizeof(K));
    }
    if constexpr (has_values) std::memcpy(value_dst_ + at, b_.values[d], count * sizeof(W));
    if (next_counts_) count_next_digits(d, at, count);
    next_[d] = at + count;
    b_.fill[d] = 0;
  }

  // Counts the next digit of the keys just written to [at, at + count),
  // by destination chunk (a digit's destinations only grow).
  void count_next_digits(unsigned d, std::size_t at, unsigned count) {
    unsigned j = 0;
    while (j < count) {
      while (at + j >= b_.chunk_end[d]) {
        ++b_.chunk[d];
        b_.chunk_end[d] = n_ * std::size_t(b_.chunk[d] + 1) / team_;
      }
      const unsigned stop =
          static_cast<unsigned>(std::min<std::size_t>(count, b_.chunk_end[d] - at));
      std::size_t* counts = next_counts_ + std::size_t(b_.chunk[d]) * Radix;
      for (; j < stop; ++j)
        ++counts[next_digit_(b_.keys[d][j])];
    }
  }

  buffers& b_;
  K* key_dst_;
  W* value_dst_;
  std::size_t* next_;
  digit_of<K> digit_;
  std::size_t* next_counts_;
  digit_of<K> next_digit_;
  std::size_t n_;
  int team_;
  bool stream_;
};

// Keys-only sort of 8- or 16-bit integers over all their bits: count every
// pattern, then write each pattern's key count times.
template <class K>
void counting_sort(host_backend backend, const K* keys_in, K* keys_out, std::size_t n,
                   bool descending) {
  using bits_type = typename radix_key<K>::bits_type;
  constexpr std::size_t patterns = std::size_t{1} << radix_key<K>::bits;
  const int threads = thread_count_for(backend, n);
  std::vector<std::size_t> counts(std::size_t(threads) * patterns);
  std::vector<std::size_t> starts(patterns + 1);
#pragma omp parallel num_threads(threads)
  {
    const int team = omp_get_num_threads();
    const int t = omp_get_thread_num();
    std::size_t* mine = counts.data() + std::size_t(t) * patterns;
    for (std::size_t i = n * t / team; i < n * (t + 1) / team; ++i)
      ++mine[radix_key<K>::to_bits(keys_in[i], descending)];
#pragma omp barrier
#pragma omp single
    {
      std::size_t running = 0;
      for (std::size_t p = 0; p < patterns; ++p) {
        starts[p] = running;
        for (int u = 0; u < team; ++u)
          running += counts[std::size_t(u) * patterns + p];
      }
      starts[patterns] = running;
    }
    // Thread t writes the patterns whose runs start in its share of the
    // output (a pattern's run may reach past it: runs are whole).
#pragma omp for schedule(static)
    for (std::size_t p = 0; p < patterns; ++p) {
      bits_type b = static_cast<bits_type>(descending ? ~p : p);
      if constexpr (std::is_signed_v<K>) b = bits_type(b ^ radix_key<K>::sign_bit);
      std::fill(keys_out + starts[p], keys_out + starts[p + 1], std::bit_cast<K>(b));
    }
  }
}

// The LSD sort with digits of at most log2(Radix) bits.
template <class K, class W, int Radix>
void lsd_radix_sort(host_backend backend, const K* keys_in, K* keys_out, const W* values_in,
                    W* values_out, const detail::radix_sort_plan& plan, host_digits digits) {
  constexpr bool has_values = !std::is_same_v<W, no_value>;
  const std::size_t n = plan.n;
  const int passes = digits.passes();
  const int threads = thread_count_for(backend, n);
  using buffers = typename chunk_scatter<K, W, Radix>::buffers;
  const auto digit_for = [&](int p) {
    return digit_of<K>{digits.shift(p), digits.mask(p), plan.descending};
  };
  // Per chunk u: counts of every pass's digits (step 2), then of the
  // current pass's digits; per thread: where its keys of each digit go and
  // the next pass's counts by destination chunk.
  std::vector<std::size_t> upfront(std::size_t(threads) * passes * Radix);
  std::vector<std::size_t> chunk_counts(std::size_t(threads) * Radix);
  std::vector<std::size_t> offsets(std::size_t(threads) * Radix);
  std::vector<std::size_t> next_counts(std::size_t(threads) * threads * Radix);
  std::vector<int> moving;  // the passes that move keys
  moving.reserve(passes);
  // Arrays far larger than the caches are written with streaming stores:
  // the next pass reads them from memory anyway.
  const bool stream = n * sizeof(K) >= (std::size_t{32} << 20);
  // Allocated before anything is known (untouched pages cost nothing) so
  // that nothing throws inside the parallel region.
  large_buffer<K> key_temp = make_large_buffer<K>(n);
  large_buffer<W> value_temp;
  if constexpr (has_values) value_temp = make_large_buffer<W>(n);
  const K* key_src = keys_in;
  const W* value_src = values_in;
  int team = threads;
  bool out_of_memory = false;

#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();  // OpenMP may give fewer threads than asked for
    const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
    buffers* own = thread_buffers<buffers>();
    if (!own) {
#pragma omp atomic write
      out_of_memory = true;
    }
    {
      int shifts[64];
      unsigned masks[64];
      for (int p = 0; p < passes; ++p) {
        shifts[p] = digits.shift(p);
        masks[p] = digits.mask(p);
      }
      std::size_t* mine = upfront.data() + std::size_t(t) * passes * Radix;
      for (std::size_t i = lo; i < hi; ++i) {
        const auto bits = radix_key<K>::to_bits(keys_in[i], plan.descending);
        for (int p = 0; p < passes; ++p)
          ++mine[std::size_t(p) * Radix + ((bits >> shifts[p]) & masks[p])];
      }
    }
#pragma omp barrier
#pragma omp single
    if (!out_of_memory) {
      for (int p = 0; p < passes; ++p) {
        bool constant = false;
        for (int d = 0; d < Radix && !constant; ++d) {
          std::size_t total = 0;
          for (int u = 0; u < team; ++u)
            total += upfront[(std::size_t(u) * passes + p) * Radix + d];
          constant = total == n;
        }
        if (!constant) moving.push_back(p);
      }
      if (!moving.empty()) {
        for (int u = 0; u < team; ++u)
          std::copy_n(upfront.data() + (std::size_t(u) * passes + moving[0]) * Radix, Radix,
                      chunk_counts.data() + std::size_t(u) * Radix);
      }
    }
    for (std::size_t m = 0; m < moving.size(); ++m) {
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
      const bool count_next = m + 1 < moving.size();
#pragma omp single
      {
        std::size_t running = 0;
        for (int d = 0; d < Radix; ++d) {
          for (int u = 0; u < team; ++u) {
            offsets[std::size_t(u) * Radix + d] = running;
            running += chunk_counts[std::size_t(u) * Radix + d];
          }
        }
        if (count_next) std::fill(next_counts.begin(), next_counts.end(), 0);
      }
      chunk_scatter<K, W, Radix> scatter(
          *own, key_dst, value_dst, offsets.data() + std::size_t(t) * Radix, digit_for(moving[m]),
          count_next ? next_counts.data() + std::size_t(t) * team * Radix : nullptr,
          digit_for(count_next ? moving[m + 1] : moving[m]), n, team, stream);
      scatter.scatter(key_src, value_src, lo, hi);
      scatter.finish();
#pragma omp barrier
#pragma omp single
      {
        if (count_next) {
          std::fill(chunk_counts.begin(), chunk_counts.end(), 0);
          for (int s = 0; s < team; ++s)
            for (std::size_t i = 0; i < std::size_t(team) * Radix; ++i)
              chunk_counts[i] += next_counts[std::size_t(s) * team * Radix + i];
        }
        key_src = key_dst;
        if constexpr (has_values) value_src = value_dst;
      }
    }
    if (key_src != keys_out && !out_of_memory)
      std::memcpy(keys_out + lo, key_src + lo, (hi - lo) * sizeof(K));
    if constexpr (has_values) {
      if (value_src != values_out && !out_of_memory)
        std::memcpy(values_out + lo, value_src + lo, (hi - lo) * sizeof(W));
    }
  }
  if (out_of_memory) throw std::bad_alloc();  // before any key moved
}

// Sorts keys_in -> keys_out (the same memory for an in-place sort), values
// alongside unless W is no_value.
template <class K, class W>
void radix_sort(host_backend backend, const K* keys_in, K* keys_out, const W* values_in,
                W* values_out, const detail::radix_sort_plan& plan) {
  if (plan.n == 0) return;
  if constexpr (std::is_same_v<W, no_value> && std::is_integral_v<K> && sizeof(K) <= 2) {
    if (plan.begin_bit == 0 && plan.end_bit == radix_key<K>::bits && plan.n >= 4096) {
      counting_sort(backend, keys_in, keys_out, plan.n, plan.descending);
      return;
    }
  }
  const host_digits digits = choose_host_digits(plan, thread_count_for(backend, plan.n));
  if (digits.width == 11) {
    lsd_radix_sort<K, W, 2048>(backend, keys_in, keys_out, values_in, values_out, plan, digits);
  } else {
    lsd_radix_sort<K, W, 256>(backend, keys_in, keys_out, values_in, values_out, plan, digits);
  }
}

}  // namespace gpuprim::host_detail
