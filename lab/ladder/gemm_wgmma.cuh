// The warpgroup tensor-core rung of the matrix multiply ladder: C = A B for
// row-major bfloat16 A (m x k) and B (k x n), float accumulation and C
// (m x n), whole tiles only (gemm_wgmma.hpp). Hopper's arch-specific
// instructions (TMA, wgmma): the kernel body exists only where the file is
// compiled for sm_90a; elsewhere it is empty and the probe below says so.
// The launcher is lab/ladder/gemm_bf16_wgmma.cu.
//
// Bound attacked: mma.sync keeps the tensor cores below peak on Hopper (each
// warp feeds its own small products from registers filled by ldmatrix, and
// every warp does address arithmetic and barriers); wgmma reads both
// operands straight from shared memory in 64 x 256 x 16 products, and TMA
// takes the loads off the math warps entirely.
//
// Shape of the algorithm:
//  1. Blocks take C's 128 x 256 tiles in groups of `group_m` tile rows (as
//     the mma rung), so the blocks resident together share panels of A and B
//     in L2. One block per SM (192 KiB of stages), 3 warpgroups. In clusters
//     of 2, a cluster takes two neighbouring tile rows of one tile column.
//  2. Warpgroup 0 is the producer: one thread fills a ring of 4 stages, each
//     a 128 x 64 tile of A (one TMA box, 128-byte rows) and a 64 x 256 tile
//     of B (four TMA boxes of 64 x 64), all written by TMA with the 128-byte
//     swizzle. The stage's `full` mbarrier counts the bytes (expect_tx); the
//     thread first waits on the stage's `empty` mbarrier. In clusters of 2,
//     each block loads two of B's boxes, multicast into both blocks.
//  3. Warpgroups 1 and 2 are consumers of 64 rows each. Per stage: wait on
//     `full`, wgmma.fence, four wgmma m64n256k16 (A K-major, B N-major, both
//     through shared-memory descriptors), commit; then wait until at most
//     this stage's group is in flight, so the stage before is read, and
//     release that one: each consumer warp arrives on its block's `empty`
//     and, in a cluster, on the other block's (whose loads write this
//     block's stage too).
//  4. Epilogue: the 128 fp32 accumulators of each thread (rows r and r + 8,
//     column pairs) go straight to global memory as float2. A cluster's
//     blocks leave together (the other may still arrive on this one's
//     barriers until then).
#pragma once

#include <cuda.h>

#include <cstdint>

#include "lab/ladder/gemm_wgmma.hpp"

namespace gpuprim::ladder {

// Cluster: blocks per cluster along m (1 or 2). With 2, the two blocks of
// a cluster take neighbouring tile rows of the same tile column, and each
// loads half of the shared B tile into both blocks' shared memory (TMA
// multicast): half of B's reads from L2.
template <int Cluster>
struct gemm_wgmma_shape {
  static constexpr int bm = gemm_wgmma_tile_m, bn = gemm_wgmma_tile_n, bk = gemm_wgmma_tile_k;
  static constexpr int cluster = Cluster;
  static constexpr int stages = 4;
  static constexpr int consumers = 2;  // warpgroups, bm / consumers rows each
  static constexpr int threads = 128 * (consumers + 1);
  static constexpr int box_cols = 64;  // 128 bytes of bf16: the swizzle's span
  static constexpr int a_stage_bytes = bm * bk * 2;
  static constexpr int b_box_bytes = bk * box_cols * 2;
  static constexpr int b_stage_bytes = bk * bn * 2;
  static constexpr int stage_bytes = a_stage_bytes + b_stage_bytes;
  // The 128-byte swizzle repeats every 1024 bytes: stages start there, so
  // the ring is aligned by hand inside an allocation 1024 bytes larger.
  static constexpr int shared_bytes = stages * stage_bytes + 1024;
  static constexpr int group_m = 16;  // tile rows, a multiple of Cluster
  // Arrivals that free a stage: every consumer warp of every block whose
  // stage a block's loads write.
  static constexpr int releases = consumers * 4 * Cluster;
  static_assert(bm == 64 * consumers && bk == box_cols && bn % box_cols == 0);
  static_assert((Cluster == 1 || Cluster == 2) && group_m % Cluster == 0 &&
                (bn / box_cols) % Cluster == 0 && gemm_wgmma_tile_pair_m == 2 * bm);
  static_assert(a_stage_bytes % 1024 == 0 && b_box_bytes % 1024 == 0);
};

namespace wgmma_ops {

#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define GPUPRIM_WGMMA_AVAILABLE 1
#else
#define GPUPRIM_WGMMA_AVAILABLE 0
#endif

#if GPUPRIM_WGMMA_AVAILABLE

__device__ __forceinline__ unsigned shared_address(const void* p) {
  return static_cast<unsigned>(__cvta_generic_to_shared(p));
}

__device__ __forceinline__ void barrier_init(unsigned bar, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(bar), "r"(count) : "memory");
}

// The inits visible to the other threads and to the TMA unit (async proxy).
__device__ __forceinline__ void barrier_init_fence() {
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
}

__device__ __forceinline__ bool barrier_try_wait(unsigned bar, unsigned parity) {
  unsigned done;
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n"
      "selp.u32 %0, 1, 0, p;\n"
      "}\n"
      : "=r"(done)
      : "r"(bar), "r"(parity)
      : "memory");
  return done != 0;
}

