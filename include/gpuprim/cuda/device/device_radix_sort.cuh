// GPU radix sort: LSD, 8 bits a pass, one pass = one launch ("onesweep",
// Adinets & Merrill 2022).
//
//   digit_histograms      one read of the keys counts every pass's digits
//                         (shared-memory counters per block, then global).
//   digit_starts          one block per pass scans its counts: where each
//                         digit's keys start in the pass's output.
//   onesweep_pass (xP)    one block per tile of 256 * Items keys:
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
// Inputs of at most one tile are sorted by one block entirely in shared
// memory (small_sort): one launch instead of one per pass.
//
// Tiles learn their index from blockIdx.x and wait only on lower tiles,
// which the hardware starts first: the same assumption as the scan's
// look-back (cuda/device/decoupled_lookback.cuh), whose status words and
// per-pass epochs this reuses (one word per tile and digit, the count in
// the lower half: fewer than 2^32 keys per call).
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gpuprim/cuda/block/block_radix_rank.cuh"
#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "gpuprim/cuda/detail/prefetch.cuh"
#include "gpuprim/cuda/detail/scratch.cuh"
#include "gpuprim/cuda/detail/tune_report.cuh"
#include "gpuprim/cuda/detail/workspace.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/detail/sort/radix_key.hpp"
#include "gpuprim/detail/sort/sort.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_detail {

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

// Keys per thread: 32 when keys and values are at most 4 bytes (8192 keys a
// tile), 16 otherwise (a 32 KB stage of 8-byte keys or values: more would
// pass the 48 KB of static shared memory). Measured on sm_90 from 2^20 to
// 2^28 (lab/probes/tune_radix_tile.cu): bigger tiles mean fewer tiles, so less
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

