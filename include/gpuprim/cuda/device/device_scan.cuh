// Device-wide scan in a single pass, the host driver: the tile shape for
// the element types (and the tuner's prefetch distance), the look-back
// status in the stream's workspace, one launch of the kernel; segmented
// scans over one-byte head flags go to their own kernel
// (device_segmented_scan.cuh). The kernel and the shape of its algorithm:
// cuda/device/scan/kernels.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/device_span.hpp"
#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/device/scan/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/vector.cuh"
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

// Where a thread keeps its Items accumulator values between its scan of
// them and its stores (step 2 of the kernel): in registers, or nowhere:
// the thread scans them a second time from the staged inputs. The default
// (automatic) is registers for accumulators of up to 4 bytes.
enum class scan_staging { automatic, registers, rescan };

// Elements per thread: about 64 bytes of the widest of input, output and
// accumulator per thread (16 floats, 8 doubles), a whole number of 16-byte
// vectors for 4- and 8-byte types.
template <std::size_t Bytes>
inline constexpr int scan_items_per_thread =
    Bytes <= 4 ? 16 : (Bytes <= 8 ? 8 : std::max<int>(1, 64 / static_cast<int>(Bytes)));

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
  const auto lookback = stream_tile_lookback<T>(stream, tiles, "gpuprim::scan");
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
