// The convolution ladder: a float image correlated with a k x k filter
// (the outer product of a 1-D filter with itself), border replicate, oldest
// kernel first. The two separable rungs run the library's separable kernel
// (cuda/device/device_convolve.cuh): twice with a one-tap filter in the
// other direction (through a temporary image), then fused. The launchers
// and the table are in lab/ladder/convolve_ladder.cu.
#pragma once

#include <cstddef>

namespace gpuprim::ladder {

inline constexpr int convolve_ladder_block = 16;   // 16 x 16 threads, one output each
inline constexpr int convolve_ladder_outputs = 4;  // rung 4: outputs per thread along x
inline constexpr int convolve_ladder_max_taps = 63 * 63;

// Rungs 2, 3 and 4 read the filter from here.
__constant__ float convolve_ladder_filter[convolve_ladder_max_taps];

__device__ __forceinline__ int ladder_clamp(int i, int n) {
  return i < 0 ? 0 : (i >= n ? n - 1 : i);
}

// 1. Baseline: one output per thread, its whole k x k window and the filter read from global
// memory.
__global__ void convolve_naive_global(const float* __restrict__ in, float* __restrict__ out,
                                      int rows, int cols, long long in_ld, long long out_ld,
                                      const float* __restrict__ filter, int k) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  const int c = k / 2;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    const long long sy = ladder_clamp(y + i - c, rows);
    for (int j = 0; j < k; ++j)
      sum += filter[i * k + j] * in[sy * in_ld + ladder_clamp(x + j - c, cols)];
  }
  out[y * out_ld + x] = sum;
}

// 2. The filter in constant memory: one broadcast read per tap for the whole warp, off the L1/L2
// path.
__global__ void convolve_constant_filter(const float* __restrict__ in, float* __restrict__ out,
                                         int rows, int cols, long long in_ld, long long out_ld,
                                         int k) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  const int c = k / 2;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    const long long sy = ladder_clamp(y + i - c, rows);
    for (int j = 0; j < k; ++j)
      sum += convolve_ladder_filter[i * k + j] * in[sy * in_ld + ladder_clamp(x + j - c, cols)];
  }
  out[y * out_ld + x] = sum;
}

// 3. A 16 x 16 tile and its halo staged in shared memory: each pixel read from global once per
// block, not k^2 times.
__global__ void convolve_tiled_halo(const float* __restrict__ in, float* __restrict__ out, int rows,
                                    int cols, long long in_ld, long long out_ld, int k) {
  extern __shared__ float convolve_ladder_tile[];
  const int side = convolve_ladder_block + k - 1;
  const int c = k / 2;
  const int x0 = blockIdx.x * convolve_ladder_block;
  const int y0 = blockIdx.y * convolve_ladder_block;
  const int tid = threadIdx.y * convolve_ladder_block + threadIdx.x;
  for (int idx = tid; idx < side * side; idx += convolve_ladder_block * convolve_ladder_block) {
    const int r = idx / side;
    const int q = idx - r * side;
    const long long sy = ladder_clamp(y0 + r - c, rows);
    convolve_ladder_tile[idx] = in[sy * in_ld + ladder_clamp(x0 + q - c, cols)];
  }
  __syncthreads();
  const int x = x0 + threadIdx.x;
  const int y = y0 + threadIdx.y;
  if (x >= cols || y >= rows) return;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    const float* row = convolve_ladder_tile + (threadIdx.y + i) * side + threadIdx.x;
    for (int j = 0; j < k; ++j)
      sum += convolve_ladder_filter[i * k + j] * row[j];
  }
  out[static_cast<long long>(y) * out_ld + x] = sum;
}

// 4. Register blocking: 4 outputs per thread (16 columns apart, so lanes still read consecutive
// words); each tap is loaded once for 4 FMAs.
__global__ void convolve_register_blocked(const float* __restrict__ in, float* __restrict__ out,
                                          int rows, int cols, long long in_ld, long long out_ld,
                                          int k) {
  extern __shared__ float convolve_ladder_tile[];
  constexpr int tile_w = convolve_ladder_block * convolve_ladder_outputs;  // 64
  const int side_w = tile_w + k - 1;
  const int side_h = convolve_ladder_block + k - 1;
  const int c = k / 2;
  const int x0 = blockIdx.x * tile_w;
  const int y0 = blockIdx.y * convolve_ladder_block;
  const int tid = threadIdx.y * convolve_ladder_block + threadIdx.x;
  for (int idx = tid; idx < side_w * side_h; idx += convolve_ladder_block * convolve_ladder_block) {
    const int r = idx / side_w;
    const int q = idx - r * side_w;
    const long long sy = ladder_clamp(y0 + r - c, rows);
    convolve_ladder_tile[idx] = in[sy * in_ld + ladder_clamp(x0 + q - c, cols)];
  }
  __syncthreads();
  float acc[convolve_ladder_outputs] = {};
  for (int i = 0; i < k; ++i) {
    const float* row = convolve_ladder_tile + (threadIdx.y + i) * side_w + threadIdx.x;
    for (int j = 0; j < k; ++j) {
      const float w = convolve_ladder_filter[i * k + j];
#pragma unroll
      for (int o = 0; o < convolve_ladder_outputs; ++o)
        acc[o] += w * row[j + o * convolve_ladder_block];
    }
  }
  const int y = y0 + threadIdx.y;
  if (y >= rows) return;
#pragma unroll
  for (int o = 0; o < convolve_ladder_outputs; ++o) {
    const int x = x0 + threadIdx.x + o * convolve_ladder_block;
    if (x < cols) out[static_cast<long long>(y) * out_ld + x] = acc[o];
  }
}

}  // namespace gpuprim::ladder
