// The pipelined tensor-core rung of the matrix multiply ladder:
// C = alpha A B + beta C for row-major bfloat16 A (m x k) and B (k x n),
// float accumulation and C (m x n), any shape. sm_80 and newer (cp.async,
// ldmatrix, mma.sync); the launcher is lab/ladder/gemm_bf16_mma.cu.
//
// Shape of the algorithm:
//  1. Blocks take C's tiles (BM x BN) in groups of `group_m` tile rows, so
//     the blocks resident together share panels of A and B in L2.
//  2. A ring of Stages shared-memory stages, each a BM x BK tile of A and a
//     BK x BN tile of B, unpadded and XOR-swizzled (gemm_swizzle.hpp). The
//     stages are filled with cp.async (16 bytes, straight from global memory
//     to shared, no registers): Stages - 1 tiles of k are in flight while one
//     is multiplied. Chunks outside the matrix are zero-filled (src-size 0).
//     When rows are not 16-byte aligned (k or n not a multiple of 8, or an
//     unaligned base) the same ring is filled by guarded element loads.
//  3. One barrier per step of k: wait for the next step's group,
//     __syncthreads (every warp is done with the slot of the step before,
//     which the next step refills with the tile Stages - 1 ahead). Register
//     fragments are double-buffered: the next 16 of k are loaded from shared
//     memory while this 16's products run, across the barrier too.
//  4. Each warp owns a WM x WN tile of C in registers. Per 16 of k it loads
//     its A fragments with ldmatrix.x4 (16 x 16 each) and its B fragments
//     with ldmatrix.x4.trans (B is k-major: .trans hands each lane the
//     column pairs mma wants) and issues (WM / 16) (WN / 8) mma.sync
//     m16n8k16 (bf16 in, f32 accumulate).
//  5. Epilogue from the registers: each lane owns pairs of neighbouring
//     columns, stored as float2 where C allows; beta == 0 never reads C.
#pragma once

#include <cuda_bf16.h>

#include <cstddef>
#include <cstdint>

#include "lab/ladder/gemm_swizzle.hpp"

namespace gpuprim::ladder {

struct gemm_mma_params {
  const __nv_bfloat16* a;
  const __nv_bfloat16* b;
  float* c;
  int m, n, k;
  std::size_t lda, ldb, ldc;  // leading dimensions (elements)
  float alpha, beta;
  bool pair_stores;  // C's rows take 8-byte stores at even columns
};

// Block tile BM x BN, depth BK per stage; warp tiles WM x WN; GroupM tile
// rows per group of the block order (step 1).
template <int BM, int BN, int BK, int WM, int WN, int Stages, int MinBlocks, int GroupM = 16>
struct gemm_mma_shape {
  static constexpr int bm = BM, bn = BN, bk = BK, wm = WM, wn = WN, stages = Stages;
  static constexpr int min_blocks = MinBlocks;
  static constexpr int warps_m = BM / WM, warps_n = BN / WN;
  static constexpr int threads = warps_m * warps_n * 32;
  static constexpr int a_chunks_per_row = BK / 8, b_chunks_per_row = BN / 8;  // 16-byte chunks
  static constexpr int a_stage_bytes = BM * BK * 2, b_stage_bytes = BK * BN * 2;
  static constexpr int stage_bytes = a_stage_bytes + b_stage_bytes;
  static constexpr int shared_bytes = Stages * stage_bytes;
  static constexpr int a_chunks_per_thread = BM * BK / 8 / threads;
  static constexpr int b_chunks_per_thread = BK * BN / 8 / threads;
  static constexpr int group_m = GroupM;
  static_assert(BM % WM == 0 && BN % WN == 0 && WM % 16 == 0 && WN % 16 == 0 && BK % 16 == 0);
  static_assert(a_chunks_per_thread * threads == BM * BK / 8 &&
                b_chunks_per_thread * threads == BK * BN / 8);
  static_assert(Stages >= 2);
};

namespace mma_ops {

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

// 16 bytes global -> shared, bypassing L1; zeros when !inside (nothing read).
// The L2 fetches the whole 128-byte line: the rest of a 64-byte row of A's
// tile is the next step's.
__device__ __forceinline__ void cp_async_16(unsigned dst, const void* src, bool inside) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.cg.shared.global.L2::128B [%0], [%1], 16, %2;\n" ::"r"(dst), "l"(src),
               "r"(inside ? 16 : 0)
               : "memory");
#endif
}

