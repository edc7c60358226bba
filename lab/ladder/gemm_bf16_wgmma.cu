// Host side of the warpgroup tensor-core rung (lab/ladder/gemm_wgmma.cuh):
// argument checks, the TMA descriptors (CUtensorMap, encoded through the
// driver entry point the runtime hands out, so nothing links libcuda), the
// check that the loaded image has the sm_90a body, and the launch.
#include <cuda.h>
#include <cuda_runtime_api.h>

#include <climits>
#include <cstdint>
#include <mutex>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/error.hpp"
#include "gpuprim/cuda/support/check.cuh"
#include "lab/ladder/gemm_wgmma.cuh"
#include "lab/ladder/gemm_wgmma.hpp"

namespace gpuprim::ladder {
namespace {

constexpr const char* algorithm = "gemm_bf16_wgmma";
using shape = gemm_wgmma_shape<1>;

// Writes 1 where the image the driver loaded for this device has the sm_90a
// kernel body, 0 where it has the empty one (another architecture's code).
__global__ void gemm_bf16_wgmma_probe(int* out) {
  *out = GPUPRIM_WGMMA_AVAILABLE;
}

// Throws gp::cuda_error unless the current device runs the kernel body: it
// needs compute capability 9.0 and the sm_90a image. Probed once per device.
void require_sm90a() {
  static std::mutex lock;
  static std::vector<int> known;  // per device: 0 not probed, 1 yes, 2 no
  int device = 0;
  detail::check(cudaGetDevice(&device), "cudaGetDevice", algorithm);
  const std::lock_guard<std::mutex> guard(lock);
  if (known.size() <= static_cast<std::size_t>(device)) known.resize(device + 1, 0);
  int& state = known[device];
  if (state == 0) {
    int major = 0, minor = 0;
    detail::check(cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, device),
                  "cudaDeviceGetAttribute", algorithm);
    detail::check(cudaDeviceGetAttribute(&minor, cudaDevAttrComputeCapabilityMinor, device),
                  "cudaDeviceGetAttribute", algorithm);
    int has_body = 0;
    if (major == 9 && minor == 0) {
      int* flag = nullptr;
      detail::check(cudaMalloc(&flag, sizeof(int)), "cudaMalloc", algorithm);
      gemm_bf16_wgmma_probe<<<1, 1>>>(flag);
      cudaError_t status = cudaGetLastError();
      if (status == cudaSuccess)
        status = cudaMemcpy(&has_body, flag, sizeof(int), cudaMemcpyDeviceToHost);
      cudaFree(flag);
      detail::check(status, "gemm_bf16_wgmma_probe", algorithm);
    }
    state = has_body == 1 ? 1 : 2;
  }
  if (state != 1) {
    throw cuda_error(static_cast<int>(cudaErrorNoKernelImageForDevice), "the device check",
                     algorithm,
                     "unavailable: needs compute capability 9.0 and a build for sm_90 (the rung "
                     "is compiled for sm_90a)");
  }
}

using encode_tiled = CUresult (*)(CUtensorMap*, CUtensorMapDataType, cuuint32_t, void*,
                                  const cuuint64_t*, const cuuint64_t*, const cuuint32_t*,
                                  const cuuint32_t*, CUtensorMapInterleave, CUtensorMapSwizzle,
                                  CUtensorMapL2promotion, CUtensorMapFloatOOBfill);

encode_tiled encoder() {
  static const encode_tiled fn = [] {
    void* p = nullptr;
    cudaDriverEntryPointQueryResult found = cudaDriverEntryPointSymbolNotFound;
    detail::check(cudaGetDriverEntryPointByVersion("cuTensorMapEncodeTiled", &p, 12000,
                                                   cudaEnableDefault, &found),
                  "cudaGetDriverEntryPointByVersion", algorithm);
    if (found != cudaDriverEntryPointSuccess || p == nullptr) {
      throw cuda_error(static_cast<int>(cudaErrorSymbolNotFound),
                       "cudaGetDriverEntryPointByVersion", algorithm,
                       "the driver has no cuTensorMapEncodeTiled");
    }
    return reinterpret_cast<encode_tiled>(p);
  }();
  return fn;
}

// A row-major bf16 matrix (rows x cols, packed) as a TMA map of boxes of
// box_cols x box_rows, 128-byte swizzled in shared memory.
CUtensorMap tile_map(const void* data, std::size_t rows, std::size_t cols, unsigned box_cols,
                     unsigned box_rows) {
  CUtensorMap map;
  const cuuint64_t dims[2] = {cols, rows};
  const cuuint64_t strides[1] = {cols * 2};  // bytes between rows
  const cuuint32_t box[2] = {box_cols, box_rows};
  const cuuint32_t element_strides[2] = {1, 1};
  const CUresult r =
      encoder()(&map, CU_TENSOR_MAP_DATA_TYPE_BFLOAT16, 2, const_cast<void*>(data), dims, strides,
                box, element_strides, CU_TENSOR_MAP_INTERLEAVE_NONE, CU_TENSOR_MAP_SWIZZLE_128B,
                CU_TENSOR_MAP_L2_PROMOTION_L2_256B, CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE);
  if (r != CUDA_SUCCESS) {
    throw cuda_error(static_cast<int>(r), "cuTensorMapEncodeTiled", algorithm,
                     "CUresult " + std::to_string(static_cast<int>(r)));
  }
  return map;
}

bool aligned(const void* p, std::uintptr_t bytes) {
  return reinterpret_cast<std::uintptr_t>(p) % bytes == 0;
}

template <class S>
void launch(const CUtensorMap& a_map, const CUtensorMap& b_map, float* c, int m, int n, int k,
            cudaStream_t stream) {
  const auto kernel = gemm_bf16_wgmma_kernel<S>;
  // Above the default 48 KiB of dynamic shared memory: asked for per device
  // (cheap, so on every call rather than remembered per device).
  detail::check(
      cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, S::shared_bytes),
      "cudaFuncSetAttribute", algorithm);
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(static_cast<unsigned>((m / S::bm) * (n / S::bn)));
  config.blockDim = dim3(S::threads);
  config.dynamicSmemBytes = S::shared_bytes;
  config.stream = stream;
  cudaLaunchAttribute attribute[1];
  attribute[0].id = cudaLaunchAttributeClusterDimension;
  attribute[0].val.clusterDim.x = S::cluster;
  attribute[0].val.clusterDim.y = 1;
  attribute[0].val.clusterDim.z = 1;
  config.attrs = attribute;
  config.numAttrs = 1;
  detail::check(cudaLaunchKernelEx(&config, kernel, a_map, b_map, c, m, n, k), "cudaLaunchKernelEx",
                algorithm);
  detail::check_launch(algorithm, algorithm);
}

}  // namespace

