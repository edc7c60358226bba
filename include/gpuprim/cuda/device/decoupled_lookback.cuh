// Decoupled look-back (Merrill & Garland, "Single-pass Parallel Prefix Scan
// with Decoupled Look-back", 2016): how tile t of a single-pass scan learns
// the combination of all tiles before it without waiting for tile t-1 to
// finish its whole scan.
//
// Each tile publishes its own aggregate as soon as it has reduced its data
// (kind A), then overwrites it with its inclusive prefix once it knows its
// exclusive prefix (kind P). A tile polls the 32 tiles before it, one per
// lane, until one of them shows a P, then folds the aggregates after that P
// onto it.
//
// Reproducibility: every P is the strict left fold
// (((a_0 op a_1) op a_2) ... op a_t) of the tiles' aggregates, and folding
// a_{j+1} .. a_{t-1} onto P(j) in order gives that same fold bit for bit,
// whichever j a tile happened to find: floating-point scans give the same
// bits on every run. (A tree over the window, as in CUB, would be faster
// to combine but would round differently depending on timing.)
//
// Status words (cuda/support/workspace.cuh): 64 bits per tile, the flag
// (epoch * 8 + spare bit * 4 + kind) in the upper half, read and written
// with relaxed device-scope atomics. A value of up to 4 bytes (plus one
// spare bit: a segmented scan's head flag) rides in the lower half, so one
// load sees flag and value together: no fence, one L2 round trip per poll. Larger values go to a
// side array, written and fenced before the flag, and read after a fence once the flag is seen.
// A look-back asked for with PairedWords (the selection's reductions: a run count and the open
// run's value) gives a value of 5 to 8 bytes two status words per tile, written and read as one
// 16-byte access: each word's upper half is the same flag and its lower half half of the value. A
// reader accepts the pair only when both flags are equal and of this epoch, so a pair read while
// it was being rewritten is polled again, and still no fence is needed.
#pragma once

#include <cuda/atomic>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/support/shuffle_up.cuh"
#include "gpuprim/cuda/support/workspace.cuh"

namespace gpuprim::cuda_impl {

// How a tile's value rides in its status word: 32 payload bits in the lower
// half plus one spare bit in the flag half. Values of up to 4 bytes pack;
// so does a segmented scan's (value, head) pair when the value has 4 bytes
// or fewer, with the head in the spare bit.
template <class T>
struct status_packing {
  static constexpr bool packed = sizeof(T) <= 4;
  static __device__ void encode(const T& v, unsigned& bits, unsigned& spare) {
    bits = 0;
    memcpy(&bits, &v, sizeof(T));
    spare = 0;
  }
  static __device__ T decode(unsigned bits, unsigned) {
    T v;
    memcpy(&v, &bits, sizeof(T));
    return v;
  }
};

// A segmented scan's (value, head) pair: the value packs like a plain one,
// the head rides in the spare bit.
template <class V>
struct status_packing<flagged<V>> {
  static constexpr bool packed = sizeof(V) <= 4;
  static __device__ void encode(const flagged<V>& v, unsigned& bits, unsigned& spare) {
    status_packing<V>::encode(v.value, bits, spare);
    spare = v.head ? 1u : 0u;
  }
  static __device__ flagged<V> decode(unsigned bits, unsigned spare) {
    return {status_packing<V>::decode(bits, 0), spare != 0};
  }
};

// Sleeps about `ns` nanoseconds (the look-back's polling back-off; a no-op
// before sm_70, which has no __nanosleep).
__device__ __forceinline__ void lookback_sleep(unsigned ns) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
  __nanosleep(ns);
#else
  (void)ns;
#endif
}

// Two status words of one tile, as one 16-byte access sees them.
struct status_pair {
  unsigned long long low, high;
};

template <class T, bool PairedWords = false>
struct tile_lookback {
  static constexpr unsigned aggregate = 1;  // kinds
  static constexpr unsigned inclusive_prefix = 2;
  // The value travels in two status words (see the note at the top).
  static constexpr bool paired = PairedWords && !status_packing<T>::packed && sizeof(T) <= 8 &&
                                 std::is_trivially_copyable_v<T>;
  // The value travels in the status word(s): no side array, no fence.
  static constexpr bool packed = status_packing<T>::packed || paired;
  static constexpr int words_per_tile = paired ? 2 : 1;
  using word = std::conditional_t<paired, status_pair, unsigned long long>;

  unsigned long long* status;  // words_per_tile words per tile
  T* values;                   // !packed: two per tile, [2t] aggregate, [2t + 1] prefix
  unsigned epoch;

  struct entry {
    unsigned kind;
    T value;
  };

