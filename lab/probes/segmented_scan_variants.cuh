// Variants of the inclusive segmented float sum with one-byte head flags
// (lab/probes/probe_segmented_scan.cu times them against production's
// segmented_scan_lookback, cuda/device/device_segmented_scan.cuh, and the
// scan over (value, head) pairs it replaced).
//
// The pair scan is instruction- and barrier-bound (SM 60 %, DRAM 46 %,
// stalls at barriers 5.4 of 12.9 cycles an issue): every element goes
// through the (value, head) operator, which doubles the scan's work, and
// every warp waits twice a tile at __syncthreads, the second time for the
// look-back. Production's kernel is this file's padded staging with one
// barrier and the early prefix (OneBarrier, Shortcut), generalized to any
// operator, 4- and 8-byte values and exclusive scans. The variants keep
// its steps and switch its mechanisms off or swap them, to show what each
// is worth: two barriers, no early prefix, 4- or 16-byte flag words, a
// sleep before the first poll or none, swizzled or no value staging. Their
// tile layout, L2 prefetch and look-back (gc::tile_lookback over packed
// (value, head) status words) are production's:
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
// The values' path between global memory and a thread's registers
// (`staging`): production's padded shared buffer (one 4-byte shared access
// an element each way), a swizzled one (one 16-byte shared access per 4
// elements each way, still free of bank conflicts), or none.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/support/blocked_tile.cuh"
#include "gpuprim/cuda/support/prefetch.cuh"
#include "gpuprim/cuda/support/thread_fetch.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/cuda/device/device_segmented_scan.cuh"

namespace segscan {

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

using pair_t = gp::flagged<float>;
using lookback_t = gc::tile_lookback<pair_t>;
using pair_op = gp::segmented<gp::plus>;

// A variant's compile-time shape.
enum class staging { padded, swizzled, direct };

// FirstDelayNs: the look-back's sleep before its first poll (production's
// 1 us gives the tiles behind time to publish; with Shortcut they mostly
// have already).
template <int Threads, int Items, int FlagBytes, int MinBlocks, bool OneBarrier, bool Shortcut,
          staging Staging = staging::padded, int FirstDelayNs = gc::scan_first_poll_delay_ns>
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
  static constexpr staging values = Staging;
  static constexpr int first_delay_ns = FirstDelayNs;
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

// ---- value paths: load(...) fills a thread's Items values (zeros past
// `thread_valid`), store(...) writes its first thread_valid results. A
// warp's elements start at `src`/`dst`, 16-byte aligned; `valid` of them
// are real.

// Production's: lane-striped 16-byte global accesses, one 4-byte shared
// access an element, one pad slot per 32 (cuda/device/device_scan.cuh).
template <int Items>
struct padded_values {
  using exchange = gc::warp_exchange<Items, 4, float>;
  static constexpr int floats = exchange::slots;
  exchange stage;

  __device__ void load(const float* src, int valid, int lane, int thread_valid,
                       float (&v)[Items]) const {
    stage.load(src, valid, lane);
#pragma unroll
    for (int k = 0; k < Items; ++k)
      v[k] = k < thread_valid ? stage.blocked(lane, k) : 0.0f;
  }
  __device__ void store(float* dst, int valid, int lane, int thread_valid,
                        const float (&v)[Items]) const {
    __syncwarp();  // every lane has read its inputs from the shared buffer
#pragma unroll
    for (int k = 0; k < Items; ++k) {
      if (k < thread_valid) stage.set_blocked(lane, k, v[k]);
    }
    stage.store(dst, valid, lane);
  }
};

// 16-byte shared accesses: the warp's 8 Items chunks of 4 floats, chunk q
// in slot q ^ ((q / C) & 7) (C = Items / 4 chunks a lane). A phase of 8
// lanes then touches 8 different 16-byte bank groups both when lanes write
// consecutive chunks and when each reads its own C (for even C).
template <int Items>
struct swizzled_values {
  static_assert(Items % 8 == 0, "an even number of 4-float chunks a lane");
  static constexpr int chunks = Items / 4;  // a lane's
  static constexpr int floats = 32 * Items;
  float* buffer;

  static __host__ __device__ constexpr int slot(int q) { return q ^ ((q / chunks) & 7); }
  // The slots of the warp's 8 * Items chunks are a permutation of them.
  static constexpr bool slots_permute() {
    bool seen[8 * Items] = {};
    for (int q = 0; q < 8 * Items; ++q) {
      if (slot(q) >= 8 * Items || seen[slot(q)]) return false;
      seen[slot(q)] = true;
    }
    return true;
  }
  static_assert(slots_permute());
  __device__ float4& chunk(int q) const { return reinterpret_cast<float4*>(buffer)[slot(q)]; }

  __device__ void load(const float* src, int valid, int lane, int thread_valid,
                       float (&v)[Items]) const {
    if (valid == 32 * Items) {
#pragma unroll
      for (int j = 0; j < chunks; ++j)
        chunk(j * 32 + lane) = reinterpret_cast<const float4*>(src)[j * 32 + lane];
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int e = j * 32 + lane;
        if (e < valid) buffer[4 * slot(e / 4) + e % 4] = src[e];
      }
    }
    __syncwarp();
#pragma unroll
    for (int c = 0; c < chunks; ++c) {
      const float4 x = chunk(lane * chunks + c);
      v[4 * c] = 4 * c < thread_valid ? x.x : 0.0f;
      v[4 * c + 1] = 4 * c + 1 < thread_valid ? x.y : 0.0f;
      v[4 * c + 2] = 4 * c + 2 < thread_valid ? x.z : 0.0f;
      v[4 * c + 3] = 4 * c + 3 < thread_valid ? x.w : 0.0f;
    }
  }
  __device__ void store(float* dst, int valid, int lane, int, const float (&v)[Items]) const {
    __syncwarp();  // every lane has read its inputs from the shared buffer
#pragma unroll
    for (int c = 0; c < chunks; ++c)
      chunk(lane * chunks + c) = make_float4(v[4 * c], v[4 * c + 1], v[4 * c + 2], v[4 * c + 3]);
    __syncwarp();
    if (valid == 32 * Items) {
#pragma unroll
      for (int j = 0; j < chunks; ++j)
        reinterpret_cast<float4*>(dst)[j * 32 + lane] = chunk(j * 32 + lane);
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int e = j * 32 + lane;
        if (e < valid) dst[e] = buffer[4 * slot(e / 4) + e % 4];
      }
    }
  }
};

