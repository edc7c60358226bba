// Device-wide scan in a single pass, the kernel: each element is read once
// and written once (decoupled look-back, cuda/device/decoupled_lookback.cuh).
// The host driver that picks the tile shape and launches it is
// cuda/device/device_scan.cuh.
//
// One block scans one tile of Threads * Items elements:
//  1. Each warp owns 32 * Items consecutive elements. It loads them with
//     coalesced 16-byte vector loads (lane-striped) into a padded shared
//     buffer, then each lane reads back its Items consecutive elements
//     (blocked). One pad slot per 32 elements makes both the striped writes
//     and the blocked reads free of bank conflicts.
//  2. Each thread scans its Items elements in registers; a block_scan of the
//     thread totals gives each thread its prefix within the tile and the
//     tile's aggregate. (Accumulators wider than 4 bytes, e.g. a segmented
//     scan's (value, head) pairs, would need too many registers to stay
//     there across the look-back: with scan_staging::rescan a thread only
//     reduces its elements here and scans them again from the staged
//     buffer in step 4.)
//  3. Warp 0 learns the tile's prefix by decoupled look-back; thread 0
//     publishes the tile's aggregate first and its inclusive prefix after.
//  4. Results go back through the shared buffer (blocked in, striped out)
//     to coalesced vector stores.
// Elements past n in the last tile are never combined (partial values), so
// the operator is never applied to anything but real data. Input and output
// may be the same array: a tile is fully read before it is written.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/cuda/block/block_scan.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/prefetch.cuh"
#include "gpuprim/cuda/support/thread_fetch.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/warp/warp_exchange.cuh"

namespace gpuprim::cuda_impl {

template <int Threads, int Items, int Vec, int LookbackWords, int FirstDelayNs, int PollDelayNs,
          int MinBlocks, int PrefetchTiles, bool Exclusive, bool Rescan, class In, class Out,
          class T, class Op, class Fetch>
__global__ void __launch_bounds__(Threads, MinBlocks)
    scan_decoupled_lookback(const In* in, Out* out, std::uint64_t n, T init, Op op, Fetch fetch,
                            tile_lookback<T> lookback, unsigned prefetch_tiles) {
  constexpr int warps = Threads / 32;
  constexpr int warp_elements = 32 * Items;
  using in_exchange = warp_exchange<Items, Vec, In>;
  using out_exchange = warp_exchange<Items, Vec, Out>;
  constexpr int exchange_bytes = std::max(sizeof(In), sizeof(Out)) * in_exchange::slots;
  __shared__ alignas(16) unsigned char exchange_storage[warps][exchange_bytes];
  __shared__ typename block_scan<Threads, T>::storage scan_storage;
  __shared__ partial<T> tile_prefix;

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::uint64_t tile = blockIdx.x;
  const std::uint64_t warp_begin = tile * Threads * Items + std::uint64_t(warp) * warp_elements;
  const int warp_valid =
      warp_begin >= n ? 0
                      : static_cast<int>(std::min<std::uint64_t>(warp_elements, n - warp_begin));

  // 0. Ask L2 for the input of the tile prefetch_tiles ahead (PrefetchTiles
  // compiles the step in; the distance is a run-time argument, which the
  // tuner varies), which a block launched later will load: its loads then hit L2, so its aggregate
  // (on which the look-back of the tiles after it waits) is not held up by the latency of a memory
  // system kept busy by every resident tile. Not in a grid whose tiles are all resident from the
  // start (a small input, prefetch_tiles 0): each of those already loads its own input, and a
  // prefetch for another would only queue ahead of this tile's loads. What bounds such a grid is
  // the chain of prefixes from tile 0, whose input then arrived among the last (2^20 floats:
  // tile 0's data 4.0-4.3 us into the kernel, tiles 64 and up 3.0-3.5 us;
  // without the prefetch the call took 14.3-15.1 us against 15.4-15.6).
  if constexpr (PrefetchTiles > 0) {
    const std::uint64_t ahead = tile + prefetch_tiles;
    if (prefetch_tiles > 0 && ahead < gridDim.x) {
      const std::uint64_t begin = ahead * Threads * Items;
      const std::uint64_t count =
          std::min<std::uint64_t>(std::uint64_t(Threads) * Items, n - begin);
      prefetch_block_to_l2(in + begin, count * sizeof(In));
      prefetch_fetch_inputs(fetch, begin, count);
    }
  }

  // 1. Load; each thread takes its Items consecutive elements.
  const in_exchange load_stage{reinterpret_cast<In*>(exchange_storage[warp])};
  load_stage.load(in + warp_begin, warp_valid, lane);
  const int thread_valid = std::clamp(warp_valid - lane * Items, 0, Items);
  const auto element = make_thread_fetch<Items>(fetch, warp_begin + lane * Items, thread_valid);
  const auto value_at = [&](int k) {
    return static_cast<T>(element(load_stage.blocked(lane, k), k));
  };

  // 2. Scan in registers (or only reduce, see scan_staging), then across
  // the block.
  T items[Rescan ? 1 : Items];
  partial<T> thread_total{T{}, thread_valid > 0};
  if constexpr (Rescan) {
    if (thread_valid > 0) {
      T total = value_at(0);
#pragma unroll
      for (int k = 1; k < Items; ++k) {
        if (k < thread_valid) total = op(total, value_at(k));
      }
      thread_total.value = total;
    }
  } else {
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      if (k < thread_valid) items[k] = value_at(k);
    }
#pragma unroll
    for (int k = 1; k < Items; ++k) {
      if (k < thread_valid) items[k] = op(items[k - 1], items[k]);
    }
    // The last valid item, by a chain of selects: written as
    // items[thread_valid - 1], the run-time index would move `items` to
    // local memory.
    thread_total.value = items[0];
#pragma unroll
    for (int k = 1; k < Items; ++k)
      thread_total.value = k < thread_valid ? items[k] : thread_total.value;
  }
  const auto block = block_scan<Threads, T>{scan_storage}.exclusive_scan(thread_total, op);