  // Both words of a pair in one relaxed 16-byte access (each word single-copy atomic).
  static __device__ status_pair load_status(const status_pair* p) {
    status_pair w;
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
    asm volatile("ld.relaxed.gpu.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(w.low), "=l"(w.high)
                 : "l"(p)
                 : "memory");
#else
    asm volatile("ld.volatile.global.v2.u64 {%0, %1}, [%2];"
                 : "=l"(w.low), "=l"(w.high)
                 : "l"(p)
                 : "memory");
#endif
    return w;
  }
  static __device__ void store_status(status_pair* p, const status_pair& w) {
#if !defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 700
    asm volatile("st.relaxed.gpu.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w.low), "l"(w.high)
                 : "memory");
#else
    asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(p), "l"(w.low), "l"(w.high)
                 : "memory");
#endif
  }
  __device__ status_pair* pair_at(long long tile) const {
    return reinterpret_cast<status_pair*>(status + 2 * tile);
  }

  // Whether word w (published or not) shows a publication of this epoch.
  __device__ bool current(const unsigned long long& w) const { return (w >> 35) == epoch; }
  __device__ bool current(const status_pair& w) const {
    return (w.low >> 35) == epoch && (w.low >> 32) == (w.high >> 32);
  }
  static __device__ unsigned long long flag_word(const unsigned long long& w) { return w; }
  static __device__ unsigned long long flag_word(const status_pair& w) { return w.low; }

  // Relaxed device-scope 64-bit accesses: single-copy atomic (flag and
  // packed value travel together), served at L2, never hoisted out of a
  // polling loop.
  static __device__ unsigned long long load_status(unsigned long long* p) {
    return cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*p).load(
        cuda::memory_order_relaxed);
  }
  static __device__ void store_status(unsigned long long* p, unsigned long long w) {
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(*p).store(
        w, cuda::memory_order_relaxed);
  }

  // Upper half of a status word: epoch * 8 + spare * 4 + kind.
  __device__ unsigned long long word_flag(unsigned kind, unsigned spare) const {
    return static_cast<unsigned long long>(epoch * 8 + spare * 4 + kind) << 32;
  }

  __device__ void publish(unsigned long long tile, unsigned kind, const T& value) const {
    if constexpr (paired) {
      unsigned long long bits = 0;
      memcpy(&bits, &value, sizeof(T));
      const unsigned long long flag = word_flag(kind, 0);
      store_status(pair_at(static_cast<long long>(tile)),
                   status_pair{flag | (bits & 0xffffffffull), flag | (bits >> 32)});
    } else if constexpr (status_packing<T>::packed) {
      unsigned bits, spare;
      status_packing<T>::encode(value, bits, spare);
      store_status(&status[tile], word_flag(kind, spare) | bits);
    } else {
      values[2 * tile + (kind == inclusive_prefix ? 1 : 0)] = value;
      __threadfence();  // the value is visible before the flag
      store_status(&status[tile], word_flag(kind, 0));
    }
  }

  // Tile p's status word as it is now (published in this epoch or not):
  // several of these can be in flight at once, then read(p, word) each.
  __device__ word peek(long long p) const {
    if constexpr (paired) {
      return load_status(pair_at(p));
    } else {
      return load_status(&status[p]);
    }
  }

  // Waits until tile p has published in this epoch; returns what it has.
  __device__ entry read(long long p) const { return read(p, peek(p)); }

  // The same, starting from a word `w` already loaded from tile p; with
  // DelayNs, sleeps that long (__nanosleep) before each reload, polling L2
  // less often.
  template <int DelayNs = 0>
  __device__ entry read(long long p, word w) const {
    while (!current(w)) {
      if constexpr (DelayNs > 0) lookback_sleep(DelayNs);
      w = peek(p);
    }
    entry e{static_cast<unsigned>(flag_word(w) >> 32) & 3u, T{}};
    if constexpr (paired) {
      const unsigned long long bits = (w.low & 0xffffffffull) | (w.high << 32);
      memcpy(&e.value, &bits, sizeof(T));
    } else if constexpr (status_packing<T>::packed) {
      e.value =
          status_packing<T>::decode(static_cast<unsigned>(w), static_cast<unsigned>(w >> 34) & 1u);
    } else {
      __threadfence();  // the flag was seen before the value is read
      e.value = values[2 * p + (e.kind == inclusive_prefix ? 1 : 0)];
    }
    return e;
  }

  // This lane's entry value in group `group` of a look-back window (group
  // is the same in every lane; selects, not an indexed array, so the
  // entries stay in registers).
  template <int Words>
  static __device__ T value_in_group(const entry (&e)[Words], int group) {
    T v = e[0].value;
#pragma unroll
    for (int j = 1; j < Words; ++j)
      v = j == group ? e[j].value : v;
    return v;
  }

  // Called by all 32 lanes of one warp, for tile > 0. Returns
  // (((a_0 op a_1) ... op a_{tile-1}) (see the note at the top).
  //
  // Polls the 32 * Words tiles just before this one (lane l reads tiles
  // tile - 1 - l - 32 j for j < Words, all loads in flight at once) until
  // one of them has published its inclusive prefix. Tiles never walk further
  // back: a tile that did would fold forward from an old prefix over many
  // windows while the front of published prefixes, which moves up to
  // 32 * Words tiles per poll of the tiles right behind it, ran past it.
  // Tile 0 always publishes a prefix, so the front reaches every tile. A
  // wider window lets the front move further per L2 round trip, which is
  // what bounds a scan with many small tiles (docs/families/scan.md).
  //
  // FirstDelayNs and PollDelayNs (for tuning; CUB's sm_90 scan waits about
  // 1.1 us before its first poll and 0.7 us between polls): a sleep before
  // the first poll, giving the tiles behind time to publish, and before
  // each later poll, so that hundreds of waiting warps load L2 less.
  template <int Words = 1, int FirstDelayNs = 0, int PollDelayNs = 0, class Op>
  __device__ T exclusive_prefix(unsigned long long tile, Op op) const {
    const int lane = threadIdx.x % 32;
    const long long end = static_cast<long long>(tile);
    auto tile_of = [&](int j) { return end - 1 - lane - 32LL * j; };
    entry e[Words];
    unsigned prefixes[Words];
    int group = -1;  // the nearest group of 32 tiles holding a prefix
    if constexpr (FirstDelayNs > 0) lookback_sleep(FirstDelayNs);
    for (bool first = true;; first = false) {
      if constexpr (PollDelayNs > 0) {
        if (!first) lookback_sleep(PollDelayNs);
      }
      word words[Words];
#pragma unroll
      for (int j = 0; j < Words; ++j)
        words[j] = tile_of(j) >= 0 ? peek(tile_of(j)) : word{};
#pragma unroll
      for (int j = 0; j < Words; ++j) {
        // Before tile 0 (only in tiles < 32 * Words): a stand-in prefix that
        // is never the nearest, since tile 0's own prefix is nearer.
        e[j] = tile_of(j) >= 0 ? read<PollDelayNs>(tile_of(j), words[j])
                               : entry{inclusive_prefix, T{}};
        prefixes[j] = __ballot_sync(full_warp_mask, e[j].kind == inclusive_prefix);
      }
#pragma unroll
      for (int j = Words - 1; j >= 0; --j) {
        if (prefixes[j]) group = j;
      }
      if (group >= 0) break;
    }
    // Fold the entries in hand, oldest first, from the nearest prefix.
    // When prefixes keep up, that prefix is a tile or two back and the
    // fold is short; it is on the path of every later tile. (group and the
    // lanes are the same in every lane, so the shuffles are uniform.)
    // Group `group` from its prefix's lane down to lane 0, then every
    // nearer group from lane 31 down.
    int from = 0;
#pragma unroll
    for (int j = 0; j < Words; ++j) {
      if (j == group) from = __ffs(prefixes[j]) - 1;
    }
    const T mine = value_in_group(e, group);
    T acc = shuffle_from(mine, from);
    for (int l = from - 1; l >= 0; --l)
      acc = op(acc, shuffle_from(mine, l));
#pragma unroll
    for (int j = Words - 2; j >= 0; --j) {
      if (j < group) {
        for (int l = 31; l >= 0; --l)
          acc = op(acc, shuffle_from(e[j].value, l));
      }
    }
    return acc;
  }
};

