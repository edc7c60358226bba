// The convolution ladder: a float image correlated with a k x k filter
// (the outer product of a 1-D filter with itself), border replicate, oldest
// kernel first. Rungs 5 and 6 run the library's separable kernel
// (cuda/device/device_convolve.cuh): twice with a one-tap filter in the
// other direction (through a temporary image), then fused; rungs 7 and 8
// (general and separable, staging pipelined) are at the end of this file.
// The launchers and the table are in lab/ladder/convolve_ladder.cu.
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

// Rungs 1 and 2: this thread's output pixel, its k x k window read from
// global memory, tap t of the filter from tap(t).
template <class Tap>
__device__ __forceinline__ void convolve_one_pixel(const float* __restrict__ in,
                                                   float* __restrict__ out, int rows, int cols,
                                                   long long in_ld, long long out_ld, Tap tap,
                                                   int k) {
  const int x = blockIdx.x * blockDim.x + threadIdx.x;
  const int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= cols || y >= rows) return;
  const int c = k / 2;
  float sum = 0.0f;
  for (int i = 0; i < k; ++i) {
    const long long sy = ladder_clamp(y + i - c, rows);
    for (int j = 0; j < k; ++j)
      sum += tap(i * k + j) * in[sy * in_ld + ladder_clamp(x + j - c, cols)];
  }
  out[y * out_ld + x] = sum;
}

// 1. Baseline: one output per thread, its whole k x k window and the filter read from global
// memory.
__global__ void convolve_naive_global(const float* __restrict__ in, float* __restrict__ out,
                                      int rows, int cols, long long in_ld, long long out_ld,
                                      const float* __restrict__ filter, int k) {
  convolve_one_pixel(
      in, out, rows, cols, in_ld, out_ld, [filter](int t) { return filter[t]; }, k);
}

// 2. The filter in constant memory: one broadcast read per tap for the whole warp, off the L1/L2
// path.
__global__ void convolve_constant_filter(const float* __restrict__ in, float* __restrict__ out,
                                         int rows, int cols, long long in_ld, long long out_ld,
                                         int k) {
  convolve_one_pixel(
      in, out, rows, cols, in_ld, out_ld, [](int t) { return convolve_ladder_filter[t]; }, k);
}

// Rungs 3 and 4: the block stages the side_h x side_w window of `in` from
// (top, left), edges clamped, into tile (row-major), then waits for it.
__device__ __forceinline__ void stage_tile_with_halo(float* tile, const float* __restrict__ in,
                                                     int rows, int cols, long long in_ld, int top,
                                                     int left, int side_h, int side_w) {
  const int tid = threadIdx.y * convolve_ladder_block + threadIdx.x;
  for (int idx = tid; idx < side_w * side_h; idx += convolve_ladder_block * convolve_ladder_block) {
    const int r = idx / side_w;
    const int q = idx - r * side_w;
    const long long sy = ladder_clamp(top + r, rows);
    tile[idx] = in[sy * in_ld + ladder_clamp(left + q, cols)];
  }
  __syncthreads();
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
  stage_tile_with_halo(convolve_ladder_tile, in, rows, cols, in_ld, y0 - c, x0 - c, side, side);
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
  stage_tile_with_halo(convolve_ladder_tile, in, rows, cols, in_ld, y0 - c, x0 - c, side_h, side_w);
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

// ---- rungs 7 and 8: staging pipelined with the arithmetic ------------------
//
// Shape of the algorithm (both rungs):
//  1. A block owns a strip of 224 output columns (32 lanes x 7 consecutive
//     columns) and walks down it, group after group of input rows, for
//     g.out_rows output rows (the host picks how many so that the grid
//     fills whole waves of resident blocks).
//  2. Two shared staging buffers: while the block computes on one group,
//     the next group's rows are on their way into the other with cp.async
//     (16 bytes straight from global to shared, no registers, nothing to
//     wait for until the group is needed); chunks that cross the image's
//     left or right edge, or rows that are not 16-byte aligned, go as
//     4-byte cp.async from the replicated pixel. One wait and one barrier
//     per group.
//  3. Register blocking: a thread's window of 7 + K - 1 pixels of an input
//     row is loaded from shared memory once and feeds 7 FMAs per tap.

inline constexpr int convolve_band_lanes = 32;
inline constexpr int convolve_band_warps = 8;
inline constexpr int convolve_band_threads = convolve_band_lanes * convolve_band_warps;
inline constexpr int convolve_band_n = 7;  // outputs per thread along a row (odd: no bank conflict)
inline constexpr int convolve_band_tile_w = convolve_band_lanes * convolve_band_n;  // 224
inline constexpr int convolve_band_r = 4;  // general rung: output rows per thread
inline constexpr int convolve_band_h = convolve_band_warps * convolve_band_r;  // 32 rows per band
inline constexpr int convolve_band_chunk = 17;  // general rung, looped: filter columns per window
inline constexpr int convolve_band_chunk_pitch = 18;  // a chunk's taps, padded for 8-byte loads
inline constexpr int convolve_band_max_filter = 63 * 4 * convolve_band_chunk_pitch;

// Rung 7's filter: K x K taps at pitch K (unrolled kernels: every tap an
// immediate constant-bank operand) or rows of `chunks` chunks of 17 taps at
// pitch 18 (looped kernel). Rung 8's row taps at [0, K), column taps at
// [64, 64 + K).
__constant__ __align__(16) float convolve_band_filter[convolve_band_max_filter];
inline constexpr int convolve_band_column_taps = 64;

struct convolve_band_geometry {
  int rows;
  int cols;
  long long in_ld;
  long long out_ld;
  int krows;      // filter rows
  int chunks;     // looped kernel: filter columns / 17, rounded up
  int ay;         // filter rows above the output row
  int ax;         // filter columns left of the output column
  int lead;       // ax rounded up to a multiple of 4, minus ax: where windows start in a staged row
  int sw;         // staged columns (a multiple of 4)
  int sh;         // staged rows per group
  int out_rows;   // output rows per block (a multiple of the group's output rows)
  int vector_in;  // rows 16-byte aligned: 16-byte cp.async inside the image
  int vector_out;  // 16-byte stores
};

__device__ __forceinline__ void convolve_band_copy(float* dst, const float* src, int bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const auto s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  if (bytes == 16) {
    asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src) : "memory");
  } else {
    asm volatile("cp.async.ca.shared.global [%0], [%1], 4;\n" ::"r"(s), "l"(src) : "memory");
  }