  // 3. The tile's prefix.
  if (tile == 0) {
    if (threadIdx.x == 0) {
      const partial<T> start = Exclusive ? partial<T>{init, true} : partial<T>{T{}, false};
      tile_prefix = start;
      const partial<T> inclusive = combine(start, block.block_total, op);
      if (inclusive.valid) lookback.publish(0, tile_lookback<T>::inclusive_prefix, inclusive.value);
    }
  } else {
    if (threadIdx.x == 0)
      lookback.publish(tile, tile_lookback<T>::aggregate, block.block_total.value);
    if (warp == 0) {
      const T prefix =
          lookback.template exclusive_prefix<LookbackWords, FirstDelayNs, PollDelayNs>(tile, op);
      if (lane == 0) {
        tile_prefix = {prefix, true};
        lookback.publish(tile, tile_lookback<T>::inclusive_prefix,
                         op(prefix, block.block_total.value));
      }
    }
  }
  __syncthreads();

  // 4. Combine with the prefixes and store. The results go to the same
  // shared slots the inputs came from.
  const partial<T> before = combine(tile_prefix, block.exclusive_prefix, op);
  const out_exchange store_stage{reinterpret_cast<Out*>(exchange_storage[warp])};
  if constexpr (!Rescan) __syncwarp();  // every lane has read its inputs from the shared buffer
  static_assert(!Rescan || sizeof(In) == sizeof(Out),
                "a rescan overwrites each input slot with its result, so both must be one size");
  // With Rescan, `local` recomputes items[k] (the same fold, so the same
  // bits as the register form); a lane reads only its own slots, each
  // before writing it.
  T local{};
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    if (k < thread_valid) {
      T result;
      if constexpr (Rescan) {
        const T x = value_at(k);
        if constexpr (Exclusive) result = k == 0 ? before.value : op(before.value, local);
        local = k == 0 ? x : op(local, x);
        if constexpr (!Exclusive) result = before.valid ? op(before.value, local) : local;
      } else if constexpr (Exclusive) {
        result = k == 0 ? before.value : op(before.value, items[k - 1]);
      } else {
        result = before.valid ? op(before.value, items[k]) : items[k];
      }
      store_stage.set_blocked(lane, k, static_cast<Out>(result));
    }
  }
  store_stage.store(out + warp_begin, warp_valid, lane);
}

}  // namespace gpuprim::cuda_impl
