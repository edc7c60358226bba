// Segmented scans on the GPU over one-byte head flags, the kernels: the
// single pass (each value and flag read once, each result written once) and
// the small kernel that turns segment offsets into head flags. The host
// driver that launches them is cuda/device/device_segmented_scan.cuh.
//
// The general single-pass scan (device_scan.cuh) runs a segmented scan as a
// scan over (value, head) pairs with the segmented operator. That is
// instruction- and barrier-bound: every element goes through the pair
// operator twice, and every warp waits for the look-back at a second
// __syncthreads. The kernel here attacks both. It keeps values, not pairs,
// in registers, turns the heads into bit masks, and lets a tile that holds
// a segment head publish its inclusive prefix before it looks back: with
// heads in most tiles, the look-back is off the critical path and the
// kernel runs at the speed of its loads and stores.
//
// One block scans one tile of Threads * Items elements:
//  1. Each thread loads its Items head flags as 8- or 16-byte words into a
//     bit mask (thread_fetch.cuh: load_head_bits). Each warp stages its
//     32 * Items values through a padded shared buffer (warp_exchange.cuh:
//     warp_exchange: coalesced 16-byte loads in, Items consecutive values
//     a lane out). An exclusive scan is the inclusive scan of shifted
//     values: a head contributes init, any other element the value before
//     it, read from the staged buffer (the warp's first element from global
//     memory).
//  2. Each thread scans its values in registers, restarting at set bits.
//  3. Each warp scans its thread totals (Kogge-Stone over shuffles; lane l
//     adds lane l - d only while no head lies in (l - d, l], read from one
//     ballot of the lanes holding heads). The warp's last valid lane (31
//     but in the last tile) writes the warp's total and head bits to shared memory; after
//     one __syncthreads each thread folds the warp totals before its own
//     (the tile's total, and how many leading warps have elements before
//     the tile's first head: only those need the tile's prefix).
//  4. The tile's prefix by decoupled look-back (decoupled_lookback.cuh;
//     (value, head) pairs of 4-byte values ride in the status words, of
//     8-byte ones in its side array). A
//     tile holding a head publishes its inclusive prefix at once (it equals
//     its aggregate, bit for bit: (a, fa) o (b, true) = (b, true)) and
//     looks back only if it has elements before its first head; then only
//     the warps holding such elements wait for warp 0's look-back, at a
//     named barrier. The other warps go on to store.
//  5. Each thread combines its elements before its first head with its
//     prefix in the tile (and the tile's prefix where no head comes before
//     it) and the results go back through the same shared slots to
//     coalesced vector stores.
// Elements past n in the last tile are never combined, so the operator is
// applied to real data only. Every published prefix is the strict left fold
// of the tiles' aggregates (see decoupled_lookback.cuh): floating-point
// results are the same on every run.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/support/blocked_tile.cuh"
#include "gpuprim/cuda/support/prefetch.cuh"
#include "gpuprim/cuda/support/shuffle_up.cuh"
#include "gpuprim/cuda/support/thread_fetch.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/warp/warp_exchange.cuh"