// Spins until the phase of parity `parity` of the barrier has completed. A
// pipeline that can never complete (a wrong byte count or arrival) traps
// after 2^36 cycles (about 40 s, far beyond any legitimate wait) instead of
// hanging the process: the launch then fails with an illegal instruction.
__device__ __forceinline__ void barrier_wait(unsigned bar, unsigned parity) {
  if (barrier_try_wait(bar, parity)) return;
  const long long start = clock64();
  while (!barrier_try_wait(bar, parity)) {
    if (clock64() - start > (1ll << 36)) __trap();
  }
}

__device__ __forceinline__ void barrier_arrive(unsigned bar) {
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.shared::cta.b64 state, [%0];\n"
      "}\n" ::"r"(bar)
      : "memory");
}

// One arrival that also expects `bytes` of TMA writes before the phase ends.
__device__ __forceinline__ void barrier_arrive_expect(unsigned bar, unsigned bytes) {
  asm volatile(
      "{\n"
      ".reg .b64 state;\n"
      "mbarrier.arrive.expect_tx.shared::cta.b64 state, [%0], %1;\n"
      "}\n" ::"r"(bar),
      "r"(bytes)
      : "memory");
}

// The box of `map` at (inner, outer) (elements) into shared memory at `dst`,
// counted on the barrier `bar` when it lands.
__device__ __forceinline__ void tma_load_2d(unsigned dst, const CUtensorMap* map, int inner,
                                            int outer, unsigned bar) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      " [%0], [%1, {%2, %3}], [%4];" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar)
      : "memory");
}

// The same into the same offset of every block of the cluster in `mask`
// (bit r: the block of rank r), each counted on its own barrier at `bar`.
__device__ __forceinline__ void tma_load_2d_multicast(unsigned dst, const CUtensorMap* map,
                                                      int inner, int outer, unsigned bar,
                                                      std::uint16_t mask) {
  asm volatile(
      "cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes"
      ".multicast::cluster [%0], [%1, {%2, %3}], [%4], %5;" ::"r"(dst),
      "l"(reinterpret_cast<std::uint64_t>(map)), "r"(inner), "r"(outer), "r"(bar), "h"(mask)
      : "memory");
}

__device__ __forceinline__ unsigned cluster_rank() {
  unsigned rank;
  asm volatile("mov.u32 %0, %%cluster_ctarank;" : "=r"(rank));
  return rank;
}

// Every thread of every block of the cluster (release / acquire).
__device__ __forceinline__ void cluster_sync() {
  asm volatile("barrier.cluster.arrive.release;\nbarrier.cluster.wait.acquire;" ::: "memory");
}

// One arrival on the barrier at the same offset in the block of rank `rank`.
__device__ __forceinline__ void barrier_arrive_remote(unsigned bar, unsigned rank) {
  asm volatile(
      "{\n"
      ".reg .b32 remote;\n"
      "mapa.shared::cluster.u32 remote, %0, %1;\n"
      "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];\n"
      "}\n" ::"r"(bar),
      "r"(rank)
      : "memory");
}

// Shared-memory matrix descriptor: start address, leading and stride byte
// offsets (all in 16-byte units), 128-byte swizzle (mode 1, bits 62-63).
__device__ __forceinline__ std::uint64_t descriptor(unsigned address, unsigned leading,
                                                    unsigned stride) {
  return std::uint64_t((address & 0x3FFFF) >> 4) | (std::uint64_t((leading >> 4) & 0x3FFF) << 16) |
         (std::uint64_t((stride >> 4) & 0x3FFF) << 32) | (std::uint64_t(1) << 62);
}

__device__ __forceinline__ void wgmma_fence() {
  asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
}

__device__ __forceinline__ void wgmma_commit() {
  asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
}

template <int Pending>
__device__ __forceinline__ void wgmma_wait() {
  asm volatile("wgmma.wait_group.sync.aligned %0;" ::"n"(Pending) : "memory");
}

#define GP_WGMMA_D8(i)                                                                        \
  "+f"(d[i]), "+f"(d[i + 1]), "+f"(d[i + 2]), "+f"(d[i + 3]), "+f"(d[i + 4]), "+f"(d[i + 5]), \
      "+f"(d[i + 6]), "+f"(d[i + 7])

