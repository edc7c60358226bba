// Device-wide scan in a single pass: each element is read once and written
// once (decoupled look-back, cuda/device/decoupled_lookback.cuh).
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
#include <type_traits>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/block/block_scan.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/partial.cuh"
#include "gpuprim/cuda/support/prefetch.cuh"
#include "gpuprim/cuda/support/thread_fetch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/cuda/support/workspace.cuh"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/detail/scan/scan.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Resident blocks per SM the compiler must allow. The kernel's speed is set
// by how fast published prefixes move from tile to tile, which grows with
// the number of tiles in flight: asking for a full SM (2048 threads, so 32
// registers a thread, no spills) took 2^28 floats from 1175 us to 980 us
// on sm_90. Accumulators that do not fit a status word would spill at 32
// registers, so they keep the compiler's own choice.
template <class T, int Threads>
inline constexpr int scan_min_blocks = sizeof(T) <= 4
                                           ? 2048 / Threads
                                           : (tile_lookback<T>::packed ? 1024 / Threads : 1);

// Shared-memory index of element e of a warp's tile: one pad slot per 32.
__device__ __forceinline__ int padded_index(int e) {
  return e + e / 32;
}

// Stages one warp's 32 * Items elements between lane-striped global memory
// and lane-blocked registers.
template <int Items, int Vec, class V>
struct warp_exchange {
  static constexpr int elements = 32 * Items;
  static constexpr int slots = elements + elements / 32;
  V* buffer;  // this warp's `slots` elements of shared memory

  // Loads the first `valid` elements at `src` (all of them: Vec-wide loads).
  __device__ void load(const V* src, int valid, int lane) const {
    if (Vec > 1 && valid == elements) {
#pragma unroll
      for (int j = 0; j < Items / Vec; ++j) {
        const int e = (j * 32 + lane) * Vec;
        const vector_of<V, Vec> v = load_vector<Vec>(src + e);
#pragma unroll
        for (int c = 0; c < Vec; ++c)
          buffer[padded_index(e + c)] = v.items[c];
      }
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int e = j * 32 + lane;
        if (e < valid) buffer[padded_index(e)] = src[e];
      }
    }
    __syncwarp();
  }

  __device__ V blocked(int lane, int k) const {
    return buffer[padded_index(lane * Items + k)];
  }
  __device__ void set_blocked(int lane, int k, const V& v) const {
    buffer[padded_index(lane * Items + k)] = v;
  }

  // Stores the first `valid` staged elements to `dst`.
  __device__ void store(V* dst, int valid, int lane) const {
    __syncwarp();
    if (Vec > 1 && valid == elements) {
#pragma unroll
      for (int j = 0; j < Items / Vec; ++j) {
        const int e = (j * 32 + lane) * Vec;
        vector_of<V, Vec> v;
#pragma unroll
        for (int c = 0; c < Vec; ++c)
          v.items[c] = buffer[padded_index(e + c)];
        *reinterpret_cast<vector_of<V, Vec>*>(dst + e) = v;
      }
    } else {
#pragma unroll
      for (int j = 0; j < Items; ++j) {
        const int e = j * 32 + lane;
        if (e < valid) dst[e] = buffer[padded_index(e)];
      }
    }
  }
};

// Where a thread keeps its Items accumulator values between its scan of
// them and its stores (step 2 of the kernel): in registers, or nowhere:
// the thread scans them a second time from the staged inputs. The default
// (automatic) is registers for accumulators of up to 4 bytes.
enum class scan_staging { automatic, registers, rescan };

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

// Elements per thread: about 64 bytes of the widest of input, output and
// accumulator per thread (16 floats, 8 doubles), a whole number of 16-byte
// vectors for 4- and 8-byte types.
template <std::size_t Bytes>
inline constexpr int scan_items_per_thread =
    Bytes <= 4 ? 16 : (Bytes <= 8 ? 8 : std::max<int>(1, 64 / static_cast<int>(Bytes)));

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

// Tiles ahead whose input a tile asks L2 for (see the kernel's step 0):
// 64 tiles of 256 x 40 floats are 2.6 MB ahead, where 528 tiles are
// resident at once. Measured (lab/probes/probe_scan.cu, 2^28
// floats, 512 x 16 tiles): none 0.89x CUB, 64 or 128 tiles 0.94x, 192-256
// 0.91-0.93x, 512 and 1024 0.71x (L2 no longer holds the prefetched lines
// until they are read). 256 x 40 tiles, three runs, 64
// against 128 tiles ahead: 2^28 764-774 us against 771-781 (none: 878), 2^24
// 60.5-62.4 us against 62.9-64.7; 96 tied 64 at 2^28 and lost at 2^24, 160
// and 192 were slower. At 2^20 (103 tiles) it measures neither faster nor
// slower.
inline constexpr int scan_prefetch_tiles = 64;

