// The dense family's ladders (lab/ladder/ladder.hpp explains ladders):
// transpose and matrix multiply rungs, compiled into gpuprim_lab_ladder
// (lab/ladder/transpose_ladder.cu, gemm_ladder.cu) and callable from plain
// C++; their kernels live in lab/ladder/transpose.cuh and gemm.cuh.
#pragma once

#include <span>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/core/macros.hpp"
#include "gpuprim/core/matrix_view.hpp"
#include "lab/ladder/ladder.hpp"

namespace gpuprim::ladder {

struct transpose_rung {
  const char* name;   // what the kernel is, e.g. "transpose_padded_tile"
  const char* fixes;  // one line: what it fixes over the rung before
  // true for the first row, a plain copy of the same bytes (the ceiling):
  // it writes in's elements to out's memory in in's order.
  bool is_copy;
  // Enqueues out = in^T (packed float matrices, out.rows() == in.cols(),
  // out.cols() == in.rows(), else std::invalid_argument) on `stream`.
  void (*run)(device_matrix_view<const float> in, device_matrix_view<float> out, stream_t stream);
};

// Matrix multiply rungs compute C = A B (alpha 1, beta 0, no transposes)
// for packed row-major matrices of any shape: A m x k, B k x n, C m x n
// (std::invalid_argument otherwise).
template <class In>
using gemm_rung = rung<void(device_matrix_view<const In> a, device_matrix_view<const In> b,
                            device_matrix_view<float> c, stream_t stream)>;

// Oldest first: copy (the ceiling), naive, shared tile, padded tile,
// diagonal block order, the library's gp::transpose, its sector-owned tiles rotated.
GPUPRIM_LADDER_TABLE(transpose_rung, transpose_rungs);
// fp32 on CUDA cores: naive, shared tiles, 1-D and 2-D register blocking,
// vector loads + transposed A + double buffering, warp tiling.
GPUPRIM_LADDER_TABLE(gemm_rung<float>, gemm_rungs);
// bfloat16 inputs, fp32 accumulation on tensor cores: WMMA, then
// cp.async stages + ldmatrix + mma.sync (gemm_bf16_mma_pipelined).
GPUPRIM_LADDER_TABLE(gemm_rung<bfloat16>, gemm_tensor_core_rungs);

#if GPUPRIM_HAS_CUDA
// The pipelined tensor-core rung with its whole epilogue: C = alpha A B +
// beta C (beta == 0: C is only written, NaN there does not matter) for
// row-major views of any shape and leading dimension; sm_80 or newer.
// std::invalid_argument for mismatched shapes or C overlapping A or B.
// Both depths use 128 x 256 block tiles and 8 warps of 64 x 64.
enum class gemm_mma_depth {
  k32_4_stages,  // 32 of k per stage, 4 stages (96 KiB of shared memory)
  k64_3_stages,  // 64 of k per stage, 3 stages (144 KiB): half the barriers
};
void gemm_bf16_mma_pipelined(device_matrix_view<const bfloat16> a,
                             device_matrix_view<const bfloat16> b, device_matrix_view<float> c,
                             float alpha, float beta, stream_t stream,
                             gemm_mma_depth depth = gemm_mma_depth::k32_4_stages);
#endif

}  // namespace gpuprim::ladder