// The look-back's polling defaults for the single-pass kernels (scan,
// segmented scan, selection), measured on the scan:
//
// Status words each lane of the look-back warp polls at once: 32 tiles per
// word (see tile_lookback::exclusive_prefix; a template parameter of
// launch_scan, for tuning). 2 (64 tiles a round trip) measured best
// (lab/probes/probe_scan.cu, float sums: 2^28 0.83x CUB with 1, 0.89x with
// 2, 0.82x with 4; 2^24 0.83x, 0.91x, 0.88x; 2^20 1.13x, 1.21x, 1.16x).
inline constexpr int scan_lookback_words = 2;

// The look-back warp's sleep before its first poll, in ns: the tiles just
// behind have then mostly published, and the waiting warps load L2 less.
// Measured (lab/probes/probe_scan.cu, 256 x 40 tiles, two runs): 1000 ns
// against none, 2^20 floats 12.0 vs 12.9 us and 1.34x
// vs 1.29x CUB, 2^24 61.4 vs 62.9 us, 2^28 772.0 vs 773.7 us and 1-2%.
inline constexpr int scan_first_poll_delay_ns = 1000;

// The status words of `tiles` tiles for one launch, from the stream's
// workspace (with the side array of values that do not pack). A tile
// learns its index from blockIdx.x, so past 2^31 - 1 tiles this throws
// std::invalid_argument naming `what` (the calling function).
template <class T, bool PairedWords = false>
tile_lookback<T, PairedWords> stream_tile_lookback(stream_t stream, std::uint64_t tiles,
                                                   const char* what) {
  using lookback = tile_lookback<T, PairedWords>;
  if (tiles > 0x7fffffffull) throw std::invalid_argument(std::string(what) + ": input too large");
  const lookback_workspace ws = stream_lookback_workspace(
      stream, tiles * lookback::words_per_tile, lookback::packed ? 0 : 2 * sizeof(T));
  return {ws.status, static_cast<T*>(ws.values), ws.epoch};
}

}  // namespace gpuprim::cuda_impl