__device__ __forceinline__ void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Until at most Pending of this thread's groups are still in flight.
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(Pending) : "memory");
#endif
}

// Four 8 x 8 b16 matrices from shared memory into r (ldmatrix .x4); with
// Transposed, each matrix transposed on the way (.trans).
template <bool Transposed = false>
__device__ __forceinline__ void ldmatrix_x4(unsigned (&r)[4], unsigned address) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  if constexpr (Transposed) {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
  } else {
    asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];\n"
                 : "=r"(r[0]), "=r"(r[1]), "=r"(r[2]), "=r"(r[3])
                 : "r"(address));
  }
#endif
}

// d += a b for a 16 x 16 bf16 fragment of A, 16 x 8 of B, 16 x 8 floats of C.
__device__ __forceinline__ void mma_bf16_16816(float (&d)[4], const unsigned (&a)[4], unsigned b0,
                                               unsigned b1) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0, %1, %2, %3}, {%4, %5, %6, %7}, "
      "{%8, %9}, {%0, %1, %2, %3};\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3])
      : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b0), "r"(b1));
#endif
}

// Eight elements (r, c..c+7) of a row-major matrix, zeros outside; written
// to shared memory as one 16-byte chunk (the unaligned path of step 2).
__device__ __forceinline__ void copy_chunk_guarded(unsigned dst, const __nv_bfloat16* x,
                                                   std::size_t ld, int rows, int cols, int r,
                                                   int c) {
  unsigned short v[8];
#pragma unroll
  for (int i = 0; i < 8; ++i) {
    v[i] = r < rows && c + i < cols
               ? __bfloat16_as_ushort(x[std::size_t(r) * ld + std::size_t(c + i)])
               : static_cast<unsigned short>(0);
  }
  const unsigned w0 = v[0] | unsigned(v[1]) << 16, w1 = v[2] | unsigned(v[3]) << 16,
                 w2 = v[4] | unsigned(v[5]) << 16, w3 = v[6] | unsigned(v[7]) << 16;
  asm volatile("st.shared.v4.u32 [%0], {%1, %2, %3, %4};\n" ::"r"(dst), "r"(w0), "r"(w1), "r"(w2),
               "r"(w3)
               : "memory");
}

// alpha x + beta C(r, c) for the columns c, c + 1 that are inside.
__device__ __forceinline__ void store_pair(const gemm_mma_params& p, int r, int c, float x,
                                           float y) {
  if (r >= p.m || c >= p.n) return;
  float* out = p.c + std::size_t(r) * p.ldc + c;
  if (p.pair_stores && c + 1 < p.n) {
    float2 v = make_float2(p.alpha * x, p.alpha * y);
    if (p.beta != 0.0f) {
      const float2 old = *reinterpret_cast<const float2*>(out);
      v.x += p.beta * old.x;
      v.y += p.beta * old.y;
    }
    *reinterpret_cast<float2*>(out) = v;
    return;
  }
  out[0] = p.alpha * x + (p.beta != 0.0f ? p.beta * out[0] : 0.0f);
  if (c + 1 < p.n) out[1] = p.alpha * y + (p.beta != 0.0f ? p.beta * out[1] : 0.0f);
}

}  // namespace mma_ops

