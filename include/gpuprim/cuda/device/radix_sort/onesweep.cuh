// The GPU radix sort's kernels for inputs of more than one tile: LSD, 8
// bits a pass, one pass = one launch ("onesweep", Adinets & Merrill 2022).
// The host driver that launches them is cuda/device/device_radix_sort.cuh.
//
//   radix_digit_histograms  one read of the keys counts every pass's digits
//                           (shared-memory counters per block, then global;
//                           a digit the same in a whole warp's keys is
//                           added once for the warp).
//   radix_route_passes      one block: each pass's counts become where each
//                           digit's keys start in the pass's output; a pass
//                           whose digit is the same for all n keys is
//                           trivial (its stable reorder is the identity),
//                           and the block writes each pass's route: skip it,
//                           sort, or copy, and between which buffers, so
//                           that the last move lands in the output.
//   radix_onesweep_pass (xP) one block per tile of 256 * Items keys (or
//                           resident blocks that take tiles in order from a
//                           counter); reads its pass's route first (skipped
//                           passes return at once, copies move their tiles
//                           as they are):
//     1. load the tile, count its digits and publish the counts at once;
//        then rank the tile stably by the pass's digit (block_radix_rank);
//     2. learn from the tiles before it, by decoupled look-back per digit
//        (thread d follows digit d), how many keys of each digit they hold,
//        and publish this tile's inclusive count;
//     3. the global start of digit d plus that look-back sum is where this
//        tile's run of digit d goes;
//     4. reorder the tile in shared memory by rank and write each run out:
//        consecutive threads write consecutive addresses within a run.
//   Values follow their keys through the same ranks.
//
// The routes are decided on the device, so a sort stays one stream-ordered
// sequence of launches (no host synchronization: queued calls and graph
// capture keep working); the host launches every pass, and a skipped one
// costs an empty launch (each block reads 4 bytes and returns). The design
// that skips nothing (every pass sorts, on routes the host planned, and
// the histogram adds one a key and pass) stays runnable with
// radix_launch_config::skip_constant_digits false, for the probes and the
// sort ladder.
//
// Tiles learn their index from blockIdx.x and wait only on lower tiles,
// which the hardware starts first (on a resident grid, from a counter, so
// a tile's number is taken after every lower one's): the scan's look-back
// (cuda/device/decoupled_lookback.cuh), whose status words and
// per-pass epochs this reuses (one word per tile and digit, the count in
// the lower half: fewer than 2^32 keys per call).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/block/block_radix_rank.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/support/prefetch.cuh"
#include "gpuprim/cuda/support/shuffle.cuh"
#include "gpuprim/detail/sort/routes.hpp"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::cuda_impl {

// A pass's digit of a key: bits [shift, shift + 8) of its order pattern,
// masked to the pass's width (the last pass of a bit range may be narrower).
template <class K>
struct radix_digit {
  int shift;
  unsigned mask;
  bool descending;
  __device__ unsigned operator()(K key) const {
    return static_cast<unsigned>(radix_key<K>::to_bits(key, descending) >> shift) & mask;
  }
};

// Keys only: values of this type are never loaded or stored.
struct no_values {};

using detail::radix_buffer;
using detail::radix_copy_tiles;
using detail::radix_input;
using detail::radix_max_passes;
using detail::radix_output;
using detail::radix_route;
using detail::radix_skip;
using detail::radix_sort_tiles;

// The arrays of radix_buffer, for keys and values.
template <class K, class V>
struct radix_buffers {
  const K* keys_in;
  K* keys_out;
  K* keys_temp;
  const V* values_in;
  V* values_out;
  V* values_temp;
  __device__ const K* keys(unsigned b) const {
    return b == radix_input ? keys_in : b == radix_output ? keys_out : keys_temp;
  }
  __device__ K* keys_to(unsigned b) const { return b == radix_output ? keys_out : keys_temp; }
  __device__ const V* values(unsigned b) const {
    return b == radix_input ? values_in : b == radix_output ? values_out : values_temp;
  }
  __device__ V* values_to(unsigned b) const { return b == radix_output ? values_out : values_temp; }
};