void gemm_bf16_wgmma(device_matrix_view<const bfloat16> a, device_matrix_view<const bfloat16> b,
                     device_matrix_view<float> c, stream_t stream, int cluster) {
  const std::string name(algorithm);
  if (cluster != 1 && cluster != 2) {
    throw std::invalid_argument(name + ": cluster is " + std::to_string(cluster) + ", not 1 or 2");
  }
  if (!a.packed() || !b.packed() || !c.packed() || a.cols() != b.rows() || c.rows() != a.rows() ||
      c.cols() != b.cols()) {
    throw std::invalid_argument(name + ": takes packed A (m x k), B (k x n) and C (m x n)");
  }
  const std::size_t m = a.rows(), k = a.cols(), n = b.cols();
  if (!gemm_wgmma_takes(m, n, k)) {
    throw std::invalid_argument(
        name + ": m x n x k = " + std::to_string(m) + " x " + std::to_string(n) + " x " +
        std::to_string(k) + ": only whole pairs of tiles (multiples of " +
        std::to_string(gemm_wgmma_tile_pair_m) + ", " + std::to_string(shape::bn) + " and " +
        std::to_string(shape::bk) + ")");
  }
  if (m > INT_MAX || n > INT_MAX || k > INT_MAX || (m / shape::bm) * (n / shape::bn) > INT_MAX) {
    throw std::invalid_argument(name + ": a dimension or the tile count is above 2^31 - 1");
  }
  if (!aligned(a.data(), 16) || !aligned(b.data(), 16) || !aligned(c.data(), 8)) {
    throw std::invalid_argument(name + ": A and B must start on 16 bytes, C on 8");
  }
  if (ranges_overlap(c, a) || ranges_overlap(c, b)) {
    throw std::invalid_argument(name + ": C overlaps A or B");
  }
  require_sm90a();
  const CUtensorMap a_map = tile_map(a.data(), m, k, shape::bk, shape::bm);
  const CUtensorMap b_map = tile_map(b.data(), k, n, shape::box_cols, shape::bk);
  const auto s = reinterpret_cast<cudaStream_t>(stream);
  const int mi = static_cast<int>(m), ni = static_cast<int>(n), ki = static_cast<int>(k);
  if (cluster == 2) {
    launch<gemm_wgmma_shape<2>>(a_map, b_map, c.data(), mi, ni, ki, s);
  } else {
    launch<gemm_wgmma_shape<1>>(a_map, b_map, c.data(), mi, ni, ki, s);
  }
}

}  // namespace gpuprim::ladder