// d (64 x 256 over the warpgroup, 128 floats a thread) += A B for A 64 x 16
// K-major and B 16 x 256 N-major (imm-trans-b = 1), both in shared memory.
__device__ __forceinline__ void wgmma_m64n256k16(float (&d)[128], std::uint64_t a,
                                                 std::uint64_t b) {
  asm volatile(
      "{\n"
      ".reg .pred p;\n"
      "setp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k16.f32.bf16.bf16 "
      "{%0, %1, %2, %3, %4, %5, %6, %7, "
      " %8, %9, %10, %11, %12, %13, %14, %15, "
      " %16, %17, %18, %19, %20, %21, %22, %23, "
      " %24, %25, %26, %27, %28, %29, %30, %31, "
      " %32, %33, %34, %35, %36, %37, %38, %39, "
      " %40, %41, %42, %43, %44, %45, %46, %47, "
      " %48, %49, %50, %51, %52, %53, %54, %55, "
      " %56, %57, %58, %59, %60, %61, %62, %63, "
      " %64, %65, %66, %67, %68, %69, %70, %71, "
      " %72, %73, %74, %75, %76, %77, %78, %79, "
      " %80, %81, %82, %83, %84, %85, %86, %87, "
      " %88, %89, %90, %91, %92, %93, %94, %95, "
      " %96, %97, %98, %99, %100, %101, %102, %103, "
      " %104, %105, %106, %107, %108, %109, %110, %111, "
      " %112, %113, %114, %115, %116, %117, %118, %119, "
      " %120, %121, %122, %123, %124, %125, %126, %127}, "
      "%128, %129, p, 1, 1, 0, 1;\n"
      "}\n"
      : GP_WGMMA_D8(0), GP_WGMMA_D8(8), GP_WGMMA_D8(16), GP_WGMMA_D8(24), GP_WGMMA_D8(32),
        GP_WGMMA_D8(40), GP_WGMMA_D8(48), GP_WGMMA_D8(56), GP_WGMMA_D8(64), GP_WGMMA_D8(72),
        GP_WGMMA_D8(80), GP_WGMMA_D8(88), GP_WGMMA_D8(96), GP_WGMMA_D8(104), GP_WGMMA_D8(112),
        GP_WGMMA_D8(120)
      : "l"(a), "l"(b), "r"(1));
}

#undef GP_WGMMA_D8

#endif  // GPUPRIM_WGMMA_AVAILABLE

}  // namespace wgmma_ops

