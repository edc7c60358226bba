// Host side of the pipelined tensor-core rung (lab/ladder/gemm_mma.cuh):
// argument checks, the choice between the cp.async and the element-load
// filling of the stages, and the launch with its dynamic shared memory.
#include <cuda_bf16.h>
#include <cuda_runtime_api.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuprim/core/error.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "lab/ladder/dense.hpp"
#include "lab/ladder/gemm_mma.cuh"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "gemm_bf16_mma_pipelined";

// 128 x 256 tiles, 8 warps of 64 x 64; k 32 deep in 4 stages (96 KiB) or
// 64 deep in 3 (144 KiB). One block per SM either way (~240 registers).
using k32_shape = gemm_mma_shape<128, 256, 32, 64, 64, 4, 1>;
using k64_shape = gemm_mma_shape<128, 256, 64, 64, 64, 3, 1>;

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

template <class T, class U>
bool overlap(const T* a, std::size_t a_elements, const U* b, std::size_t b_elements) {
  if (a_elements == 0 || b_elements == 0) return false;
  const auto a0 = reinterpret_cast<std::uintptr_t>(a), b0 = reinterpret_cast<std::uintptr_t>(b);
  return a0 < b0 + b_elements * sizeof(U) && b0 < a0 + a_elements * sizeof(T);
}

template <class S, bool Async>
void launch(const gemm_mma_params& p, std::size_t blocks, cudaStream_t stream) {
  const auto kernel = gemm_bf16_mma_pipelined_kernel<S, Async>;
  // Above the default 48 KiB of dynamic shared memory: asked for per device
  // (cheap, so on every call rather than remembered per device).
  detail::check(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::shared_bytes),
      "cudaFuncSetAttribute", algorithm);
  kernel<<<static_cast<unsigned>(blocks), S::threads, S::shared_bytes, stream>>>(p);
  detail::check_launch(algorithm, algorithm);
}

// The kernel body is compiled for sm_80 and newer only (empty below): refuse
// older devices rather than leave C unwritten.
void require_sm80() {
  int device = 0, major = 0;
  detail::check(cudaGetDevice(&device), "cudaGetDevice", algorithm);
  detail::check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                "cudaDeviceGetAttribute", algorithm);
  if (major < 8) {
    throw cuda_error(static_cast<int>(cudaErrorNoKernelImageForDevice), "the device check",
                     algorithm,
                     "needs compute capability 8.0 or newer (cp.async, ldmatrix, bf16 mma.sync)");
  }
}

template <class S>
void run(const gemm_mma_params& p, cudaStream_t stream) {
  require_sm80();
  const std::size_t blocks =
      std::size_t((p.m + S::bm - 1) / S::bm) * std::size_t((p.n + S::bn - 1) / S::bn);
  if (blocks > INT_MAX) {
    throw std::invalid_argument(std::string(algorithm) + ": C has more than 2^31 - 1 tiles");
  }
  const bool async = aligned16(p.a) && aligned16(p.b) && p.k % 8 == 0 && p.n % 8 == 0 &&
                     p.lda % 8 == 0 && p.ldb % 8 == 0;
  if (async) {
    launch<S, true>(p, blocks, stream);
  } else {
    launch<S, false>(p, blocks, stream);
  }
}

}  // namespace

void gemm_bf16_mma_pipelined(device_matrix_view<const bfloat16> a,
                             device_matrix_view<const bfloat16> b, device_matrix_view<float> c,
                             float alpha, float beta, stream_t stream, gemm_mma_depth depth) {
  if (a.cols() != b.rows() || c.rows() != a.rows() || c.cols() != b.cols()) {
    throw std::invalid_argument(std::string(algorithm) + ": A is " + std::to_string(a.rows()) +
                                " x " + std::to_string(a.cols()) + ", B " +
                                std::to_string(b.rows()) + " x " + std::to_string(b.cols()) +
                                ", C " + std::to_string(c.rows()) + " x " +
                                std::to_string(c.cols()) + ": need m x k, k x n and m x n");
  }
  if (a.rows() > INT_MAX / 2 || a.cols() > INT_MAX / 2 || b.cols() > INT_MAX / 2) {
    throw std::invalid_argument(std::string(algorithm) + ": a dimension is above 2^30");
  }
  if (overlap(c.data(), c.extent(), a.data(), a.extent()) ||
      overlap(c.data(), c.extent(), b.data(), b.extent())) {
    throw std::invalid_argument(std::string(algorithm) + ": C overlaps A or B");
  }
  gemm_mma_params p;
  p.a = reinterpret_cast<const __nv_bfloat16*>(a.data());
  p.b = reinterpret_cast<const __nv_bfloat16*>(b.data());
  p.c = c.data();
  p.m = static_cast<int>(a.rows());
  p.k = static_cast<int>(a.cols());
  p.n = static_cast<int>(b.cols());
  p.lda = a.ld();
  p.ldb = b.ld();
  p.ldc = c.ld();
  p.alpha = alpha;
  p.beta = beta;
  p.pair_stores = reinterpret_cast<std::uintptr_t>(c.data()) % 8 == 0 && p.ldc % 2 == 0;
  if (p.m == 0 || p.n == 0) return;
  // k == 0 runs too: no steps of k, the epilogue writes beta C.
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  switch (depth) {
    case gemm_mma_depth::k32_4_stages:
      run<k32_shape>(p, s);
      return;
    case gemm_mma_depth::k64_3_stages:
      run<k64_shape>(p, s);
      return;
  }
  throw std::invalid_argument(std::string(algorithm) + ": unknown gemm_mma_depth");
}

}  // namespace gpuprim::ladder
