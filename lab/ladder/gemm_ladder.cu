// Host side of the matrix multiply ladder: launchers for the rungs of
// lab/ladder/gemm.cuh, the production gp::gemm (cuBLAS) as the last rung
// of each table, and the tables that the tests and
// `gpuprim bench gemm --ladder` iterate.
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>

#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/gemm.hpp"
#include "lab/ladder/dense.hpp"
#include "lab/ladder/gemm.cuh"
#include "lab/ladder/gemm_wgmma.hpp"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "gemm ladder";

template <class In>
gemm_dims checked_dims(device_matrix_view<const In> a, device_matrix_view<const In> b,
                       device_matrix_view<float> c) {
  if (!a.packed() || !b.packed() || !c.packed() || a.cols() != b.rows() || c.rows() != a.rows() ||
      c.cols() != b.cols()) {
    throw std::invalid_argument(
        "gpuprim::ladder: gemm rungs take packed A (m x k), B (k x n) and C (m x n)");
  }
  if (a.rows() > INT_MAX / 2 || a.cols() > INT_MAX / 2 || b.cols() > INT_MAX / 2 ||
      (a.rows() + 127) / 128 > 65535) {
    throw std::invalid_argument("gpuprim::ladder: matrices too large for the gemm rungs");
  }
  constexpr std::size_t per_vector = 16 / sizeof(In);
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  gemm_dims d;
  d.m = static_cast<int>(a.rows());
  d.k = static_cast<int>(a.cols());
  d.n = static_cast<int>(b.cols());
  d.vector_a = aligned(a.data()) && a.cols() % per_vector == 0;
  // B's rows and C's rows (stores use the same flag, in floats).
  d.vector_b =
      aligned(b.data()) && aligned(c.data()) && b.cols() % per_vector == 0 && b.cols() % 4 == 0;
  return d;
}

// The shapes with no product to compute: C empty (nothing to write) or
// k == 0 (C = 0, written here). True when the rung has nothing left to do.
bool done_without_kernel(const gemm_dims& d, device_matrix_view<float> c, stream_t stream) {
  if (d.m == 0 || d.n == 0) return true;
  if (d.k != 0) return false;
  detail::check(cudaMemsetAsync(c.data(), 0, c.extent() * sizeof(float),
                                reinterpret_cast<cudaStream_t>(stream)),
                "cudaMemsetAsync", algorithm);
  return true;
}

using float_kernel = void (*)(const float*, const float*, float*, gemm_dims);

// Grid of tiles of BM x BN over C; Threads per block.
template <float_kernel Kernel, int BM, int BN, int Threads, int BlockX = 0>
void run_float(device_matrix_view<const float> a, device_matrix_view<const float> b,
               device_matrix_view<float> c, stream_t stream) {
  const gemm_dims d = checked_dims(a, b, c);
  if (done_without_kernel(d, c, stream)) return;
  const dim3 grid((d.n + BN - 1) / BN, (d.m + BM - 1) / BM);
  const dim3 block = BlockX ? dim3(BlockX, Threads / BlockX) : dim3(Threads);
  Kernel<<<grid, block, 0, reinterpret_cast<cudaStream_t>(stream)>>>(a.data(), b.data(), c.data(),
                                                                     d);
  detail::check_launch("gemm ladder rung", algorithm);
}

void run_bf16_wmma(device_matrix_view<const bfloat16> a, device_matrix_view<const bfloat16> b,
                   device_matrix_view<float> c, stream_t stream) {
  const gemm_dims d = checked_dims(a, b, c);
  if (done_without_kernel(d, c, stream)) return;
  constexpr int pitch_a = gemm_tc_bk + gemm_tc_pad, pitch_b = gemm_tc_bn + gemm_tc_pad;
  constexpr unsigned shared =
      2 * (gemm_tc_bm * pitch_a + gemm_tc_bk * pitch_b) * sizeof(__nv_bfloat16);
  const dim3 grid((d.n + gemm_tc_bn - 1) / gemm_tc_bn, (d.m + gemm_tc_bm - 1) / gemm_tc_bm);
  gemm_bf16_wmma<<<grid, gemm_tc_threads, shared, reinterpret_cast<cudaStream_t>(stream)>>>(
      reinterpret_cast<const __nv_bfloat16*>(a.data()),
      reinterpret_cast<const __nv_bfloat16*>(b.data()), c.data(), d);
  detail::check_launch("gemm_bf16_wmma", algorithm);
}

