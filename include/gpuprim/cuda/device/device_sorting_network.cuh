// Device-wide sorting networks, the host driver: the path for each padded
// array size (registers, one block in shared memory, full tiles, or tiles
// and global steps), the grids, the tuner's launch parameters, and the
// entry points of sort_batched, bitonic_sort, odd_even_merge_sort and
// segmented_sort. The kernels and the shape of their algorithm:
// cuda/device/sorting_network/kernels.cuh.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/device/sorting_network/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/scratch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/detail/sorting_network/sorting_network.hpp"
#include "gpuprim/sort_types.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

inline constexpr const char* network_algorithm = "sorting network";

inline unsigned network_grid(std::uint64_t blocks) {
  if (blocks > std::uint64_t(INT_MAX)) {
    throw std::invalid_argument(
        "gpuprim::sorting network: the input needs more than 2^31 - 1 "
        "blocks; sort it in parts");
  }
  return unsigned(blocks);
}

// Grid of a grid-stride loop over `items`: enough blocks to fill the GPU a
// few times over, no more.
inline unsigned network_stride_grid(std::uint64_t items, int blocks_per_sm = 32) {
  const std::uint64_t wanted = ceil_div(items, network_threads);
  const std::uint64_t cap = std::uint64_t(current_multiprocessor_count()) *
                            static_cast<unsigned>(std::max(1, blocks_per_sm));
  return unsigned(std::max<std::uint64_t>(1, std::min(wanted, cap)));
}

template <unsigned P, class Codec, class T, class Arrays>
void launch_register_sort(T* data, Arrays arrays, std::uint64_t count, bool full, Codec codec,
                          stream_t stream) {
  using K = typename Codec::key;
  constexpr int items = std::min<int>(int(P), network_items<K>);
  constexpr unsigned lanes = P / items;
  const unsigned grid = network_grid(ceil_div(count * lanes, network_threads));
  // Full vector loads need the vector's alignment at every array.
  constexpr bool vectorizable = sizeof(vector_of<T, items>) == sizeof(T) * items;
  if constexpr (vectorizable) {
    if (full) {
      launch("sort_arrays_in_registers", network_algorithm,
             sort_arrays_in_registers<P, items, true, Codec, T, Arrays>,
             {grid, network_threads, 0, stream}, data, arrays, count, codec);
      return;
    }
  }
  launch("sort_arrays_in_registers", network_algorithm,
         sort_arrays_in_registers<P, items, false, Codec, T, Arrays>,
         {grid, network_threads, 0, stream}, data, arrays, count, codec);
}

template <class Codec, class T, class Arrays>
void launch_shared_tiles(T* data, Arrays arrays, std::uint64_t count, std::uint64_t tiles_per_array,
                         unsigned tile, bool merge_only, Codec codec, stream_t stream) {
  using K = typename Codec::key;
  constexpr int items = network_items<K>;
  const unsigned threads =
      std::clamp(tile / unsigned(items), 32u, network_threads);  // a chunk per warp
  report_launch_to_tuner(sort_tiles_in_shared<items, Codec, T, Arrays>, int(threads),
                         tile * sizeof(K), network_grid(count * tiles_per_array));
  launch("sort_tiles_in_shared", network_algorithm, sort_tiles_in_shared<items, Codec, T, Arrays>,
         {network_grid(count * tiles_per_array), threads, unsigned(tile * sizeof(K)), stream}, data,
         arrays, tiles_per_array, tile, merge_only, codec);
}

// Whether arrays of exactly `tile` keys take the full-tile path: at least
// a chunk, two tiles of keys in the default 48 KiB of shared memory, keys
// that load as whole vectors, and no more than 1024 threads.
template <class Codec, class T>
constexpr bool full_tile_path(std::uint64_t tile) {
  using K = typename Codec::key;
  constexpr int items = network_items<K>;
  constexpr unsigned chunk = 32u * items;
  return sizeof(vector_of<T, items>) == sizeof(T) * items && tile >= chunk &&
         2 * tile * sizeof(K) <= 48 * 1024 && tile / items <= 1024;
}