// Default tile shapes (Threads, Items and MinBlocks 0):
//  - input, output and accumulator of at most 4 bytes: 256 threads x 40
//    elements (10240 a tile, 41 KB of staging), compiled for 4 blocks per
//    SM (64 registers a thread; 4 blocks are then resident). With the L2
//    prefetch it measured 1.15x CUB at 2^28 floats (767 us), 1.11x at 2^24
//    and 1.26x at 2^20 (lab/probes/probe_scan.cu, one run; compiled for 2
//    blocks per SM, which gave the same 64 registers), where 3 blocks (71
//    registers) gave 1.10x, 1.07x, 1.25x and the earlier default, 512 x 16
//    at 4 blocks per SM, 0.94x, 0.90x, 1.11x.
//  - the same tile for a segmented scan's (value, head) pairs of 4-byte
//    values, which pack into a status word but take two registers each:
//    they are not kept in registers (scan_staging::rescan), so the tile
//    fits 64 registers without spills. Float sums with segments of 1024
//    measured 1.33x CUB's InclusiveSumByKey at 2^28 and 1.19x at 2^24,
//    where 512 x 16 at 2 blocks per SM in registers gave 0.99x and 1.02x
//    (lab/probes/probe_scan.cu --segmented). The library's segmented scans
//    of 4- and 8-byte values now take their own kernel (head_flag_scan
//    below); this entry stays for the probes and the pair scan's tests.
//  - otherwise 512 threads x scan_items_per_thread elements at
//    scan_min_blocks blocks per SM (the earlier default for every type;
//    not measured with the larger tile for 8-byte types).
// Other values are for tuning (lab/probes/probe_scan.cu): given Threads, Items
// and MinBlocks default to scan_items_per_thread and scan_min_blocks; the
// tile's staging buffer must stay within 48 KB of static shared memory.
// Staging (scan_staging): registers or rescan; automatic picks rescan for
// accumulators over 4 bytes that pack into a status word (the segmented
// pairs above) when input and output have one size. FirstDelayNs and
// PollDelayNs: the look-back's sleeps (tile_lookback::exclusive_prefix;
// scan_first_poll_delay_ns before the first poll, none between polls, by
// default). PrefetchTiles: see scan_prefetch_tiles (0: none compiled); the
// run-time prefetch_distance, when not negative, replaces it as the
// distance (the tuner's "scan" and "segmented_scan" spaces; 0: none).
// The tile launch_scan uses for Threads, Items, MinBlocks and Staging
// (0 and automatic: the defaults described above) and the element types.
template <int Threads, int Items, int MinBlocks, scan_staging Staging, class In, class Out, class T>
struct scan_tile_shape {
  // A packed (value, head) pair counts as its value: the head is one bit.
  static constexpr std::size_t accumulator_bytes = tile_lookback<T>::packed ? 4 : sizeof(T);
  static constexpr bool rescan =
      Staging == scan_staging::rescan || (Staging == scan_staging::automatic && sizeof(T) > 4 &&
                                          accumulator_bytes <= 4 && sizeof(In) == sizeof(Out));
  static constexpr bool wide = Threads == 0 &&
                               std::max({sizeof(In), sizeof(Out), accumulator_bytes}) <= 4 &&
                               (sizeof(T) <= 4 || rescan);
  static constexpr int threads = Threads > 0 ? Threads : (wide ? 256 : 512);
  static constexpr int items =
      Items > 0 ? Items
      : wide    ? 40
                : scan_items_per_thread<std::max({sizeof(In), sizeof(Out), accumulator_bytes})>;
  static constexpr int min_blocks = MinBlocks > 0 ? MinBlocks
                                    : wide        ? 4
                                                  : scan_min_blocks<T, threads>;
};

template <bool Exclusive, int Threads = 0, int LookbackWords = scan_lookback_words, int Items = 0,
          int MinBlocks = 0, int FirstDelayNs = scan_first_poll_delay_ns, int PollDelayNs = 0,
          int PrefetchTiles = scan_prefetch_tiles, scan_staging Staging = scan_staging::automatic,
          class In, class Out, class T, class Op, class Fetch>
void launch_scan(const In* in, Out* out, std::uint64_t n, T init, Op op, Fetch fetch,
                 stream_t stream, int prefetch_distance = -1) {
  using shape = scan_tile_shape<Threads, Items, MinBlocks, Staging, In, Out, T>;
  constexpr int threads = shape::threads;
  constexpr int items = shape::items;
  constexpr int min_blocks = shape::min_blocks;
  constexpr int vec = std::min(vector_items<In>, vector_items<Out>);
  constexpr bool can_vectorize = vec > 1 && items % vec == 0;
  const std::uint64_t tiles = ceil_div(n, std::uint64_t(threads) * items);
  if (tiles > 0x7fffffffull) throw std::invalid_argument("gpuprim::scan: input too large");
  const lookback_workspace ws =
      stream_lookback_workspace(stream, tiles, tile_lookback<T>::packed ? 0 : 2 * sizeof(T));
  const tile_lookback<T> lookback{ws.status, static_cast<T*>(ws.values), ws.epoch};
  // Only a grid larger than the GPU holds at once prefetches ahead (step 0
  // of the kernel).
  const unsigned distance =
      static_cast<unsigned>(prefetch_distance >= 0 ? prefetch_distance : PrefetchTiles);
  const auto launch_tiles = [&](auto kernel) {
    const bool prefetch_ahead = tiles > persistent_grid_size(kernel, threads, 0);
    report_launch_to_tuner(kernel, threads, 0, static_cast<unsigned>(tiles));
    launch("scan_decoupled_lookback", "scan", kernel,
           {static_cast<unsigned>(tiles), threads, 0, stream}, in, out, n, init, op, fetch,
           lookback, prefetch_ahead ? distance : 0u);
  };
  // Every warp's slice starts at a multiple of 32 * items elements, so the
  // vector path only needs both arrays 16-byte aligned.
  if (can_vectorize && is_aligned(in, 16) && is_aligned(out, 16)) {
    launch_tiles(scan_decoupled_lookback<threads, items, (can_vectorize ? vec : 1), LookbackWords,
                                         FirstDelayNs, PollDelayNs, min_blocks, PrefetchTiles,
                                         Exclusive, shape::rescan, In, Out, T, Op, Fetch>);
  } else {
    launch_tiles(scan_decoupled_lookback<threads, items, 1, LookbackWords, FirstDelayNs,
                                         PollDelayNs, min_blocks, PrefetchTiles, Exclusive,
                                         shape::rescan, In, Out, T, Op, Fetch>);
  }
}