template <class K, class V, int Items>
struct radix_tile_storage {
  static constexpr int items = Items;
  static constexpr int tile = block_radix_rank::threads * items;
  static constexpr std::size_t stage_bytes =
      tile * (sizeof(K) > sizeof(V) || std::is_same_v<V, no_values> ? sizeof(K) : sizeof(V));
  unsigned run_offset[radix_digits];  // global index of the run of digit d minus its tile start
  unsigned char
      digit_of_slot[std::is_same_v<V, no_values> ? 1 : tile];  // with values: digit at each slot
  // The ranking's counters are done with (block_radix_rank::rank ends with a
  // barrier) before the first key is staged, so the two share memory.
  union {
    block_radix_rank::storage rank;
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

// Every pass's digit counts: hist[p * 256 + d] += count of digit d in pass p.
template <class K>
__global__ void __launch_bounds__(256)
    radix_digit_histograms(const K* keys, std::uint64_t n, radix_digit<K> first, int passes,
                           unsigned* hist) {
  constexpr int max_passes = 8 * sizeof(K) / 8;
  __shared__ unsigned counts[max_passes][radix_digits];
  for (int p = 0; p < passes; ++p)
    counts[p][threadIdx.x] = 0;
  __syncthreads();
  auto count = [&](K key) {
    const auto bits = radix_key<K>::to_bits(key, first.descending);
#pragma unroll
    for (int p = 0; p < max_passes; ++p) {
      if (p < passes) {
        const int shift = first.shift + 8 * p;
        atomicAdd(&counts[p][static_cast<unsigned>(bits >> shift) &
                             (p + 1 == passes ? first.mask : 0xffu)],
                  1u);
      }
    }
  };
  // Grid-stride, `loads` keys loaded before any is counted: one load in
  // flight per thread is too few to cover memory latency (Nsight Compute at
  // 2^26 keys: 45% of DRAM bandwidth with one).
  constexpr int loads = 4;
  const std::uint64_t stride = std::uint64_t(gridDim.x) * blockDim.x;
  std::uint64_t i = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x;
  for (; i + (loads - 1) * stride < n; i += loads * stride) {
    K k[loads];
#pragma unroll
    for (int j = 0; j < loads; ++j)
      k[j] = keys[i + j * stride];
#pragma unroll
    for (int j = 0; j < loads; ++j)
      count(k[j]);
  }
  for (; i < n; i += stride)
    count(keys[i]);
  __syncthreads();
  for (int p = 0; p < passes; ++p) {
    const unsigned c = counts[p][threadIdx.x];
    if (c) atomicAdd(&hist[p * radix_digits + threadIdx.x], c);
  }
}

// Each pass's digit counts become where each digit's keys start in that
// pass's output (an exclusive scan over the 256 digits, one block per
// pass), once, instead of in every tile of the pass. (A template, like
// every kernel in a header: one instance per key type.)
template <class K>
__global__ void __launch_bounds__(radix_digits) radix_digit_starts(unsigned* hist) {
  __shared__ unsigned warp_sums[radix_digits / 32];
  unsigned* pass = hist + blockIdx.x * radix_digits;
  pass[threadIdx.x] = block_exclusive_digit_scan(pass[threadIdx.x], warp_sums);
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

// One tile of one pass (see the top of the file). Full: the tile has no
// element past the end of the input, so nothing is checked per item.
template <bool Full, int LookbackWindow, class K, class V, int Items>
__device__ void radix_onesweep_tile(radix_tile_storage<K, V, Items>& s, const K* keys_in,
                                    K* keys_out, const V* values_in, V* values_out, std::uint64_t n,
                                    radix_digit<K> digit_of, const unsigned* digit_starts,
                                    tile_lookback<unsigned> lookback) {
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  const std::uint64_t tile = blockIdx.x;
  const std::uint64_t tile_begin = tile * tile_size;
  const int warp = threadIdx.x / 32;
  const std::uint64_t warp_begin = tile_begin + std::uint64_t(warp) * 32 * Items;
  const unsigned warp_valid = Full ? 32u * Items : warp_valid_count<Items>(warp_begin, n);

  K keys[Items];
  unsigned ranks[Items];
  load_warp_striped<Full>(keys_in, warp_begin, warp_valid, keys);

  // Rank the tile; thread d publishes the tile's count of digit d as soon
  // as the ranking has counted the digits, before it ranks the keys: the
  // tiles after this one then walk past it while it ranks instead of
  // waiting for it, and by the time this tile looks back, the tiles before
  // it have long published theirs (CUB's onesweep does the same). Thread d
  // follows digit d from here on.
  const unsigned d = threadIdx.x;
  const unsigned long long slot = tile * radix_digits + d;
  unsigned count, tile_start;
  block_radix_rank::rank<Full>(
      s.rank, keys, digit_of, warp_valid, ranks, count, tile_start, [&](unsigned digit_count) {
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
  for (unsigned j = threadIdx.x; j < tile_valid; j += block_radix_rank::threads) {
    const K key = s.keys()[j];
    const unsigned digit = digit_of(key);
    keys_out[s.run_offset[digit] + j] = key;
    if constexpr (has_values) s.digit_of_slot[j] = static_cast<unsigned char>(digit);
  }

  if constexpr (has_values) {
    V values[Items];
    load_warp_striped<Full>(values_in, warp_begin, warp_valid, values);
    __syncthreads();  // every key has left the stage
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (block_radix_rank::is_valid<Full>(i, warp_valid)) s.values()[ranks[i]] = values[i];
    }
    __syncthreads();
    for (unsigned j = threadIdx.x; j < tile_valid; j += block_radix_rank::threads)
      values_out[s.run_offset[s.digit_of_slot[j]] + j] = s.values()[j];
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
// 396 tiles are resident). Measured (lab/probes/tune_radix_tile.cu,
// 2^28 keys): uint32 5782 us against 5904 without (0.96x CUB
// against 0.94x), float 6308 against 6451 (0.92x, 0.90x), uint64 17288
// against 17669 (0.98x, 0.96x); at 2^24 about 1% slower. With values, none:
// prefetching keys and values 32-128 tiles ahead made 2^28 pairs 7-13%
// slower (L2 holds twice the lines).
template <class V>
inline constexpr int radix_prefetch_tiles = std::is_same_v<V, no_values> ? 64 : 0;

template <class K, class V, int Items, int LookbackWindow, int MinBlocks, int PrefetchTiles>
__global__ void __launch_bounds__(256, MinBlocks)
    radix_onesweep_pass(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                        std::uint64_t n, radix_digit<K> digit_of, const unsigned* digit_starts,
                        tile_lookback<unsigned> lookback, unsigned prefetch_tiles) {
  __shared__ radix_tile_storage<K, V, Items> s;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  // PrefetchTiles > 0 compiles the prefetch in; prefetch_tiles (run time,
  // 0: none) is the distance.
  if constexpr (PrefetchTiles > 0) {
    const std::uint64_t ahead = std::uint64_t(blockIdx.x) + prefetch_tiles;
    if (prefetch_tiles > 0 && ahead < gridDim.x) {
      const std::uint64_t begin = ahead * tile_size;
      const std::uint64_t count = std::min<std::uint64_t>(tile_size, n - begin);
      prefetch_block_to_l2(keys_in + begin, count * sizeof(K));
    }
  }
  if ((std::uint64_t(blockIdx.x) + 1) * tile_size <= n) {
    radix_onesweep_tile<true, LookbackWindow>(s, keys_in, keys_out, values_in, values_out, n,
                                              digit_of, digit_starts, lookback);
  } else {
    radix_onesweep_tile<false, LookbackWindow>(s, keys_in, keys_out, values_in, values_out, n,
                                               digit_of, digit_starts, lookback);
  }
}

// The whole input (at most one tile) sorted by one block: every pass
// ranks the keys held in registers, reorders them through shared memory
// and reloads them in the new order. One block per launch: it may take
// every register a thread can have (keys, values and ranks of 32 items).
template <class K, class V, int Items>
__global__ void __launch_bounds__(256, 1)
    radix_small_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out, unsigned n,
                     radix_digit<K> first, int passes, int end_bit) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  __shared__ radix_tile_storage<K, V, Items> s;

  const int lane = threadIdx.x % 32;
  const unsigned warp_begin = (threadIdx.x / 32) * 32 * Items;
  const unsigned warp_valid = warp_valid_count<Items>(warp_begin, n);
  K keys[Items];
  V values[has_values ? Items : 1];
  unsigned ranks[Items];
  load_warp_striped<false>(keys_in, warp_begin, warp_valid, keys);
  if constexpr (has_values) load_warp_striped<false>(values_in, warp_begin, warp_valid, values);
  auto valid = [&](int i) { return block_radix_rank::is_valid<false>(i, warp_valid); };

  for (int p = 0; p < passes; ++p) {
    const int shift = first.shift + 8 * p;
    const int width = end_bit - shift < 8 ? end_bit - shift : 8;
    const radix_digit<K> digit_of{shift, (1u << width) - 1u, first.descending};
    unsigned count, start;
    block_radix_rank::rank<false>(s.rank, keys, digit_of, warp_valid, ranks, count, start,
                                  [](unsigned) {});
    // Reorder through the stage and read back warp-striped (the order of
    // slots is the new input order).
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (valid(i)) s.keys()[ranks[i]] = keys[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (valid(i)) keys[i] = s.keys()[warp_begin + i * 32 + lane];
    }
    if constexpr (has_values) {
      __syncthreads();
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        if (valid(i)) s.values()[ranks[i]] = values[i];
      }
      __syncthreads();
#pragma unroll
      for (int i = 0; i < Items; ++i) {
        if (valid(i)) values[i] = s.values()[warp_begin + i * 32 + lane];
      }
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (valid(i)) {
      keys_out[warp_begin + i * 32 + lane] = keys[i];
      if constexpr (has_values) values_out[warp_begin + i * 32 + lane] = values[i];
    }
  }
}

// Status words loaded at once by a pass's per-digit look-back (see
// keys_of_digit_before); 1 is the plain serial walk.
inline constexpr int radix_lookback_window = 4;

// The run-time launch parameters (the tuner's "radix_sort" space, src/tune/
// config.cpp): the onesweep pass's prefetch distance in tiles (-1: the
// PrefetchTiles template argument; 0: none; only where PrefetchTiles
// compiled the prefetch in) and the digit-histogram kernel's blocks per SM.
struct radix_launch_config {
  int prefetch_tiles = -1;
  int histogram_blocks_per_sm = 8;
};

template <
    class K, class V, int Items = radix_items<K, V>, int LookbackWindow = radix_lookback_window,
    int MinBlocks = radix_pass_min_blocks<K, Items>, int PrefetchTiles = radix_prefetch_tiles<V>>
void radix_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                const detail::radix_sort_plan& plan, stream_t stream,
                const radix_launch_config& config = {}) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int threads = block_radix_rank::threads;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  const std::uint64_t n = plan.n;
  const int passes = plan.passes();
  if (n == 0) return;
  // Keys (and values) from one device array to another, as they are.
  auto copy_out = [&](const K* keys_from, const V* values_from) {
    GPUPRIM_CUDA_CHECK(
        cudaMemcpyAsync(keys_out, keys_from, n * sizeof(K), cudaMemcpyDeviceToDevice, stream),
        "sort");
    if constexpr (has_values) {
      GPUPRIM_CUDA_CHECK(
          cudaMemcpyAsync(values_out, values_from, n * sizeof(V), cudaMemcpyDeviceToDevice, stream),
          "sort");
    }
  };
  if (passes == 0) {  // nothing to compare: an out-of-place sort copies
    if (keys_out != keys_in) copy_out(keys_in, values_in);
    return;
  }
  const radix_digit<K> first{plan.begin_bit, plan.mask(0), plan.descending};
  if (n <= std::uint64_t(tile_size)) {
    launch("radix_small_sort", "sort", radix_small_sort<K, V, Items>, {1, threads, 0, stream},
           keys_in, keys_out, values_in, values_out, static_cast<unsigned>(n), first, passes,
           plan.end_bit);
    return;
  }

  // Every pass's digit counts, then where each digit starts in each pass.
  // (The histogram kernel masks every pass but the last to 8 bits, so it
  // takes the last pass's mask.)
  scratch_buffer hist(std::size_t(passes) * radix_digits * sizeof(unsigned), stream);
  GPUPRIM_CUDA_CHECK(cudaMemsetAsync(hist.get(), 0, std::size_t(passes) * radix_digits * 4, stream),
                     "sort");
  const radix_digit<K> histogram_digit{plan.begin_bit, plan.mask(passes - 1), plan.descending};
  const unsigned hist_blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      ceil_div(n, threads * 16),
      std::uint64_t(current_multiprocessor_count()) *
          static_cast<unsigned>(std::max(1, config.histogram_blocks_per_sm))));
  launch("radix_digit_histograms", "sort", radix_digit_histograms<K>,
         {hist_blocks, threads, 0, stream}, keys_in, n, histogram_digit, passes,
         hist.get<unsigned>());
  launch("radix_digit_starts", "sort", radix_digit_starts<K>, {passes, radix_digits, 0, stream},
         hist.get<unsigned>());