// Keys per thread: 32 when keys and values are at most 4 bytes (8192 keys a
// tile), 16 otherwise (a 32 KB stage of 8-byte keys or values: more would
// pass the 48 KB of static shared memory). Measured on sm_90 from 2^20 to
// 2^28 (lab/probes/probe_radix_tile.cu): bigger tiles mean fewer tiles, so less
// per-tile work (counter setup, digit scan, look-back, barriers) per key;
// at 2^28 u32 keys went from 0.84x CUB at 16 to 0.94x at 32, u64 keys from
// 0.86x at 12 to 0.96x at 16, and 2^20 stayed above 1.25x. (CUB's sm_90
// tiles are 384 threads x 17-30 keys.) A template parameter of the kernels
// below, for tuning.
template <class K, class V>
inline constexpr int radix_items = sizeof(K) <= 4 &&
                                           (std::is_same_v<V, no_values> || sizeof(V) <= 4)
                                       ? 32
                                       : 16;

// A tile's shared memory. Rank: the ranking (block_radix_rank; the probes
// name others of the same contract, lab/probes/radix_match_rank.cuh).
template <class K, class V, int Items, class Rank = block_radix_rank>
struct radix_tile_storage {
  static constexpr int items = Items;
  static constexpr int tile = block_radix_rank::threads * items;
  static constexpr std::size_t stage_bytes =
      tile * (sizeof(K) > sizeof(V) || std::is_same_v<V, no_values> ? sizeof(K) : sizeof(V));
  unsigned run_offset[radix_digits];  // global index of the run of digit d minus its tile start
  unsigned char
      digit_of_slot[std::is_same_v<V, no_values> ? 1 : tile];  // with values: digit at each slot
  // The ranking's counters are done with (Rank::rank ends with a barrier)
  // before the first key is staged, so the two share memory.
  union {
    typename Rank::storage rank;
    alignas(16) unsigned char stage[stage_bytes];  // the tile reordered: keys, then values
  };

  __device__ K* keys() { return reinterpret_cast<K*>(stage); }
  __device__ V* values() { return reinterpret_cast<V*>(stage); }
};

// The number of real elements of a warp's chunk of 32 * Items that starts
// at warp_begin.
template <int Items>
__device__ unsigned warp_valid_count(std::uint64_t warp_begin, std::uint64_t n) {
  const std::uint64_t left = n > warp_begin ? n - warp_begin : 0;
  return left < std::uint64_t(32 * Items) ? unsigned(left) : unsigned(32 * Items);
}

// Warp-striped loads: item i of this lane is element base + i * 32 + lane,
// real when i * 32 + lane < warp_valid (always when Full).
template <bool Full, int Items, class T>
__device__ void load_warp_striped(const T* in, std::uint64_t base, unsigned warp_valid,
                                  T (&items)[Items]) {
  const int lane = threadIdx.x % 32;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (block_radix_rank::is_valid<Full>(i, warp_valid)) items[i] = in[base + i * 32 + lane];
  }
}

// The bits in which the patterns of a full warp's 32 keys differ: each
// lane's pattern XOR lane 0's, OR-reduced over the warp (one shuffle and
// one reduction a 32-bit pattern).
template <class B>
__device__ B warp_varying_bits(B bits) {
  const auto reduce_or = [](unsigned x) {
#if __CUDA_ARCH__ >= 800
    return __reduce_or_sync(full_warp_mask, x);
#else
    for (int d = 16; d >= 1; d /= 2)
      x |= __shfl_xor_sync(full_warp_mask, x, d);
    return x;
#endif
  };
  if constexpr (sizeof(B) <= 4) {
    const unsigned b = bits;
    return static_cast<B>(reduce_or(b ^ __shfl_sync(full_warp_mask, b, 0)));
  } else {
    const B d = bits ^ __shfl_sync(full_warp_mask, bits, 0);
    return (B{reduce_or(static_cast<unsigned>(d >> 32))} << 32) |
           B{reduce_or(static_cast<unsigned>(d))};
  }
}

