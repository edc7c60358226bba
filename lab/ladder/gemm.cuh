// The matrix multiply ladder: C = A B for row-major A (m x k), B (k x n),
// C (m x n), packed, any shape (edges are guarded: loads outside the matrix
// give zeros, stores outside are skipped). Oldest first; launchers and the
// table in lab/ladder/gemm_ladder.cu.
//
// Shape of the algorithm, from the top fp32 rung down:
//  1. A block owns a BM x BN tile of C and walks k in steps of BK, staging
//     a BM x BK tile of A and a BK x BN tile of B in shared memory.
//  2. Each thread owns a micro-tile of C in registers; per step of k it
//     loads a column of A's tile and a row of B's tile into registers and
//     adds their outer product (register blocking: each shared load feeds
//     several multiply-adds).
//  3. A's tile is stored transposed (k-major), so the column a thread needs
//     is contiguous and comes in 16-byte loads; global loads are 16 bytes
//     wide where the addresses allow.
//  4. Warp tiling: the block's tile is split among warps, each warp's among
//     its lanes, so a warp's shared loads hit few distinct addresses.
// The tensor-core rung does steps 1 and 3 on bfloat16 and hands 16 x 16 x 16
// products to WMMA (mma.sync underneath).
#pragma once

#include <cuda_bf16.h>
#include <mma.h>

#include <cstddef>
#include <cstdint>

namespace gpuprim::ladder {

struct gemm_dims {
  int m, n, k;
  bool vector_a;  // A's rows may be read with 16-byte loads (aligned, k % 4 == 0)
  bool vector_b;  // likewise B's rows (n % 4 == 0)
};

// Element (r, c) of a row-major rows x cols matrix, 0 outside.
__device__ __forceinline__ float load_or_zero(const float* __restrict__ x, int rows, int cols,
                                              int r, int c) {
  return r < rows && c < cols ? x[std::size_t(r) * cols + c] : 0.0f;
}

// Four consecutive elements (r, c..c+3): one 16-byte load when allowed and
// inside, else element by element.
__device__ __forceinline__ float4 load4(const float* __restrict__ x, int rows, int cols, int r,
                                        int c, bool vector) {
  if (vector && r < rows && c + 3 < cols) {
    return *reinterpret_cast<const float4*>(x + std::size_t(r) * cols + c);
  }
  return make_float4(load_or_zero(x, rows, cols, r, c), load_or_zero(x, rows, cols, r, c + 1),
                     load_or_zero(x, rows, cols, r, c + 2), load_or_zero(x, rows, cols, r, c + 3));
}

// 1. Naive: one thread per element of C; every operand comes from global memory (L1/L2).
__global__ void gemm_naive(const float* __restrict__ a, const float* __restrict__ b,
                           float* __restrict__ c, gemm_dims d) {
  const int col = blockIdx.x * blockDim.x + threadIdx.x;
  const int row = blockIdx.y * blockDim.y + threadIdx.y;
  if (row >= d.m || col >= d.n) return;
  float sum = 0.0f;
  for (int p = 0; p < d.k; ++p)
    sum += a[std::size_t(row) * d.k + p] * b[std::size_t(p) * d.n + col];
  c[std::size_t(row) * d.n + col] = sum;
}

// 2. Shared tiles: a 32 x 32 tile of A and of B per step, each global element read once per block.
inline constexpr int gemm_shared_tile = 32;
__global__ void __launch_bounds__(gemm_shared_tile* gemm_shared_tile)
    gemm_shared_tiles(const float* __restrict__ a, const float* __restrict__ b,
                      float* __restrict__ c, gemm_dims d) {
  constexpr int T = gemm_shared_tile;
  __shared__ float as[T][T];
  __shared__ float bs[T][T + 1];
  const int tx = threadIdx.x % T, ty = threadIdx.x / T;
  const int row = blockIdx.y * T + ty, col = blockIdx.x * T + tx;
  float sum = 0.0f;
  for (int k0 = 0; k0 < d.k; k0 += T) {
    as[ty][tx] = load_or_zero(a, d.m, d.k, row, k0 + tx);
    bs[ty][tx] = load_or_zero(b, d.k, d.n, k0 + ty, col);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < T; ++p)
      sum += as[ty][p] * bs[p][tx];
    __syncthreads();
  }
  if (row < d.m && col < d.n) c[std::size_t(row) * d.n + col] = sum;
}

