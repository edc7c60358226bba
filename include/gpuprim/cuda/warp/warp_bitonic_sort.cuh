// Bitonic sorting network in registers: a group of lanes holds a small array
// (Items elements per lane) and runs the network's compare-exchange steps with
// warp shuffles (partners in other lanes) or register moves (partners in the
// same lane). No shared memory, no synchronization.
//
// The network is the "all ascending" form of bitonic sort: stage k (k = 2, 4,
// ..., size) first pairs element e with e ^ (k - 1) (the mirror image within
// its block of k), then with e ^ j for j = k/4, ..., 1; the lower index always
// keeps the smaller key. Because no comparator ever moves a key towards a
// higher index in descending order, an array of `valid` < size real elements
// sorts correctly if every comparator that touches an index >= valid is
// skipped: those positions behave as +infinity and are never read or written.
//
// Layouts (which element of the array is v[r] of a lane):
//  - blocked_layout<Items, Lanes>: lane l of a group of Lanes holds elements
//    l * Items .. l * Items + Items - 1 (vector loads from global memory);
//  - striped_layout<Items>: lane l holds l, l + 32, l + 64, ... (conflict-free
//    reads from shared memory).
// A step with mask m pairs the element at (lane, r) with the one at
// (lane ^ lane_mask(m), reg_partner(r, m)); the layout says how m splits.
// An element's offset is lane_bits(lane) | register_bits(r), two disjoint
// sets of bits, so whether it is the lower end of a pair is one test of the
// lane's bits a step (the same for all its registers) or a constant.
//
// The steps are bound by instruction issue: a compare-exchange is the
// whole of a step's work besides the shuffle, so it is kept to a min or a
// max where the comparator allows (compare_exchange_keep).
#pragma once

#include <concepts>
#include <cstdint>

#include "gpuprim/cuda/support/shuffle.cuh"