template <class Codec, class T>
void launch_full_tiles(T* data, std::uint64_t count, unsigned tile, Codec codec, stream_t stream) {
  using K = typename Codec::key;
  constexpr int items = network_items<K>;
  const unsigned threads = tile / unsigned(items);
  const unsigned shared = unsigned(2 * tile * sizeof(K));
  report_launch_to_tuner(sort_full_tiles<items, Codec, T>, int(threads), shared,
                         network_grid(count));
  launch("sort_full_tiles", network_algorithm, sort_full_tiles<items, Codec, T>,
         {network_grid(count), threads, shared, stream}, data, tile, codec);
}

// The run-time launch parameters of arrays longer than the register path
// (the tuner's "sorting_network" space, src/tune/config.cpp): the shared
// tile's bytes (its keys: the largest power of two that fits, at least one
// chunk of 32 lanes' keys; dynamic shared memory, at most 48 KiB) and the
// grid of the global merge steps in blocks per SM.
struct network_launch_config {
  std::size_t tile_bytes = shared_tile_bytes;
  int step_blocks_per_sm = 32;
};

// Sorts `count` arrays of at most `padded` (a power of two) keys each;
// `full`: every array has exactly `padded` keys and data is 16-byte aligned.
template <class Codec, class T, class Arrays>
void sort_arrays(T* data, Arrays arrays, std::uint64_t count, std::uint64_t padded, bool full,
                 Codec codec, stream_t stream, const network_launch_config& config = {}) {
  using K = typename Codec::key;
  static_assert(alignof(K) <= 16,
                "gpuprim: sorting networks take keys aligned to 16 bytes at most");
  static_assert(32 * sizeof(K) <= shared_tile_bytes,
                "gpuprim: sorting network keys are at most 1 KiB each");
  if (count == 0 || padded < 2) return;
  // The register path needs an array within 32 lanes: up to 64 keys, fewer
  // for keys over 16 bytes (one per lane).
  constexpr std::uint64_t register_max =
      std::min<std::uint64_t>(register_sort_max, 32 * network_items<K>);
  if (padded <= register_max) {
    switch (padded) {
      case 2:
        return launch_register_sort<2>(data, arrays, count, full, codec, stream);
      case 4:
        return launch_register_sort<4>(data, arrays, count, full, codec, stream);
      case 8:
        return launch_register_sort<8>(data, arrays, count, full, codec, stream);
      case 16:
        return launch_register_sort<16>(data, arrays, count, full, codec, stream);
      case 32:
        return launch_register_sort<32>(data, arrays, count, full, codec, stream);
      case 64:
        if constexpr (register_max >= 64) {
          return launch_register_sort<64>(data, arrays, count, full, codec, stream);
        }
        break;
      default:
        break;
    }
  }
  constexpr unsigned chunk = 32u * network_items<K>;
  static_assert(shared_tile_keys<K>() >= chunk);
  const unsigned max_tile = std::max(
      chunk,
      unsigned(std::bit_floor(std::min<std::size_t>(config.tile_bytes, 48 * 1024) / sizeof(K))));
  if (padded <= max_tile) {
    const unsigned tile = std::max(unsigned(padded), chunk);
    if constexpr (std::is_same_v<Arrays, uniform_arrays>) {
      if (full && full_tile_path<Codec, T>(padded))
        return launch_full_tiles(data, count, tile, codec, stream);
    }
    return launch_shared_tiles(data, arrays, count, 1, tile, false, codec, stream);
  }
  // Longer than a tile: sort the tiles, then merge stage by stage.
  const std::uint64_t tiles = padded / max_tile;
  launch_shared_tiles(data, arrays, count, tiles, max_tile, false, codec, stream);
  const unsigned log2_half = unsigned(std::countr_zero(padded / 2));
  const unsigned grid = network_stride_grid(count * (padded / 2), config.step_blocks_per_sm);
  report_launch_to_tuner(bitonic_step_global<Codec, T, Arrays>, network_threads, 0, grid);
  for (std::uint64_t k = 2 * std::uint64_t(max_tile); k <= padded; k *= 2) {
    for (std::uint64_t top = k / 2; top >= max_tile; top /= 2) {
      const std::uint64_t mask = top == k / 2 ? k - 1 : top;
      launch("bitonic_step_global", network_algorithm, bitonic_step_global<Codec, T, Arrays>,
             {grid, network_threads, 0, stream}, data, arrays, count, log2_half, mask, top, codec);
    }
    launch_shared_tiles(data, arrays, count, tiles, max_tile, true, codec, stream);
  }
}

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class T, class Comp>
void cuda_sort_batched(T* data, std::size_t n, std::size_t array_size, Comp comp, stream_t stream) {
  if (n == 0 || array_size < 2) return;
  using namespace cuda_impl;
  const std::uint64_t padded = std::bit_ceil(std::uint64_t(array_size));
  const bool full = padded == array_size && is_aligned(data, 16);
  // The tuner's "sorting_network" space (src/tune/config.cpp), keyed by the
  // whole input's size; it acts on arrays longer than a shared tile.
  const tuning::config c =
      tuning::choose(tuning::algorithm::sorting_network, tuning::element_type_of<T>(), n).choice;
  sort_arrays(data, uniform_arrays{array_size}, n / array_size, padded, full,
              sort_codec<T, Comp>{comp}, stream,
              network_launch_config{std::size_t(c[0]) * 1024, c[1]});
}