// Pass p's digit of a key's order pattern `bits` (first: the first pass's
// digit, whose mask is the last pass's; every other pass is 8 bits wide).
template <class K, class B>
__device__ __forceinline__ unsigned radix_pass_digit(B bits, radix_digit<K> first, int p,
                                                     int passes) {
  return static_cast<unsigned>(bits >> (first.shift + 8 * p)) &
         (p + 1 == passes ? first.mask : 0xffu);
}

// One key counted into the block's counters counts[pass][digit], one shared
// atomic a pass.
template <class K>
__device__ __forceinline__ void radix_count_key(unsigned (*counts)[radix_digits], K key,
                                                radix_digit<K> first, int passes) {
  const auto bits = radix_key<K>::to_bits(key, first.descending);
#pragma unroll
  for (int p = 0; p < int(sizeof(K)); ++p) {
    if (p < passes) atomicAdd(&counts[p][radix_pass_digit(bits, first, p, passes)], 1u);
  }
}

// A way radix_digit_histograms can count a full warp's keys at once (every
// lane calls count, with the keys of consecutive lanes; the counts are
// radix_count_key's): a pass whose digit is the same in all 32 keys of a
// warp (warp_varying_bits) adds 32 from one lane instead of 1 from each.
// Meant for keys whose digits are constant across a warp (small integers,
// all equal, sorted keys' high digits), it measured 0.5-0.6x as fast as
// counting key by key on every distribution (H100, 2^28 keys: 900-1030
// against 540 us; lab/probes/probe_radix_designs.cu): the hardware merges
// a warp's adds to one shared address, so the shuffles are pure cost. It
// stays a candidate of the probe.
struct radix_count_warp_uniform {
  template <class K>
  static __device__ __forceinline__ void count(unsigned (*counts)[radix_digits], K key,
                                               radix_digit<K> first, int passes) {
    const unsigned lane = threadIdx.x % 32;
    const auto bits = radix_key<K>::to_bits(key, first.descending);
    const auto varying = warp_varying_bits(bits);
#pragma unroll
    for (int p = 0; p < int(sizeof(K)); ++p) {
      if (p < passes) {
        const unsigned digit = radix_pass_digit(bits, first, p, passes);
        if (radix_pass_digit(varying, first, p, passes) != 0) {
          atomicAdd(&counts[p][digit], 1u);
        } else if (lane == 0) {
          atomicAdd(&counts[p][digit], 32u);
        }
      }
    }
  }
};

// Every pass's digit counts: hist[p * 256 + d] += count of digit d in pass
// p. WarpCount void (production): key by key (radix_count_key); otherwise
// how a full warp's keys are counted (a probe's candidate, such as
// radix_count_warp_uniform).
template <class K, class WarpCount = void>
__global__ void __launch_bounds__(256)
    radix_digit_histograms(const K* keys, std::uint64_t n, radix_digit<K> first, int passes,
                           unsigned* hist) {
  constexpr int max_passes = 8 * sizeof(K) / 8;
  __shared__ unsigned counts[max_passes][radix_digits];
  for (int p = 0; p < passes; ++p)
    counts[p][threadIdx.x] = 0;
  __syncthreads();
  // Grid-stride, `loads` keys loaded before any is counted: one load in
  // flight per thread is too few to cover memory latency (Nsight Compute at
  // 2^26 keys: 45% of DRAM bandwidth with one). With a WarpCount the loop
  // runs while the warp's last key is in range (the lanes of a warp hold
  // consecutive keys, so the whole warp takes the same trips), and the
  // tail counts key by key.
  constexpr bool whole_warps = !std::is_void_v<WarpCount>;
  constexpr int loads = 4;
  const unsigned lane = threadIdx.x % 32;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  const std::uint64_t warp_last = whole_warps ? 31 - lane : 0;
  for (; i + warp_last + (loads - 1) * stride < n; i += loads * stride) {
    K k[loads];
#pragma unroll
    for (int j = 0; j < loads; ++j)
      k[j] = keys[i + j * stride];
#pragma unroll
    for (int j = 0; j < loads; ++j) {
      if constexpr (whole_warps) {
        WarpCount::count(counts, k[j], first, passes);
      } else {
        radix_count_key(counts, k[j], first, passes);
      }
    }
  }
  for (; i < n; i += stride)
    radix_count_key(counts, keys[i], first, passes);
  __syncthreads();
  for (int p = 0; p < passes; ++p) {
    const unsigned c = counts[p][threadIdx.x];
    if (c) atomicAdd(&hist[p * radix_digits + threadIdx.x], c);
  }
}

