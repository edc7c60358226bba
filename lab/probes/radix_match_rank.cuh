// A variant of the onesweep radix sort's pass (cuda/device/
// device_radix_sort.cuh) whose ranking finds a warp's lanes of equal digit
// in registers (warp multi-split) instead of through shared memory, for
// lab/probes/probe_radix_tile.cu to time beside production and CUB. Every
// other step (digit histograms, digit starts, look-back, reorder, writes)
// is production's; the output is the same (a stable sort).
//
// Bound attacked: the production pass runs L1/shared at 83 % with
// short_scoreboard the top stall, moving about 1.5x CUB's shared-memory
// traffic a key. Its step 3 costs five shared-memory accesses a key (an
// atomic OR into the warp's match word, a read back, and the leader's
// counter read, counter write and match clear) plus the zeroing of the
// match words; here it costs one (the leader's atomic add on the warp's
// counter, which returns the run's start), and the match words are gone.
//
// Shape of the ranking (block_radix_rank_match::rank):
//   1. Per warp: a count of each digit (shared-memory atomics on the warp's
//      own counters), as production.
//   2. Per digit (thread d): prefixes over warps, the tile's count of d
//      (handed to the caller at once), the scan over digits, as production.
//   3a. Per warp, for each item in order: the lanes of equal digit find each
//      other in registers (one __match_any_sync, or one ballot per digit
//      bit); the lowest of them adds the group's size to the warp's counter
//      for the digit and keeps the old value. Each item's leader lane,
//      rank among its peers and (leader only) the counter's old value are
//      packed into that item's rank register, so no step waits on the
//      atomic's latency before the next item's atomic issues.
//   3b. Per item: the leader's counter value is fetched by one shuffle and
//      the rank among peers added.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/device/device_radix_sort.cuh"

namespace gpuprim::cuda_impl {

// How a warp's lanes of equal digit find each other in step 3a.
enum class radix_peer_find {
  match_any,  // one __match_any_sync on the digit
  ballots,    // one ballot per digit bit, the lanes of equal bits ANDed
};

template <radix_peer_find Find>
struct block_radix_rank_match {
  static constexpr int threads = block_radix_rank::threads;
  static constexpr int warps = block_radix_rank::warps;

  struct storage {
    unsigned warp_counts[warps][radix_digits];  // per warp, then where its runs start
    unsigned warp_totals[warps];                // for the scan over digits
  };

  // The lanes of this warp holding `digit` (valid: whether this lane's
  // item is real; a lane past the end finds no real lane).
  static __device__ unsigned peers_of(unsigned digit, bool valid, unsigned valid_lanes) {
    if constexpr (Find == radix_peer_find::match_any) {
      // radix_digits is no digit: lanes past the end group only with each other.
      return __match_any_sync(full_warp_mask, valid ? digit : unsigned(radix_digits));
    } else {
      unsigned peers = valid_lanes;
#pragma unroll
      for (int bit = 0; bit < 8; ++bit) {
        const bool set = (digit >> bit) & 1u;
        const unsigned ones = __ballot_sync(full_warp_mask, set);
        peers &= set ? ones : ~ones;
      }
      return peers;
    }
  }

  // Same contract as block_radix_rank::rank (ends with a barrier).
  template <bool Full, int Items, class K, class DigitOf, class CountsKnown>
  static __device__ void rank(storage& s, const K (&keys)[Items], DigitOf digit_of,
                              unsigned warp_valid, unsigned (&ranks)[Items], unsigned& digit_count,
                              unsigned& digit_start, CountsKnown counts_known) {
    // A rank register holds (step 3a) the counter value in its low 16 bits,
    // the rank among peers in the next 5 and the leader lane in the top 5.
    static_assert(threads * Items <= (1 << 16), "a tile position must fit 16 bits");
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    for (int w = 0; w < warps; ++w)
      s.warp_counts[w][threadIdx.x] = 0;
    __syncthreads();

    // 1. Each warp counts its digits.
    unsigned* counts = s.warp_counts[warp];
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (block_radix_rank::is_valid<Full>(i, warp_valid))
        atomicAdd(&counts[digit_of(keys[i])], 1u);
    }
    __syncthreads();

    // 2. Thread d: the tile's count of digit d, where digit d starts in the
    //    tile, and where each warp's run of digit d starts.
    const unsigned d = threadIdx.x;
    unsigned running = 0;
    for (int w = 0; w < warps; ++w) {
      const unsigned c = s.warp_counts[w][d];
      s.warp_counts[w][d] = running;
      running += c;
    }
    digit_count = running;
    counts_known(running);
    digit_start = block_exclusive_digit_scan(running, s.warp_totals);
    for (int w = 0; w < warps; ++w)
      s.warp_counts[w][d] += digit_start;
    __syncthreads();