#else
  for (int e = 0; e < bytes / 4; ++e)
    dst[e] = src[e];
#endif
}

__device__ __forceinline__ void convolve_band_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

__device__ __forceinline__ void convolve_band_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::: "memory");
#endif
}

// Starts copying g.sh image rows from gy (replicated past the top and
// bottom) x g.sw columns from gx (replicated past the sides) into
// buf[g.sh][g.sw]. Warp w takes rows w, w + 8, ...; its lanes walk along
// the row in 16-byte chunks.
__device__ __forceinline__ void convolve_band_stage(const float* __restrict__ in,
                                                    const convolve_band_geometry& g, int gy, int gx,
                                                    float* buf) {
  const int chunks = g.sw / 4;
  for (int r = threadIdx.y; r < g.sh; r += convolve_band_warps) {
    const float* row = in + static_cast<long long>(ladder_clamp(gy + r, g.rows)) * g.in_ld;
    float* dst = buf + r * g.sw;
    for (int q = threadIdx.x; q < chunks; q += convolve_band_lanes) {
      const int x = gx + 4 * q;
      if (g.vector_in && x >= 0 && x + 4 <= g.cols) {
        convolve_band_copy(dst + 4 * q, row + x, 16);
      } else {
#pragma unroll
        for (int e = 0; e < 4; ++e)
          convolve_band_copy(dst + 4 * q + e, row + ladder_clamp(x + e, g.cols), 4);
      }
    }
  }
  convolve_band_commit();
}

// acc[j] += sum_{f < K} w[f] win[f + j]; w is constant memory (immediate
// operands where the index is known at compile time).
template <int K, int N>
__device__ __forceinline__ void convolve_band_apply(const float (&win)[N + K - 1], const float* w,
                                                    float (&acc)[N]) {
#pragma unroll
  for (int f = 0; f < K; ++f) {
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc[j] = fmaf(w[f], win[f + j], acc[j]);
  }
}

// Writes the block's results res[32][224] (shared) to rows y0.. and
// columns x0.. of out: 16-byte stores where the rows allow.
__device__ __forceinline__ void convolve_band_store(const float* res,
                                                    const convolve_band_geometry& g,
                                                    float* __restrict__ out, int y0, int x0) {
  constexpr int chunks = convolve_band_tile_w / 4;
  for (int r = threadIdx.y; r < convolve_band_h; r += convolve_band_warps) {
    const int y = y0 + r;
    if (y >= g.rows) break;
    float* row = out + static_cast<long long>(y) * g.out_ld;
    for (int q = threadIdx.x; q < chunks; q += convolve_band_lanes) {
      const int x = x0 + 4 * q;
      if (x >= g.cols) break;
      const float* s = res + r * convolve_band_tile_w + 4 * q;
      if (g.vector_out && x + 4 <= g.cols) {
        *reinterpret_cast<float4*>(row + x) = *reinterpret_cast<const float4*>(s);
      } else {
        for (int e = 0; e < 4 && x + e < g.cols; ++e)
          row[x + e] = s[e];
      }
    }
  }
}