// One block of 256 threads: each pass's digit counts become where each
// digit's keys start in that pass's output (an exclusive scan over the 256
// digits, in place), once, instead of in every tile; and the routes of the
// passes (detail::radix_plan_routes), routes[0 .. passes]; with routes
// null, the digit starts alone (every pass sorts, on routes the host
// planned: the design that skips nothing).
template <class K>
__global__ void __launch_bounds__(radix_digits)
    radix_route_passes(unsigned* hist, int passes, std::uint64_t n, bool in_place,
                       radix_route* routes) {
  __shared__ unsigned warp_sums[radix_digits / 32];
  __shared__ bool trivial[radix_max_passes];
  // Every pass's count of digit d loaded at once: one L2 round trip, not
  // one a pass between the scans' barriers.
  unsigned counts[radix_max_passes];
#pragma unroll
  for (int p = 0; p < radix_max_passes; ++p)
    counts[p] = p < passes ? hist[p * radix_digits + threadIdx.x] : 0u;
#pragma unroll
  for (int p = 0; p < radix_max_passes; ++p) {
    if (p < passes) {
      hist[p * radix_digits + threadIdx.x] = block_exclusive_digit_scan(counts[p], warp_sums);
      // (Also the barrier before the next pass's scan writes warp_sums.)
      const int all_in_one = __syncthreads_or(counts[p] == n);
      if (threadIdx.x == 0) trivial[p] = all_in_one != 0;
    }
  }
  __syncthreads();
  if (routes && threadIdx.x == 0) detail::radix_plan_routes(trivial, passes, in_place, routes);
}

// Thread d of tile `tile` (> 0): how many keys of digit d the tiles before
// it hold, walking back from tile - 1 to the nearest tile that has published
// its inclusive prefix (tile 0 always has). Tiles run about as long as one
// another, so the nearest prefix is often many tiles back, and each step of
// a one-word-at-a-time walk is a round trip to L2: Window words are loaded
// at once, so a walk of j tiles waits about j / Window round trips. (Words
// loaded past the prefix are ignored.)
template <int Window>
__device__ unsigned keys_of_digit_before(const tile_lookback<unsigned>& lookback, long long tile,
                                         unsigned d) {
  unsigned before = 0;
  for (long long p = tile - 1;; p -= Window) {
    unsigned long long words[Window];
#pragma unroll
    for (int k = 0; k < Window; ++k)
      words[k] = p - k >= 0 ? lookback.peek((p - k) * radix_digits + d) : 0;
#pragma unroll
    for (int k = 0; k < Window; ++k) {
      // p - k >= 0 here: tile 0's prefix ends every walk.
      const auto e = lookback.read((p - k) * radix_digits + d, words[k]);
      before += e.value;
      if (e.kind == tile_lookback<unsigned>::inclusive_prefix) return before;
    }
  }
}

