// The warpgroup tensor-core rung (wgmma + TMA, lab/ladder/gemm_wgmma.cuh):
// its tile, the shapes it takes, and its entry for plain C++.
#pragma once

#include <cstddef>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"

namespace gpuprim::ladder {

// The rungs' names in the bf16 table (gemm_tensor_core_rungs()): one block
// per tile, and clusters of 2 blocks sharing B's tile (TMA multicast).
inline constexpr const char* gemm_wgmma_rung_name = "gemm_bf16_wgmma_tma";
inline constexpr const char* gemm_wgmma_cluster_rung_name = "gemm_bf16_wgmma_tma_cluster2";

// Block tile of C (m x n), depth of k per pipeline stage, and the rows of
// a cluster's pair of tiles.
inline constexpr std::size_t gemm_wgmma_tile_m = 128, gemm_wgmma_tile_n = 256,
                             gemm_wgmma_tile_k = 64, gemm_wgmma_tile_pair_m = 256;

// The rungs take only whole tiles, in pairs along m: m a positive multiple
// of 256, n of 256, k of 64 (every shape of the ladder's benchmark).
constexpr bool gemm_wgmma_takes(std::size_t m, std::size_t n, std::size_t k) {
  return m > 0 && n > 0 && k > 0 && m % gemm_wgmma_tile_pair_m == 0 && n % gemm_wgmma_tile_n == 0 &&
         k % gemm_wgmma_tile_k == 0;
}

#if GPUPRIM_HAS_CUDA
// Enqueues C = A B on `stream` for packed row-major A (m x k), B (k x n), C
// (m x n), bf16 in, fp32 accumulate and out; cluster: 1 (a block per tile)
// or 2 (pairs of blocks sharing B's tile). std::invalid_argument unless
// gemm_wgmma_takes(m, n, k), the shapes agree, A and B start on 16 bytes
// and C on 8, C does not overlap A or B, and cluster is 1 or 2.
// gp::cuda_error when the device has no sm_90a code for the kernel (only
// compute capability 9.0 has it, and only where the build compiles for
// sm_90).
void gemm_bf16_wgmma(device_matrix_view<const bfloat16> a, device_matrix_view<const bfloat16> b,
                     device_matrix_view<float> c, stream_t stream, int cluster = 1);
#endif

}  // namespace gpuprim::ladder
