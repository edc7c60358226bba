// The hot-columns merge path's kernels (section 3 of the SpMV, step 3 of
// the shape of the algorithm in spmv/kernels.cuh): they build on the merge
// path's tiles, walk and fixup of section 2. Launched by
// launch_merge_path_hot in cuda/device/device_spmv.cuh.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpuprim/cuda/block/block_sum_by_key.cuh"
#include "gpuprim/cuda/device/spmv/kernels.cuh"
#include "gpuprim/detail/sparse/spmv.hpp"

namespace gpuprim::cuda_impl {

// ---- 3. merge path, hot columns' x in shared memory -----------------------------------

inline constexpr int hot_tile = 32 * spmv_hot_items;

// A load of a stream read once (values, column indices, row ends): no L1
// line, so it does not evict x's lines.
template <class U>
__device__ __forceinline__ U load_stream(const U* p) {
  static_assert(sizeof(U) == 4 || sizeof(U) == 8, "4- or 8-byte elements");
  const std::size_t a = __cvta_generic_to_global(p);
  U out;
  if constexpr (sizeof(U) == 4) {
    std::uint32_t v;
    asm("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(a));
    memcpy(&out, &v, 4);
  } else {
    unsigned long long v;
    asm("ld.global.nc.L1::no_allocate.b64 %0, [%1];" : "=l"(v) : "l"(a));
    memcpy(&out, &v, 8);
  }
  return out;
}

// Four consecutive elements of a stream from a 16-byte aligned address
// (one 16-byte load of 4-byte elements, two of 8-byte ones), no L1 line.
template <class U>
__device__ __forceinline__ void load_stream4(const U* p, U (&out)[4]) {
  static_assert(sizeof(U) == 4 || sizeof(U) == 8, "4- or 8-byte elements");
  const std::size_t a = __cvta_generic_to_global(p);
  if constexpr (sizeof(U) == 4) {
    std::uint32_t v[4];
    asm("ld.global.nc.L1::no_allocate.v4.b32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v[0]), "=r"(v[1]), "=r"(v[2]), "=r"(v[3])
        : "l"(a));
    memcpy(out, v, 16);
  } else {
    unsigned long long v[4];
    asm("ld.global.nc.L1::no_allocate.v2.b64 {%0, %1}, [%2];" : "=l"(v[0]), "=l"(v[1]) : "l"(a));
    asm("ld.global.nc.L1::no_allocate.v2.b64 {%0, %1}, [%2];"
        : "=l"(v[2]), "=l"(v[3])
        : "l"(a + 16));
    memcpy(out, v, 32);
  }
}

// A thread's part of a merge-path tile staged in shared memory: products
// (nk of them) and ends (nr row ends relative to the tile's first nonzero,
// then a sentinel that is never reached). The thread takes Items items
// from item thread * Items: it finds its row by a binary search of the
// ends, then walks, calling finish(row, sum) for each row it finishes
// except the first, which it holds back (its sum still lacks the earlier
// threads' part). Rows are relative to the tile's first row.
template <class T>
struct staged_walk {
  int first_row;  // -1: the thread finished no row
  T first_sum;
  int row;  // the row open at the thread's end
  T sum;
};

template <int Items, class T, class Finish>
__device__ __forceinline__ staged_walk<T> walk_staged_tile(const T* products, const int* ends,
                                                           int nr, int nk, int thread,
                                                           Finish finish) {
  const int start = min(thread * Items, nr + nk);
  const int stop = min(start + Items, nr + nk);
  int lo = max(0, start - nk), hi = min(nr, start);
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (ends[mid] <= start - mid - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  staged_walk<T> w{-1, T(0), lo, T(0)};
  int k = start - lo;
  int row_end = ends[w.row];
#pragma unroll
  for (int i = 0; i < Items; ++i) {
    if (start + i < stop) {
      if (row_end <= k) {
        if (w.first_row < 0) {
          w.first_row = w.row;
          w.first_sum = w.sum;
        } else {
          finish(w.row, w.sum);
        }
        w.sum = 0;
        ++w.row;
        row_end = ends[w.row];
      } else {
        w.sum += products[k];
        ++k;
      }
    }
  }
  return w;
}

// hot_x[s] = x[columns[s]] for the table's slots (0 in the padding).
template <class T, class I>
__global__ void __launch_bounds__(spmv_threads)
    spmv_hot_gather(const T* __restrict__ x, const I* __restrict__ columns, std::int64_t n_hot,
                    std::int64_t slots, T* __restrict__ hot_x) {
  const std::int64_t s = static_cast<std::int64_t>(blockIdx.x) * spmv_threads + threadIdx.x;
  if (s < slots) hot_x[s] = s < n_hot ? __ldg(x + __ldg(columns + s)) : T(0);
}

// Stages the products values[k] * x[cols[k]] of a tile's nonzeros k0 ..
// k0 + nk - 1 into stage[k - k0] (gathers of hot columns, negative
// recoded indices, from the shared table). Vec: the streams in groups of 4
// entries from k0 rounded down to a multiple of 4, each group one or two
// 16-byte loads a stream (cols and values 16-byte aligned; scalar loads
// for a last partial group of the matrix): a lane has all its 8 entries'
// loads, then their gathers, in flight at once, which one block a SM (half
// the warps of full occupancy) needs to cover the latency. Otherwise
// scalar loads.
template <bool Vec, class T, class I>
__device__ __forceinline__ void stage_hot_products(const I* cols, const T* values, const T* x,
                                                   const T* table, std::int64_t nnz,
                                                   std::int64_t k0, int nk, int lane, T* stage) {
  constexpr I slot_mask = std::numeric_limits<I>::max();
  const auto gather = [&](I c) { return c < 0 ? table[c & slot_mask] : __ldg(x + c); };
  if constexpr (!Vec) {
#pragma unroll 4
    for (int i = lane; i < nk; i += 32)
      stage[i] = load_stream(values + k0 + i) * gather(load_stream(cols + k0 + i));
  } else {
    const std::int64_t base = k0 & ~std::int64_t{3};
    const int lead = static_cast<int>(k0 - base);
#pragma unroll 2
    for (int i = 4 * lane; i < nk + lead; i += 4 * 32) {
      const std::int64_t g = base + i;
      I c[4];
      T v[4];
      if (g + 3 < nnz) {
        load_stream4(cols + g, c);
        load_stream4(values + g, v);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          c[j] = g + j < nnz ? load_stream(cols + g + j) : I(0);
          v[j] = g + j < nnz ? load_stream(values + g + j) : T(0);
        }
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int s = i + j - lead;
        if (s >= 0 && s < nk) stage[s] = v[j] * gather(c[j]);
      }
    }
  }
}

// y = alpha A x + beta y over warp tiles of hot_tile merge-path items
// (corners from spmv_merge_path_partition<I, hot_tile>). Dynamic shared
// memory (hot_shared_bytes): the table of `slots` values of x, then a
// stage of hot_tile + 1 values a warp, which holds the tile's products,
// then its row ends (ints relative to the tile's first nonzero; an int
// takes no more room than a T) and a sentinel that keeps the row open at
// the tile's end open. cols: the recoded column indices (hot ones are
// negative: hot_column_flag | slot). Vec: cols and values are 16-byte
// aligned (stage_hot_products).
template <bool Vec, class T, class I>
__global__ void __launch_bounds__(spmv_hot_threads, 1)
    spmv_merge_path_hot(std::int64_t nnz, std::int64_t tiles, const I* __restrict__ offsets,
                        const I* __restrict__ cols, const T* __restrict__ values,
                        const T* __restrict__ x, T alpha, T beta, T* __restrict__ y,
                        const std::int64_t* __restrict__ tile_corners,
                        std::int64_t* __restrict__ carry_rows, T* __restrict__ carry_values,
                        const T* __restrict__ hot_x, int slots) {
  extern __shared__ float4 hot_shared[];
  T* table = reinterpret_cast<T*>(hot_shared);
  constexpr int warps = spmv_hot_threads / 32;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  // The table, once a block: slots x sizeof(T) bytes in 16-byte vectors.
  const int vectors = static_cast<int>(slots * sizeof(T) / sizeof(float4));
  for (int i = threadIdx.x; i < vectors; i += spmv_hot_threads)
    hot_shared[i] = __ldg(reinterpret_cast<const float4*>(hot_x) + i);
  __syncthreads();
  T* stage = table + slots + warp * (hot_tile + 1);

  for (std::int64_t t = static_cast<std::int64_t>(blockIdx.x) * warps + warp; t < tiles;
       t += static_cast<std::int64_t>(gridDim.x) * warps) {
    const std::int64_t r0 = tile_corners[2 * t], k0 = tile_corners[2 * t + 1];
    const int nr = static_cast<int>(tile_corners[2 * t + 2] - r0);
    const int nk = static_cast<int>(tile_corners[2 * t + 3] - k0);
    // Stage the tile: products (the gathers of hot columns from the
    // table), then row ends and the sentinel.
    stage_hot_products<Vec>(cols, values, x, table, nnz, k0, nk, lane, stage);
    int* ends = reinterpret_cast<int*>(stage + nk);
    for (int i = lane; i < nr; i += 32)
      ends[i] = static_cast<int>(static_cast<std::int64_t>(load_stream(offsets + r0 + i + 1)) - k0);
    if (lane == 0) ends[nr] = INT_MAX;
    __syncwarp();

    // The lane's items: rows finished (the first held back), the open row's sum.
    staged_walk<T> w =
        walk_staged_tile<spmv_hot_items>(stage, ends, nr, nk, lane, [&](int row, T sum) {
          T* out = y + r0 + row;
          *out = beta == T(0) ? alpha * sum : alpha * sum + beta * *out;
        });

    // Inclusive segmented scan of (open row, sum) over the warp.
    const int key = w.row;
    const T value = warp_inclusive_sum_by_key(key, w.sum);
    const int prev_key = __shfl_up_sync(0xffffffffu, key, 1);
    const T prev_value = __shfl_up_sync(0xffffffffu, value, 1);
    if (w.first_row >= 0) {
      if (lane > 0 && prev_key == w.first_row) w.first_sum = prev_value + w.first_sum;
      T* out = y + r0 + w.first_row;
      *out = beta == T(0) ? alpha * w.first_sum : alpha * w.first_sum + beta * *out;
    }
    if (lane == 31) {
      carry_rows[t] = r0 + key;  // rows: no open row
      carry_values[t] = value;
    }
    __syncwarp();  // the next tile overwrites the stage
  }
}

}  // namespace gpuprim::cuda_impl
