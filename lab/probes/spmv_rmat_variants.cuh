// The SpMV probe's kernels (lab/probes/probe_spmv_rmat.cu): y = A x on a CSR
// matrix of float values and int32 indices, with rows + nnz below 2^31
// (positions on the merge path are 32-bit).
//
// Shape of the algorithms:
//  1. merge_tiles: production's merge-path split (device_spmv.cuh) with
//     knobs: the tile is a block (256 threads) or a warp (32 threads) of
//     Items items a thread; the tile's products and row ends share one
//     staging array (the merge path has exactly tile-items of both, so
//     this is half of production's shared memory); a block tile needs two
//     barriers (production three), a warp tile none; the value and column
//     streams are read as 4-byte or 16-byte vectors; every load has a cache
//     policy (cache below). Then merge_fixup adds the tiles' carried sums.
//     (The winner, warp tiles with the hottest columns' x in shared
//     memory, is production's spmv_kernel::hot_columns now; the probe
//     times that, and beside it merge_tiles_hot, the kernel as measured
//     at 78fa916.)
//  2. row_split: a group of G lanes per row for rows of at most short_max
//     entries; longer rows (listed once at setup, from the row offsets) go
//     to a warp each, rows over huge_min entries to a block each, in the
//     kernel's first blocks so that they start first.
#pragma once

#include <cuda_runtime.h>

#include <climits>
#include <cstdint>

#include "gpuprim/cuda/device/device_spmv.cuh"

