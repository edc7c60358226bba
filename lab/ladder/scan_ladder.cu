// Host side of the scan ladder: the reduce-then-scan hierarchy (rung 4),
// which also scans the tile totals of the block-scan rungs 1-3, the
// production single pass as the last rung, and the table that the tests and
// `gpuprim bench scan --ladder` iterate.
#include <cuda_runtime_api.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>

#include "gpuprim/core/operators.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/scan.hpp"
#include "lab/ladder/ladder.hpp"
#include "lab/ladder/scan.cuh"

namespace gpuprim::ladder {
namespace {

constexpr unsigned threads = scan_ladder_threads;
constexpr unsigned rows = scan_hierarchy_rows;
constexpr std::uint64_t hierarchy_tile = std::uint64_t(threads) * rows;
constexpr const char* algorithm = "scan ladder";

template <class T>
void require_same_size(device_span<const T> in, device_span<T> out) {
  if (in.size() != out.size()) {
    throw std::invalid_argument("gpuprim::ladder: input has " + std::to_string(in.size()) +
                                " elements, output " + std::to_string(out.size()));
  }
}

unsigned grid_size(std::uint64_t tiles) {
  if (tiles > std::uint64_t(std::numeric_limits<int>::max())) {
    throw std::invalid_argument(
        "gpuprim::ladder: the input needs more blocks than a grid can have");
  }
  return static_cast<unsigned>(tiles);
}

// Scratch arrays start 256 bytes apart at least, so every level is aligned.
template <class T>
std::uint64_t padded_elements(std::uint64_t count) {
  return cuda_impl::align_up(count * sizeof(T), 256) / sizeof(T);
}

// Scratch the hierarchy needs to scan `count` elements: one array of tile
// sums per level above the first.
template <class T>
std::uint64_t hierarchy_scratch_elements(std::uint64_t count) {
  const std::uint64_t tiles = cuda_impl::ceil_div(count, hierarchy_tile);
  if (tiles <= 1) return 0;
  return padded_elements<T>(tiles) + hierarchy_scratch_elements<T>(tiles);
}

// Reduce-then-scan over in[0, n) into out (which may be `in`): reduce every
// tile to its sum, scan the sums by the same procedure one level up (in
// place, in `scratch`), then rescan every tile from its prefix. Each level
// has hierarchy_tile times fewer elements, so 2^32 elements take 3 levels.
// This is rung 4, and the driver that scans the tile totals of rungs 1-3.
template <class T>
void scan_hierarchy(const T* in, T* out, std::uint64_t n, T* scratch, stream_t stream) {
  const std::uint64_t tiles = cuda_impl::ceil_div(n, hierarchy_tile);
  if (tiles == 0) return;
  if (tiles == 1) {
    scan_hierarchy_scan_tiles<threads, rows, T><<<1, threads, 0, stream>>>(in, out, n, nullptr);
    detail::check_launch("scan_hierarchy_scan_tiles", algorithm);
    return;
  }
  const unsigned blocks = grid_size(tiles);
  T* tile_sums = scratch;
  scan_hierarchy_reduce_tiles<threads, rows, T><<<blocks, threads, 0, stream>>>(in, tile_sums, n);
  detail::check_launch("scan_hierarchy_reduce_tiles", algorithm);
  scan_hierarchy(tile_sums, tile_sums, tiles, scratch + padded_elements<T>(tiles), stream);
  scan_hierarchy_scan_tiles<threads, rows, T>
      <<<blocks, threads, 0, stream>>>(in, out, n, tile_sums);
  detail::check_launch("scan_hierarchy_scan_tiles", algorithm);
}

// Rung 4.
template <class T>
void run_hierarchy(device_span<const T> in, device_span<T> out, stream_t stream) {
  require_same_size(in, out);
  cuda_impl::scratch_buffer scratch(hierarchy_scratch_elements<T>(in.size()) * sizeof(T), stream);
  scan_hierarchy(in.data(), out.data(), in.size(), scratch.get<T>(), stream);
}

// Rungs 1-3: the rung's kernel scans each tile of TileElements and writes
// the tile totals; the hierarchy scans the totals in place; every tile but
// the first then gets the sum of the tiles before it added back.
template <class T, auto Kernel, std::uint64_t TileElements, kernel_name Name>
void run_tiles_then_add(device_span<const T> in, device_span<T> out, stream_t stream) {
  require_same_size(in, out);
  const std::uint64_t n = in.size();
  const std::uint64_t tiles = cuda_impl::ceil_div(n, TileElements);
  if (tiles == 0) return;
  const unsigned blocks = grid_size(tiles);
  if (tiles == 1) {
    Kernel<<<1, threads, 0, stream>>>(in.data(), out.data(), n, nullptr);
    detail::check_launch(Name.text, algorithm);
    return;
  }
  const std::uint64_t totals_elements = padded_elements<T>(tiles);
  cuda_impl::scratch_buffer scratch(
      (totals_elements + hierarchy_scratch_elements<T>(tiles)) * sizeof(T), stream);
  T* tile_totals = scratch.get<T>();
  Kernel<<<blocks, threads, 0, stream>>>(in.data(), out.data(), n, tile_totals);
  detail::check_launch(Name.text, algorithm);
  scan_hierarchy(tile_totals, tile_totals, tiles, tile_totals + totals_elements, stream);
  add_tile_prefixes<T>
      <<<blocks - 1, threads, 0, stream>>>(out.data(), n, tile_totals, TileElements);
  detail::check_launch("add_tile_prefixes", algorithm);
}

// Rung 5: the library's own scan.
template <class T>
void run_decoupled_lookback(device_span<const T> in, device_span<T> out, stream_t stream) {
  require_same_size(in, out);
  detail::cuda_scan_into(in.data(), out.data(), in.size(), scan_kind::inclusive, T{}, plus{},
                         detail::unary_fetch<identity>{}, stream);
}

// clang-format off
// A rung that scans tiles with `kernel`, then adds the tile prefixes
// (run_tiles_then_add), named after it.
#define GPUPRIM_SCAN_TILES_RUNG(kernel, fixes, tile_elements) \
  { #kernel, fixes, run_tiles_then_add<T, kernel<T>, tile_elements, #kernel> }

template <class T>
constexpr scan_rung<T> scan_ladder[] = {
  GPUPRIM_SCAN_TILES_RUNG(scan_hillis_steele,
      "baseline: naive block scan, O(n log n) adds, double-buffered", threads),
  GPUPRIM_SCAN_TILES_RUNG(scan_blelloch,
      "work-efficient up-sweep/down-sweep: O(n) adds; bank conflicts", 2 * threads),
  GPUPRIM_SCAN_TILES_RUNG(scan_blelloch_conflict_free,
      "padded shared index (e + e/32): no bank conflicts", 2 * threads),
  {"scan_reduce_then_scan", "warp shuffles in registers, reduce-then-scan: 3 n traffic",
   run_hierarchy<T>},
  {"scan_decoupled_lookback", "single pass, decoupled look-back: 2 n traffic",
   run_decoupled_lookback<T>},
};
// clang-format on

}  // namespace

GPUPRIM_LADDER_DEFINE_TYPED(scan_rung, scan_rungs, scan_ladder);

}  // namespace gpuprim::ladder