template <class T, class Comp>
void cuda_bitonic_sort(T* data, std::size_t n, Comp comp, stream_t stream) {
  cuda_sort_batched(data, n, n, comp, stream);
}

template <class T, class Comp>
void cuda_odd_even_merge_sort(T* data, std::size_t n, Comp comp, stream_t stream) {
  using namespace cuda_impl;
  using codec = sort_codec<T, Comp>;
  using K = typename codec::key;
  if (n < 2) return;
  const std::uint64_t padded = std::bit_ceil(std::uint64_t(n));
  const unsigned tile = unsigned(std::min<std::uint64_t>(padded, shared_tile_keys<K>()));
  const codec c{comp};
  launch("odd_even_sort_tiles", network_algorithm, odd_even_sort_tiles<codec, T>,
         {network_grid(ceil_div(n, tile)), network_threads, unsigned(tile * sizeof(K)), stream},
         data, n, tile, c);
  const std::uint64_t pairs = padded / 2;
  const unsigned grid = network_stride_grid(pairs);
  for (std::uint64_t p = tile; p < padded; p *= 2) {
    for (std::uint64_t k = p; k >= 1; k /= 2) {
      launch("odd_even_step_global", network_algorithm, odd_even_step_global<codec, T>,
             {grid, network_threads, 0, stream}, data, n, pairs, p, k, c);
    }
  }
}

template <class T, class Comp>
void cuda_segmented_sort(T* data, std::size_t n, const std::uint64_t* offsets,
                         std::size_t num_offsets, Comp comp, stream_t stream) {
  using namespace cuda_impl;
  using codec = sort_codec<T, Comp>;
  using K = typename codec::key;
  if (n == 0 || num_offsets < 2) return;
  // Group the segments by path: one group per padded size up to a tile,
  // one for everything longer (padded to the longest).
  constexpr int groups = 64;
  std::vector<std::vector<array_extent>> by_size(groups);
  std::uint64_t longest = 0;
  for (std::size_t s = 0; s + 1 < num_offsets; ++s) {
    const std::uint64_t size = offsets[s + 1] - offsets[s];
    if (size < 2) continue;
    const std::uint64_t padded = std::bit_ceil(size);
    const int group = padded <= shared_tile_keys<K>() ? std::countr_zero(padded) : 0;
    if (group == 0) longest = std::max(longest, padded);
    by_size[group].push_back({offsets[s], size});
  }
  std::vector<array_extent> all;
  std::vector<std::size_t> first(groups + 1, 0);
  for (int g = 0; g < groups; ++g) {
    first[g] = all.size();
    all.insert(all.end(), by_size[g].begin(), by_size[g].end());
  }
  first[groups] = all.size();
  if (all.empty()) return;
  scratch_buffer list(all.size() * sizeof(array_extent), stream);
  copy_to_device(list.get(), all.data(), all.size() * sizeof(array_extent), stream);
  synchronize(stream);  // `all` may go once the copy is done
  const codec c{comp};
  for (int g = 0; g < groups; ++g) {
    const std::uint64_t count = first[g + 1] - first[g];
    if (count == 0) continue;
    const listed_arrays arrays{list.get<array_extent>() + first[g]};
    const std::uint64_t padded = g == 0 ? longest : std::uint64_t(1) << g;
    sort_arrays(data, arrays, count, padded, false, c, stream);
  }
}

}  // namespace gpuprim::detail
