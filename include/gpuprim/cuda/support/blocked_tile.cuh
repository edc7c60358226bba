// Where a thread's elements lie in one tile of a kernel that gives each
// thread Items consecutive elements: a warp takes 32 * Items consecutive
// elements, the Threads / 32 warps of a block one after another, a block
// one tile of Threads * Items. The segmented scan's kernel and its probe
// variants (lab/probes/segmented_scan_variants.cuh) name them so:
//
//   const auto [warp, lane, tile_begin, warp_begin, warp_valid, thread_valid, first] =
//       blocked_tile<Threads, Items>(tile, n);
#pragma once

#include <algorithm>
#include <cstdint>

namespace gpuprim::cuda_impl {

template <int Threads, int Items>
struct blocked_tile {
  static constexpr int warp_elements = 32 * Items;
  static constexpr int tile_elements = Threads * Items;

  int warp;
  int lane;
  std::uint64_t tile_begin;
  std::uint64_t warp_begin;
  int warp_valid;       // the warp's elements before n
  int thread_valid;     // this thread's elements before n
  std::uint64_t first;  // this thread's first element

  // This thread's place in tile `tile` of n elements.
  __device__ __forceinline__ blocked_tile(std::uint64_t tile, std::uint64_t n)
      : warp(static_cast<int>(threadIdx.x / 32)),
        lane(static_cast<int>(threadIdx.x % 32)),
        tile_begin(tile * tile_elements),
        warp_begin(tile_begin + std::uint64_t(warp) * warp_elements),
        warp_valid(warp_begin >= n
                       ? 0
                       : static_cast<int>(std::min<std::uint64_t>(warp_elements, n - warp_begin))),
        thread_valid(std::clamp(warp_valid - lane * Items, 0, Items)),
        first(warp_begin + std::uint64_t(lane) * Items) {}
};

}  // namespace gpuprim::cuda_impl