// One tile of one pass (see the top of the file), tile number `tile`.
// Full: the tile has no element past the end of the input, so nothing is
// checked per item.
// The route's buffers are picked where each is used, not once up front:
// four pointers held across the ranking cost registers the tile's keys
// need (the pairs pass spilled).
template <bool Full, int LookbackWindow, class K, class V, int Items, class Rank>
__device__ void radix_onesweep_tile(radix_tile_storage<K, V, Items, Rank>& s,
                                    const radix_buffers<K, V>& buffers, radix_route route,
                                    std::uint64_t n, radix_digit<K> digit_of,
                                    const unsigned* digit_starts, tile_lookback<unsigned> lookback,
                                    std::uint64_t tile) {
  constexpr int tile_size = radix_tile_storage<K, V, Items, Rank>::tile;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  const std::uint64_t tile_begin = tile * tile_size;
  const int warp = threadIdx.x / 32;
  const std::uint64_t warp_begin = tile_begin + std::uint64_t(warp) * 32 * Items;
  const unsigned warp_valid = Full ? 32u * Items : warp_valid_count<Items>(warp_begin, n);

  K keys[Items];
  unsigned ranks[Items];
  load_warp_striped<Full>(buffers.keys(route.from), warp_begin, warp_valid, keys);

  // Rank the tile; thread d publishes the tile's count of digit d as soon
  // as the ranking has counted the digits, before it ranks the keys: the
  // tiles after this one then walk past it while it ranks instead of
  // waiting for it, and by the time this tile looks back, the tiles before
  // it have long published theirs (CUB's onesweep does the same). Thread d
  // follows digit d from here on.
  const unsigned d = threadIdx.x;
  const unsigned long long slot = tile * radix_digits + d;
  unsigned count, tile_start;
  Rank::template rank<Full>(s.rank, keys, digit_of, warp_valid, ranks, count, tile_start,
                            [&](unsigned digit_count) {
                              lookback.publish(slot,
                                               tile == 0 ? tile_lookback<unsigned>::inclusive_prefix
                                                         : tile_lookback<unsigned>::aggregate,
                                               digit_count);
                            });

  // Where digit d starts in this pass's output (loaded before the look-back,
  // whose round trips cover its latency).
  const unsigned global_start = digit_starts[d];
  // The keys of digit d in tiles before this one, by look-back.
  unsigned before = 0;
  if (tile > 0) {
    before = keys_of_digit_before<LookbackWindow>(lookback, static_cast<long long>(tile), d);
    lookback.publish(slot, tile_lookback<unsigned>::inclusive_prefix, before + count);
  }
  // Slot j of the reordered tile (digit d) goes to run_offset[d] + j.
  s.run_offset[d] = global_start + before - tile_start;

  // Reorder the keys by rank, then write each digit's run out. The digit of
  // the key at slot j is recomputed from the key (cheaper than a byte per
  // slot in shared memory); with values, the thread that writes slot j's key
  // keeps that digit for slot j's value (the same thread, so no barrier).
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (block_radix_rank::is_valid<Full>(i, warp_valid)) s.keys()[ranks[i]] = keys[i];
  }
  __syncthreads();
  const unsigned tile_valid =
      Full ? unsigned(tile_size)
           : static_cast<unsigned>(n - tile_begin < tile_size ? n - tile_begin : tile_size);
  K* keys_out = buffers.keys_to(route.to);
  for (unsigned j = threadIdx.x; j < tile_valid; j += block_radix_rank::threads) {
    const K key = s.keys()[j];
    const unsigned digit = digit_of(key);
    keys_out[s.run_offset[digit] + j] = key;
    if constexpr (has_values) s.digit_of_slot[j] = static_cast<unsigned char>(digit);
  }

  if constexpr (has_values) {
    V values[Items];
    load_warp_striped<Full>(buffers.values(route.from), warp_begin, warp_valid, values);
    __syncthreads();  // every key has left the stage
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (block_radix_rank::is_valid<Full>(i, warp_valid)) s.values()[ranks[i]] = values[i];
    }
    __syncthreads();
    V* values_out = buffers.values_to(route.to);
    for (unsigned j = threadIdx.x; j < tile_valid; j += block_radix_rank::threads)
      values_out[s.run_offset[s.digit_of_slot[j]] + j] = s.values()[j];
  }
}

