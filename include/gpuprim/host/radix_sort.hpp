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
#include "gpuprim/host/reduce.hpp"
#include "gpuprim/host/simd_sort.hpp"
#include "gpuprim/host/streaming_store.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::host_impl {

// Keys only: a value type that moves nothing (shared with the GPU backend).
using detail::no_value;

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

// The digit of a key already turned into its bit pattern.
template <class U>
struct bits_digit {
  int shift;
  unsigned mask;
  unsigned operator()(U bits) const { return static_cast<unsigned>(bits >> shift) & mask; }
};

// What a pass writes for the key it read: the key itself, its bit pattern
// (the first of several passes), or the key back from its pattern (the last).
struct same_key {
  template <class K>
  K operator()(K key) const {
    return key;
  }
};
template <class K>
struct key_to_bits {
  bool descending;
  typename radix_key<K>::bits_type operator()(K key) const {
    return radix_key<K>::to_bits(key, descending);
  }
};
// The inverse of radix_key<K>::to_bits for every pattern but NaN's (which
// to_bits maps all to one pattern).
template <class K>
struct bits_to_key {
  using U = typename radix_key<K>::bits_type;
  bool descending;
  K operator()(U b) const {
    if (descending) b = U(~b);
    if constexpr (std::is_floating_point_v<K>) {
      b = (b & radix_key<K>::sign_bit) ? U(b ^ radix_key<K>::sign_bit) : U(~b);
    } else if constexpr (std::is_signed_v<K>) {
      b = U(b ^ radix_key<K>::sign_bit);
    }
    return std::bit_cast<K>(b);
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
// TLB miss per key. S is the key type read, K the type written (conv(key));
// Digit gives a read key's digit, NextDigit a written key's next digit.
template <class S, class K, class W, int Radix, class Digit = digit_of<K>, class Conv = same_key,
          class NextDigit = Digit>
class chunk_scatter {
 public:
  static_assert(sizeof(S) == sizeof(K));
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
  chunk_scatter(buffers& b, K* key_dst, W* value_dst, std::size_t* next, Digit digit, Conv conv,
                std::size_t* next_counts, NextDigit next_digit, std::size_t n, int team,
                bool stream)
      : b_(b),
        key_dst_(key_dst),
        value_dst_(value_dst),
        next_(next),
        digit_(digit),
        conv_(conv),
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

  void scatter(const S* key_src, const W* value_src, std::size_t lo, std::size_t hi) {
    // Locals, not members, in the loop: the byte-sized stores to `fill`
    // may alias anything, and members would be reloaded after each.
    buffers& b = b_;
    const Digit digit = digit_;
    const Conv conv = conv_;
    for (std::size_t i = lo; i < hi; ++i) {
      const S key = key_src[i];
      const unsigned d = digit(key);
      const unsigned f = b.fill[d];
      b.keys[d][f] = conv(key);
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
  Digit digit_;
  Conv conv_;
  std::size_t* next_counts_;
  NextDigit next_digit_;
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
  using U = typename radix_key<K>::bits_type;
  using buffers = typename chunk_scatter<K, K, W, Radix>::buffers;
  const auto digit_for = [&](int p) {
    return digit_of<K>{digits.shift(p), digits.mask(p), plan.descending};
  };
  const auto bits_digit_for = [&](int p) { return bits_digit<U>{digits.shift(p), digits.mask(p)}; };
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
  // With two or more moving passes, the first writes the keys' bit patterns,
  // the middle ones move patterns and the last turns them back into keys,
  // so only two passes pay radix_key's transform. Not when there are NaNs:
  // their patterns are all one, and a NaN's payload must survive.
  bool has_nan = false;
  bool as_bits = false;

#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();  // OpenMP may give fewer threads than asked for
    const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
    void* own = thread_buffers<buffers>();
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
      bool nan = false;
      for (std::size_t i = lo; i < hi; ++i) {
        const auto bits = radix_key<K>::to_bits(keys_in[i], plan.descending);
        if constexpr (std::is_floating_point_v<K>) nan |= bits == radix_key<K>::all_ones;
        for (int p = 0; p < passes; ++p)
          ++mine[std::size_t(p) * Radix + ((bits >> shifts[p]) & masks[p])];
      }
      if (nan) {
#pragma omp atomic write
        has_nan = true;
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
      as_bits = moving.size() >= 2 && !has_nan;
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
      const auto run_pass = [&]<class S, class D, class Digit, class Conv, class NextDigit>(
                                const S* src, D* dst, Digit digit, Conv conv, NextDigit next) {
        using scatter_type = chunk_scatter<S, D, W, Radix, Digit, Conv, NextDigit>;
        scatter_type scatter(
            *static_cast<typename scatter_type::buffers*>(own), dst, value_dst,
            offsets.data() + std::size_t(t) * Radix, digit, conv,
            count_next ? next_counts.data() + std::size_t(t) * team * Radix : nullptr, next, n,
            team, stream);
        scatter.scatter(src, value_src, lo, hi);
        scatter.finish();
      };
      const int p = moving[m];
      const int p_next = count_next ? moving[m + 1] : p;
      if (!as_bits) {
        run_pass(key_src, key_dst, digit_for(p), same_key{}, digit_for(p_next));
      } else if (m == 0) {
        run_pass(key_src, reinterpret_cast<U*>(key_dst), digit_for(p),
                 key_to_bits<K>{plan.descending}, bits_digit_for(p_next));
      } else if (count_next) {
        run_pass(reinterpret_cast<const U*>(key_src), reinterpret_cast<U*>(key_dst),
                 bits_digit_for(p), same_key{}, bits_digit_for(p_next));
      } else {
        run_pass(reinterpret_cast<const U*>(key_src), key_dst, bits_digit_for(p),
                 bits_to_key<K>{plan.descending}, digit_for(p));
      }
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

// Keys-only sorts of many keys with three or more digits: one parallel pass
// by the top digit into buckets (most significant digit first), then every
// bucket sorted by the remaining digits (least significant first) by one
// thread, the threads taking buckets as they get to them. A bucket of
// random 32-bit keys is ~n/1024 keys, so its passes run in the core's own
// cache: two sweeps of memory (the count and the top pass) instead of one
// a digit. Keys move as their bit patterns and turn back into keys when
// they reach keys_out. Returns false, having moved nothing, where the top
// digit splits the keys badly (a bucket of more than n / 8 keys would sort
// on one thread) or a NaN is among them (its payload must survive); the
// caller then runs the LSD sort.
inline constexpr std::size_t msd_min_keys = std::size_t{1} << 20;

// Whether a sample of the keys (every 61st) puts at most a ninth of them in
// any one top digit: the top-digit-first sort's condition (at most n / 8
// exactly), checked before it reads every key, so that keys it would turn
// away (normal doubles: a few exponents hold most keys) cost a sample, not
// a read of the whole array.
template <class K, int Radix>
bool top_digit_spreads(const K* keys, const detail::radix_sort_plan& plan, host_digits digits) {
  const int top = digits.passes() - 1;
  const int shift = digits.shift(top);
  const unsigned mask = digits.mask(top);
  std::vector<std::uint32_t> counts(Radix);
  std::uint32_t samples = 0, largest = 0;
  for (std::size_t i = 0; i < plan.n; i += 61, ++samples) {
    const unsigned d =
        static_cast<unsigned>(radix_key<K>::to_bits(keys[i], plan.descending) >> shift) & mask;
    largest = std::max(largest, ++counts[d]);
  }
  return largest <= samples / 9;
}

template <class K, int Radix>
bool msd_lsd_sort(host_backend backend, const K* keys_in, K* keys_out,
                  const detail::radix_sort_plan& plan, host_digits digits) {
  using U = typename radix_key<K>::bits_type;
  const std::size_t n = plan.n;
  const int passes = digits.passes();
  const int top = passes - 1;
  const int rest = passes - 1;  // the digits sorted inside a bucket: 0 .. rest-1
  const int threads = thread_count_for(backend, n);
  const bool desc = plan.descending;
  const digit_of<K> top_digit{digits.shift(top), digits.mask(top), desc};
  std::vector<std::size_t> counts(std::size_t(threads) * Radix);
  std::vector<std::size_t> offsets(std::size_t(threads) * Radix);
  std::vector<std::size_t> bucket_start(Radix + 1);
  // The top pass writes patterns to `stage`; a bucket's passes alternate
  // between stage and the other array, the last writing keys to keys_out.
  // Out of place with an even number of bucket passes, stage is keys_out
  // itself, so a bucket of random keys needs no copy at the end.
  large_buffer<U> temp = make_large_buffer<U>(n);
  U* const out_bits = reinterpret_cast<U*>(keys_out);
  U* const stage = (keys_in != keys_out && rest % 2 == 0) ? out_bits : temp.get();
  U* const other = stage == out_bits ? temp.get() : out_bits;
  const bool stream = n * sizeof(K) >= (std::size_t{32} << 20);
  int team = threads;
  bool has_nan = false, skewed = false, out_of_memory = false;
  using top_scatter =
      chunk_scatter<K, U, no_value, Radix, digit_of<K>, key_to_bits<K>, bits_digit<U>>;
  struct bucket_tables {
    std::uint32_t counts[8][Radix];
    std::uint32_t next[Radix];
    std::size_t wide_next[Radix];
  };
  // Buckets from this many keys (256 KiB of 4-byte keys) move through the
  // digit buffers; smaller ones are written straight to their places.
  constexpr std::size_t bucket_combine_min = (std::size_t{256} << 10) / sizeof(K);

#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num();
#pragma omp single
    team = omp_get_num_threads();
    const std::size_t lo = n * t / team, hi = n * (t + 1) / team;
    {
      std::size_t* mine = counts.data() + std::size_t(t) * Radix;
      bool nan = false;
      for (std::size_t i = lo; i < hi; ++i) {
        const U bits = radix_key<K>::to_bits(keys_in[i], desc);
        if constexpr (std::is_floating_point_v<K>) nan |= bits == radix_key<K>::all_ones;
        ++mine[(bits >> digits.shift(top)) & digits.mask(top)];
      }
      if (nan) {
#pragma omp atomic write
        has_nan = true;
      }
    }
#pragma omp barrier
#pragma omp single
    {
      std::size_t running = 0;
      for (int d = 0; d < Radix; ++d) {
        bucket_start[d] = running;
        std::size_t bucket = 0;
        for (int u = 0; u < team; ++u) {
          offsets[std::size_t(u) * Radix + d] = running + bucket;
          bucket += counts[std::size_t(u) * Radix + d];
        }
        if (bucket > n / 8) skewed = true;
        running += bucket;
      }
      bucket_start[Radix] = running;
    }
    // (the barrier after `single` publishes has_nan and skewed to all)
    if (!has_nan && !skewed) {
      void* own = thread_buffers<typename top_scatter::buffers>();
      bucket_tables* tables = nullptr;
      if (own) tables = static_cast<bucket_tables*>(std::malloc(sizeof(bucket_tables)));
      if (!tables) {
#pragma omp atomic write
        out_of_memory = true;
      }
#pragma omp barrier
      if (!out_of_memory) {
        top_scatter scatter(*static_cast<typename top_scatter::buffers*>(own), stage, nullptr,
                            offsets.data() + std::size_t(t) * Radix, top_digit,
                            key_to_bits<K>{desc}, nullptr, bits_digit<U>{0, 0}, n, team, stream);
        scatter.scatter(keys_in, nullptr, lo, hi);
        scatter.finish();
      }
#pragma omp barrier
      if (!out_of_memory) {
        const bits_to_key<K> to_key{desc};
#pragma omp for schedule(dynamic, 1) nowait
        for (int b = 0; b < Radix; ++b) {
          const std::size_t first = bucket_start[b], m = bucket_start[b + 1] - first;
          if (m == 0) continue;
          U* src = stage + first;
          U* dst = other + first;
          // Every remaining digit's counts in one read; constant digits are skipped.
          for (int p = 0; p < rest; ++p)
            std::fill_n(tables->counts[p], Radix, 0u);
          for (std::size_t i = 0; i < m; ++i) {
            const U bits = src[i];
            for (int p = 0; p < rest; ++p)
              ++tables->counts[p][(bits >> digits.shift(p)) & digits.mask(p)];
          }
          int moving[8];
          int moves = 0;
          for (int p = 0; p < rest; ++p) {
            const std::uint32_t* c = tables->counts[p];
            if (c[(src[0] >> digits.shift(p)) & digits.mask(p)] != m) moving[moves++] = p;
          }
          for (int j = 0; j < moves; ++j) {
            const int p = moving[j];
            const int shift = digits.shift(p);
            const unsigned mask = digits.mask(p);
            std::uint32_t running = 0;
            for (int d = 0; d < Radix; ++d) {
              tables->next[d] = running;
              running += tables->counts[p][d];
            }
            std::uint32_t* next = tables->next;
            if (m >= bucket_combine_min) {
              // A bucket larger than the core's cache: through the digit
              // buffers, as the LSD sort's passes.
              std::size_t* wide = tables->wide_next;
              for (int d = 0; d < Radix; ++d)
                wide[d] = next[d];
              void* line_buffers = own;
              if (j + 1 == moves && dst == out_bits + first) {
                using last_scatter =
                    chunk_scatter<U, K, no_value, Radix, bits_digit<U>, bits_to_key<K>>;
                last_scatter sc(*static_cast<typename last_scatter::buffers*>(line_buffers),
                                keys_out + first, nullptr, wide, bits_digit<U>{shift, mask}, to_key,
                                nullptr, bits_digit<U>{0, 0}, m, 1, false);
                sc.scatter(src, nullptr, 0, m);
                sc.finish();
              } else {
                using mid_scatter = chunk_scatter<U, U, no_value, Radix, bits_digit<U>>;
                mid_scatter sc(*static_cast<typename mid_scatter::buffers*>(line_buffers), dst,
                               nullptr, wide, bits_digit<U>{shift, mask}, same_key{}, nullptr,
                               bits_digit<U>{0, 0}, m, 1, false);
                sc.scatter(src, nullptr, 0, m);
                sc.finish();
              }
            } else if (j + 1 == moves && dst == out_bits + first) {
              // The last pass lands in keys_out: it writes keys, not patterns.
              K* key_dst = keys_out + first;
              for (std::size_t i = 0; i < m; ++i) {
                const U bits = src[i];
                key_dst[next[(bits >> shift) & mask]++] = to_key(bits);
              }
            } else {
              for (std::size_t i = 0; i < m; ++i) {
                const U bits = src[i];
                dst[next[(bits >> shift) & mask]++] = bits;
              }
            }
            std::swap(src, dst);
          }
          // src holds the bucket now: patterns, unless it is keys_out's part
          // and the last pass wrote keys.
          if (src != out_bits + first) {
            for (std::size_t i = 0; i < m; ++i)
              keys_out[first + i] = to_key(src[i]);
          } else if (moves == 0) {
            for (std::size_t i = 0; i < m; ++i)
              keys_out[first + i] = to_key(src[i]);  // patterns in place
          }
        }
      }
      std::free(tables);
    }
  }
  if (out_of_memory) throw std::bad_alloc();  // before any key moved
  return !has_nan && !skewed;
}

// Keys-only sorts of 32- and 64-bit keys over all their bits through the
// vectorised quicksort of simd_sort.hpp (the key as the fixed-width type of
// its size and signedness); false where it does not run.
template <class K>
bool simd_sort_of(const K* keys_in, K* keys_out, std::size_t n, bool descending) {
  if constexpr (std::is_floating_point_v<K>) {
    return simd_sort_keys(keys_in, keys_out, n, descending);
  } else {
    using F = std::conditional_t<std::is_signed_v<K>,
                                 std::conditional_t<sizeof(K) == 4, std::int32_t, std::int64_t>,
                                 std::conditional_t<sizeof(K) == 4, std::uint32_t, std::uint64_t>>;
    return simd_sort_keys(reinterpret_cast<const F*>(keys_in), reinterpret_cast<F*>(keys_out), n,
                          descending);
  }
}

// Sorts keys_in -> keys_out (the same memory for an in-place sort), values
// alongside unless W is no_value. Keys only, over all bits, 32- or 64-bit
// keys: the vectorised quicksort where the processor has AVX-512 (one
// thread; not stable, which keys alone cannot show), else the radix sort.
template <class K, class W>
void radix_sort(host_backend backend, const K* keys_in, K* keys_out, const W* values_in,
                W* values_out, const detail::radix_sort_plan& plan) {
  if (plan.n == 0) return;
  if constexpr (std::is_same_v<W, no_value> && (sizeof(K) == 4 || sizeof(K) == 8)) {
    if (plan.begin_bit == 0 && plan.end_bit == radix_key<K>::bits &&
        simd_sort_of(keys_in, keys_out, plan.n, plan.descending)) {
      return;
    }
  }
  if constexpr (std::is_same_v<W, no_value> && std::is_integral_v<K> && sizeof(K) <= 2) {
    if (plan.begin_bit == 0 && plan.end_bit == radix_key<K>::bits && plan.n >= 4096) {
      counting_sort(backend, keys_in, keys_out, plan.n, plan.descending);
      return;
    }
  }
  const host_digits digits = choose_host_digits(plan, thread_count_for(backend, plan.n));
  if constexpr (std::is_same_v<W, no_value> && sizeof(K) >= 4) {
    if (digits.width == 11 && digits.passes() >= 3 && digits.passes() <= 9 &&
        plan.n >= msd_min_keys && plan.n < (std::size_t{1} << 32) &&
        top_digit_spreads<K, 2048>(keys_in, plan, digits) &&
        msd_lsd_sort<K, 2048>(backend, keys_in, keys_out, plan, digits)) {
      return;
    }
  }
  if (digits.width == 11) {
    lsd_radix_sort<K, W, 2048>(backend, keys_in, keys_out, values_in, values_out, plan, digits);
  } else {
    lsd_radix_sort<K, W, 256>(backend, keys_in, keys_out, values_in, values_out, plan, digits);
  }
}

}  // namespace gpuprim::host_impl
