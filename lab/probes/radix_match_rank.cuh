// A ranking for the onesweep radix sort's pass (cuda/device/radix_sort/
// onesweep.cuh) that finds a warp's lanes of equal digit in registers (warp
// multi-split) instead of through shared memory, for lab/probes/
// probe_radix_tile.cu to time beside production and CUB. It has
// block_radix_rank's contract, so production's sort runs it as its Rank
// template parameter: every other step (digit histograms, digit starts,
// look-back, reorder, writes) is production's code; the output is the same
// (a stable sort).
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
//   1. Per warp: a count of each digit, and
//   2. per digit (thread d): prefixes over warps, the tile's count of d
//      (handed to the caller at once), the scan over digits: production's
//      block_radix_rank::count_digits.
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

#include <cstdint>

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
    // 1. and 2.
    block_radix_rank::count_digits<Full>(s.warp_counts, s.warp_totals, keys, digit_of, warp_valid,
                                         digit_count, digit_start, counts_known);
    unsigned* counts = s.warp_counts[warp];

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

}  // namespace gpuprim::cuda_impl