// A segmented scan over one-byte head flags (the pairs, operator and
// fetches of gpuprim/core/segmented_operator.hpp) with values of 4 or 8
// bytes runs on its own kernel, segmented_scan_lookback
// (device_segmented_scan.cuh, which defines launch_segmented_scan; a file
// that instantiates such a scan includes it): cuda_scan_into below sends it
// there. Other values (1, 2 or more than 8 bytes, only from a .cu file)
// stay on scan_decoupled_lookback over (value, head) pairs.
template <class V, class Flag>
inline constexpr bool segmented_scan_kernel_fits =
    (sizeof(V) == 4 || sizeof(V) == 8) && sizeof(Flag) == 1 && std::is_trivially_copyable_v<V>;

template <bool Exclusive, class V, class Flag, class Op>
void launch_segmented_scan(const V* values, const Flag* flags, V* out, std::uint64_t n, V init,
                           Op op, stream_t stream, int prefetch_distance);

// What launch_segmented_scan needs from a scan's types and fetch, where it
// applies (`fits`).
template <class In, class Out, class T, class Op, class Fetch>
struct head_flag_scan {
  static constexpr bool fits = false;
};

template <class V, class Op, class Flag>
struct head_flag_scan<V, V, flagged<V>, segmented<Op>, detail::head_flag_fetch<V, Flag>> {
  static constexpr bool fits = segmented_scan_kernel_fits<V, Flag>;
  static void launch(const V* in, V* out, std::uint64_t n, const segmented<Op>& op,
                     const detail::head_flag_fetch<V, Flag>& fetch, stream_t stream,
                     int prefetch_distance) {
    launch_segmented_scan<false>(in, fetch.flags, out, n, V{}, op.op, stream, prefetch_distance);
  }
};

// The exclusive fetch reads the values it shifts from its own pointer.
template <class V, class Op, class Flag>
struct head_flag_scan<V, V, flagged<V>, segmented<Op>,
                      detail::exclusive_head_flag_fetch<V, V, Flag>> {
  static constexpr bool fits = segmented_scan_kernel_fits<V, Flag>;
  static void launch(const V*, V* out, std::uint64_t n, const segmented<Op>& op,
                     const detail::exclusive_head_flag_fetch<V, V, Flag>& fetch, stream_t stream,
                     int prefetch_distance) {
    launch_segmented_scan<true>(fetch.values, fetch.flags, out, n, fetch.init, op.op, stream,
                                prefetch_distance);
  }
};

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class T>
inline constexpr bool is_flagged_scan = false;
template <class T>
inline constexpr bool is_flagged_scan<flagged<T>> = true;

template <class In, class Out, class T, class Op, class Fetch>
void cuda_scan_into(const In* in, Out* out, std::size_t n, scan_kind kind, T init, Op op,
                    Fetch fetch, stream_t stream) {
  if (n == 0) return;
  // The tuner's spaces "scan" and "segmented_scan" (a scan over (value,
  // head) pairs; src/tune/config.cpp): the L2 prefetch distance in tiles.
  constexpr tuning::algorithm space =
      is_flagged_scan<T> ? tuning::algorithm::segmented_scan : tuning::algorithm::scan;
  const int prefetch = tuning::choose(space, tuning::element_type_of<In>(), n).choice[0];
  using head_flags = cuda_impl::head_flag_scan<In, Out, T, Op, Fetch>;
  if constexpr (head_flags::fits) {
    if (kind == scan_kind::inclusive) {
      head_flags::launch(in, out, n, op, fetch, stream, prefetch);
      return;
    }
  }
  if (kind == scan_kind::exclusive) {
    cuda_impl::launch_scan<true>(in, out, n, init, op, fetch, stream, prefetch);
  } else {
    cuda_impl::launch_scan<false>(in, out, n, init, op, fetch, stream, prefetch);
  }
}

}  // namespace gpuprim::detail