// 7. General filter, staging pipelined. The profile of the library's
// general kernel shows the SM alternating between staging (DRAM at 45%) and
// FMAs; here the next band's rows arrive while this band is computed.
// Thread (x, y) computes 7 columns of 4 rows; each input row's window feeds
// every output row it reaches. Unrolled (K <= 9, filter K x K): the whole
// band's loop is unrolled, taps are immediate operands. Looped (any size):
// a runtime loop over input rows and 17-column chunks whose body (one
// window, up to 4 x 17 x 7 FMAs, taps by 8-byte constant loads) stays in
// the instruction cache, where the fully unrolled 17 x 17 body (8092 FMAs)
// does not.
template <int K, bool Unrolled>
__global__ void __launch_bounds__(convolve_band_threads, Unrolled ? 3 : 2)
    convolve_general_pipelined(const float* __restrict__ in, float* __restrict__ out,
                               convolve_band_geometry g) {
  constexpr int R = convolve_band_r;
  constexpr int N = convolve_band_n;
  extern __shared__ __align__(16) float convolve_band_shared[];
  const int buf_size = g.sh * g.sw;
  const int x0 = blockIdx.x * convolve_band_tile_w;
  const int gx = x0 - (g.ax + g.lead);
  const int first = blockIdx.y * g.out_rows;
  const int last = min(g.rows, first + g.out_rows);
  convolve_band_stage(in, g, first - g.ay, gx, convolve_band_shared);
  for (int y0 = first, b = 0; y0 < last; y0 += convolve_band_h, b ^= 1) {
    // 1. This band's rows are in; every thread is done with the other
    //    buffer (the previous band's results), which now takes the next
    //    band's rows.
    convolve_band_wait();
    __syncthreads();
    if (y0 + convolve_band_h < last) {
      convolve_band_stage(in, g, y0 + convolve_band_h - g.ay, gx,
                          convolve_band_shared + (b ^ 1) * buf_size);
    }
    // 2. The band's FMAs.
    float acc[R][N];
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int j = 0; j < N; ++j)
        acc[r][j] = 0.0f;
    }
    float* const mine = convolve_band_shared + b * buf_size;
    const float* base = mine + threadIdx.y * R * g.sw + g.lead + threadIdx.x * N;
    if constexpr (Unrolled) {
#pragma unroll
      for (int i = 0; i < K + R - 1; ++i) {
        float win[N + K - 1];
#pragma unroll
        for (int e = 0; e < N + K - 1; ++e)
          win[e] = base[i * g.sw + e];
#pragma unroll
        for (int r = 0; r < R; ++r) {
          if (i - r >= 0 && i - r < K)
            convolve_band_apply<K, N>(win, convolve_band_filter + (i - r) * K, acc[r]);
        }
      }
    } else {
      const int pitch = g.chunks * convolve_band_chunk_pitch;
#pragma unroll 1
      for (int i = 0; i < g.krows + R - 1; ++i) {
#pragma unroll 1
        for (int c = 0; c < g.chunks; ++c) {
          float win[N + K - 1];
          const float* src = base + i * g.sw + c * K;
#pragma unroll
          for (int e = 0; e < N + K - 1; ++e)
            win[e] = src[e];
#pragma unroll
          for (int r = 0; r < R; ++r) {
            const int fy = i - r;  // warp-uniform
            if (fy >= 0 && fy < g.krows) {
              const float2* t2 = reinterpret_cast<const float2*>(convolve_band_filter + fy * pitch +
                                                                 c * convolve_band_chunk_pitch);
              float w[convolve_band_chunk_pitch];
#pragma unroll
              for (int e = 0; e < convolve_band_chunk_pitch / 2; ++e) {
                const float2 v = t2[e];
                w[2 * e] = v.x;
                w[2 * e + 1] = v.y;
              }
#pragma unroll
              for (int f = 0; f < K; ++f) {
#pragma unroll
                for (int j = 0; j < N; ++j)
                  acc[r][j] = fmaf(w[f], win[f + j], acc[r][j]);
              }
            }
          }
        }
      }
    }
    // 3. Results through this band's buffer, out as coalesced stores.
    __syncthreads();
    float* res = mine;
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int j = 0; j < N; ++j)
        res[(threadIdx.y * R + r) * convolve_band_tile_w + threadIdx.x * N + j] = acc[r][j];
    }
    __syncthreads();
    convolve_band_store(res, g, out, y0, x0);
  }
}