// Async: A and B rows are 16-byte aligned (k, n, lda, ldb multiples of 8,
// aligned bases), so stages are filled with cp.async.
template <class S, bool Async>
__global__ void __launch_bounds__(S::threads, S::min_blocks)
    gemm_bf16_mma_pipelined_kernel(gemm_mma_params p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  using namespace mma_ops;
  constexpr int BM = S::bm, BN = S::bn, BK = S::bk, WM = S::wm, WN = S::wn;
  constexpr int ACR = S::a_chunks_per_row, BCR = S::b_chunks_per_row;
  constexpr int MT = WM / 16, NT = WN / 8;  // mma tiles of a warp
  extern __shared__ __align__(128) unsigned char gemm_mma_shared[];

  // 1. This block's tile of C, grouped order.
  const int tiles_m = (p.m + BM - 1) / BM, tiles_n = (p.n + BN - 1) / BN;
  const int per_group = S::group_m * tiles_n;
  const int id = static_cast<int>(blockIdx.x);
  const int first_m = id / per_group * S::group_m;
  const int rows_in_group = min(tiles_m - first_m, S::group_m);
  const int tile_m = first_m + id % per_group % rows_in_group;
  const int tile_n = id % per_group / rows_in_group;
  const int row0 = tile_m * BM, col0 = tile_n * BN;

  const int tid = static_cast<int>(threadIdx.x), lane = tid % 32, warp = tid / 32;
  const int warp_m = warp / S::warps_n, warp_n = warp % S::warps_n;
  const unsigned smem = shared_address(gemm_mma_shared);
  const int k_tiles = (p.k + BK - 1) / BK;

  // 2. Fill `slot` with the k-tile `kt`: chunk v of A's tile is row v / ACR,
  // chunk v % ACR (consecutive threads along a row: coalesced reads); a
  // thread's chunks are `pass` rows apart, a multiple of 8, so they share
  // the swizzle and sit at constant offsets from the first. On the cp.async
  // path a thread keeps one source pointer per matrix (stepped by `pass`
  // rows) and a bit per A row inside; the element path goes one chunk at a
  // time. Both keep the accumulators' registers free (no spills).
  constexpr int a_pass = S::threads / ACR, b_pass = S::threads / BCR;
  static_assert(a_pass % 8 == 0 && b_pass % 8 == 0 && S::threads % ACR == 0 &&
                S::threads % BCR == 0);
  const int a_r = tid / ACR, a_ch = tid % ACR, b_r = tid / BCR, b_ch = tid % BCR;
  const unsigned a_dst = swizzled_chunk<ACR>(a_r, a_ch) * 16;
  const unsigned b_dst = S::a_stage_bytes + swizzled_chunk<BCR>(b_r, b_ch) * 16;
  const __nv_bfloat16* a_src = p.a + std::size_t(min(row0 + a_r, p.m - 1)) * p.lda + a_ch * 8;
  const __nv_bfloat16* b_src = p.b + std::size_t(b_r) * p.ldb + col0 + b_ch * 8;
  const bool b_col_inside = col0 + b_ch * 8 < p.n;
  unsigned a_rows_inside = 0;
#pragma unroll
  for (int i = 0; i < S::a_chunks_per_thread; ++i)
    a_rows_inside |= unsigned(row0 + a_r + i * a_pass < p.m) << i;
  const auto load_stage = [&](int slot, int kt) {
    const int k0 = kt * BK;
    const unsigned stage = smem + slot * S::stage_bytes;
    if constexpr (Async) {
      const bool a_k_inside = k0 + a_ch * 8 < p.k;
      const __nv_bfloat16* src = a_src + k0;
#pragma unroll
      for (int i = 0; i < S::a_chunks_per_thread; ++i) {
        const bool inside = a_k_inside && (a_rows_inside >> i & 1u);
        cp_async_16(stage + a_dst + i * a_pass * BK * 2, inside ? src : p.a, inside);
        src += a_pass * p.lda;
      }
      src = b_src + std::size_t(k0) * p.ldb;
#pragma unroll
      for (int i = 0; i < S::b_chunks_per_thread; ++i) {
        const bool inside = b_col_inside && k0 + b_r + i * b_pass < p.k;
        cp_async_16(stage + b_dst + i * b_pass * BN * 2, inside ? src : p.b, inside);
        src += b_pass * p.ldb;
      }
    } else {
#pragma unroll 1
      for (int i = 0; i < S::a_chunks_per_thread; ++i) {
        copy_chunk_guarded(stage + a_dst + i * a_pass * BK * 2, p.a, p.lda, p.m, p.k,
                           row0 + a_r + i * a_pass, k0 + a_ch * 8);
      }
#pragma unroll 1
      for (int i = 0; i < S::b_chunks_per_thread; ++i) {
        copy_chunk_guarded(stage + b_dst + i * b_pass * BN * 2, p.b, p.ldb, p.k, p.n,
                           k0 + b_r + i * b_pass, col0 + b_ch * 8);
      }
    }
  };

  // 4. Fragments of 16 of k. Lane l addresses row l % 16 of A's 16 x 16
  // fragment, chunk l / 16 (matrices 0-3: rows 0-7 / 8-15 x k 0-7 / 8-15,
  // the order of mma's a0..a3); for B, k row l % 16 and columns
  // 8 (l / 16) .. +7 (matrices: k 0-7 / 8-15 x columns 0-7 / 8-15, i.e.
  // b0, b1 of two neighbouring n8 tiles).
  constexpr int KK = BK / 16;
  static_assert(KK % 2 == 0, "fragments alternate between two buffers: BK / 16 even");
  const auto load_fragments = [&](unsigned(&af)[MT][4], unsigned(&bf)[NT][2], int slot, int kk) {
    const unsigned a_stage = smem + slot * S::stage_bytes;
    const unsigned b_stage = a_stage + S::a_stage_bytes;
#pragma unroll
    for (int i = 0; i < MT; ++i) {
      const int r = warp_m * WM + i * 16 + lane % 16, ch = kk * 2 + lane / 16;
      ldmatrix_x4(af[i], a_stage + swizzled_chunk<ACR>(r, ch) * 16);
    }
#pragma unroll
    for (int j = 0; j < NT / 2; ++j) {
      const int r = kk * 16 + lane % 16, ch = (warp_n * WN + j * 16) / 8 + lane / 16;
      unsigned t[4];
      ldmatrix_x4<true>(t, b_stage + swizzled_chunk<BCR>(r, ch) * 16);
      bf[2 * j][0] = t[0];
      bf[2 * j][1] = t[1];
      bf[2 * j + 1][0] = t[2];
      bf[2 * j + 1][1] = t[3];
    }
  };
  float acc[MT][NT][4];
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j)
#pragma unroll
      for (int e = 0; e < 4; ++e)
        acc[i][j][e] = 0.0f;
  // Serpentine over j: the B fragment of the last product of a row of tiles
  // is the first of the next.
  const auto multiply = [&](const unsigned(&af)[MT][4], const unsigned(&bf)[NT][2]) {
#pragma unroll
    for (int i = 0; i < MT; ++i)
#pragma unroll
      for (int jj = 0; jj < NT; ++jj) {
        const int j = i % 2 ? NT - 1 - jj : jj;
        mma_bf16_16816(acc[i][j], af[i], bf[j][0], bf[j][1]);
      }
  };

  // 3. The ring: Stages - 1 tiles ahead, one group committed per step (empty
  // ones past the end keep the count of groups uniform). Fragments are
  // double-buffered in registers: those of the next 16 of k are loaded
  // before this 16's products are issued, and the step's one barrier comes
  // before its last products, so the tensor cores have work across it.
  // Slot (kt - 1) % Stages is refilled in step kt: every warp read it
  // before step kt - 1's barrier.