// No staging: each thread's own 16-byte vectors (a load instruction covers
// half of each 32-byte sector it touches; L1 serves the other half).
template <int Items>
struct direct_values {
  static constexpr int floats = 4;
  float* buffer;  // unused: the kernel's interface is the same for every path
  __device__ void load(const float* src, int, int lane, int thread_valid, float (&v)[Items]) const {
    const float* p = src + lane * Items;
    if (thread_valid == Items) {
#pragma unroll
      for (int j = 0; j < Items / 4; ++j) {
        const float4 q = reinterpret_cast<const float4*>(p)[j];
        v[4 * j] = q.x;
        v[4 * j + 1] = q.y;
        v[4 * j + 2] = q.z;
        v[4 * j + 3] = q.w;
      }
    } else {
#pragma unroll
      for (int k = 0; k < Items; ++k)
        v[k] = k < thread_valid ? p[k] : 0.0f;
    }
  }
  __device__ void store(float* dst, int, int lane, int thread_valid,
                        const float (&v)[Items]) const {
    float* p = dst + lane * Items;
    if (thread_valid == Items) {
#pragma unroll
      for (int j = 0; j < Items / 4; ++j)
        reinterpret_cast<float4*>(p)[j] =
            make_float4(v[4 * j], v[4 * j + 1], v[4 * j + 2], v[4 * j + 3]);
    } else {
#pragma unroll
      for (int k = 0; k < Items; ++k) {
        if (k < thread_valid) p[k] = v[k];
      }
    }
  }
};

template <staging Staging, int Items>
struct values_path_of {
  using type = padded_values<Items>;
};
template <int Items>
struct values_path_of<staging::swizzled, Items> {
  using type = swizzled_values<Items>;
};
template <int Items>
struct values_path_of<staging::direct, Items> {
  using type = direct_values<Items>;
};

template <class S>
__global__ void __launch_bounds__(S::threads, S::min_blocks)
    segmented_sum(const float* in, const std::uint8_t* flags, float* out, std::uint64_t n,
                  lookback_t lookback, unsigned prefetch_tiles) {
  constexpr int warps = S::threads / 32;
  constexpr int items = S::items;
  using values_path = typename values_path_of<S::values, items>::type;
  __shared__ alignas(16) float stage_storage[warps][values_path::floats];
  __shared__ float warp_value[warps];
  __shared__ unsigned warp_bits[warps];  // bit 0: holds a head; bit 1: starts with one
  __shared__ float tile_prefix;

  const std::uint64_t tile = blockIdx.x;
  const auto [warp, lane, tile_begin, warp_begin, warp_valid, thread_valid, first] =
      gc::blocked_tile<S::threads, items>(tile, n);

  // 0. The L2 prefetch of a later tile's values and flags, as production.
  if (prefetch_tiles > 0 && tile + prefetch_tiles < gridDim.x) {
    const std::uint64_t begin = (tile + prefetch_tiles) * S::tile;
    const std::uint64_t count = std::min<std::uint64_t>(S::tile, n - begin);
    gc::prefetch_block_to_l2(in + begin, count * sizeof(float));
    gc::prefetch_block_to_l2(flags + begin, count);
  }

  // 1. Flags straight into a bit mask (issued first: both streams in
  // flight at once); values along the variant's path.
  const std::uint64_t heads =
      (thread_valid > 0 ? flag_mask<items, S::flag_bytes>(flags + first, thread_valid) : 0) |
      (first == 0 ? 1u : 0u);
  const values_path path{stage_storage[warp]};
  float v[items];
  path.load(in + warp_begin, warp_valid, lane, thread_valid, v);

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
          lookback.template exclusive_prefix<gc::scan_lookback_words, S::first_delay_ns, 0>(
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
    if (warp < waiting) gc::named_barrier_1(32u * waiting);
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
  path.store(out + warp_begin, warp_valid, lane, thread_valid, v);
}

// Tiles ahead whose input a tile prefetches, by default: as many bytes
// ahead as production's 64 tiles of 256 x 40 elements.
template <class S>
inline constexpr int default_prefetch_tiles = gc::scan_prefetch_tiles * 256 * 40 / S::tile;

// Launches variant S on `stream`: n floats at `in` (16-byte aligned),
// their head flags at `flags` (aligned to S::flag_bytes), results to `out`;
// prefetch_tiles < 0: default_prefetch_tiles<S>.
template <class S>
void launch_segmented_sum(const float* in, const std::uint8_t* flags, float* out, std::uint64_t n,
                          cudaStream_t stream, int prefetch_tiles = -1) {
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
  const unsigned distance =
      static_cast<unsigned>(prefetch_tiles >= 0 ? prefetch_tiles : default_prefetch_tiles<S>);
  const unsigned prefetch = tiles > resident ? distance : 0u;
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
