// The closest pair's divide and conquer on the sorting networks: the
// ladder's rung before gp::closest_pair's merge path
// (gpuprim/cuda/device/closest_pair/divide_and_conquer.cuh), whose x
// order, leaves and strip check it shares. Compiled by the ladder only.
#pragma once

#include <bit>

#include "gpuprim/cuda/device/closest_pair/divide_and_conquer.cuh"
#include "gpuprim/cuda/device/device_sorting_network.cuh"

namespace gpuprim::ladder {

using namespace cuda_impl;

// The same recursion with every y ordering done by the library's bitonic
// network (gpuprim/cuda/device/device_sorting_network.cuh) instead of the
// merge path: points padded to a power of two N >= 32 (the padding sorts
// last, y = +inf), keys (y, position) of 16 bytes;
//  - leaves of 32: every pair by one warp (dc_leaf_pairs), then the leaves'
//    keys sorted by the register network (a few lanes per leaf);
//  - segments up to a shared-memory tile (2048 keys): each level's
//    segments sorted whole by the block bitonic sort (one launch: the tile
//    is loaded once and the network runs in registers and shared memory);
//  - longer segments: the halves are sorted, so one stage of the network
//    merges them: the mirror step and the half-cleaners down to the tile
//    in global memory (one launch each), the rest in shared memory.
// Each level's strip check reads y from the key (no gather for the break
// test). More passes over memory than the merge path (one stage per
// level of log2(k / 2048) + 1 global steps), so it is the ladder's rung and
// the merge path stays in gp::closest_pair (docs/families/closest_pair.md).

// A point's y and its position in x order; 16 bytes (vector loads).
struct alignas(16) dc_y_key {
  double y;
  std::uint32_t pos;
  std::uint32_t unused;
};

// (y, position): a total order, so the network's result is unique.
struct dc_y_less {
  __device__ bool operator()(const dc_y_key& a, const dc_y_key& b) const {
    return a.y < b.y || (a.y == b.y && a.pos < b.pos);
  }
};

using dc_y_codec = sort_codec<dc_y_key, dc_y_less>;

__device__ __forceinline__ dc_y_key dc_padding_key() {
  return {INFINITY, 0xFFFFFFFFu, 0};
}

// One warp per leaf of 32 positions of [0, padded): every pair of the real
// points, the leaf's least squared distance (+inf for leaves of padding)
// and its keys, unsorted.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dcn_leaves(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                       std::size_t n, std::size_t padded, dc_y_key* __restrict__ keys,
                       unsigned long long* __restrict__ segment_d2,
                       pair_candidate* __restrict__ best_of) {
  dc_leaf leaf;
  if (!dc_leaf_pairs<Dim>(sorted, index, n, padded, segment_d2, leaf)) return;
  if (leaf.lane < leaf.count) best_of[leaf.p] = leaf.best;
  keys[leaf.p] = leaf.lane < leaf.count ? dc_y_key{leaf.a[1], static_cast<std::uint32_t>(leaf.p), 0}
                                        : dc_padding_key();
}

// The networks' y order: keys (y, position); y read from the key (the
// break test needs no gather).
struct dc_keys_by_y {
  const dc_y_key* keys;
  __device__ std::uint32_t position(std::size_t q) const { return keys[q].pos; }
  __device__ double y(std::size_t q) const { return keys[q].y; }
};

// The strip check of level `bits` over keys in y order per segment (see
// closest_dc_strip); padding keys are last in each segment.
template <int Dim>
__global__ void __launch_bounds__(closest_threads)
    closest_dcn_strip(const double* __restrict__ sorted, const std::uint32_t* __restrict__ index,
                      std::size_t n, std::size_t padded, int bits,
                      const dc_y_key* __restrict__ keys,
                      const unsigned long long* __restrict__ child_d2,
                      unsigned long long* __restrict__ segment_d2,
                      pair_candidate* __restrict__ best_of) {
  const std::size_t stride = std::size_t(gridDim.x) * blockDim.x;
  for (std::size_t p = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; p < padded;
       p += stride) {
    const std::size_t segment = p >> bits;
    const std::size_t start = segment << bits;
    const std::size_t mid = start + (std::size_t{1} << (bits - 1));
    const std::size_t end = start + (std::size_t{1} << bits);
    unsigned long long d_bits = child_d2[2 * segment];
    const unsigned long long other = child_d2[2 * segment + 1];
    d_bits = other < d_bits ? other : d_bits;
    if (p == start) atomicMin(&segment_d2[segment], d_bits);
    if (mid >= n) continue;  // the right half is padding: nothing crosses
    dc_strip_check<Dim>(sorted, index, n, p, mid, end,
                        __longlong_as_double(static_cast<long long>(d_bits)), dc_keys_by_y{keys},
                        &segment_d2[segment], best_of);
  }
}