// 3. 1-D register blocking: each thread 8 elements of a column of C; one B value feeds 8 FMAs.
inline constexpr int gemm_1d_bm = 64, gemm_1d_bn = 64, gemm_1d_bk = 8, gemm_1d_tm = 8;
inline constexpr int gemm_1d_threads = gemm_1d_bm * gemm_1d_bn / gemm_1d_tm;  // 512
__global__ void __launch_bounds__(gemm_1d_threads)
    gemm_register_1d(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c, gemm_dims d) {
  constexpr int BM = gemm_1d_bm, BN = gemm_1d_bn, BK = gemm_1d_bk, TM = gemm_1d_tm;
  __shared__ float as[BM * BK];
  __shared__ float bs[BK * BN];
  const int tid = threadIdx.x;
  const int tcol = tid % BN, trow = tid / BN;
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM] = {};
  for (int k0 = 0; k0 < d.k; k0 += BK) {
    as[tid] = load_or_zero(a, d.m, d.k, row0 + tid / BK, k0 + tid % BK);
    bs[tid] = load_or_zero(b, d.k, d.n, k0 + tid / BN, col0 + tid % BN);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      const float bv = bs[p * BN + tcol];
#pragma unroll
      for (int i = 0; i < TM; ++i)
        acc[i] += as[(trow * TM + i) * BK + p] * bv;
    }
    __syncthreads();
  }
  const int col = col0 + tcol;
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + trow * TM + i;
    if (row < d.m && col < d.n) c[std::size_t(row) * d.n + col] = acc[i];
  }
}

// 4. 2-D register blocking: each thread an 8 x 8 micro-tile; 16 shared loads feed 64 FMAs.
inline constexpr int gemm_2d_bm = 128, gemm_2d_bn = 128, gemm_2d_bk = 8, gemm_2d_tm = 8,
                     gemm_2d_tn = 8;
inline constexpr int gemm_2d_threads = gemm_2d_bm * gemm_2d_bn / (gemm_2d_tm * gemm_2d_tn);  // 256
__global__ void __launch_bounds__(gemm_2d_threads)
    gemm_register_2d(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c, gemm_dims d) {
  constexpr int BM = gemm_2d_bm, BN = gemm_2d_bn, BK = gemm_2d_bk, TM = gemm_2d_tm, TN = gemm_2d_tn,
                NT = gemm_2d_threads;
  __shared__ float as[BM * BK];
  __shared__ float bs[BK * BN];
  const int tid = threadIdx.x;
  const int tcol = tid % (BN / TN), trow = tid / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  float acc[TM][TN] = {};
  float rm[TM], rn[TN];
  for (int k0 = 0; k0 < d.k; k0 += BK) {
#pragma unroll
    for (int i = tid; i < BM * BK; i += NT)
      as[i] = load_or_zero(a, d.m, d.k, row0 + i / BK, k0 + i % BK);
#pragma unroll
    for (int i = tid; i < BK * BN; i += NT)
      bs[i] = load_or_zero(b, d.k, d.n, k0 + i / BN, col0 + i % BN);
    __syncthreads();
#pragma unroll
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int i = 0; i < TM; ++i)
        rm[i] = as[(trow * TM + i) * BK + p];
#pragma unroll
      for (int j = 0; j < TN; ++j)
        rn[j] = bs[p * BN + tcol * TN + j];
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += rm[i] * rn[j];
    }
    __syncthreads();
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + trow * TM + i;
#pragma unroll
    for (int j = 0; j < TN; ++j) {
      const int col = col0 + tcol * TN + j;
      if (row < d.m && col < d.n) c[std::size_t(row) * d.n + col] = acc[i][j];
    }
  }
}