    // 3a. Per item, in order: peers in registers; the leader (lowest peer)
    //     takes the group's places with one atomic add. Only leaders touch
    //     shared memory, one access a distinct digit a step; the steps of
    //     one warp reach a counter in program order (each step's vote
    //     converges the warp before the next step's add).
    const unsigned lower_lanes = (1u << lane) - 1u;
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const unsigned valid_lanes = block_radix_rank::valid_lanes<Full>(i, warp_valid);
      const bool valid = (valid_lanes >> lane) & 1u;
      const unsigned digit = valid ? digit_of(keys[i]) : 0u;
      const unsigned peers = peers_of(digit, valid, valid_lanes);
      const unsigned leader = unsigned(__ffs(peers) - 1) & 31u;
      unsigned start = 0;
      if (valid && lane == int(leader)) start = atomicAdd(&counts[digit], unsigned(__popc(peers)));
      ranks[i] = start | unsigned(__popc(peers & lower_lanes)) << 16 | leader << 21;
    }
    // 3b. Per item: the leader's start, plus this lane's place among peers.
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const unsigned packed = ranks[i];
      const unsigned start = __shfl_sync(full_warp_mask, packed & 0xffffu, packed >> 21);
      ranks[i] = start + ((packed >> 16) & 31u);
    }
    __syncthreads();
  }
};

// Production's tile (radix_onesweep_tile) with the ranking above; the
// ranking's counters live where production's do (in the stage's union).
template <radix_peer_find Find, bool Full, int LookbackWindow, class K, class V, int Items>
__device__ void radix_match_tile(radix_tile_storage<K, V, Items>& s, const K* keys_in, K* keys_out,
                                 const V* values_in, V* values_out, std::uint64_t n,
                                 radix_digit<K> digit_of, const unsigned* digit_starts,
                                 tile_lookback<unsigned> lookback) {
  using ranker = block_radix_rank_match<Find>;
  static_assert(sizeof(typename ranker::storage) <= sizeof(block_radix_rank::storage));
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

  const unsigned d = threadIdx.x;
  const unsigned long long slot = tile * radix_digits + d;
  unsigned count, tile_start;
  ranker::template rank<Full>(reinterpret_cast<typename ranker::storage&>(s.rank), keys, digit_of,
                              warp_valid, ranks, count, tile_start, [&](unsigned digit_count) {
                                lookback.publish(slot,
                                                 tile == 0
                                                     ? tile_lookback<unsigned>::inclusive_prefix
                                                     : tile_lookback<unsigned>::aggregate,
                                                 digit_count);
                              });

  const unsigned global_start = digit_starts[d];
  unsigned before = 0;
  if (tile > 0) {
    before = keys_of_digit_before<LookbackWindow>(lookback, static_cast<long long>(tile), d);
    lookback.publish(slot, tile_lookback<unsigned>::inclusive_prefix, before + count);
  }
  s.run_offset[d] = global_start + before - tile_start;

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
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (block_radix_rank::is_valid<Full>(i, warp_valid)) s.values()[ranks[i]] = values[i];
    }
    __syncthreads();
    for (unsigned j = threadIdx.x; j < tile_valid; j += block_radix_rank::threads)
      values_out[s.run_offset[s.digit_of_slot[j]] + j] = s.values()[j];
  }
}

// Production's pass kernel (radix_onesweep_pass) over radix_match_tile.
// Bound attacked: shared-memory traffic (production's pass: L1/shared 83 %,
// short_scoreboard first), one shared access a key in step 3 instead of five.
template <radix_peer_find Find, class K, class V, int Items, int LookbackWindow, int MinBlocks,
          int PrefetchTiles>
__global__ void __launch_bounds__(256, MinBlocks)
    radix_match_pass(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                     std::uint64_t n, radix_digit<K> digit_of, const unsigned* digit_starts,
                     tile_lookback<unsigned> lookback, unsigned prefetch_tiles) {
  __shared__ radix_tile_storage<K, V, Items> s;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  if constexpr (PrefetchTiles > 0) {
    const std::uint64_t ahead = std::uint64_t(blockIdx.x) + prefetch_tiles;
    if (prefetch_tiles > 0 && ahead < gridDim.x) {
      const std::uint64_t begin = ahead * tile_size;
      const std::uint64_t count = std::min<std::uint64_t>(tile_size, n - begin);
      prefetch_block_to_l2(keys_in + begin, count * sizeof(K));
    }
  }
  if ((std::uint64_t(blockIdx.x) + 1) * tile_size <= n) {
    radix_match_tile<Find, true, LookbackWindow>(s, keys_in, keys_out, values_in, values_out, n,
                                                 digit_of, digit_starts, lookback);
  } else {
    radix_match_tile<Find, false, LookbackWindow>(s, keys_in, keys_out, values_in, values_out, n,
                                                  digit_of, digit_starts, lookback);
  }
}

