// Variants of the inclusive segmented float sum with one-byte head flags
// (lab/probes/tune_segmented_scan.cu times them against production's
// scan_decoupled_lookback over (value, head) pairs).
//
// Production is instruction- and barrier-bound (SM 60 %, DRAM 46 %, stalls
// at barriers 5.4 of 12.9 cycles an issue): every element goes through the
// (value, head) operator, which doubles the scan's work, and every warp
// waits twice a tile at __syncthreads, the second time for the look-back.
// The variants keep production's tile layout, its staging of the values
// through shared memory, its L2 prefetch 64 tiles ahead and its look-back
// (gc::tile_lookback over packed (value, head) status words), and change
// what a thread does with its elements:
//  1. The thread's Items flags come as FlagBytes-wide words (4, 8 or 16
//     bytes) and become one bit mask: segment starts are bits, not bytes.
//  2. The thread scans its floats in registers, each value restarting at a
//     set bit (a select and an add an element, no head arithmetic).
//  3. The block-wide part scans one (has_head, value) pair a thread: the
//     warp's heads are one ballot, so each of the 5 shuffle steps moves one
//     float and tests the lane distance to the nearest head; the 8 warp
//     totals are exchanged once through shared memory.
//  4. The tile's prefix comes from the look-back, unchanged. OneBarrier:
//     only the warps that need it (those before the tile's first head) wait
//     for it, at a named barrier, instead of the whole block at a second
//     __syncthreads. Shortcut: a tile holding a head publishes its
//     inclusive prefix at once (it is its own aggregate, bit for bit:
//     (a, fa) o (b, true) = (b, true)), and looks back only when some of its
//     elements come before its first head.
//  5. Results go back through the same shared slots to 16-byte stores.
// Direct: values go straight between global memory and registers (each
// thread's own 16-byte vectors), without the shared-memory round trip.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/detail/prefetch.cuh"
#include "gpuprim/cuda/detail/thread_fetch.cuh"
#include "gpuprim/cuda/detail/workspace.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/device/device_scan.cuh"