// Stores a thread's row of 4 results at (row, col..col+3): one 16-byte store when allowed.
__device__ __forceinline__ void store4(float* __restrict__ c, const gemm_dims& d, int row, int col,
                                       float4 v) {
  if (row >= d.m) return;
  float* p = c + std::size_t(row) * d.n + col;
  if (d.vector_b && col + 3 < d.n) {
    *reinterpret_cast<float4*>(p) = v;
  } else {
    if (col < d.n) p[0] = v.x;
    if (col + 1 < d.n) p[1] = v.y;
    if (col + 2 < d.n) p[2] = v.z;
    if (col + 3 < d.n) p[3] = v.w;
  }
}

// 5. Vector loads, A's tile transposed, double buffering: the next tile's loads are in flight
// during this tile's math.
__global__ void __launch_bounds__(gemm_2d_threads)
    gemm_vector_double_buffer(const float* __restrict__ a, const float* __restrict__ b,
                              float* __restrict__ c, gemm_dims d) {
  constexpr int BM = gemm_2d_bm, BN = gemm_2d_bn, BK = gemm_2d_bk, TM = gemm_2d_tm, TN = gemm_2d_tn;
  __shared__ __align__(16) float as[2][BK][BM];  // transposed: as[p][row]
  __shared__ __align__(16) float bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int tcol = tid % (BN / TN), trow = tid / (BN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;
  // Each thread loads one float4 of A (row tid / 2, k 4 * (tid % 2)) and one
  // of B (k tid / 32, columns 4 * (tid % 32)) per tile.
  const int a_row = tid / 2, a_col = (tid % 2) * 4;
  const int b_row = tid / 32, b_col = (tid % 32) * 4;
  float4 next_a = load4(a, d.m, d.k, row0 + a_row, a_col, d.vector_a);
  float4 next_b = load4(b, d.k, d.n, b_row, col0 + b_col, d.vector_b);
  float acc[TM][TN] = {};
  int stage = 0;
  as[0][a_col + 0][a_row] = next_a.x;
  as[0][a_col + 1][a_row] = next_a.y;
  as[0][a_col + 2][a_row] = next_a.z;
  as[0][a_col + 3][a_row] = next_a.w;
  *reinterpret_cast<float4*>(&bs[0][b_row][b_col]) = next_b;
  __syncthreads();
  for (int k0 = 0; k0 < d.k; k0 += BK) {
    const bool more = k0 + BK < d.k;
    if (more) {
      next_a = load4(a, d.m, d.k, row0 + a_row, k0 + BK + a_col, d.vector_a);
      next_b = load4(b, d.k, d.n, k0 + BK + b_row, col0 + b_col, d.vector_b);
    }
#pragma unroll
    for (int p = 0; p < BK; ++p) {
      const float4 m0 = *reinterpret_cast<const float4*>(&as[stage][p][trow * TM]);
      const float4 m1 = *reinterpret_cast<const float4*>(&as[stage][p][trow * TM + 4]);
      const float4 n0 = *reinterpret_cast<const float4*>(&bs[stage][p][tcol * TN]);
      const float4 n1 = *reinterpret_cast<const float4*>(&bs[stage][p][tcol * TN + 4]);
      const float rm[TM] = {m0.x, m0.y, m0.z, m0.w, m1.x, m1.y, m1.z, m1.w};
      const float rn[TN] = {n0.x, n0.y, n0.z, n0.w, n1.x, n1.y, n1.z, n1.w};
#pragma unroll
      for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
          acc[i][j] += rm[i] * rn[j];
    }
    if (more) {
      // The other stage was last read before the previous barrier.
      stage ^= 1;
      as[stage][a_col + 0][a_row] = next_a.x;
      as[stage][a_col + 1][a_row] = next_a.y;
      as[stage][a_col + 2][a_row] = next_a.z;
      as[stage][a_col + 3][a_row] = next_a.w;
      *reinterpret_cast<float4*>(&bs[stage][b_row][b_col]) = next_b;
      __syncthreads();
    }
  }
#pragma unroll
  for (int i = 0; i < TM; ++i) {
    const int row = row0 + trow * TM + i;
    const int col = col0 + tcol * TN;
    store4(c, d, row, col, make_float4(acc[i][0], acc[i][1], acc[i][2], acc[i][3]));
    store4(c, d, row, col + 4, make_float4(acc[i][4], acc[i][5], acc[i][6], acc[i][7]));
  }
}

// The main loop of rungs 6 and 7, double buffered in shared memory: the
// first k-slice is fetched (into registers) and stashed (into stage 0);
// then each slice's math, compute(stage), runs while the next slice's
// loads (fetch(k0)) are in flight, and the next slice is stashed into the
// other stage (last read before the previous barrier).
template <int BK, class Fetch, class Stash, class Compute>
__device__ __forceinline__ void double_buffered_k_loop(int k, Fetch& fetch, Stash& stash,
                                                       Compute&& compute) {
  int stage = 0;
  fetch(0);
  stash(0);
  __syncthreads();
  for (int k0 = 0; k0 < k; k0 += BK) {
    const bool more = k0 + BK < k;
    if (more) fetch(k0 + BK);
    compute(stage);
    if (more) {
      stage ^= 1;
      stash(stage);
      __syncthreads();
    }
  }
}

// 6. Warp tiling: 128 x 128 x 16 block tile, 4 warps of 64 x 64, each lane 4 sub-tiles of 8 x 4; a
// warp's shared loads touch few addresses (broadcasts), and two stages of shared tiles.
inline constexpr int gemm_wt_bm = 128, gemm_wt_bn = 128, gemm_wt_bk = 16;
inline constexpr int gemm_wt_wm = 64, gemm_wt_wn = 64, gemm_wt_wniter = 4, gemm_wt_tm = 8,
                     gemm_wt_tn = 4;
inline constexpr int gemm_wt_threads = 128;
__global__ void __launch_bounds__(gemm_wt_threads)
    gemm_warp_tiling(const float* __restrict__ a, const float* __restrict__ b,
                     float* __restrict__ c, gemm_dims d) {
  constexpr int BM = gemm_wt_bm, BN = gemm_wt_bn, BK = gemm_wt_bk;
  constexpr int WM = gemm_wt_wm, WN = gemm_wt_wn, WNITER = gemm_wt_wniter;
  constexpr int TM = gemm_wt_tm, TN = gemm_wt_tn, NT = gemm_wt_threads;
  constexpr int WMITER = (WM * WN) / (32 * TM * TN * WNITER);  // 1
  constexpr int WSUBM = WM / WMITER, WSUBN = WN / WNITER;      // 64, 16
  __shared__ __align__(16) float as[2][BK][BM];
  __shared__ __align__(16) float bs[2][BK][BN];
  const int tid = threadIdx.x;
  const int warp = tid / 32, lane = tid % 32;
  const int warp_col = warp % (BN / WN), warp_row = warp / (BN / WN);
  const int lane_col = lane % (WSUBN / TN), lane_row = lane / (WSUBN / TN);
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  // Loads: A's tile is BM x BK = 512 float4 (4 per thread), B's BK x BN the same.
  constexpr int A_ROWS_PER_PASS = NT * 4 / BK;  // 32
  constexpr int B_ROWS_PER_PASS = NT * 4 / BN;  // 4
  const int a_row = tid / (BK / 4), a_col = (tid % (BK / 4)) * 4;
  const int b_row = tid / (BN / 4), b_col = (tid % (BN / 4)) * 4;
  float4 ra[BM / A_ROWS_PER_PASS], rb[BK / B_ROWS_PER_PASS];
  const auto fetch = [&](int k0) {
#pragma unroll
    for (int i = 0; i < BM / A_ROWS_PER_PASS; ++i)
      ra[i] = load4(a, d.m, d.k, row0 + a_row + i * A_ROWS_PER_PASS, k0 + a_col, d.vector_a);
#pragma unroll
    for (int i = 0; i < BK / B_ROWS_PER_PASS; ++i)
      rb[i] = load4(b, d.k, d.n, k0 + b_row + i * B_ROWS_PER_PASS, col0 + b_col, d.vector_b);
  };
  const auto stash = [&](int s) {
#pragma unroll
    for (int i = 0; i < BM / A_ROWS_PER_PASS; ++i) {
      const int r = a_row + i * A_ROWS_PER_PASS;
      as[s][a_col + 0][r] = ra[i].x;
      as[s][a_col + 1][r] = ra[i].y;
      as[s][a_col + 2][r] = ra[i].z;
      as[s][a_col + 3][r] = ra[i].w;
    }
#pragma unroll
    for (int i = 0; i < BK / B_ROWS_PER_PASS; ++i)
      *reinterpret_cast<float4*>(&bs[s][b_row + i * B_ROWS_PER_PASS][b_col]) = rb[i];
  };

  float acc[WMITER * TM][WNITER * TN] = {};
  float rm[WMITER * TM], rn[WNITER * TN];
  double_buffered_k_loop<BK>(d.k, fetch, stash, [&](int stage) {
#pragma unroll
    for (int p = 0; p < BK; ++p) {
#pragma unroll
      for (int wm = 0; wm < WMITER; ++wm) {
        const float* src = &as[stage][p][warp_row * WM + wm * WSUBM + lane_row * TM];
        const float4 m0 = *reinterpret_cast<const float4*>(src);
        const float4 m1 = *reinterpret_cast<const float4*>(src + 4);
        rm[wm * TM + 0] = m0.x;
        rm[wm * TM + 1] = m0.y;
        rm[wm * TM + 2] = m0.z;
        rm[wm * TM + 3] = m0.w;
        rm[wm * TM + 4] = m1.x;
        rm[wm * TM + 5] = m1.y;
        rm[wm * TM + 6] = m1.z;
        rm[wm * TM + 7] = m1.w;
      }
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn) {
        const float4 n0 = *reinterpret_cast<const float4*>(
            &bs[stage][p][warp_col * WN + wn * WSUBN + lane_col * TN]);
        rn[wn * TN + 0] = n0.x;
        rn[wn * TN + 1] = n0.y;
        rn[wn * TN + 2] = n0.z;
        rn[wn * TN + 3] = n0.w;
      }
#pragma unroll
      for (int i = 0; i < WMITER * TM; ++i)
#pragma unroll
        for (int j = 0; j < WNITER * TN; ++j)
          acc[i][j] += rm[i] * rn[j];
    }
  });
#pragma unroll
  for (int wm = 0; wm < WMITER; ++wm)
#pragma unroll
    for (int i = 0; i < TM; ++i) {
      const int row = row0 + warp_row * WM + wm * WSUBM + lane_row * TM + i;
#pragma unroll
      for (int wn = 0; wn < WNITER; ++wn) {
        const int col = col0 + warp_col * WN + wn * WSUBN + lane_col * TN;
        const float* r = acc[wm * TM + i] + wn * TN;
        store4(c, d, row, col, make_float4(r[0], r[1], r[2], r[3]));
      }
    }
}