// Grid: one block per 128 x 256 tile of C, in clusters of S::cluster
// blocks; m, n, k whole tiles (gemm_wgmma_takes). a_map: A as k (inner) x m
// boxes of 64 x 128; b_map: B as n (inner) x k boxes of 64 x 64; both bf16
// with the 128-byte swizzle.
template <class S>
__global__ void __launch_bounds__(S::threads, 1)
    gemm_bf16_wgmma_kernel(const __grid_constant__ CUtensorMap a_map,
                           const __grid_constant__ CUtensorMap b_map, float* c, int m, int n,
                           int k) {
#if GPUPRIM_WGMMA_AVAILABLE
  using namespace wgmma_ops;
  extern __shared__ unsigned char shared_raw[];
  __shared__ __align__(8) std::uint64_t full[S::stages], empty[S::stages];
  const unsigned ring = (shared_address(shared_raw) + 1023u) & ~1023u;

  // Step 1: this block's tile. Clusters are the unit of the order: a
  // cluster takes S::cluster neighbouring tile rows of one tile column.
  const unsigned rank = S::cluster > 1 ? cluster_rank() : 0u;
  const int cluster_id = static_cast<int>(blockIdx.x) / S::cluster;
  const int rows = m / (S::bm * S::cluster), tiles_n = n / S::bn;  // rows of clusters
  const int group_rows = S::group_m / S::cluster;
  const int per_group = group_rows * tiles_n;
  const int first_row = (cluster_id / per_group) * group_rows;
  const int rows_in_group = min(rows - first_row, group_rows);
  const int within = cluster_id % per_group;
  const int tile_m = (first_row + within % rows_in_group) * S::cluster + static_cast<int>(rank);
  const int tile_n = within / rows_in_group;
  const int steps = k / S::bk;

  if (threadIdx.x == 0) {
    for (int s = 0; s < S::stages; ++s) {
      barrier_init(shared_address(&full[s]), 1);
      barrier_init(shared_address(&empty[s]), S::releases);
    }
    barrier_init_fence();
  }
  // The barriers initialized before any block of the cluster uses them.
  if constexpr (S::cluster > 1) {
    cluster_sync();
  } else {
    __syncthreads();
  }

  const int warpgroup = static_cast<int>(threadIdx.x) / 128;
  if (warpgroup == 0) {
    // Step 2: the producer.
    if (threadIdx.x != 0) {
      if constexpr (S::cluster > 1) cluster_sync();
      return;
    }
    for (int step = 0; step < steps; ++step) {
      const int s = step % S::stages;
      const unsigned round = static_cast<unsigned>(step / S::stages);
      // First round: the parity of the phase before the first passes at once.
      barrier_wait(shared_address(&empty[s]), (round & 1u) ^ 1u);
      const unsigned bar = shared_address(&full[s]);
      barrier_arrive_expect(bar, S::stage_bytes);
      const unsigned a_tile = ring + s * S::stage_bytes;
      const unsigned b_tile = a_tile + S::a_stage_bytes;
      tma_load_2d(a_tile, &a_map, step * S::bk, tile_m * S::bm, bar);
      if constexpr (S::cluster > 1) {
        // This block's share of B's boxes, into every block of the cluster
        // (each block's `full` expects the whole stage).
        constexpr int share = S::bn / S::box_cols / S::cluster;
        for (int box = static_cast<int>(rank) * share; box < (static_cast<int>(rank) + 1) * share;
             ++box) {
          tma_load_2d_multicast(b_tile + box * S::b_box_bytes, &b_map,
                                tile_n * S::bn + box * S::box_cols, step * S::bk, bar,
                                static_cast<std::uint16_t>((1u << S::cluster) - 1));
        }
      } else {
        for (int box = 0; box < S::bn / S::box_cols; ++box) {
          tma_load_2d(b_tile + box * S::b_box_bytes, &b_map, tile_n * S::bn + box * S::box_cols,
                      step * S::bk, bar);
        }
      }
    }
    if constexpr (S::cluster > 1) cluster_sync();
    return;
  }

  // Step 3: the consumers.
  const int consumer = warpgroup - 1;
  const int lane = static_cast<int>(threadIdx.x) % 32;
  float d[128];
#pragma unroll
  for (int i = 0; i < 128; ++i)
    d[i] = 0.0f;
  for (int step = 0; step < steps; ++step) {
    const int s = step % S::stages;
    barrier_wait(shared_address(&full[s]), static_cast<unsigned>(step / S::stages) & 1u);
    __syncwarp();  // the warp converged again for the .aligned wgmma instructions
    const unsigned a_tile = ring + s * S::stage_bytes + consumer * 64 * (S::bk * 2);
    const unsigned b_tile = ring + s * S::stage_bytes + S::a_stage_bytes;
    wgmma_fence();
#pragma unroll
    for (int kk = 0; kk < S::bk / 16; ++kk) {
      // A: 128-byte rows, 8-row groups 1024 bytes apart; 16 of k is 32
      // bytes along the (swizzled) row. B: rows of k 128 bytes apart, 64
      // columns per box (8 KiB apart); 16 of k is 16 rows.
      const std::uint64_t a = descriptor(a_tile + kk * 32, 16, 1024);
      const std::uint64_t b = descriptor(b_tile + kk * 16 * 128, S::b_box_bytes, 1024);
      wgmma_m64n256k16(d, a, b);
    }
    wgmma_commit();
    wgmma_wait<1>();  // the step before is done: its stage may be refilled
    if (step > 0 && lane == 0) {
      // The stage is free once every block that writes it has read it.
      const unsigned bar = shared_address(&empty[(step - 1) % S::stages]);
      barrier_arrive(bar);
      if constexpr (S::cluster > 1) {
        for (unsigned r = 0; r < S::cluster; ++r)
          if (r != rank) barrier_arrive_remote(bar, r);
      }
    }
  }
  wgmma_wait<0>();

  // Step 4: accumulators to C. Thread t of the warpgroup holds rows
  // 16 (t / 32) + (t % 32) / 4 and 8 below, columns 8 j + 2 (t % 4) + {0, 1}.
  const int t = static_cast<int>(threadIdx.x) % 128;
  const std::size_t row = std::size_t(tile_m) * S::bm + consumer * 64 + (t / 32) * 16 + lane / 4;
  const std::size_t col = std::size_t(tile_n) * S::bn + 2 * (lane % 4);
  float* top = c + row * std::size_t(n) + col;
  float* bottom = top + 8 * std::size_t(n);
#pragma unroll
  for (int j = 0; j < S::bn / 8; ++j) {
    *reinterpret_cast<float2*>(top + 8 * j) = make_float2(d[4 * j], d[4 * j + 1]);
    *reinterpret_cast<float2*>(bottom + 8 * j) = make_float2(d[4 * j + 2], d[4 * j + 3]);
  }
  // No block leaves while another may still arrive on its barriers.
  if constexpr (S::cluster > 1) cluster_sync();
#else
  (void)c;
  (void)m;
  (void)n;
  (void)k;
#endif
}

}  // namespace gpuprim::ladder
