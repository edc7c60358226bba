// Segmented scans on the GPU over one-byte head flags, the host driver:
// the tile for the value size, the look-back status in the stream's
// workspace, the L2 prefetch distance (the tuner's "segmented_scan" space),
// one launch; and the marking of segment heads from offsets. The kernels
// and the shape of their algorithm: cuda/device/segmented_scan/kernels.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstdint>

#include "gpuprim/core/segmented_operator.hpp"
#include "gpuprim/cuda/device/decoupled_lookback.cuh"
#include "gpuprim/cuda/device/device_scan.cuh"
#include "gpuprim/cuda/device/segmented_scan/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/detail/segmented/segmented.hpp"

namespace gpuprim::cuda_impl {

// The tile of segmented_scan_lookback for values of `Bytes` bytes (4 or 8).
// 4 bytes: 256 threads x 24 elements, compiled for 4 blocks per SM (flags
// in 8-byte words). Measured on float sums (H200, 2^28 elements, as % of a
// device-to-device copy in the same run; lab/probes/probe_segmented_scan.cu
// and bench/results/attempts-2026-11-27-segmented-scan.md): segments of
// 1024 100%, random lengths 1-2048 86%, segments of 8 99%, 2^20 + 12345
// elements 98%, against the pair scan's 68%. 256 x 16 lost the random
// lengths (85%), 256 x 32 the regular segments (96%); 256 x 40 (the pair
// scan's tile, the same bits) gave 86-94%. The 4-byte integers take the same
// tile (the same bytes and registers; not measured apart).
// 8 bytes: 256 x 8 at 4 blocks per SM, the bytes of a tile of the measured
// 256 x 16 float shape (100% at segments of 1024); not measured with 8-byte
// values.
template <std::size_t Bytes>
struct segmented_scan_tile {
  static_assert(Bytes == 4 || Bytes == 8);
  static constexpr int threads = 256;
  static constexpr int items = Bytes == 4 ? 24 : 8;
  static constexpr int min_blocks = 4;
};

// The L2 prefetch distance: the tuner's "segmented_scan" space and the
// default (scan_prefetch_tiles) count tiles of 256 x 40 4-byte elements
// (the pair scan's); the kernel prefetches as many bytes ahead in its own
// tiles (64 of those = 106 tiles of 256 x 24 floats, the distance measured).
inline constexpr std::uint64_t segmented_prefetch_unit_bytes = 256 * 40 * 4;

// Launches segmented_scan_lookback on Threads x Items tiles compiled for
// MinBlocks blocks per SM (launch_segmented_scan's shape, or another one
// for lab/probes/probe_segmented_scan.cu); prefetch_distance: see
// segmented_prefetch_unit_bytes, negative for the default.
template <bool Exclusive, int Threads, int Items, int MinBlocks, class V, class Flag, class Op>
void launch_segmented_scan_tiles(const V* values, const Flag* flags, V* out, std::uint64_t n,
                                 V init, Op op, stream_t stream, int prefetch_distance) {
  if (n == 0) return;
  constexpr int vec = vector_items<V>;
  static_assert(vec > 1 && Items % vec == 0, "whole 16-byte vectors a thread");
  constexpr std::uint64_t tile_bytes = std::uint64_t(Threads) * Items * sizeof(V);
  const std::uint64_t tiles = ceil_div(n, std::uint64_t(Threads) * Items);
  const auto lookback = stream_tile_lookback<flagged<V>>(stream, tiles, "gpuprim::scan");
  const std::uint64_t distance =
      static_cast<std::uint64_t>(prefetch_distance >= 0 ? prefetch_distance : scan_prefetch_tiles) *
      segmented_prefetch_unit_bytes / tile_bytes;
  const auto launch_tiles = [&](auto kernel) {
    // Only a grid larger than the GPU holds at once prefetches ahead.
    const bool prefetch_ahead = tiles > persistent_grid_size(kernel, Threads, 0);
    report_launch_to_tuner(kernel, Threads, 0, static_cast<unsigned>(tiles));
    launch("segmented_scan_lookback", "segmented_scan", kernel,
           {static_cast<unsigned>(tiles), Threads, 0, stream}, values, flags, out, n, init, op,
           lookback, prefetch_ahead ? static_cast<unsigned>(distance) : 0u);
  };
  // Every warp's slice starts at a multiple of 32 * Items elements, so the
  // vector path only needs both arrays 16-byte aligned.
  if (is_aligned(values, 16) && is_aligned(out, 16)) {
    launch_tiles(segmented_scan_lookback<Threads, Items, vec, MinBlocks, Exclusive, V, Flag, Op>);
  } else {
    launch_tiles(segmented_scan_lookback<Threads, Items, 1, MinBlocks, Exclusive, V, Flag, Op>);
  }
}

template <bool Exclusive, class V, class Flag, class Op>
void launch_segmented_scan(const V* values, const Flag* flags, V* out, std::uint64_t n, V init,
                           Op op, stream_t stream, int prefetch_distance) {
  using shape = segmented_scan_tile<sizeof(V)>;
  launch_segmented_scan_tiles<Exclusive, shape::threads, shape::items, shape::min_blocks>(
      values, flags, out, n, init, op, stream, prefetch_distance);
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class Offset>
void cuda_mark_segment_heads(const Offset* offsets, std::size_t num_offsets, std::uint8_t* flags,
                             std::size_t n, stream_t stream) {
  constexpr int threads = 256;
  const auto blocks = static_cast<unsigned>(
      std::min<std::uint64_t>(cuda_impl::ceil_div(num_offsets, threads), 4096));
  cuda_impl::launch("mark_segment_heads", "segmented_scan",
                      cuda_impl::mark_segment_heads<Offset>, {blocks, threads, 0, stream},
                      offsets, num_offsets, flags, n);
}

}  // namespace gpuprim::detail
