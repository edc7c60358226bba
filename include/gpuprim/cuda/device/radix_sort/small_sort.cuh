// The GPU radix sort of inputs of at most one tile: one block, one launch.
// The host driver that picks it is cuda/device/device_radix_sort.cuh.
//
//   1. load the keys (and values) into registers, warp-striped, Items a
//      thread: the driver picks the fewest Items that hold the input, so
//      every warp holds some of it and each pass's ranking takes Items
//      steps, not the 32 of a full tile;
//   2. one block-wide OR and AND of the keys' order patterns: a bit that
//      is the same in every key is constant, and a pass whose digit's bits
//      are all constant is skipped (its stable reorder is the identity);
//   3. every other pass ranks the keys held in registers
//      (block_radix_rank), reorders them through shared memory and reloads
//      them in the new order (values alike);
//   4. the keys (and values) are written out in order.
#pragma once

#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/block/block_radix_rank.cuh"
#include "gpuprim/cuda/device/radix_sort/onesweep.cuh"
#include "gpuprim/sort_types.hpp"

namespace gpuprim::cuda_impl {

// The bits in which the block's keys differ: OR ^ AND of their order
// patterns over the block (`warp_or`, `warp_and`: a word per warp). Ends
// with a barrier.
template <int Items, class K>
__device__ unsigned long long block_varying_bits(const K (&keys)[Items], unsigned warp_valid,
                                                 bool descending, unsigned long long* warp_or,
                                                 unsigned long long* warp_and) {
  unsigned long long any = 0, all = ~0ull;
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (block_radix_rank::is_valid<false>(i, warp_valid)) {
      const unsigned long long b = radix_key<K>::to_bits(keys[i], descending);
      any |= b;
      all &= b;
    }
  }
#pragma unroll
  for (int delta = 16; delta > 0; delta /= 2) {
    any |= __shfl_xor_sync(full_warp_mask, any, delta);
    all &= __shfl_xor_sync(full_warp_mask, all, delta);
  }
  const int warp = threadIdx.x / 32;
  if (threadIdx.x % 32 == 0) {
    warp_or[warp] = any;
    warp_and[warp] = all;
  }
  __syncthreads();
  any = 0;
  all = ~0ull;
  for (int w = 0; w < block_radix_rank::warps; ++w) {
    any |= warp_or[w];
    all &= warp_and[w];
  }
  __syncthreads();
  return any ^ all;
}

template <class K, class V, int Items>
__global__ void __launch_bounds__(256, 1)
    radix_small_sort(const K* keys_in, K* keys_out, const V* values_in, V* values_out, unsigned n,
                     radix_digit<K> first, int passes, int end_bit) {
  constexpr bool has_values = !std::is_same_v<V, no_values>;
  __shared__ radix_tile_storage<K, V, Items> s;
  __shared__ unsigned long long warp_or[block_radix_rank::warps], warp_and[block_radix_rank::warps];

  // 1. Load.
  const int lane = threadIdx.x % 32;
  const unsigned warp_begin = (threadIdx.x / 32) * 32 * Items;
  const unsigned warp_valid = warp_valid_count<Items>(warp_begin, n);
  K keys[Items];
  V values[has_values ? Items : 1];
  unsigned ranks[Items];
  load_warp_striped<false>(keys_in, warp_begin, warp_valid, keys);
  if constexpr (has_values) load_warp_striped<false>(values_in, warp_begin, warp_valid, values);
  auto valid = [&](int i) { return block_radix_rank::is_valid<false>(i, warp_valid); };
  // Items to their ranks' slots of `stage`, then back from the slots in
  // warp-striped order (the order of slots is the new input order).
  auto reorder = [&](auto(&items)[Items], auto* stage) {
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (valid(i)) stage[ranks[i]] = items[i];
    }
    __syncthreads();
#pragma unroll
    for (int i = 0; i < Items; ++i) {
      if (valid(i)) items[i] = stage[warp_begin + i * 32 + lane];
    }
  };

  // 2. The bits that vary (the same in every thread: the passes to skip are
  //    the block's, so the barriers below are reached by all).
  const unsigned long long varying =
      block_varying_bits(keys, warp_valid, first.descending, warp_or, warp_and);

  // 3. Rank and reorder by every digit that varies.
  for (int p = 0; p < passes; ++p) {
    const int shift = first.shift + 8 * p;
    const int width = end_bit - shift < 8 ? end_bit - shift : 8;
    const radix_digit<K> digit_of{shift, (1u << width) - 1u, first.descending};
    if (((varying >> shift) & digit_of.mask) == 0) continue;
    unsigned count, start;
    block_radix_rank::rank<false>(s.rank, keys, digit_of, warp_valid, ranks, count, start,
                                  [](unsigned) {});
    reorder(keys, s.keys());
    if constexpr (has_values) {
      __syncthreads();
      reorder(values, s.values());
    }
    __syncthreads();
  }
  // 4. Store.
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (valid(i)) {
      keys_out[warp_begin + i * 32 + lane] = keys[i];
      if constexpr (has_values) values_out[warp_begin + i * 32 + lane] = values[i];
    }
  }
}

}  // namespace gpuprim::cuda_impl