namespace gpuprim::cuda_impl {

// Waits at hardware barrier 1 (barrier 0 is __syncthreads) with `count`
// threads, whole warps.
__device__ __forceinline__ void named_barrier_1(unsigned count) {
  asm volatile("bar.sync 1, %0;" ::"r"(count) : "memory");
}

template <int Threads, int Items, int Vec, int MinBlocks, bool Exclusive, class V, class Flag,
          class Op>
__global__ void __launch_bounds__(Threads, MinBlocks)
    segmented_scan_lookback(const V* in, const Flag* flags, V* out, std::uint64_t n, V init, Op op,
                            tile_lookback<flagged<V>> lookback, unsigned prefetch_tiles) {
  using pair = flagged<V>;
  using pair_lookback = tile_lookback<pair>;
  constexpr int warps = Threads / 32;
  constexpr int warp_elements = blocked_tile<Threads, Items>::warp_elements;
  constexpr int tile_elements = blocked_tile<Threads, Items>::tile_elements;
  using exchange = warp_exchange<Items, Vec, V>;
  // Raw bytes: V need not be default-constructible in shared memory.
  __shared__ alignas(16) unsigned char stage_storage[warps][exchange::slots * sizeof(V)];
  __shared__ alignas(alignof(V)) unsigned char warp_value_storage[warps * sizeof(V)];
  __shared__ alignas(alignof(V)) unsigned char tile_prefix_storage[sizeof(V)];
  __shared__ unsigned warp_bits[warps];  // bit 0: holds a head; bit 1: starts with one
  V* const warp_value = reinterpret_cast<V*>(warp_value_storage);
  V& tile_prefix = *reinterpret_cast<V*>(tile_prefix_storage);

  const std::uint64_t tile = blockIdx.x;
  const auto [warp, lane, tile_begin, warp_begin, warp_valid, thread_valid, first] =
      blocked_tile<Threads, Items>(tile, n);

  // 0. The L2 prefetch of the tile prefetch_tiles ahead (values and flags;
  // see scan/kernels.cuh, step 0: the launch passes 0 where every tile is
  // resident at once).
  if (prefetch_tiles > 0 && tile + prefetch_tiles < gridDim.x) {
    const std::uint64_t begin = (tile + prefetch_tiles) * tile_elements;
    const std::uint64_t count = std::min<std::uint64_t>(tile_elements, n - begin);
    prefetch_block_to_l2(in + begin, count * sizeof(V));
    prefetch_block_to_l2(flags + begin, count * sizeof(Flag));
  }

  // 1. Head bits (issued first: flags and values in flight together), then
  // the values through the warp's shared buffer.
  const std::uint64_t heads =
      thread_valid > 0 ? load_head_bits<Items>(flags, first, thread_valid) : 0;
  const exchange stage{reinterpret_cast<V*>(stage_storage[warp])};
  stage.load(in + warp_begin, warp_valid, lane);
  V v[Items];
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    if constexpr (Exclusive) {
      // Element e of the warp takes init at a head, else value e - 1.
      const bool head = ((heads >> k) & 1) != 0;
      if (k < thread_valid && !head) {
        v[k] = k > 0      ? stage.blocked(lane, k - 1)
               : lane > 0 ? stage.blocked(lane - 1, Items - 1)
                          : in[warp_begin - 1];  // not a head, so warp_begin > 0
      } else {
        v[k] = init;
      }
    } else {
      v[k] = k < thread_valid ? stage.blocked(lane, k) : V{};
    }
  }

  // 2. The thread's scan, restarting at set bits; its total is its last
  // valid element.
#pragma unroll
  for (int k = 1; k < Items; ++k) {
    if (k < thread_valid && ((heads >> k) & 1) == 0) v[k] = op(v[k - 1], v[k]);
  }
  V x = v[Items - 1];
  if (thread_valid < Items) {
    x = v[0];
#pragma unroll
    for (int k = 1; k < Items; ++k)
      x = k < thread_valid ? v[k] : x;
  }
  const bool thread_head = heads != 0;
  // Elements before the thread's first head take the prefix before it.
  const int first_head = thread_head ? __ffsll(static_cast<long long>(heads)) - 1 : Items;