template <gemm_mma_depth Depth>
void run_bf16_mma_pipelined(device_matrix_view<const bfloat16> a,
                            device_matrix_view<const bfloat16> b, device_matrix_view<float> c,
                            stream_t stream) {
  checked_dims(a, b, c);
  gemm_bf16_mma_pipelined(a, b, c, 1.0f, 0.0f, stream, Depth);
}

template <int Cluster>
void run_bf16_wgmma(device_matrix_view<const bfloat16> a, device_matrix_view<const bfloat16> b,
                    device_matrix_view<float> c, stream_t stream) {
  checked_dims(a, b, c);
  gemm_bf16_wgmma(a, b, c, stream, Cluster);
}

template <class In>
void run_production(device_matrix_view<const In> a, device_matrix_view<const In> b,
                    device_matrix_view<float> c, stream_t stream) {
  checked_dims(a, b, c);
  gemm(cuda.on(stream), a, b, c, 1.0f, 0.0f);
}

// clang-format off
constexpr gemm_rung<float> float_ladder[] = {
  {"gemm_naive", "baseline: one thread per element of C, operands from global memory",
   run_float<gemm_naive, 16, 16, 256, 16>},
  {"gemm_shared_tiles", "32 x 32 tiles of A and B in shared memory: each element loaded once per block",
   run_float<gemm_shared_tiles, gemm_shared_tile, gemm_shared_tile, gemm_shared_tile * gemm_shared_tile>},
  {"gemm_register_1d", "1-D register blocking: 8 results per thread, one B load feeds 8 FMAs",
   run_float<gemm_register_1d, gemm_1d_bm, gemm_1d_bn, gemm_1d_threads>},
  {"gemm_register_2d", "2-D register blocking: 8 x 8 micro-tile, 16 shared loads feed 64 FMAs",
   run_float<gemm_register_2d, gemm_2d_bm, gemm_2d_bn, gemm_2d_threads>},
  {"gemm_vector_double_buffer",
   "16-byte loads, A tile transposed, next tile loaded during this tile's math",
   run_float<gemm_vector_double_buffer, gemm_2d_bm, gemm_2d_bn, gemm_2d_threads>},
  {"gemm_warp_tiling", "warp tiles: a warp's lanes share operands (broadcast loads), BK = 16",
   run_float<gemm_warp_tiling, gemm_wt_bm, gemm_wt_bn, gemm_wt_threads>},
  {"gp::gemm (cuBLAS SGEMM)", "production: cuBLAS, fp32 (no TF32)", run_production<float>},
};

constexpr gemm_rung<bfloat16> tensor_core_ladder[] = {
  {"gemm_bf16_wmma", "tensor cores: WMMA 16 x 16 x 16 bf16 products, fp32 accumulators, 128 x 128 x 32 tiles",
   run_bf16_wmma},
  {"gemm_bf16_mma_pipelined",
   "4-stage cp.async ring, swizzled tiles, ldmatrix + mma.sync m16n8k16; 128 x 256 x 32, 64 x 64 warp tiles",
   run_bf16_mma_pipelined<gemm_mma_depth::k32_4_stages>},
  {"gemm_bf16_mma_pipelined_k64", "the same, 64 of k per stage in 3 stages: half the barriers",
   run_bf16_mma_pipelined<gemm_mma_depth::k64_3_stages>},
  {gemm_wgmma_rung_name,
   "sm_90a: wgmma m64n256k16 from 128B-swizzled shared tiles, TMA loads, mbarrier ring of 4, 1 producer + 2 consumer warpgroups; 128 x 256 x 64, whole tiles only",
   run_bf16_wgmma<1>},
  {gemm_wgmma_cluster_rung_name,
   "the same in clusters of 2 blocks along m: each loads half of the shared B tile into both (TMA multicast), half of B's L2 reads",
   run_bf16_wgmma<2>},
  {"gp::gemm (cuBLASLt bf16)", "production: cuBLASLt, bf16 in, fp32 accumulate and out",
   run_production<bfloat16>},
};
// clang-format on

}  // namespace

std::span<const gemm_rung<float>> gemm_rungs() {
  return float_ladder;
}

std::span<const gemm_rung<bfloat16>> gemm_tensor_core_rungs() {
  return tensor_core_ladder;
}

}  // namespace gpuprim::ladder