namespace spmv_probe {

// How a load goes through the caches.
enum class cache {
  ldg,          // ld.global.nc: the read-only path, allocating in L1
  evict_last,   // ld.global.nc.L1::evict_last: L1 keeps the line over normal ones
  no_allocate,  // ld.global.nc.L1::no_allocate: no L1 line (streams leave x's lines alone)
  stream_l2,    // no_allocate, and L2 evict_first (streams leave x's lines in L2 alone)
};

constexpr const char* cache_name(cache c) {
  return c == cache::ldg           ? "ldg"
         : c == cache::evict_last  ? "L1::evict_last"
         : c == cache::no_allocate ? "L1::no_allocate"
                                   : "L1::no_allocate+L2::evict_first";
}

template <cache C>
__device__ __forceinline__ std::uint32_t load32(const void* p) {
  const std::size_t a = __cvta_generic_to_global(p);
  std::uint32_t v;
  if constexpr (C == cache::ldg) {
    asm("ld.global.nc.b32 %0, [%1];" : "=r"(v) : "l"(a));
  } else if constexpr (C == cache::evict_last) {
    asm("ld.global.nc.L1::evict_last.b32 %0, [%1];" : "=r"(v) : "l"(a));
  } else if constexpr (C == cache::no_allocate) {
    asm("ld.global.nc.L1::no_allocate.b32 %0, [%1];" : "=r"(v) : "l"(a));
  } else {
    asm("{\n\t.reg .b64 policy;\n\t"
        "createpolicy.fractional.L2::evict_first.b64 policy, 1.0;\n\t"
        "ld.global.nc.L1::no_allocate.L2::cache_hint.b32 %0, [%1], policy;\n\t}"
        : "=r"(v)
        : "l"(a));
  }
  return v;
}

template <cache C>
__device__ __forceinline__ uint4 load128(const void* p) {
  const std::size_t a = __cvta_generic_to_global(p);
  uint4 v;
  if constexpr (C == cache::ldg) {
    asm("ld.global.nc.v4.b32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(a));
  } else if constexpr (C == cache::evict_last) {
    asm("ld.global.nc.L1::evict_last.v4.b32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(a));
  } else if constexpr (C == cache::no_allocate) {
    asm("ld.global.nc.L1::no_allocate.v4.b32 {%0, %1, %2, %3}, [%4];"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(a));
  } else {
    asm("{\n\t.reg .b64 policy;\n\t"
        "createpolicy.fractional.L2::evict_first.b64 policy, 1.0;\n\t"
        "ld.global.nc.L1::no_allocate.L2::cache_hint.v4.b32 {%0, %1, %2, %3}, [%4], policy;\n\t}"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w)
        : "l"(a));
  }
  return v;
}

template <cache C>
__device__ __forceinline__ float load_float(const float* p) {
  return __uint_as_float(load32<C>(p));
}
template <cache C>
__device__ __forceinline__ int load_int(const int* p) {
  return static_cast<int>(load32<C>(p));
}

struct matrix_view {
  int rows;
  int nnz;
  const int* offsets;
  const int* cols;
  const float* values;
};

inline constexpr int block_threads = 256;

// ---- 1. merge path ------------------------------------------------------------------

// (row, nonzero) where diagonal d crosses the merge of the row ends
// offsets[1..rows] with the nonzero indices (a row end first on a tie).
__device__ __forceinline__ int2 merge_search(int d, const int* offsets, int rows, int nnz) {
  int lo = d > nnz ? d - nnz : 0;
  int hi = d < rows ? d : rows;
  while (lo < hi) {
    const int mid = (lo + hi) / 2;
    if (__ldg(offsets + mid + 1) <= d - mid - 1) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return make_int2(lo, d - lo);
}

// The corners of tiles 0 .. tiles (tile_items items each), a thread each.
template <int TileItems>
__global__ void __launch_bounds__(block_threads)
    merge_partition(int tiles, matrix_view A, int2* __restrict__ corners) {
  const int t = blockIdx.x * block_threads + threadIdx.x;
  if (t > tiles) return;
  const long long d = static_cast<long long>(t) * TileItems;
  const int total = A.rows + A.nnz;
  corners[t] = merge_search(d < total ? static_cast<int>(d) : total, A.offsets, A.rows, A.nnz);
}

template <int TileThreads>
__device__ __forceinline__ void tile_sync() {
  if constexpr (TileThreads == 32) {
    __syncwarp();
  } else {
    __syncthreads();
  }
}

// x[c] for a column index c of the matrix: a load from x ...
template <cache XC>
struct gather_x {
  const float* x;
  __device__ __forceinline__ float operator()(int c) const { return load_float<XC>(x + c); }
};

// The products values[k] * x[cols[k]] of the tile's nonzeros k0 .. k1 - 1
// into stage[k - k0]; Vec = 4: the streams as 16-byte vectors from k0
// rounded down to a multiple of 4 (scalar loads for a last partial vector).
template <int TileThreads, int Vec, cache SC, class Gather>
__device__ __forceinline__ void stage_products(const matrix_view& A, const Gather& gather, int k0,
                                               int k1, std::uint32_t* stage, int tid) {
  if constexpr (Vec == 1) {
#pragma unroll 4
    for (int i = tid; i < k1 - k0; i += TileThreads) {
      const int c = load_int<SC>(A.cols + k0 + i);
      const float v = load_float<SC>(A.values + k0 + i);
      stage[i] = __float_as_uint(v * gather(c));
    }
  } else {
    static_assert(Vec == 4, "16-byte vectors of 4 entries");
#pragma unroll 2
    for (int g = (k0 & ~3) + 4 * tid; g < k1; g += 4 * TileThreads) {
      int c[4];
      float v[4];
      if (g + 3 < A.nnz) {
        const uint4 cv = load128<SC>(A.cols + g);
        const uint4 vv = load128<SC>(A.values + g);
        c[0] = static_cast<int>(cv.x), c[1] = static_cast<int>(cv.y);
        c[2] = static_cast<int>(cv.z), c[3] = static_cast<int>(cv.w);
        v[0] = __uint_as_float(vv.x), v[1] = __uint_as_float(vv.y);
        v[2] = __uint_as_float(vv.z), v[3] = __uint_as_float(vv.w);
      } else {
#pragma unroll
        for (int j = 0; j < 4; ++j) {
          c[j] = g + j < A.nnz ? load_int<SC>(A.cols + g + j) : 0;
          v[j] = g + j < A.nnz ? load_float<SC>(A.values + g + j) : 0.0f;
        }
      }
#pragma unroll
      for (int j = 0; j < 4; ++j) {
        const int k = g + j;
        if (k >= k0 && k < k1) stage[k - k0] = __float_as_uint(v[j] * gather(c[j]));
      }
    }
  }
}

// Tile t of the merge path (corners from merge_partition), TileThreads
// threads x Items items: writes every row the tile finishes and the tile's
// carried (open row, partial sum) for merge_fixup. stage: tile items + 1
// words of shared memory, the products of the tile's nonzeros, then its
// row ends (relative to k0), then a sentinel that keeps the row open at
// the tile's end open. warp_keys, warp_values: a slot a warp (block tiles).
template <int TileThreads, int Items, int Vec, cache SC, class Gather>
__device__ __forceinline__ void merge_tile(const matrix_view& A, const Gather& gather, float* y,
                                           const int2* corners, int t, int tid,
                                           std::uint32_t* stage, int* warp_keys, float* warp_values,
                                           int* carry_rows, float* carry_values) {
  const int2 c0 = corners[t], c1 = corners[t + 1];
  const int r0 = c0.x, k0 = c0.y;
  const int nr = c1.x - c0.x, nk = c1.y - c0.y;
  stage_products<TileThreads, Vec, SC>(A, gather, k0, c1.y, stage, tid);
  for (int i = tid; i < nr; i += TileThreads)
    stage[nk + i] = static_cast<std::uint32_t>(load_int<SC>(A.offsets + r0 + i + 1) - k0);
  if (tid == 0) stage[nk + nr] = INT_MAX;
  tile_sync<TileThreads>();

  // The thread's items (production's walk, device_spmv.cuh): rows
  // finished, the first held back for the earlier threads' sums.
  const int* ends = reinterpret_cast<const int*>(stage + nk);
  const float* products = reinterpret_cast<const float*>(stage);
  const auto w = gpuprim::cuda_impl::walk_staged_tile<Items>(
      products, ends, nr, nk, tid, [&](int row, float sum) { y[r0 + row] = sum; });
  const int first_row = w.first_row;
  float first_sum = w.first_sum;
  const int row = w.row;
  const float sum = w.sum;

  // Inclusive segmented scan of (open row, sum) over the tile's threads.
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int key = row;
  float value = 0;
  if constexpr (TileThreads > 32) {
    value = gpuprim::cuda_impl::block_inclusive_sum_by_key(key, sum, warp_keys, warp_values);
  } else {
    value = gpuprim::cuda_impl::warp_inclusive_sum_by_key(key, sum);
  }
  // The previous thread's inclusive (key, value): a shuffle, or for lane 0
  // the previous warp's last lane, rebuilt from the warps' aggregates.
  int prev_key = __shfl_up_sync(0xffffffffu, key, 1);
  float prev_value = __shfl_up_sync(0xffffffffu, value, 1);
  if constexpr (TileThreads > 32) {
    if (lane == 0 && warp > 0 && first_row >= 0) {
      prev_key = warp_keys[warp - 1];
      prev_value = warp_values[warp - 1];
      for (int w = warp - 2; w >= 0 && warp_keys[w] == prev_key; --w)
        prev_value = warp_values[w] + prev_value;
    }
  }
  if (first_row >= 0) {
    if (tid > 0 && prev_key == first_row) first_sum = prev_value + first_sum;
    y[r0 + first_row] = first_sum;
  }
  if (tid == TileThreads - 1) {
    carry_rows[t] = r0 + key;  // A.rows: no open row
    carry_values[t] = value;
  }
}

// y = A x over the merge-path tiles: a block of 256 threads holds
// 256 / TileThreads tiles. 8 resident blocks (32 registers), as
// production: full occupancy keeps the most gathers of x in flight.
template <int TileThreads, int Items, int Vec, cache XC, cache SC>
__global__ void __launch_bounds__(block_threads, 8)
    merge_tiles(matrix_view A, const float* __restrict__ x, float* __restrict__ y,
                const int2* __restrict__ corners, int tiles, int* __restrict__ carry_rows,
                float* __restrict__ carry_values) {
  constexpr int tiles_per_block = block_threads / TileThreads;
  __shared__ std::uint32_t stage[tiles_per_block][TileThreads * Items + 1];
  __shared__ int warp_keys[block_threads / 32];
  __shared__ float warp_values[block_threads / 32];
  const int sub = threadIdx.x / TileThreads, tid = threadIdx.x % TileThreads;
  const int t = blockIdx.x * tiles_per_block + sub;
  if (t >= tiles) return;  // a whole tile (a warp, or the block) at once
  merge_tile<TileThreads, Items, Vec, SC>(A, gather_x<XC>{x}, y, corners, t, tid, stage[sub],
                                          warp_keys, warp_values, carry_rows, carry_values);
}

// The hot-columns variant as measured at 78fa916 (H200 R-MAT 2^22: 440 us),
// kept beside production's spmv_merge_path_hot (512.8 us there) until the
// device says which difference costs the time: warp tiles of 32 x Items
// (int2 corners, 32-bit positions), 16-byte streams (stage_products<Vec 4>),
// persistent blocks of hot_variant_threads that first copy hot_x (x of the
// hottest columns, packed by gather_hot_x; n_hot a multiple of 4) into
// shared memory. Column indices recoded as INT_MIN | slot (the same
// recoding as prepare_spmv's). Dynamic shared memory: hot_variant_bytes.
inline constexpr int hot_variant_threads = 1024;

template <cache XC>
struct gather_hot {
  const float* x;
  const float* table;
  __device__ __forceinline__ float operator()(int c) const {
    return c < 0 ? table[c & INT_MAX] : load_float<XC>(x + c);
  }
};

__global__ void __launch_bounds__(block_threads)
    gather_hot_x(const float* __restrict__ x, const int* __restrict__ hot_cols, int n_hot,
                 float* __restrict__ hot_x) {
  const int i = blockIdx.x * block_threads + threadIdx.x;
  if (i < n_hot) hot_x[i] = __ldg(x + __ldg(hot_cols + i));
}

template <int Items, int MinBlocks, cache XC, cache SC>
__global__ void __launch_bounds__(hot_variant_threads, MinBlocks)
    merge_tiles_hot(matrix_view A, const float* __restrict__ x, float* __restrict__ y,
                    const int2* __restrict__ corners, int tiles, int* __restrict__ carry_rows,
                    float* __restrict__ carry_values, const float* __restrict__ hot_x, int n_hot) {
  extern __shared__ float4 hot_shared4[];
  float* hot_shared = reinterpret_cast<float*>(hot_shared4);
  constexpr int warps = hot_variant_threads / 32;
  for (int i = threadIdx.x; i < n_hot / 4; i += hot_variant_threads)
    hot_shared4[i] = __ldg(reinterpret_cast<const float4*>(hot_x) + i);
  __syncthreads();
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  auto* stage = reinterpret_cast<std::uint32_t*>(hot_shared + n_hot) + warp * (32 * Items + 1);
  const gather_hot<XC> gather{x, hot_shared};
  for (int t = blockIdx.x * warps + warp; t < tiles; t += gridDim.x * warps) {
    merge_tile<32, Items, 4, SC>(A, gather, y, corners, t, lane, stage, nullptr, nullptr,
                                 carry_rows, carry_values);
    __syncwarp();  // the next tile overwrites the stage
  }
}

template <int Items>
constexpr std::size_t hot_variant_bytes(int n_hot) {
  return (static_cast<std::size_t>(n_hot) + (hot_variant_threads / 32) * (32 * Items + 1)) * 4;
}

// Adds the tiles' carried sums to their rows: the first tile of each run of
// equal carried rows sums the run in tile order (deterministic).
__global__ void __launch_bounds__(block_threads)
    merge_fixup(int tiles, int rows, const int* __restrict__ carry_rows,
                const float* __restrict__ carry_values, float* __restrict__ y) {
  const int t = blockIdx.x * block_threads + threadIdx.x;
  if (t >= tiles) return;
  const int row = carry_rows[t];
  if (row >= rows || (t > 0 && carry_rows[t - 1] == row)) return;
  float sum = carry_values[t];
  for (int u = t + 1; u < tiles && carry_rows[u] == row; ++u)
    sum += carry_values[u];
  y[row] += sum;
}

// ---- 2. row split -------------------------------------------------------------------

// Rows by length, listed once at setup: longer than short_max (a warp
// each) and longer than huge_min (a block each).
struct row_lists {
  const int* huge;
  int n_huge;
  const int* longer;
  int n_long;
  int short_max;
};

template <cache XC, cache SC, int Step>
__device__ __forceinline__ float row_sum(const matrix_view& A, const float* x, int begin, int end,
                                         int lane) {
  float sum = 0;
#pragma unroll 4
  for (int k = begin + lane; k < end; k += Step)
    sum += load_float<SC>(A.values + k) * load_float<XC>(x + load_int<SC>(A.cols + k));
  return sum;
}

// Blocks [0, n_huge): a block per huge row; then a warp per long row; then
// a group of G lanes per row, every row in order (long rows skipped).
template <int G, cache XC, cache SC>
__global__ void __launch_bounds__(block_threads)
    row_split(matrix_view A, const float* __restrict__ x, float* __restrict__ y, row_lists lists) {
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
  const int long_blocks = (lists.n_long + block_threads / 32 - 1) / (block_threads / 32);
  if (static_cast<int>(blockIdx.x) < lists.n_huge) {
    __shared__ float partial[block_threads / 32];
    const int row = lists.huge[blockIdx.x];
    float sum =
        row_sum<XC, SC, block_threads>(A, x, A.offsets[row], A.offsets[row + 1], threadIdx.x);
    for (int m = 16; m > 0; m /= 2)
      sum += __shfl_xor_sync(0xffffffffu, sum, m);
    if (lane == 0) partial[warp] = sum;
    __syncthreads();
    if (threadIdx.x == 0) {
      float total = 0;
      for (int w = 0; w < block_threads / 32; ++w)
        total += partial[w];
      y[row] = total;
    }
    return;
  }
  const int b = static_cast<int>(blockIdx.x) - lists.n_huge;
  if (b < long_blocks) {
    const int i = b * (block_threads / 32) + warp;
    if (i >= lists.n_long) return;
    const int row = lists.longer[i];
    float sum = row_sum<XC, SC, 32>(A, x, A.offsets[row], A.offsets[row + 1], lane);
    for (int m = 16; m > 0; m /= 2)
      sum += __shfl_xor_sync(0xffffffffu, sum, m);
    if (lane == 0) y[row] = sum;
    return;
  }
  const int row = ((b - long_blocks) * block_threads + static_cast<int>(threadIdx.x)) / G;
  if (row >= A.rows) return;  // whole groups: G divides 32
  const int begin = load_int<SC>(A.offsets + row), end = load_int<SC>(A.offsets + row + 1);
  if (end - begin > lists.short_max) return;
  const int g = lane % G;
  float sum = row_sum<XC, SC, G>(A, x, begin, end, g);
  const unsigned group_mask = (G == 32 ? 0xffffffffu : ((1u << G) - 1) << (lane - g));
  for (int m = G / 2; m > 0; m /= 2)
    sum += __shfl_xor_sync(group_mask, sum, m);
  if (g == 0) y[row] = sum;
}

// Blocks of row_split<G> for `rows` rows and the lists.
template <int G>
inline unsigned row_split_blocks(int rows, int n_huge, int n_long) {
  const long long long_blocks = (n_long + block_threads / 32 - 1) / (block_threads / 32);
  const long long short_blocks =
      (static_cast<long long>(rows) * G + block_threads - 1) / block_threads;
  return static_cast<unsigned>(n_huge + long_blocks + short_blocks);
}

}  // namespace spmv_probe