// Sorts each segment of k keys of keys[0, padded) by (y, position), given
// that its two halves are sorted (k >= 64, both powers of two).
inline void dc_order_segments(dc_y_key* keys, std::size_t padded, std::size_t k, stream_t stream) {
  const dc_y_codec codec{dc_y_less{}};
  const uniform_arrays segments{k};
  const std::uint64_t count = padded / k;
  constexpr unsigned tile = shared_tile_keys<dc_y_key>();
  if (k <= tile) {
    // One launch: each segment sorted whole in shared memory.
    sort_arrays(keys, segments, count, k, is_aligned(keys, 16), codec, stream);
    return;
  }
  // One stage of the network merges two sorted halves: the mirror step,
  // the half-cleaners down to the tile in global memory, the rest in tiles.
  const unsigned log2_half = unsigned(std::countr_zero(std::uint64_t(k / 2)));
  const unsigned grid = network_stride_grid(padded / 2);
  for (std::uint64_t top = k / 2; top >= tile; top /= 2) {
    const std::uint64_t mask = top == k / 2 ? k - 1 : top;
    launch("bitonic_step_global", "closest_pair",
           bitonic_step_global<dc_y_codec, dc_y_key, uniform_arrays>,
           {grid, network_threads, 0, stream}, keys, segments, count, log2_half, mask, top, codec);
  }
  launch_shared_tiles(keys, segments, count, k / tile, tile, true, codec, stream);
}

template <class T, int Dim>
pair_candidate divide_and_conquer_networks(const point_set<T>& s, stream_t stream) {
  const std::size_t n = s.n;
  const std::size_t padded = std::max<std::size_t>(std::bit_ceil(n), 32);
  const unsigned blocks = closest_grid_blocks(n, closest_threads);
  // The x order by the radix sort, as in the merge path (a network would
  // sort these n doubles in log^2 n passes; the radix sort takes a few).
  const dc_x_order<T, Dim> order(s, blocks, stream);
  const std::uint32_t* index = order.index();
  const double* sorted = order.sorted();

  const std::size_t leaves = padded / 32;
  const scratch_buffer keys_buffer(padded * sizeof(dc_y_key), stream);
  const scratch_buffer d2_a(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer d2_b(leaves * sizeof(unsigned long long), stream);
  const scratch_buffer best_of(n * sizeof(pair_candidate), stream);
  auto* keys = keys_buffer.get<dc_y_key>();
  unsigned long long* child = d2_a.get<unsigned long long>();
  unsigned long long* level = d2_b.get<unsigned long long>();
  const unsigned leaf_blocks =
      static_cast<unsigned>(ceil_div(padded, static_cast<std::uint64_t>(closest_threads)));
  launch("closest_dcn_leaves", "closest_pair", closest_dcn_leaves<Dim>,
         {leaf_blocks, closest_threads, 0, stream}, sorted, index, n, padded, keys, child,
         best_of.get<pair_candidate>());
  // The leaves' y order: the register network, 16 lanes per leaf.
  sort_arrays(keys, uniform_arrays{32}, leaves, 32, is_aligned(keys, 16), dc_y_codec{dc_y_less{}},
              stream);
  const unsigned strip_blocks = closest_grid_blocks(padded, closest_threads);
  for (int bits = dc_leaf_bits + 1; (std::size_t{1} << (bits - 1)) < n; ++bits) {
    const std::size_t k = std::size_t{1} << bits;
    dc_order_segments(keys, padded, k, stream);
    detail::fill_bytes(level, 0xFF, (padded >> bits) * sizeof(unsigned long long), stream);
    launch("closest_dcn_strip", "closest_pair", closest_dcn_strip<Dim>,
           {strip_blocks, closest_threads, 0, stream}, sorted, index, n, padded, bits,
           static_cast<const dc_y_key*>(keys), static_cast<const unsigned long long*>(child), level,
           best_of.get<pair_candidate>());
    std::swap(child, level);
  }
  return best_of_points(best_of.get<pair_candidate>(), n, blocks, stream);
}

// The whole rung: the entry step of every GPU algorithm, then the recursion above.
template <class T>
closest_pair_result closest_pair_dc_networks(const point_set<T>& points, stream_t stream) {
  return closest_pair_with(
      points, stream,
      [&]<int Dim>(const point_set<T>& s, const detail::point_bounds&, const double*,
                   const double*) { return divide_and_conquer_networks<T, Dim>(s, stream); });
}

}  // namespace gpuprim::ladder