namespace gpuprim::cuda_impl {

template <int Items, int Lanes>
struct blocked_layout {
  static_assert(Items > 0 && (Items & (Items - 1)) == 0, "Items must be a power of two");
  static_assert(Lanes > 0 && Lanes <= 32 && (Lanes & (Lanes - 1)) == 0,
                "Lanes must be a power of two of at most 32");
  static constexpr int items = Items;
  static constexpr unsigned elements = unsigned(Items) * Lanes;
  __device__ static constexpr unsigned lane_bits(unsigned lane) {
    return (lane & (Lanes - 1)) * Items;
  }
  __device__ static constexpr unsigned register_bits(int r) { return unsigned(r); }
  __device__ static constexpr unsigned offset(unsigned lane, int r) {
    return lane_bits(lane) | register_bits(r);
  }
  __device__ static constexpr unsigned lane_mask(unsigned mask) { return mask / Items; }
  __device__ static constexpr int reg_partner(int r, unsigned mask) {
    return r ^ int(mask & (Items - 1));
  }
};

template <int Items>
struct striped_layout {
  static_assert(Items > 0 && (Items & (Items - 1)) == 0, "Items must be a power of two");
  static constexpr int items = Items;
  static constexpr unsigned elements = 32u * Items;
  __device__ static constexpr unsigned lane_bits(unsigned lane) { return lane & 31u; }
  __device__ static constexpr unsigned register_bits(int r) { return 32u * unsigned(r); }
  __device__ static constexpr unsigned offset(unsigned lane, int r) {
    return lane_bits(lane) | register_bits(r);
  }
  __device__ static constexpr unsigned lane_mask(unsigned mask) { return mask & 31u; }
  __device__ static constexpr int reg_partner(int r, unsigned mask) { return r ^ int(mask >> 5); }
};

// A comparator whose keys are built-in integers ordered by their own `<`
// says so with `static constexpr bool integer_order = true`: equal keys are
// then the same bits, so a compare-exchange may take a min or a max.
template <class Less>
concept declares_integer_order = Less::integer_order;

template <class Less, class K>
concept integer_ordered = std::integral<K> && declares_integer_order<Less>;

// The key a compare-exchange leaves at one end of a pair, `mine` and
// `other` its two keys: the smaller at the lower end, the larger at the
// higher; ties keep `mine`. Integer orders: a min or a max, no comparison
// per direction and no branch.
template <class K, class Less>
__device__ __forceinline__ K compare_exchange_keep(const K& mine, const K& other, bool lower,
                                                   Less less) {
  if constexpr (integer_ordered<Less, K>) {
    const K smaller = other < mine ? other : mine;
    const K larger = mine < other ? other : mine;
    return lower ? smaller : larger;
  } else {
    // Both members decide on the same comparison (less(high, low)), so a
    // pair either swaps or keeps its keys.
    const bool take = lower ? less(other, mine) : less(mine, other);
    return take ? other : mine;
  }
}

// One compare-exchange step over the group's elements: element e (at index
// base + offset(lane, r) of the array; base a multiple of
// Layout::elements) meets e ^ mask; `top` is mask's highest bit (below
// Layout::elements), so e is the lower of the two when (e & top) == 0.
// With Guarded, pairs whose higher index is >= valid are skipped. Every
// lane of the warp must call this (shuffles take the full warp).
template <class Layout, bool Guarded, int Items, class K, class Less>
__device__ __forceinline__ void bitonic_step_registers(K (&v)[Items], unsigned mask, unsigned top,
                                                       unsigned base, unsigned lane, unsigned valid,
                                                       Less less) {
  const unsigned lane_mask = Layout::lane_mask(mask);
  K other[Items];
  // All partners are gathered before any register changes: within a lane
  // both members of a pair read the other's old value.
#pragma unroll
  for (int r = 0; r < Items; ++r) {
    const K& mine = v[Layout::reg_partner(r, mask)];
    other[r] = lane_mask != 0 ? shuffle_xor(mine, int(lane_mask)) : mine;
  }
  // (base & top) == 0: whether a key is the lower end is decided by the
  // lane's bits (one test a step) or by r (a constant).
  const unsigned lane_top = Layout::lane_bits(lane) & top;
#pragma unroll
  for (int r = 0; r < Items; ++r) {
    const bool lower = (lane_top | (Layout::register_bits(r) & top)) == 0;
    if constexpr (Guarded) {
      const unsigned e = base + Layout::offset(lane, r);
      if ((lower ? (e ^ mask) : e) >= valid) continue;
    }
    v[r] = compare_exchange_keep(v[r], other[r], lower, less);
  }
}

// Sorts the Layout::elements elements of the group (indices base + offset)
// with the whole network; `valid` counts real elements from index 0.
template <class Layout, bool Guarded, int Items, class K, class Less>
__device__ __forceinline__ void bitonic_sort_registers(K (&v)[Items], unsigned base, unsigned lane,
                                                       unsigned valid, Less less) {
  static_assert(Layout::items == Items);
#pragma unroll
  for (unsigned k = 2; k <= Layout::elements; k *= 2) {
    bitonic_step_registers<Layout, Guarded>(v, k - 1, k / 2, base, lane, valid, less);
#pragma unroll
    for (unsigned j = k / 4; j >= 1; j /= 2)
      bitonic_step_registers<Layout, Guarded>(v, j, j, base, lane, valid, less);
  }
}

// The steps j = Layout::elements / 2, ..., 1 of a stage larger than the
// group: each group's elements form a bitonic-merge half-cleaner chain that
// ends sorted.
template <class Layout, bool Guarded, int Items, class K, class Less>
__device__ __forceinline__ void bitonic_merge_registers(K (&v)[Items], unsigned base, unsigned lane,
                                                        unsigned valid, Less less) {
  static_assert(Layout::items == Items);
#pragma unroll
  for (unsigned j = Layout::elements / 2; j >= 1; j /= 2)
    bitonic_step_registers<Layout, Guarded>(v, j, j, base, lane, valid, less);
}

}  // namespace gpuprim::cuda_impl