  // 3. The warp: a Kogge-Stone scan of the thread totals; lane l adds lane
  // l - d only while no head lies in (l - d, l] (`start`: the nearest lane
  // at or below l holding a head). Valid lanes come first, so a valid lane
  // only ever combines valid ones.
  const unsigned warp_heads = __ballot_sync(full_warp_mask, thread_head);
  const unsigned heads_upto = warp_heads & (0xffffffffu >> (31 - lane));
  const int start = heads_upto ? 31 - __clz(heads_upto) : 0;
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const V y = shuffle_up(x, d);
    if (lane - d >= start && thread_valid > 0) x = op(y, x);
  }
  // This lane's exclusive prefix within its warp (for lane > 0), and
  // whether a head lies in it.
  const V lane_before = shuffle_up(x, 1);
  const bool lane_before_head = (warp_heads & ((1u << lane) - 1)) != 0;
  const bool warp_starts_with_head = (__ballot_sync(full_warp_mask, (heads & 1) != 0) & 1u) != 0;
  if (warp_valid > 0 && lane == std::min(31, (warp_valid - 1) / Items)) {
    warp_value[warp] = x;
    warp_bits[warp] = (warp_heads != 0 ? 1u : 0u) | (warp_starts_with_head ? 2u : 0u);
  }
  __syncthreads();

  // The warps before this one and the whole tile, and how many leading
  // warps have elements before the tile's first head. Warps past n (only
  // in the last tile) come after every valid one and are skipped.
  V warp_before{}, total{};
  bool warp_before_head = false, total_head = false;
  int needy = 0;
  bool stop = false;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    if (w == warp) {
      warp_before = total;
      warp_before_head = total_head;
    }
    if (tile_begin + std::uint64_t(w) * warp_elements >= n) continue;
    const unsigned bits = warp_bits[w];
    stop = stop || (bits & 2u) != 0;
    if (!stop) needy = w + 1;
    stop = stop || (bits & 1u) != 0;
    total = (w == 0 || (bits & 1u)) ? warp_value[w] : op(total, warp_value[w]);
    total_head = total_head || (bits & 1u) != 0;
  }
  // The thread's exclusive prefix within the tile (none for thread 0), and
  // whether a head lies in it.
  const bool block_before_valid = lane > 0 || warp > 0;
  const bool block_before_head = lane_before_head || warp_before_head;
  // (Not formed in threads past n: the operator sees real data only.)
  const V block_before = thread_valid == 0                 ? V{}
                         : lane == 0                       ? warp_before
                         : (lane_before_head || warp == 0) ? lane_before
                                                           : op(warp_before, lane_before);

  // 4. The tile's prefix (tile 0 has none: its first element is a head).
  const bool looks_back = tile > 0 && needy > 0;
  if (tile == 0) {
    if (threadIdx.x == 0)
      lookback.publish(0, pair_lookback::inclusive_prefix, pair{total, total_head});
  } else {
    if (threadIdx.x == 0)
      lookback.publish(tile,
                       total_head ? pair_lookback::inclusive_prefix : pair_lookback::aggregate,
                       pair{total, total_head});
    if (warp == 0 && looks_back) {
      const segmented<Op> pair_op{op};
      const pair prefix =
          lookback.template exclusive_prefix<scan_lookback_words, scan_first_poll_delay_ns, 0>(
              tile, pair_op);
      if (lane == 0) {
        tile_prefix = prefix.value;
        if (!total_head)
          lookback.publish(tile, pair_lookback::inclusive_prefix,
                           pair_op(prefix, pair{total, total_head}));
      }
    }
  }
  // Only the warps before the tile's first head wait for warp 0 (always
  // among them when it looks back).
  // They read the prefix right after the barrier, inside the branch: a read
  // outside it (which the compiler may hoist to every thread, the value
  // unused) would race with warp 0's write.
  const int waiting = looks_back ? needy : 0;
  V prefix{};
  if (warp < waiting) {
    named_barrier_1(32u * waiting);
    prefix = tile_prefix;
  }

  // 5. Combine and store. Only a thread with no head before it in the tile
  // takes the tile's prefix (its warp is among the waiting ones).
  V before = block_before;
  bool has_before = block_before_valid;
  if (!block_before_head && tile > 0 && first_head > 0 && thread_valid > 0) {
    before = block_before_valid ? op(prefix, block_before) : prefix;
    has_before = true;
  }
  __syncwarp();  // every lane has read its inputs from the shared buffer
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    if (k < thread_valid)
      stage.set_blocked(lane, k, has_before && k < first_head ? op(before, v[k]) : v[k]);
  }
  stage.store(out + warp_begin, warp_valid, lane);
}

// flags[offsets[s]] = 1 for each offset inside the array. Several empty
// segments may share a position; they all write the same byte.
template <class Offset>
__global__ void mark_segment_heads(const Offset* offsets, std::uint64_t num_offsets,
                                   std::uint8_t* flags, std::uint64_t n) {
  for (std::uint64_t s = blockIdx.x * std::uint64_t(blockDim.x) + threadIdx.x; s < num_offsets;
       s += std::uint64_t(gridDim.x) * blockDim.x) {
    const auto o = static_cast<std::uint64_t>(offsets[s]);
    if (o < n) flags[o] = 1;
  }
}

}  // namespace gpuprim::cuda_impl
