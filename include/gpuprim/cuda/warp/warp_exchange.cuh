// One warp's tile of 32 * Items elements staged in shared memory between
// lane-striped global memory (coalesced, 16-byte vector loads and stores
// where Vec > 1 and the tile is whole) and lane-blocked registers (lane l
// holds elements l * Items ... l * Items + Items - 1). One pad slot per 32
// elements keeps both the striped accesses and the blocked ones free of
// bank conflicts. The single-pass scan, segmented scan and selection
// kernels stage their tiles through it.
#pragma once

#include "gpuprim/cuda/support/vector.cuh"

namespace gpuprim::cuda_impl {

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

}  // namespace gpuprim::cuda_impl
