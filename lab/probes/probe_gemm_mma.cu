// Tuning probe for the pipelined bf16 tensor-core gemm rung
// (lab/ladder/gemm_mma.cuh): times tile shapes, depths, stage counts and
// block-order groups against cuBLAS (cublasGemmEx, bf16 in, fp32 compute
// and out, the same call gp::gemm's bf16 path makes through cuBLASLt) in
// one process on the same buffers, and checks every variant's C against
// cuBLAS's. Not part of the default build or the tests; on the GPU machine:
// cmake --build build/cuda --target gpuprim_lab_probe_gemm_mma, or
// scripts/device-check.sh --tune-gemm. One line per (shape, variant):
// milliseconds, TFLOP/s, the ratio to cuBLAS (cuBLAS time / variant time)
// and the largest difference from cuBLAS's C. Medians of 20 calls after 3
// warm-ups, CUDA events. With --profile it runs each of the two ladder rows
// once at 8192^3 instead, for Nsight Compute.
#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "lab/ladder/gemm_mma.cuh"
#include "probe_timing.cuh"

namespace gl = gpuprim::ladder;

#define CHECK_CUBLAS(x)                                                                       \
  do {                                                                                        \
    const cublasStatus_t s = (x);                                                             \
    if (s != CUBLAS_STATUS_SUCCESS) probe_failed("cuBLAS", std::to_string(int(s)), __LINE__); \
  } while (0)

template <class S>
void launch(const gl::gemm_mma_params& p) {
  const auto kernel = gl::gemm_bf16_mma_pipelined_kernel<S, true>;
  CHECK_CUDA(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::shared_bytes));
  const int blocks = ((p.m + S::bm - 1) / S::bm) * ((p.n + S::bn - 1) / S::bn);
  kernel<<<blocks, S::threads, S::shared_bytes>>>(p);
  CHECK_CUDA(cudaGetLastError());
}

struct variant {
  const char* name;
  void (*run)(const gl::gemm_mma_params&);
};

// BM, BN, BK, WM, WN, Stages, MinBlocks, GroupM
const variant variants[] = {
    {"128x256 k32 s4 g16 (ladder row)", launch<gl::gemm_mma_shape<128, 256, 32, 64, 64, 4, 1, 16>>},
    {"128x256 k64 s3 g16 (ladder _k64)",
     launch<gl::gemm_mma_shape<128, 256, 64, 64, 64, 3, 1, 16>>},
    {"128x256 k32 s6 g16", launch<gl::gemm_mma_shape<128, 256, 32, 64, 64, 6, 1, 16>>},
    {"128x256 k64 s4 g16", launch<gl::gemm_mma_shape<128, 256, 64, 64, 64, 4, 1, 16>>},
    {"128x256 k32 s4 g8", launch<gl::gemm_mma_shape<128, 256, 32, 64, 64, 4, 1, 8>>},
    {"128x256 k32 s4 g1 (row order)", launch<gl::gemm_mma_shape<128, 256, 32, 64, 64, 4, 1, 1>>},
    {"256x128 k32 s4 g16", launch<gl::gemm_mma_shape<256, 128, 32, 64, 64, 4, 1, 16>>},
    {"128x128 k32 s4 g16, 4 warps, 2 blocks/SM",
     launch<gl::gemm_mma_shape<128, 128, 32, 64, 64, 4, 2, 16>>},
};

int main(int argc, char** argv) {
  const bool profile = argc > 1 && std::strcmp(argv[1], "--profile") == 0;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  std::printf("%s, %d SMs\n", prop.name, prop.multiProcessorCount);
  cublasHandle_t handle;
  CHECK_CUBLAS(cublasCreate(&handle));

  const int sizes[] = {4096, 8192};
  for (const int size : profile ? std::vector<int>{8192} : std::vector<int>(sizes, sizes + 2)) {
    const int m = size, n = size, k = size;
    std::mt19937 rng(5);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<__nv_bfloat16> a(std::size_t(m) * k), b(std::size_t(k) * n);
    for (auto& x : a)
      x = __float2bfloat16(d(rng));
    for (auto& x : b)
      x = __float2bfloat16(d(rng));
    __nv_bfloat16 *da, *db;
    float *dc, *dref;
    CHECK_CUDA(cudaMalloc(&da, a.size() * 2));
    CHECK_CUDA(cudaMalloc(&db, b.size() * 2));
    CHECK_CUDA(cudaMalloc(&dc, std::size_t(m) * n * 4));
    CHECK_CUDA(cudaMalloc(&dref, std::size_t(m) * n * 4));
    CHECK_CUDA(cudaMemcpy(da, a.data(), a.size() * 2, cudaMemcpyHostToDevice));
    CHECK_CUDA(cudaMemcpy(db, b.data(), b.size() * 2, cudaMemcpyHostToDevice));

    // Row-major C = A B is column-major C^T = B^T A^T.
    const float one = 1.0f, zero = 0.0f;
    const auto cublas = [&] {
      CHECK_CUBLAS(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, db, CUDA_R_16BF, n,
                                da, CUDA_R_16BF, k, &zero, dref, CUDA_R_32F, n, CUBLAS_COMPUTE_32F,
                                CUBLAS_GEMM_DEFAULT));
    };
    gl::gemm_mma_params p{};
    p.a = da;
    p.b = db;
    p.c = dc;
    p.m = m;
    p.n = n;
    p.k = k;
    p.lda = k;
    p.ldb = n;
    p.ldc = n;
    p.alpha = 1.0f;
    p.beta = 0.0f;
    p.pair_stores = true;
    if (profile) {
      cublas();
      variants[0].run(p);
      variants[1].run(p);
      CHECK_CUDA(cudaDeviceSynchronize());
      return 0;
    }
    const double flops = 2.0 * m * n * double(k);
    const float ref_ms = median_ms(cublas);
    std::vector<float> ref(std::size_t(m) * n), got(ref.size());
    CHECK_CUDA(cudaMemcpy(ref.data(), dref, ref.size() * 4, cudaMemcpyDeviceToHost));
    std::printf("%d^3  %-44s %8.3f ms %7.1f TFLOP/s\n", size, "cuBLAS (cublasGemmEx bf16 -> f32)",
                ref_ms, flops / ref_ms / 1e9);
    for (const variant& v : variants) {
      CHECK_CUDA(cudaMemset(dc, 0xFF, ref.size() * 4));
      v.run(p);
      CHECK_CUDA(cudaDeviceSynchronize());
      CHECK_CUDA(cudaMemcpy(got.data(), dc, got.size() * 4, cudaMemcpyDeviceToHost));
      double worst = 0;
      for (std::size_t i = 0; i < got.size(); ++i) {
        const double e = std::abs(double(got[i]) - ref[i]);
        worst = std::isnan(e) ? INFINITY : std::max(worst, e);
      }
      const float ms = median_ms([&] { v.run(p); });
      // |terms| <= 1, k of them: 1e-4 k is far above fp32 rounding, far below a wrong element.
      std::printf("%d^3  %-44s %8.3f ms %7.1f TFLOP/s  x%.3f  max |diff| %.2e %s\n", size, v.name,
                  ms, flops / ms / 1e9, ref_ms / ms, worst, worst <= 1e-4 * k ? "ok" : "WRONG");
    }
    free_device(da, db, dc, dref);
  }
  CHECK_CUBLAS(cublasDestroy(handle));
  return 0;
}
