// Stable ranking of a tile's keys by one 8-bit digit: where each key goes
// when the tile is reordered by that digit, and how many keys of each digit
// the tile holds.
//
// Layout: 256 threads (one per digit value, which makes the per-digit steps
// one thread each), Items keys per thread, warp-striped: item i of lane l of
// warp w is tile element w * 32 * Items + i * 32 + l. Walking items in i
// order with lanes in lane order therefore walks the warp's elements in
// input order, which is what makes the ranking stable.
//
// Items past the end of the input (a partial last tile) set no match bit
// and get no rank; full tiles skip every such check.
//
// 1. Per warp: a count of each digit (shared-memory atomics on the warp's
//    own counters).
// 2. Per digit (thread d): the warps' counts become prefixes over warps,
//    their total is the tile's count of digit d (handed to the caller at
//    once: a onesweep pass publishes it before ranking), and an exclusive
//    scan of the counts over digits gives where digit d starts in the tile;
//    each warp's counter for digit d then holds where its run of d starts.
// 3. Per warp, for each item in order: the lanes holding the same digit
//    find each other: each sets its bit in the warp's match word for its
//    digit (a shared-memory atomic OR) and reads the word back. The lowest
//    of them takes the group's places from the warp's counter for that
//    digit (rank = counter + peers on lower lanes) and clears the match
//    word. Only one lane ever writes a given counter in a step, so the
//    counters need no atomics. (Finding the peers took one ballot per digit
//    bit before: eight votes and the bit tests around them made the pass
//    issue-bound on sm_90. __match_any_sync does it in one instruction,
//    but a slow one.) Counting first, as CUB's onesweep does, means a rank
//    is final when the warp's step ends: no pass over the items after.
#pragma once

#include <cstdint>

#include "gpuprim/cuda/support/shuffle.cuh"

namespace gpuprim::cuda_impl {

inline constexpr int radix_digits = 256;

// Exclusive scan over the 256 digits (thread d holds digit d's value);
// returns the sum of the values of digits below d. Uses `warp_sums`.
__device__ inline unsigned block_exclusive_digit_scan(unsigned value, unsigned* warp_sums) {
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  unsigned inclusive = value;
#pragma unroll
  for (int delta = 1; delta < 32; delta *= 2) {
    const unsigned lower = __shfl_up_sync(full_warp_mask, inclusive, delta);
    if (lane >= delta) inclusive += lower;
  }
  if (lane == 31) warp_sums[warp] = inclusive;
  __syncthreads();
  unsigned offset = 0;
  for (int w = 0; w < warp; ++w)
    offset += warp_sums[w];
  return offset + inclusive - value;
}

struct block_radix_rank {
  static constexpr int threads = radix_digits;
  static constexpr int warps = threads / 32;

  struct storage {
    unsigned warp_counts[warps][radix_digits];  // per warp, then prefixes over warps
    unsigned warp_match[warps][radix_digits];   // per warp: lanes holding each digit (step 1)
    unsigned warp_totals[warps];                // for the scan over digits
  };

  // The lanes of this warp whose item i is real: item i of lane l is
  // element i * 32 + l of the warp's chunk, of which the first warp_valid
  // are real (all of them when Full).
  template <bool Full>
  static __device__ unsigned valid_lanes(int i, unsigned warp_valid) {
    if constexpr (Full) return full_warp_mask;
    const int left = int(warp_valid) - i * 32;
    return left >= 32 ? full_warp_mask : left <= 0 ? 0u : (1u << left) - 1u;
  }
  // Whether this lane's item i is real.
  template <bool Full>
  static __device__ bool is_valid(int i, unsigned warp_valid) {
    return Full || ((valid_lanes<Full>(i, warp_valid) >> (threadIdx.x % 32)) & 1u);
  }