// Each pass's digit counts become where each digit's keys start in that
// pass's output, one block per pass (production's radix_route_passes does
// this and also plans which passes to skip; this probe runs every pass).
template <class K>
__global__ void __launch_bounds__(radix_digits) radix_digit_starts(unsigned* hist) {
  __shared__ unsigned warp_sums[radix_digits / 32];
  unsigned* pass = hist + blockIdx.x * radix_digits;
  pass[threadIdx.x] = block_exclusive_digit_scan(pass[threadIdx.x], warp_sums);
}

// Production's radix_sort (multi-tile inputs; one tile or less goes to
// production's single-block sort) with radix_match_pass as the pass.
template <radix_peer_find Find, class K, class V, int Items, int LookbackWindow, int MinBlocks,
          int PrefetchTiles>
void radix_sort_match(const K* keys_in, K* keys_out, const V* values_in, V* values_out,
                      const detail::radix_sort_plan& plan, stream_t stream) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  constexpr int threads = block_radix_rank::threads;
  constexpr int tile_size = radix_tile_storage<K, V, Items>::tile;
  const std::uint64_t n = plan.n;
  const int passes = plan.passes();
  if (n <= std::uint64_t(tile_size) || passes == 0) {
    radix_sort<K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles>(keys_in, keys_out, values_in,
                                                                      values_out, plan, stream);
    return;
  }
  scratch_buffer hist(std::size_t(passes) * radix_digits * sizeof(unsigned), stream);
  GPUPRIM_CUDA_CHECK(cudaMemsetAsync(hist.get(), 0, std::size_t(passes) * radix_digits * 4, stream),
                     "sort");
  const radix_digit<K> histogram_digit{plan.begin_bit, plan.mask(passes - 1), plan.descending};
  const radix_launch_config config{};
  const unsigned hist_blocks = static_cast<unsigned>(std::min<std::uint64_t>(
      ceil_div(n, threads * 16), std::uint64_t(current_multiprocessor_count()) *
                                     static_cast<unsigned>(config.histogram_blocks_per_sm)));
  launch("radix_digit_histograms", "sort", radix_digit_histograms<K>,
         {hist_blocks, threads, 0, stream}, keys_in, n, histogram_digit, passes,
         hist.get<unsigned>());
  launch("radix_digit_starts", "sort", radix_digit_starts<K>, {passes, radix_digits, 0, stream},
         hist.get<unsigned>());

  scratch_buffer key_temp(n * sizeof(K), stream);
  scratch_buffer value_temp(has_values ? n * sizeof(V) : 0, stream);
  const bool in_place = keys_in == keys_out;
  const bool last_to_output = !(in_place && passes % 2 == 1);
  const std::uint64_t tiles = ceil_div(n, tile_size);
  const K* key_src = keys_in;
  const V* value_src = values_in;
  for (int p = 0; p < passes; ++p) {
    const bool to_output = last_to_output ? (passes - 1 - p) % 2 == 0 : p % 2 == 1;
    K* key_dst = to_output ? keys_out : key_temp.get<K>();
    V* value_dst = to_output ? values_out : value_temp.get<V>();
    const lookback_workspace ws = stream_lookback_workspace(stream, tiles * radix_digits, 0);
    const tile_lookback<unsigned> lookback{ws.status, nullptr, ws.epoch};
    const radix_digit<K> digit_of{plan.shift(p), plan.mask(p), plan.descending};
    launch("radix_match_pass", "sort",
           radix_match_pass<Find, K, V, Items, LookbackWindow, MinBlocks, PrefetchTiles>,
           {static_cast<unsigned>(tiles), threads, 0, stream}, key_src, key_dst, value_src,
           value_dst, n, digit_of, hist.get<unsigned>() + p * radix_digits, lookback,
           unsigned(PrefetchTiles));
    key_src = key_dst;
    value_src = value_dst;
  }
  if (!last_to_output) {
    GPUPRIM_CUDA_CHECK(
        cudaMemcpyAsync(keys_out, key_src, n * sizeof(K), cudaMemcpyDeviceToDevice, stream),
        "sort");
    if constexpr (has_values) {
      GPUPRIM_CUDA_CHECK(
          cudaMemcpyAsync(values_out, value_src, n * sizeof(V), cudaMemcpyDeviceToDevice, stream),
          "sort");
    }
  }
}

}  // namespace gpuprim::cuda_impl