#pragma unroll
  for (int s = 0; s < S::stages - 1; ++s) {
    if (s < k_tiles) load_stage(s, s);
    cp_async_commit();
  }
  cp_async_wait<S::stages - 2>();
  __syncthreads();
  unsigned af[2][MT][4], bf[2][NT][2];
  load_fragments(af[0], bf[0], 0, 0);
  int slot = 0;                // read: tile kt
  int refill = S::stages - 1;  // written: tile kt + Stages - 1
  for (int kt = 0; kt < k_tiles; ++kt) {
#pragma unroll
    for (int kk = 0; kk < KK; ++kk) {
      if (kk == 0) {
        const int ahead = kt + S::stages - 1;
        if (ahead < k_tiles) load_stage(refill, ahead);
        cp_async_commit();
        refill = refill + 1 == S::stages ? 0 : refill + 1;
      }
      if (kk == KK - 1) {
        // Tile kt + 1 landed (its group and every thread's copies).
        cp_async_wait<S::stages - 2>();
        __syncthreads();
        slot = slot + 1 == S::stages ? 0 : slot + 1;
      }
      load_fragments(af[(kk + 1) % 2], bf[(kk + 1) % 2], slot, (kk + 1) % KK);
      multiply(af[kk % 2], bf[kk % 2]);
    }
  }

  // 5. Lane (g, t) = (l / 4, l % 4) holds rows g and g + 8, columns 2t, 2t + 1
  // of each 16 x 8 tile.
  const int g = lane / 4, t = lane % 4;
#pragma unroll
  for (int i = 0; i < MT; ++i)
#pragma unroll
    for (int j = 0; j < NT; ++j) {
      const int r = row0 + warp_m * WM + i * 16 + g, c = col0 + warp_n * WN + j * 8 + 2 * t;
      store_pair(p, r, c, acc[i][j][0], acc[i][j][1]);
      store_pair(p, r + 8, c, acc[i][j][2], acc[i][j][3]);
    }
#endif
}

}  // namespace gpuprim::ladder
