// Bitonic sort of one tile in shared memory by a whole block (any block size
// that is a multiple of 32). The tile is a power of two of at least one
// warp chunk (32 * Items keys); its first `valid` keys are real, the rest are
// padding that no step reads or writes (see cuda/warp/warp_bitonic_sort.cuh).
//
// Steps whose partners are at least a warp chunk apart run in shared memory,
// one __syncthreads() each; the steps below (and the whole first part of the
// network, stages up to one chunk) run in registers: each warp loads a chunk
// striped (lane l takes l, l + 32, ...: conflict-free), runs those steps with
// shuffles and register moves, and writes it back. A tile of 1024 floats
// takes 3 shared-memory steps out of 55.
#pragma once

#include "gpuprim/cuda/warp/warp_bitonic_sort.cuh"

namespace gpuprim::cuda_impl {

// Index of the t-th pair's lower element for a step whose highest mask bit
// is `top`: t with a zero bit inserted at top's position.
template <class U>
__device__ __forceinline__ U insert_zero_bit(U t, U top) {
  return ((t & ~(top - 1)) << 1) | (t & (top - 1));
}

template <int Items, class K, class Less>
struct block_bitonic_sort {
  static constexpr unsigned chunk = 32u * Items;
  using layout = striped_layout<Items>;

  K* keys;         // the tile, in shared memory
  unsigned tile;   // power of two >= chunk
  unsigned valid;  // 1 <= valid <= tile
  Less less;

  // Both entry points expect the keys written and a __syncthreads() after
  // the writes; they return with the tile sorted and synchronized.

  // The whole network over the tile.
  __device__ void sort() const {
    registers_pass(false);
    for (unsigned k = 2 * chunk; k <= tile; k *= 2) {
      shared_step(k - 1, k / 2);
      for (unsigned j = k / 4; j >= chunk; j /= 2)
        shared_step(j, j);
      registers_pass(true);
    }
  }

  // The steps j = tile/2, ..., 1 of a stage over several tiles (the global
  // steps of the stage have run before).
  __device__ void merge() const {
    for (unsigned j = tile / 2; j >= chunk; j /= 2)
      shared_step(j, j);
    registers_pass(true);
  }

 private:
  __device__ void shared_step(unsigned mask, unsigned top) const {
    for (unsigned t = threadIdx.x; t < tile / 2; t += blockDim.x) {
      const unsigned lo = insert_zero_bit(t, top);
      const unsigned hi = lo ^ mask;
      if (hi < valid) {
        const K a = keys[lo];
        const K b = keys[hi];
        if (less(b, a)) {
          keys[lo] = b;
          keys[hi] = a;
        }
      }
    }
    __syncthreads();
  }

  // Each warp takes whole chunks; a warp's loop is warp-uniform, so every
  // lane of a warp takes part in its shuffles.
  __device__ void registers_pass(bool merge_only) const {
    const unsigned lane = threadIdx.x % 32;
    const unsigned warps = blockDim.x / 32;
    // Chunks wholly past the real keys have nothing to do.
    for (unsigned base = (threadIdx.x / 32) * chunk; base < valid; base += warps * chunk) {
      K v[Items];
#pragma unroll
      for (int r = 0; r < Items; ++r) {
        const unsigned i = base + layout::offset(lane, r);
        v[r] = keys[i < valid ? i : valid - 1];  // padding: any real key, never stored
      }
      if (merge_only) {
        bitonic_merge_registers<layout, true>(v, base, lane, valid, less);
      } else {
        bitonic_sort_registers<layout, true>(v, base, lane, valid, less);
      }
      // Padding lanes read keys[valid - 1], which its owner lane stores
      // below: shuffles order no memory accesses, __syncwarp does.
      __syncwarp();
#pragma unroll
      for (int r = 0; r < Items; ++r) {
        const unsigned i = base + layout::offset(lane, r);
        if (i < valid) keys[i] = v[r];
      }
    }
    __syncthreads();
  }
};

}  // namespace gpuprim::cuda_impl
