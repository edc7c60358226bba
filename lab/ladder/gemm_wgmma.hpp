// The warpgroup tensor-core rung (wgmma + TMA, lab/ladder/gemm_wgmma.cuh):
// its tile, the shapes it takes, and its entry for plain C++.
#pragma once

#include <cstddef>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"

namespace gpuprim::ladder {

// The rung's name in the bf16 table (gemm_tensor_core_rungs()).
inline constexpr const char* gemm_wgmma_rung_name = "gemm_bf16_wgmma_tma";

// Block tile of C (m x n) and depth of k per pipeline stage.
inline constexpr std::size_t gemm_wgmma_tile_m = 128, gemm_wgmma_tile_n = 256,
                             gemm_wgmma_tile_k = 64;

// The rung takes only whole tiles: m, n and k positive multiples of the
// tile (every shape of the ladder's benchmark).
constexpr bool gemm_wgmma_takes(std::size_t m, std::size_t n, std::size_t k) {
  return m > 0 && n > 0 && k > 0 && m % gemm_wgmma_tile_m == 0 && n % gemm_wgmma_tile_n == 0 &&
         k % gemm_wgmma_tile_k == 0;
}

#if GPUPRIM_HAS_CUDA
// Enqueues C = A B on `stream` for packed row-major A (m x k), B (k x n), C
// (m x n), bf16 in, fp32 accumulate and out. std::invalid_argument unless
// gemm_wgmma_takes(m, n, k), the shapes agree, A and B start on 16 bytes
// and C on 8, and C does not overlap A or B. gp::cuda_error when the device
// has no sm_90a code for the kernel (only compute capability 9.0 has it,
// and only where the build compiles for sm_90).
void gemm_bf16_wgmma(device_matrix_view<const bfloat16> a, device_matrix_view<const bfloat16> b,
                     device_matrix_view<float> c, stream_t stream);
#endif

}  // namespace gpuprim::ladder