// A copy route's tile `tile`: its keys (and values) as they are.
template <class K, class V, int TileSize>
__device__ void radix_copy_tile(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                                std::uint64_t n, std::uint64_t tile) {
  const std::uint64_t begin = tile * TileSize;
  const std::uint64_t end = n - begin < TileSize ? n : begin + TileSize;
  for (std::uint64_t i = begin + threadIdx.x; i < end; i += blockDim.x) {
    keys_out[i] = keys_in[i];
    if constexpr (!std::is_same_v<V, no_values>) values_out[i] = values_in[i];
  }
}

// Blocks per SM the pass is compiled for (by default; a template parameter
// of radix_sort, for tuning), from the registers a thread's keys and ranks
// take: 3 blocks (at most 85 registers) up to 36 such words (16 4-byte keys,
// 12 8-byte ones), 2 (128 registers) beyond. 4 blocks at 16 4-byte keys
// (64 registers) spill 8 bytes of keys-only passes.
template <class K, int Items>
inline constexpr int radix_pass_min_blocks = Items*((sizeof(K) + 3) / 4 + 1) <= 36 ? 3 : 2;

// Tiles ahead whose keys a pass's tile asks L2 for, as the scan does
// (device_scan.cuh, scan_prefetch_tiles; a template parameter of
// radix_sort, for tuning). Keys only: 64 tiles (2 MB of 4-byte keys ahead;
// 396 tiles are resident). Measured (lab/probes/probe_radix_tile.cu,
// 2^28 keys): uint32 5782 us against 5904 without (0.96x CUB
// against 0.94x), float 6308 against 6451 (0.92x, 0.90x), uint64 17288
// against 17669 (0.98x, 0.96x); at 2^24 about 1% slower. With values, none:
// prefetching keys and values 32-128 tiles ahead made 2^28 pairs 7-13%
// slower (L2 holds twice the lines).
template <class V>
inline constexpr int radix_prefetch_tiles = std::is_same_v<V, no_values> ? 64 : 0;

// Status words loaded at once by a pass's per-digit look-back (see
// keys_of_digit_before); 1 is the plain serial walk.
inline constexpr int radix_lookback_window = 4;

// The shared start of both pass kernels below: the pass's route (from
// `route` when the device planned the routes, else the host's
// `fixed_route`), and, for a copy route, the copy of tiles blockIdx.x,
// blockIdx.x + gridDim.x, ... Returns whether the block is done (skip or
// copy).
template <class K, class V, int TileSize>
__device__ bool radix_pass_route(const radix_buffers<K, V>& buffers, std::uint64_t n,
                                 radix_route fixed_route, const radix_route* route,
                                 radix_route& r) {
  r = route ? *route : fixed_route;
  if (r.move == radix_skip) return true;
  if (r.move != radix_copy_tiles) return false;
  const std::uint64_t tiles = (n + TileSize - 1) / TileSize;
  for (std::uint64_t t = blockIdx.x; t < tiles; t += gridDim.x)
    radix_copy_tile<K, V, TileSize>(buffers.keys(r.from), buffers.keys_to(r.to),
                                    buffers.values(r.from), buffers.values_to(r.to), n, t);
  return true;
}

// One sorting tile of a pass: the L2 prefetch of a later tile's keys
// (PrefetchTiles > 0 compiles it in; prefetch_tiles, run time, 0: none, is
// the distance in tiles), then the tile, Full or not.
template <int LookbackWindow, int PrefetchTiles, class K, class V, int Items, class Rank>
__device__ void radix_pass_tile(radix_tile_storage<K, V, Items, Rank>& s,
                                const radix_buffers<K, V>& buffers, radix_route r, std::uint64_t n,
                                radix_digit<K> digit_of, const unsigned* digit_starts,
                                tile_lookback<unsigned> lookback, unsigned prefetch_tiles,
                                std::uint64_t tile, std::uint64_t tiles) {
  constexpr int tile_size = radix_tile_storage<K, V, Items, Rank>::tile;
  if constexpr (PrefetchTiles > 0) {
    const std::uint64_t ahead = tile + prefetch_tiles;
    if (prefetch_tiles > 0 && ahead < tiles) {
      const std::uint64_t begin = ahead * tile_size;
      const std::uint64_t count = std::min<std::uint64_t>(tile_size, n - begin);
      prefetch_block_to_l2(buffers.keys(r.from) + begin, count * sizeof(K));
    }
  }
  if ((tile + 1) * tile_size <= n) {
    radix_onesweep_tile<true, LookbackWindow>(s, buffers, r, n, digit_of, digit_starts, lookback,
                                              tile);
  } else {
    radix_onesweep_tile<false, LookbackWindow>(s, buffers, r, n, digit_of, digit_starts, lookback,
                                               tile);
  }
}