  // Keys (and values) move between the output and a temporary array; the
  // order is picked so the last pass writes the output, except that an
  // in-place sort's first pass cannot write the array it reads.
  scratch_buffer key_temp(n * sizeof(K), stream);
  scratch_buffer value_temp(has_values ? n * sizeof(V) : 0, stream);
  const bool in_place = keys_in == keys_out;
  const bool last_to_output = !(in_place && passes % 2 == 1);
  const std::uint64_t tiles = ceil_div(n, tile_size);
  const unsigned prefetch_tiles =
      static_cast<unsigned>(config.prefetch_tiles >= 0 ? config.prefetch_tiles : PrefetchTiles);
  report_launch_to_tuner(radix_onesweep_pass<K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles>,
                         threads, 0, static_cast<unsigned>(tiles));
  const K* key_src = keys_in;
  const V* value_src = values_in;
  for (int p = 0; p < passes; ++p) {
    const bool to_output = last_to_output ? (passes - 1 - p) % 2 == 0 : p % 2 == 1;
    K* key_dst = to_output ? keys_out : key_temp.get<K>();
    V* value_dst = to_output ? values_out : value_temp.get<V>();
    const lookback_workspace ws = stream_lookback_workspace(stream, tiles * radix_digits, 0);
    const tile_lookback<unsigned> lookback{ws.status, nullptr, ws.epoch};
    const radix_digit<K> digit_of{plan.shift(p), plan.mask(p), plan.descending};
    launch("radix_onesweep_pass", "sort",
           radix_onesweep_pass<K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles>,
           {static_cast<unsigned>(tiles), threads, 0, stream}, key_src, key_dst, value_src,
           value_dst, n, digit_of, hist.get<unsigned>() + p * radix_digits, lookback,
           prefetch_tiles);
    key_src = key_dst;
    value_src = value_dst;
  }
  if (!last_to_output) copy_out(key_src, value_src);
}

}  // namespace gpuprim::cuda_detail

namespace gpuprim::detail {

template <class K>
void cuda_radix_sort(const K* keys_in, K* keys_out, const void* values_in, void* values_out,
                     const radix_sort_plan& plan, stream_t stream) {
  using cuda_detail::radix_sort;
  switch (plan.value_bytes) {
    case 4:
      radix_sort(keys_in, keys_out, static_cast<const std::uint32_t*>(values_in),
                 static_cast<std::uint32_t*>(values_out), plan, stream);
      break;
    case 8:
      radix_sort(keys_in, keys_out, static_cast<const std::uint64_t*>(values_in),
                 static_cast<std::uint64_t*>(values_out), plan, stream);
      break;
    default: {
      // Keys-only sorts read the tuner's "radix_sort" space (src/tune/
      // config.cpp); sorts with values keep the defaults.
      const tuning::config c =
          tuning::choose(tuning::algorithm::radix_sort, tuning::element_type_of<K>(), plan.n)
              .choice;
      radix_sort<K, cuda_detail::no_values>(keys_in, keys_out, nullptr, nullptr, plan, stream,
                                            {c[0], c[1]});
    }
  }
}

}  // namespace gpuprim::detail