  // Steps 1 and 2 of the ranking (also those of the probes' rankings,
  // lab/probes/radix_match_rank.cuh), on warp_counts zeroed and a barrier
  // passed: each warp counts its digits, then thread d learns the tile's
  // count of digit d, calls counts_known(that count), learns where digit d
  // starts in the tile, and leaves in warp_counts[w][d] where warp w's run
  // of digit d starts. Ends with a barrier.
  template <bool Full, int Items, class K, class DigitOf, class CountsKnown>
  static __device__ __forceinline__ void count_digits(unsigned (&warp_counts)[warps][radix_digits],
                                                      unsigned (&warp_totals)[warps],
                                                      const K (&keys)[Items], DigitOf digit_of,
                                                      unsigned warp_valid, unsigned& digit_count,
                                                      unsigned& digit_start,
                                                      CountsKnown counts_known) {
    // 1. Each warp counts its digits (shared-memory atomics on the warp's
    //    own counters).
    unsigned* counts = warp_counts[threadIdx.x / 32];
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (is_valid<Full>(i, warp_valid)) atomicAdd(&counts[digit_of(keys[i])], 1u);
    }
    __syncthreads();

    // 2. Thread d: the tile's count of digit d, where digit d starts in the
    //    tile, and where each warp's run of digit d starts.
    const unsigned d = threadIdx.x;
    unsigned running = 0;
    for (int w = 0; w < warps; ++w) {
      const unsigned c = warp_counts[w][d];
      warp_counts[w][d] = running;
      running += c;
    }
    digit_count = running;
    counts_known(running);
    digit_start = block_exclusive_digit_scan(running, warp_totals);
    for (int w = 0; w < warps; ++w)
      warp_counts[w][d] += digit_start;
    __syncthreads();
  }

  // Ranks the keys of the tile by digit_of(key). Only the first warp_valid
  // items of each warp's chunk are real (see valid_lanes); the others get
  // no rank and count nowhere. Digits are recomputed from the keys where
  // needed rather than kept: registers are what limits the tile size.
  // Thread d learns the tile's count of digit d and the tile position where
  // digit d starts, and calls counts_known(count of digit d) as soon as the
  // count is known, before the keys are ranked (a onesweep pass publishes
  // it then). Ends with a barrier: storage may be reused only after another
  // barrier.
  template <bool Full, int Items, class K, class DigitOf, class CountsKnown>
  static __device__ void rank(storage& s, const K (&keys)[Items], DigitOf digit_of,
                              unsigned warp_valid, unsigned (&ranks)[Items], unsigned& digit_count,
                              unsigned& digit_start, CountsKnown counts_known) {
    const int lane = threadIdx.x % 32;
    const int warp = threadIdx.x / 32;
    for (int w = 0; w < warps; ++w) {
      s.warp_counts[w][threadIdx.x] = 0;
      s.warp_match[w][threadIdx.x] = 0;
    }
    __syncthreads();

    // 1. and 2.: count_digits.
    count_digits<Full>(s.warp_counts, s.warp_totals, keys, digit_of, warp_valid, digit_count,
                       digit_start, counts_known);
    unsigned* counts = s.warp_counts[warp];

    // 3. Per item, in order: the lanes holding the same digit find each
    //    other; the lowest takes the group's places from the warp's counter
    //    for that digit, which already holds where the warp's run starts.
    const unsigned lane_bit = 1u << lane;
    unsigned* match = s.warp_match[warp];
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      const bool valid = is_valid<Full>(i, warp_valid);
      const unsigned digit = valid ? digit_of(keys[i]) : 0u;
      if (valid) atomicOr(&match[digit], lane_bit);
      __syncwarp();                         // every lane's bit is in before any lane reads
      const unsigned peers = match[digit];  // (unused in a lane past the end)
      __syncwarp();                         // every lane has read before the leader clears
      const int leader = __ffs(peers) - 1;
      unsigned before = 0;
      if (lane == leader && valid) {
        before = counts[digit];
        counts[digit] = before + __popc(peers);
        match[digit] = 0;
      }
      ranks[i] = __shfl_sync(full_warp_mask, before, leader & 31) + __popc(peers & (lane_bit - 1));
      __syncwarp();  // the clear and the counter write are seen by the next step
    }
    __syncthreads();
  }
};

}  // namespace gpuprim::cuda_impl