// One launch of a pass, one block a tile (block b, tile b): its route
// (read first, by every block) says whether it sorts, copies or does
// nothing, and between which buffers. Rank: see radix_tile_storage.
template <class K, class V, int Items, int LookbackWindow, int MinBlocks, int PrefetchTiles,
          class Rank = block_radix_rank>
__global__ void __launch_bounds__(256, MinBlocks)
    radix_onesweep_pass(radix_buffers<K, V> buffers, std::uint64_t n, radix_digit<K> digit_of,
                        const unsigned* digit_starts, tile_lookback<unsigned> lookback,
                        unsigned prefetch_tiles, radix_route fixed_route,
                        const radix_route* route) {
  __shared__ radix_tile_storage<K, V, Items, Rank> s;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  radix_route r;
  if (radix_pass_route<K, V, tile_size>(buffers, n, fixed_route, route, r)) return;
  radix_pass_tile<LookbackWindow, PrefetchTiles>(s, buffers, r, n, digit_of, digit_starts, lookback,
                                                 prefetch_tiles, blockIdx.x, gridDim.x);
}

// The same pass on a resident grid (a candidate: radix_sort_by_size's
// ResidentGrid): as many blocks as are resident at once take tiles in
// order from *tile_counter (zero at launch), each asking for its next
// tile while it works on one, so a skipped pass is one wave of blocks and
// a block reads its route once, not once a tile. Tiles taken in order
// keep the look-back free of deadlock: a tile waits only for lower tiles,
// which running blocks hold, and a block holding a tile it has not started
// finishes the one it works on without waiting for a higher tile. (Its own
// kernel: the loop's registers made the one-block-a-tile pass spill.)
template <class K, class V, int Items, int LookbackWindow, int MinBlocks, int PrefetchTiles,
          class Rank = block_radix_rank>
__global__ void __launch_bounds__(256, MinBlocks)
    radix_onesweep_pass_resident(radix_buffers<K, V> buffers, std::uint64_t n,
                                 radix_digit<K> digit_of, const unsigned* digit_starts,
                                 tile_lookback<unsigned> lookback, unsigned prefetch_tiles,
                                 radix_route fixed_route, const radix_route* route,
                                 unsigned* tile_counter) {
  __shared__ radix_tile_storage<K, V, Items, Rank> s;
  __shared__ unsigned next_tile;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  radix_route r;
  if (radix_pass_route<K, V, tile_size>(buffers, n, fixed_route, route, r)) return;
  const std::uint64_t tiles = (n + tile_size - 1) / tile_size;
  if (threadIdx.x == 0) next_tile = atomicAdd(tile_counter, 1u);
  __syncthreads();
  for (unsigned tile = next_tile; tile < tiles; tile = next_tile) {
    unsigned following = 0;
    if (threadIdx.x == 0) following = atomicAdd(tile_counter, 1u);
    radix_pass_tile<LookbackWindow, PrefetchTiles>(s, buffers, r, n, digit_of, digit_starts,
                                                   lookback, prefetch_tiles, tile, tiles);
    __syncthreads();  // the tile is done with shared memory and next_tile
    if (threadIdx.x == 0) next_tile = following;
    __syncthreads();
  }
}

}  // namespace gpuprim::cuda_impl