namespace segscan {

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;

using pair_t = gp::flagged<float>;
using lookback_t = gc::tile_lookback<pair_t>;
using pair_op = gp::segmented<gp::plus>;

// A variant's compile-time shape.
template <int Threads, int Items, int FlagBytes, int MinBlocks, bool OneBarrier, bool Shortcut,
          bool Direct = false>
struct shape {
  static_assert(Threads % 32 == 0 && Threads <= 1024);
  static_assert(Items % 4 == 0 && Items <= 64, "16-byte value vectors, a 64-bit head mask");
  static_assert(FlagBytes == 4 || FlagBytes == 8 || FlagBytes == 16);
  static_assert(Items % FlagBytes == 0, "a thread's flags are whole words");
  static constexpr int threads = Threads;
  static constexpr int items = Items;
  static constexpr int flag_bytes = FlagBytes;
  static constexpr int min_blocks = MinBlocks;
  static constexpr bool one_barrier = OneBarrier;
  static constexpr bool shortcut = Shortcut;
  static constexpr bool direct = Direct;
  static constexpr int tile = Threads * Items;
};

// Bit k set where flags[k] is not zero, for the thread's `valid` flags
// from p (p aligned to FlagBytes when all Items are valid).
template <int Items, int FlagBytes>
__device__ __forceinline__ std::uint64_t flag_mask(const std::uint8_t* p, int valid) {
  std::uint64_t bits = 0;
  if (valid == Items) {
#pragma unroll
    for (int w = 0; w < Items / FlagBytes; ++w) {
      if constexpr (FlagBytes == 16) {
        const uint4 q = reinterpret_cast<const uint4*>(p)[w];
        const unsigned lo = gc::nonzero_byte_bits((std::uint64_t(q.y) << 32) | q.x);
        const unsigned hi = gc::nonzero_byte_bits((std::uint64_t(q.w) << 32) | q.z);
        bits |= std::uint64_t(lo | hi << 8) << (16 * w);
      } else if constexpr (FlagBytes == 8) {
        const uint2 q = reinterpret_cast<const uint2*>(p)[w];
        bits |= std::uint64_t(gc::nonzero_byte_bits((std::uint64_t(q.y) << 32) | q.x)) << (8 * w);
      } else {
        const unsigned q = reinterpret_cast<const unsigned*>(p)[w];
        bits |= std::uint64_t(gc::nonzero_byte_bits(q)) << (4 * w);
      }
    }
    return bits;
  }
#pragma unroll
  for (int k = 0; k < Items; ++k) {
    if (k < valid && p[k] != 0) bits |= std::uint64_t{1} << k;
  }
  return bits;
}

// Waits at hardware barrier 1 with `count` threads (whole warps).
__device__ __forceinline__ void named_barrier(unsigned count) {
  asm volatile("bar.sync 1, %0;" ::"r"(count) : "memory");
}

template <class S>
__global__ void __launch_bounds__(S::threads, S::min_blocks)
    segmented_sum(const float* in, const std::uint8_t* flags, float* out, std::uint64_t n,
                  lookback_t lookback, unsigned prefetch_tiles) {
  constexpr int warps = S::threads / 32;
  constexpr int items = S::items;
  constexpr int warp_elements = 32 * items;
  using exchange = gc::warp_exchange<items, 4, float>;
  __shared__ alignas(16) float stage_storage[warps][exchange::slots];
  __shared__ float warp_value[warps];
  __shared__ unsigned warp_bits[warps];  // bit 0: holds a head; bit 1: starts with one
  __shared__ float tile_prefix;

  const int warp = threadIdx.x / 32;
  const int lane = threadIdx.x % 32;
  const std::uint64_t tile = blockIdx.x;
  const std::uint64_t tile_begin = tile * S::tile;
  const std::uint64_t warp_begin = tile_begin + std::uint64_t(warp) * warp_elements;
  const int warp_valid =
      warp_begin >= n ? 0
                      : static_cast<int>(std::min<std::uint64_t>(warp_elements, n - warp_begin));
  const int thread_valid = std::clamp(warp_valid - lane * items, 0, items);
  const std::uint64_t first = warp_begin + std::uint64_t(lane) * items;

  // 0. The L2 prefetch of a later tile's values and flags, as production.
  if (prefetch_tiles > 0 && tile + prefetch_tiles < gridDim.x) {
    const std::uint64_t begin = (tile + prefetch_tiles) * S::tile;
    const std::uint64_t count = std::min<std::uint64_t>(S::tile, n - begin);
    gc::prefetch_block_to_l2(in + begin, count * sizeof(float));
    gc::prefetch_block_to_l2(flags + begin, count);
  }

  // 1. Flags straight into a bit mask (issued first: both streams in
  // flight at once); values through shared memory (striped 16-byte loads,
  // blocked reads), or with Direct straight into registers (each thread's
  // own 16-byte vectors: no shared-memory round trip, but each load
  // instruction covers half of each 32-byte sector it touches).
  const std::uint64_t heads =
      (thread_valid > 0 ? flag_mask<items, S::flag_bytes>(flags + first, thread_valid) : 0) |
      (first == 0 ? 1u : 0u);
  const exchange stage{stage_storage[warp]};
  float v[items];
  if constexpr (S::direct) {
    if (thread_valid == items) {
#pragma unroll
      for (int j = 0; j < items / 4; ++j) {
        const float4 q = reinterpret_cast<const float4*>(in + first)[j];
        v[4 * j] = q.x;
        v[4 * j + 1] = q.y;
        v[4 * j + 2] = q.z;
        v[4 * j + 3] = q.w;
      }
    } else {
#pragma unroll
      for (int k = 0; k < items; ++k)
        v[k] = k < thread_valid ? in[first + k] : 0.0f;
    }
  } else {
    stage.load(in + warp_begin, warp_valid, lane);
#pragma unroll
    for (int k = 0; k < items; ++k)
      v[k] = k < thread_valid ? stage.blocked(lane, k) : 0.0f;
  }

  // 2. The thread's scan: values restart at set bits. Elements past n are
  // zeros without heads (never stored; they only follow the real ones).
#pragma unroll
  for (int k = 1; k < items; ++k)
    v[k] = ((heads >> k) & 1) ? v[k] : v[k - 1] + v[k];
  const bool thread_head = heads != 0;
  // Elements before the thread's first head take the prefix before it.
  const int first_head = thread_head ? __ffsll(static_cast<long long>(heads)) - 1 : items;

  // 3. The warp: a Kogge-Stone scan of the thread totals that adds lane
  // l - d only while no head lies in (l - d, l] (`start`: the nearest lane
  // at or below l holding a head).
  const unsigned warp_heads = __ballot_sync(gc::full_warp_mask, thread_head);
  const unsigned warp_starts = __ballot_sync(gc::full_warp_mask, heads & 1);
  const unsigned heads_upto = warp_heads & (0xffffffffu >> (31 - lane));
  const int start = heads_upto ? 31 - __clz(heads_upto) : 0;
  float x = v[items - 1];
#pragma unroll
  for (int d = 1; d < 32; d *= 2) {
    const float y = __shfl_up_sync(gc::full_warp_mask, x, d);
    if (lane - d >= start) x = y + x;
  }
  // This thread's exclusive prefix within its warp.
  float lane_before = __shfl_up_sync(gc::full_warp_mask, x, 1);
  const bool lane_before_head = (warp_heads & ((1u << lane) - 1)) != 0;
  if (lane == 31) {
    warp_value[warp] = x;
    warp_bits[warp] = (warp_heads != 0 ? 1u : 0u) | (warp_starts & 1u ? 2u : 0u);
  }
  __syncthreads();

  // The warps before this one and the whole tile, and how many leading
  // warps have elements before the tile's first head (they need the tile's
  // prefix; the warps after it need nothing from the look-back).
  float warp_before = 0.0f, total = 0.0f;
  bool warp_before_head = false, total_head = false;
  int needy = 0;
  bool stop = false;
#pragma unroll
  for (int w = 0; w < warps; ++w) {
    const unsigned bits = warp_bits[w];
    if (w == warp) {
      warp_before = total;
      warp_before_head = total_head;
    }
    stop = stop || (bits & 2u) != 0;
    if (!stop) needy = w + 1;
    stop = stop || (bits & 1u) != 0;
    total = (bits & 1u) ? warp_value[w] : (w == 0 ? warp_value[w] : total + warp_value[w]);
    total_head = total_head || (bits & 1u) != 0;
  }
  // The thread's exclusive prefix within the tile (valid unless it is
  // thread 0), and whether a head lies in it.
  float block_before =
      lane > 0
          ? (lane_before_head ? lane_before : (warp > 0 ? warp_before + lane_before : lane_before))
          : warp_before;
  const bool block_before_valid = lane > 0 || warp > 0;
  const bool block_before_head = lane_before_head || warp_before_head;

  // 4. The tile's prefix by look-back (tile 0 has none: its first element
  // is a head).
  const bool looks_back = tile > 0 && (!S::shortcut || needy > 0);
  if (tile == 0) {
    if (threadIdx.x == 0)
      lookback.publish(0, lookback_t::inclusive_prefix, pair_t{total, total_head});
  } else {
    const bool early = S::shortcut && total_head;
    if (threadIdx.x == 0)
      lookback.publish(tile, early ? lookback_t::inclusive_prefix : lookback_t::aggregate,
                       pair_t{total, total_head});
    if (warp == 0 && looks_back) {
      const pair_t prefix =
          lookback
              .template exclusive_prefix<gc::scan_lookback_words, gc::scan_first_poll_delay_ns, 0>(
                  tile, pair_op{});
      if (lane == 0) {
        tile_prefix = prefix.value;
        if (!early)
          lookback.publish(tile, lookback_t::inclusive_prefix,
                           pair_op{}(prefix, pair_t{total, total_head}));
      }
    }
  }
  if constexpr (S::one_barrier) {
    const int waiting = looks_back ? std::max(needy, 1) : 0;
    if (warp < waiting) named_barrier(32u * waiting);
  } else {
    __syncthreads();
  }

  // 5. Combine and store. Only a thread with no head before it in the tile
  // reads the tile's prefix (its warp is among the `needy` ones).
  float before = block_before;
  bool has_before = block_before_valid;
  if (!block_before_head && tile > 0 && first_head > 0 && thread_valid > 0) {
    before = block_before_valid ? tile_prefix + block_before : tile_prefix;
    has_before = true;
  }
#pragma unroll
  for (int k = 0; k < items; ++k) {
    if (has_before && k < first_head) v[k] = before + v[k];
  }
  if constexpr (S::direct) {
    if (thread_valid == items) {
#pragma unroll
      for (int j = 0; j < items / 4; ++j)
        reinterpret_cast<float4*>(out + first)[j] =
            make_float4(v[4 * j], v[4 * j + 1], v[4 * j + 2], v[4 * j + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < items; ++k) {
        if (k < thread_valid) out[first + k] = v[k];
      }
    }
  } else {
    __syncwarp();  // every lane has read its inputs from the shared buffer
#pragma unroll
    for (int k = 0; k < items; ++k) {
      if (k < thread_valid) stage.set_blocked(lane, k, v[k]);
    }
    stage.store(out + warp_begin, warp_valid, lane);
  }
}

// Launches variant S on `stream`: n floats at `in` (16-byte aligned),
// their head flags at `flags` (aligned to S::flag_bytes), results to `out`.
template <class S>
void launch_segmented_sum(const float* in, const std::uint8_t* flags, float* out, std::uint64_t n,
                          cudaStream_t stream) {
  if (n == 0) return;
  if (reinterpret_cast<std::uintptr_t>(in) % 16 || reinterpret_cast<std::uintptr_t>(out) % 16 ||
      reinterpret_cast<std::uintptr_t>(flags) % S::flag_bytes)
    throw std::invalid_argument("segmented_sum: misaligned arrays");
  const std::uint64_t tiles = (n + S::tile - 1) / S::tile;
  const gc::lookback_workspace ws = gc::stream_lookback_workspace(stream, tiles, 0);
  const lookback_t lookback{ws.status, static_cast<pair_t*>(ws.values), ws.epoch};
  // Prefetch only in a grid larger than the GPU holds at once (production's rule).
  static const unsigned resident = [] {
    int blocks = 0, device = 0, sms = 0;
    cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, segmented_sum<S>, S::threads, 0);
    cudaGetDevice(&device);
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device);
    return static_cast<unsigned>(blocks * sms);
  }();
  const unsigned prefetch = tiles > resident ? unsigned(gc::scan_prefetch_tiles) : 0u;
  segmented_sum<S><<<static_cast<unsigned>(tiles), S::threads, 0, stream>>>(in, flags, out, n,
                                                                            lookback, prefetch);
}

// Registers a thread of variant S (cudaFuncGetAttributes).
template <class S>
int registers_of() {
  cudaFuncAttributes a{};
  cudaFuncGetAttributes(&a, segmented_sum<S>);
  return a.numRegs;
}

}  // namespace segscan