// 8. Separable filter, staging pipelined, columns accumulated in registers.
// The library's fused kernel stages its tile plus a 16-row halo, filters
// the rows in place, then the columns from shared memory (a window load per
// 8 outputs), in phases the SM alternates between. Here groups of K input
// rows stream down the strip: the next group arrives by cp.async while this
// one is row-filtered (7 outputs per 7 + K - 1 window) into a K x 224
// buffer; then thread c (one per column) adds each row-filtered pixel to the
// K output rows it reaches, whose sums live in its registers (output row o
// in slot o mod K, so an unrolled group of K rows names every slot at
// compile time). One shared load per K FMAs, one store per output row,
// nothing staged twice but the K - 1 rows above the block's first output.
template <int K>
__global__ void __launch_bounds__(convolve_band_threads, K <= 17 ? 4 : 1)
    convolve_separable_streaming(const float* __restrict__ in, float* __restrict__ out,
                                 convolve_band_geometry g) {
  constexpr int N = convolve_band_n;
  constexpr int W = convolve_band_tile_w;
  extern __shared__ __align__(16) float convolve_band_shared[];
  const int buf_size = K * g.sw;
  float* filtered = convolve_band_shared + 2 * K * g.sw;  // [K][224]
  const int x0 = blockIdx.x * W;
  const int gx = x0 - (g.ax + g.lead);
  const int first = blockIdx.y * g.out_rows;
  const int last = min(g.rows, first + g.out_rows);
  // Staged row t is image row first - ay + t; output row o = t - (K - 1).
  const int groups = (last - first + K - 1 + K - 1) / K;
  const int c = threadIdx.y * convolve_band_lanes + threadIdx.x;  // column pass: my column
  const int x = x0 + c;
  float acc[K];
#pragma unroll
  for (int s = 0; s < K; ++s)
    acc[s] = 0.0f;
  convolve_band_stage(in, g, first - g.ay, gx, convolve_band_shared);
  for (int grp = 0, b = 0; grp < groups; ++grp, b ^= 1) {
    // 1. This group's rows are in; the other buffer (the group before) and
    //    the row-filtered rows are free.
    convolve_band_wait();
    __syncthreads();
    if (grp + 1 < groups)
      convolve_band_stage(in, g, first - g.ay + (grp + 1) * K, gx,
                          convolve_band_shared + (b ^ 1) * buf_size);
    // 2. Row pass: warp w filters rows w, w + 8, ... of the group.
    for (int r = threadIdx.y; r < K; r += convolve_band_warps) {
      const float* src = convolve_band_shared + b * buf_size + r * g.sw + g.lead + threadIdx.x * N;
      float win[N + K - 1];
#pragma unroll
      for (int e = 0; e < N + K - 1; ++e)
        win[e] = src[e];
      float row[N];
#pragma unroll
      for (int j = 0; j < N; ++j)
        row[j] = 0.0f;
      convolve_band_apply<K, N>(win, convolve_band_filter, row);
#pragma unroll
      for (int j = 0; j < N; ++j)
        filtered[r * W + threadIdx.x * N + j] = row[j];
    }
    __syncthreads();
    // 3. Column pass: row t = grp K + u adds to output rows t - f (slots
    //    (u - f) mod K); output row t - (K - 1), in slot (u + 1) mod K, is
    //    then complete.
    if (c < W) {
      // Output row o of this group's row u: grp K + u - (K - 1).
      const int o0 = grp * K - (K - 1);
      float* dst = out + static_cast<long long>(first) * g.out_ld + x;
#pragma unroll
      for (int u = 0; u < K; ++u) {
        const float v = filtered[u * W + c];
#pragma unroll
        for (int f = 0; f < K; ++f) {
          const int s = ((u - f) % K + K) % K;
          acc[s] = fmaf(convolve_band_filter[convolve_band_column_taps + f], v, acc[s]);
        }
        const int done = (u + 1) % K;
        const int o = o0 + u;
        if (o >= 0 && first + o < last && x < g.cols) dst[o * g.out_ld] = acc[done];
        acc[done] = 0.0f;
      }
    }
  }
}

}  // namespace gpuprim::ladder