// ---- tensor cores ------------------------------------------------------------

// 7. bfloat16 on tensor cores (WMMA 16 x 16 x 16, fp32 accumulators): 128 x 128 x 32 block tile, 8
// warps of 64 x 32, two shared stages.
inline constexpr int gemm_tc_bm = 128, gemm_tc_bn = 128, gemm_tc_bk = 32;
inline constexpr int gemm_tc_threads = 256;
inline constexpr int gemm_tc_pad =
    8;  // bf16 elements: rows shift by 16 bytes, fewer bank conflicts

// Eight consecutive bf16 elements (r, c..c+7) as 16 bytes, zeros outside.
__device__ __forceinline__ uint4 load8_bf16(const __nv_bfloat16* __restrict__ x, int rows, int cols,
                                            int r, int c, bool vector) {
  if (vector && r < rows && c + 7 < cols) {
    return *reinterpret_cast<const uint4*>(x + std::size_t(r) * cols + c);
  }
  __align__(16) __nv_bfloat16 v[8];
#pragma unroll
  for (int i = 0; i < 8; ++i)
    v[i] = r < rows && c + i < cols ? x[std::size_t(r) * cols + c + i] : __float2bfloat16(0.0f);
  return *reinterpret_cast<const uint4*>(v);
}

__global__ void __launch_bounds__(gemm_tc_threads)
    gemm_bf16_wmma(const __nv_bfloat16* __restrict__ a, const __nv_bfloat16* __restrict__ b,
                   float* __restrict__ c, gemm_dims d) {
  namespace wmma = nvcuda::wmma;
  constexpr int BM = gemm_tc_bm, BN = gemm_tc_bn, BK = gemm_tc_bk, PAD = gemm_tc_pad;
  constexpr int AP = BK + PAD, BP = BN + PAD;  // row pitches in elements
  constexpr int STAGE = BM * AP + BK * BP;     // elements per stage
  extern __shared__ __align__(128) unsigned char gemm_tc_shared[];
  auto* smem = reinterpret_cast<__nv_bfloat16*>(gemm_tc_shared);
  const int tid = threadIdx.x, warp = tid / 32;
  const int warp_row = warp / 4, warp_col = warp % 4;  // 2 x 4 warps of 64 x 32
  const int row0 = blockIdx.y * BM, col0 = blockIdx.x * BN;

  // A tile 128 x 32 = 512 vectors of 8, B tile 32 x 128 = 512: two each per thread.
  uint4 ra[2], rb[2];
  const auto fetch = [&](int k0) {
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int v = tid + i * gemm_tc_threads;
      ra[i] = load8_bf16(a, d.m, d.k, row0 + v / (BK / 8), k0 + v % (BK / 8) * 8, d.vector_a);
      rb[i] = load8_bf16(b, d.k, d.n, k0 + v / (BN / 8), col0 + v % (BN / 8) * 8, d.vector_b);
    }
  };
  const auto stash = [&](int s) {
    __nv_bfloat16* as = smem + s * STAGE;
    __nv_bfloat16* bs = as + BM * AP;
#pragma unroll
    for (int i = 0; i < 2; ++i) {
      const int v = tid + i * gemm_tc_threads;
      *reinterpret_cast<uint4*>(as + v / (BK / 8) * AP + v % (BK / 8) * 8) = ra[i];
      *reinterpret_cast<uint4*>(bs + v / (BN / 8) * BP + v % (BN / 8) * 8) = rb[i];
    }
  };

  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc[4][2];
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j)
      wmma::fill_fragment(acc[i][j], 0.0f);
  double_buffered_k_loop<BK>(d.k, fetch, stash, [&](int stage) {
    const __nv_bfloat16* as = smem + stage * STAGE;
    const __nv_bfloat16* bs = as + BM * AP;
#pragma unroll
    for (int p = 0; p < BK; p += 16) {
      wmma::fragment<wmma::matrix_a, 16, 16, 16, __nv_bfloat16, wmma::row_major> fa[4];
      wmma::fragment<wmma::matrix_b, 16, 16, 16, __nv_bfloat16, wmma::row_major> fb[2];
#pragma unroll
      for (int i = 0; i < 4; ++i)
        wmma::load_matrix_sync(fa[i], as + (warp_row * 64 + i * 16) * AP + p, AP);
#pragma unroll
      for (int j = 0; j < 2; ++j)
        wmma::load_matrix_sync(fb[j], bs + p * BP + warp_col * 32 + j * 16, BP);
#pragma unroll
      for (int i = 0; i < 4; ++i)
#pragma unroll
        for (int j = 0; j < 2; ++j)
          wmma::mma_sync(acc[i][j], fa[i], fb[j], acc[i][j]);
    }
  });
  // Results through shared memory (each warp its own 16 x 16 staging square)
  // so edges are guarded and rows leave as whole lines.
  __syncthreads();
  float* staging = reinterpret_cast<float*>(gemm_tc_shared) + warp * 16 * 16;
  const int lane = tid % 32;
#pragma unroll
  for (int i = 0; i < 4; ++i)
#pragma unroll
    for (int j = 0; j < 2; ++j) {
      wmma::store_matrix_sync(staging, acc[i][j], 16, wmma::mem_row_major);
      __syncwarp();
      const int r_base = row0 + warp_row * 64 + i * 16;
      const int c_base = col0 + warp_col * 32 + j * 16;
#pragma unroll
      for (int e = lane; e < 256; e += 32) {
        const int r = r_base + e / 16, col = c_base + e % 16;
        if (r < d.m && col < d.n) c[std::size_t(r) * d.n + col] = staging[e];
      }
      __syncwarp();
    }
}

}  // namespace gpuprim::ladder
