// Device-wide 2-D convolution, the kernels (correlation with the taps the
// public header prepared): general filters and fused separable filters.
// The host driver (capacity, variant, grid, shared memory, launches) is
// cuda/device/device_convolve.cuh.
//
// Shape of the algorithm (one block of 32 x 8 threads per output tile of
// 224 columns x 32 rows of one image plane):
//  1. The filter travels as a kernel parameter (up to 63 x 63 taps, 31 KiB
//     in double): parameters live in constant memory, every thread of a warp
//     reads the same tap (a broadcast), and the launch carries its own copy,
//     so calls on several streams never race on a __constant__ symbol and
//     the caller's filter may go away as soon as the call returns.
//  2. The block stages its tile plus the halo (krows - 1 rows, kcols - 1
//     columns) in shared memory, in the compute type, with 16-byte loads
//     where the rows are aligned and inside the image; pixels past the edges
//     come from the border mode (cuda side of detail::border_index), one
//     warp per staged row so the row is mapped once. A thread issues the
//     loads of up to 8 chunks before it stores any (more loads in flight).
//     The tile's left edge is moved back to a multiple of 4 columns so that
//     those loads (and the shared stores) are aligned.
//  3. Each thread computes 7 consecutive outputs of 4 consecutive rows
//     (register blocking): it loads the window of 7 + K - 1 pixels of each
//     input row it needs into registers once and does 7 FMAs per tap for
//     every one of its output rows that the input row reaches. 7, odd, makes
//     the 32 lanes' windows start in 32 different banks (a stride of 8 would
//     be a 4-way conflict). K is a compile-time capacity (3, 5, 9, 17, 33 or
//     63) so the windows stay in registers; for square float filters up to
//     17 x 17 the row loop is unrolled too, so every tap is an immediate
//     constant-bank operand of its FMAs. Taps past the filter's width are
//     zero and, like zero weights (scipy skips those), skipped by a
//     warp-uniform branch, in a second variant of each kernel that the host
//     picks only when some multiplied tap is zero (the branch costs 2
//     instructions per 7 FMAs).
//  4. General filters: the 4 x 7 results go back to shared memory and leave
//     as coalesced 16-byte stores. Separable filters: the row pass filters
//     each staged row in place (one warp owns a row: it reads its windows,
//     syncs, then writes), then the column pass runs down the columns (4
//     outputs per thread, 8 for the 64-row tile of K = 17 in float;
//     consecutive threads in consecutive columns, so both its shared loads
//     and its global stores are coalesced). The image is read once (plus
//     halos, mostly from L2) and written once.
//  5. 8-bit images of several interleaved channels run through the same
//     kernels, one grid z-slice per image and channel, computed in float and
//     rounded to nearest (ties to even), clamped to 0..255.
#pragma once

#include <cuda_runtime.h>

#include <cstdint>
#include <type_traits>

#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/detail/convolve/convolve.hpp"

namespace gpuprim::cuda_impl {

inline constexpr int convolve_threads_x = 32;  // one warp across a tile row
inline constexpr int convolve_threads_y = 8;
inline constexpr int convolve_outputs_x = 7;  // per thread, consecutive columns
inline constexpr int convolve_tile_w = convolve_threads_x * convolve_outputs_x;  // 224
inline constexpr int convolve_tile_h = 32;
inline constexpr int convolve_rows_per_thread = convolve_tile_h / convolve_threads_y;  // 4
// The separable kernel's tile height and column-pass outputs per thread
// (8 groups of CN rows either way, 7 column items per thread). K = 17 in
// float: 64 rows, 8 outputs per thread, so the 16 halo rows are staged and
// row-filtered once per 64 output rows instead of per 32 (80 / 64 = 1.25
// staged rows per output row, was 48 / 32 = 1.5), and a column window of
// 24 shared loads serves 8 outputs (was 20 for 4). 80 x 240 floats = 75
// KiB of shared memory: 2 blocks per SM (was 4). Other capacities keep 32
// rows and 4 outputs (K = 33 at 64 rows would drop to 2 blocks per SM, the
// double K = 17 tile to 1).
template <class A, int K>
inline constexpr int convolve_separable_tile_h = (sizeof(A) == 4 && K == 17) ? 64 : 32;
template <class A, int K>
inline constexpr int convolve_separable_column_outputs = convolve_separable_tile_h<A, K> / 8;
inline constexpr int convolve_max_taps = 63 * 63;
// Separable taps: row taps at [0, K), column taps at [column_taps_at, + K).
inline constexpr int convolve_column_taps_at = 64;

template <class T>
using convolve_acc_t = std::conditional_t<std::is_same_v<T, double>, double, float>;

// Blocks per SM that __launch_bounds__ asks for: with none, ptxas held these
// kernels to 40 registers and spilled; 4 blocks (64 registers) compiles the
// float kernels up to K = 33 without spills, K = 63 and double need more.
template <class T, int K>
inline constexpr int convolve_min_blocks = sizeof(T) == 8 ? (K <= 17 ? 2 : 1) : (K <= 33 ? 4 : 2);
// General kernels computed in float that keep 28 accumulators and a long
// window live at once spilled at 64 registers: the unrolled 17 x 17 one
// (23-pixel window) and K = 33 (39 pixels). They ask for 3 blocks per SM
// (80 registers; their shared tiles, 45 and 65 KiB, fit 3 times).
template <class T, int K, bool FullRows>
inline constexpr int convolve_general_min_blocks = (sizeof(convolve_acc_t<T>) == 4 &&
                                                    ((FullRows && K == 17) || K == 33))
                                                       ? 3
                                                       : convolve_min_blocks<T, K>;

// The filter, as a kernel parameter (see 1. above). General: krows rows of
// K taps (zero past kcols). Separable: see convolve_column_taps_at.
template <class A>
struct convolve_taps {
  A w[convolve_max_taps];
};

struct convolve_geometry {
  long long rows;
  long long cols;
  long long channels;
  long long in_ld;
  long long in_stride;
  long long out_ld;
  long long out_stride;
  long long plane_offset;  // added to blockIdx.z (grids of more than 65535 planes)
  int krows;
  int ay;
  int ax;
  int ax4;  // ax rounded up to a multiple of 4: the tile's left edge is x0 - ax4
  int sh;   // staged rows
  int sw;   // staged columns (a multiple of 4)
  int mode;
  int vector_in;   // 16-byte loads (one channel, aligned rows)
  int vector_out;  // 16-byte stores
};

// detail::border_index on the device.
__device__ __forceinline__ long long convolve_border(long long i, long long n, int mode) {
  return detail::border_index(i, n, static_cast<border>(mode));
}

template <class T, class A>
__device__ __forceinline__ T convolve_store_value(A v) {
  if constexpr (std::is_same_v<T, std::uint8_t>) {
    if (!(v > 0.0f)) return 0;  // NaN too
    if (v >= 255.0f) return 255;
    return static_cast<std::uint8_t>(__float2int_rn(v));
  } else {
    return static_cast<T>(v);
  }
}

// V pixels of source row `row` (image row sy, -1 past a constant border)
// from column gx on: one 16-byte load inside the image, else pixel by pixel
// through the border mode.
template <int V, class T>
__device__ __forceinline__ vector_of<T, V> convolve_fetch(const T* row, long long sy, long long gx,
                                                          const convolve_geometry& g) {
  if (sy >= 0 && gx >= 0 && gx + V <= g.cols) return load_vector<V>(row + gx);
  vector_of<T, V> v;
#pragma unroll
  for (int e = 0; e < V; ++e) {
    const long long sx = convolve_border(gx + e, g.cols, g.mode);
    v.items[e] = (sy < 0 || sx < 0) ? T(0) : row[sx];
  }
  return v;
}

// Stages rows [gy0, gy0 + sh) x columns [gx0, gx0 + sw) of one plane
// (border-extended) into tile[sh][sw] in the compute type. K is the
// kernel's capacity (it bounds sw).
template <int K, class T, class A>
__device__ __forceinline__ void convolve_stage_tile(const T* __restrict__ src,
                                                    const convolve_geometry& g, long long gx0,
                                                    long long gy0, A* tile) {
  // Warp w stages rows w, w + 8, ...; its lanes walk along the row (the
  // source row is mapped once per row, no division per element).
  constexpr int V = 16 / sizeof(T) > 0 ? int(16 / sizeof(T)) : 1;
  if constexpr (sizeof(T) >= 4) {
    if (g.vector_in) {
      // All the loads of a batch (RB rows of up to QN chunks per lane, at
      // most 4 loads of 16 bytes) are issued before the first store to
      // shared memory, so a thread has up to 4 loads in flight instead of
      // one. (8 per batch spilled at the 64-register cap: ptxas gave every
      // float kernel a 64-byte stack frame.)
      constexpr int max_sw = (convolve_tile_w + 3 + K - 1 + 3) / 4 * 4;
      constexpr int QN = (max_sw / V + convolve_threads_x - 1) / convolve_threads_x;
      constexpr int RB = QN >= 4 ? 1 : 4 / QN;
      const int chunks = g.sw / V;
      for (int r0 = threadIdx.y; r0 < g.sh; r0 += RB * convolve_threads_y) {
        vector_of<T, V> v[RB][QN];
#pragma unroll
        for (int b = 0; b < RB; ++b) {
          const int r = r0 + b * convolve_threads_y;
          if (r >= g.sh) break;
          const long long sy = convolve_border(gy0 + r, g.rows, g.mode);
          const T* row = src + sy * g.in_ld;
#pragma unroll
          for (int qi = 0; qi < QN; ++qi) {
            const int q = threadIdx.x + qi * convolve_threads_x;
            if (q < chunks) v[b][qi] = convolve_fetch<V>(row, sy, gx0 + q * V, g);
          }
        }
#pragma unroll
        for (int b = 0; b < RB; ++b) {
          const int r = r0 + b * convolve_threads_y;
          if (r >= g.sh) break;
#pragma unroll
          for (int qi = 0; qi < QN; ++qi) {
            const int q = threadIdx.x + qi * convolve_threads_x;
            if (q >= chunks) break;
            A* dst = tile + r * g.sw + q * V;
            if constexpr (sizeof(A) == sizeof(T)) {
              // One 16-byte shared store (sw is a multiple of 4, the tile
              // 16-byte aligned).
              vector_of<A, V> a;
#pragma unroll
              for (int e = 0; e < V; ++e)
                a.items[e] = static_cast<A>(v[b][qi].items[e]);
              *reinterpret_cast<vector_of<A, V>*>(dst) = a;
            } else {
#pragma unroll
              for (int e = 0; e < V; ++e)
                dst[e] = static_cast<A>(v[b][qi].items[e]);
            }
          }
        }
      }
      return;
    }
  }
  for (int r = threadIdx.y; r < g.sh; r += convolve_threads_y) {
    const long long sy = convolve_border(gy0 + r, g.rows, g.mode);
    const T* row = src + sy * g.in_ld;
    for (int c = threadIdx.x; c < g.sw; c += convolve_threads_x) {
      const long long sx = convolve_border(gx0 + c, g.cols, g.mode);
      tile[r * g.sw + c] = (sy < 0 || sx < 0) ? A(0) : static_cast<A>(row[sx * g.channels]);
    }
  }
}

// acc[j] += sum_{f < K} w[f] * row[f + j], j < N. With SkipZeros, zero
// taps are skipped (a warp-uniform branch: every lane reads the same tap);
// the host picks the variant without the branch when the K taps have no
// zero, which saves two instructions per N FMAs. `row` is shared memory
// with `step` elements between consecutive pixels.
template <int K, bool SkipZeros, int N, int W, class A>
__device__ __forceinline__ void convolve_apply(const A (&win)[W], const A* w, A (&acc)[N]) {
  static_assert(W == N + K - 1);
#pragma unroll
  for (int f = 0; f < K; ++f) {
    const A tap = w[f];
    if (!SkipZeros || tap != A(0)) {
#pragma unroll
      for (int j = 0; j < N; ++j)
        acc[j] = fma(tap, win[f + j], acc[j]);
    }
  }
}

template <int W, class A>
__device__ __forceinline__ void convolve_load_window(const A* row, int step, A (&win)[W]) {
#pragma unroll
  for (int i = 0; i < W; ++i)
    win[i] = row[i * step];
}

template <int K, bool SkipZeros, int N, class A>
__device__ __forceinline__ void convolve_window(const A* row, int step, const A* w, A (&acc)[N]) {
  A win[N + K - 1];
  convolve_load_window(row, step, win);
  convolve_apply<K, SkipZeros>(win, w, acc);
}

// Plane z of the grid: image b, channel c.
struct convolve_plane {
  long long image;
  long long channel;
};
__device__ __forceinline__ convolve_plane convolve_plane_of(const convolve_geometry& g) {
  const long long z = static_cast<long long>(blockIdx.z) + g.plane_offset;
  return {z / g.channels, z % g.channels};
}

// Writes the staged results out[tile_h][tile_w] (shared) to the plane's
// tile at (y0, x0): 16-byte stores where allowed, else one by one.
template <class T, class A>
__device__ __forceinline__ void convolve_store_tile(const A* staged, const convolve_geometry& g,
                                                    T* __restrict__ dst, long long y0,
                                                    long long x0) {
  constexpr int V = 16 / sizeof(T) > 0 ? int(16 / sizeof(T)) : 1;
  if constexpr (sizeof(T) >= 4) {
    if (g.vector_out) {
      constexpr int chunks = convolve_tile_w / V;
      for (int r = threadIdx.y; r < convolve_tile_h; r += convolve_threads_y) {
        const long long y = y0 + r;
        if (y >= g.rows) break;
        T* row = dst + y * g.out_ld;
        for (int q = threadIdx.x; q < chunks; q += convolve_threads_x) {
          const long long x = x0 + static_cast<long long>(q) * V;
          if (x >= g.cols) break;
          const A* s = staged + r * convolve_tile_w + q * V;
          if (x + V <= g.cols) {
            vector_of<T, V> v;
            if constexpr (std::is_same_v<A, T>) {
              v = *reinterpret_cast<const vector_of<T, V>*>(s);  // one 16-byte shared load
            } else {
#pragma unroll
              for (int e = 0; e < V; ++e)
                v.items[e] = static_cast<T>(s[e]);
            }
            *reinterpret_cast<vector_of<T, V>*>(row + x) = v;
          } else {
            for (int e = 0; x + e < g.cols; ++e)
              row[x + e] = static_cast<T>(s[e]);
          }
        }
      }
      return;
    }
  }
  for (int r = threadIdx.y; r < convolve_tile_h; r += convolve_threads_y) {
    const long long y = y0 + r;
    if (y >= g.rows) break;
    T* row = dst + y * g.out_ld;
    for (int c = threadIdx.x; c < convolve_tile_w; c += convolve_threads_x) {
      const long long x = x0 + c;
      if (x >= g.cols) break;
      row[x * g.channels] = convolve_store_value<T>(staged[r * convolve_tile_w + c]);
    }
  }
}

// FullRows: the filter has K rows (krows == K, K <= 17), so the loop over
// the input rows is unrolled and every tap is an immediate operand of its
// FMAs (a constant-bank broadcast, no load); otherwise the taps of a row
// are read from the parameter space with a row index (one LDC per tap for
// 7 FMAs).
template <class T, int K, bool SkipZeros, bool FullRows>
__global__ void __launch_bounds__(convolve_threads_x* convolve_threads_y,
                                  convolve_general_min_blocks<T, K, FullRows>)
    convolve_general_kernel(const T* __restrict__ in, T* __restrict__ out, convolve_geometry g,
                            convolve_taps<convolve_acc_t<T>> taps) {
  using A = convolve_acc_t<T>;
  constexpr int R = convolve_rows_per_thread;
  constexpr int N = convolve_outputs_x;
  extern __shared__ __align__(16) unsigned char convolve_shared[];
  A* tile = reinterpret_cast<A*>(convolve_shared);
  const convolve_plane p = convolve_plane_of(g);
  const T* src = in + p.image * g.in_stride + p.channel;
  T* dst = out + p.image * g.out_stride + p.channel;
  const long long x0 = static_cast<long long>(blockIdx.x) * convolve_tile_w;
  const long long y0 = static_cast<long long>(blockIdx.y) * convolve_tile_h;
  convolve_stage_tile<K>(src, g, x0 - g.ax4, y0 - g.ay, tile);
  __syncthreads();

  // Thread (x, y) computes N consecutive outputs of the R consecutive rows
  // R y .. R y + R - 1: each input row's window is loaded once and used by
  // every output row it reaches (filter row i - r for output row r), so a
  // window serves up to R x N x K FMAs instead of N x K.
  A acc[R][N];
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc[r][j] = A(0);
  }
  const A* first = tile + threadIdx.y * R * g.sw + (g.ax4 - g.ax) + threadIdx.x * N;
  if constexpr (FullRows) {
#pragma unroll
    for (int i = 0; i < K + R - 1; ++i) {
      A win[N + K - 1];
      convolve_load_window(first + i * g.sw, 1, win);
#pragma unroll
      for (int r = 0; r < R; ++r) {
        if (i - r >= 0 && i - r < K)
          convolve_apply<K, SkipZeros>(win, taps.w + (i - r) * K, acc[r]);
      }
    }
  } else {
    for (int i = 0; i < g.krows + R - 1; ++i) {
      A win[N + K - 1];
      convolve_load_window(first + i * g.sw, 1, win);
#pragma unroll
      for (int r = 0; r < R; ++r) {
        const int fy = i - r;  // warp-uniform
        if (fy >= 0 && fy < g.krows) convolve_apply<K, SkipZeros>(win, taps.w + fy * K, acc[r]);
      }
    }
  }
  __syncthreads();  // the tile is read; reuse it for the results
#pragma unroll
  for (int r = 0; r < R; ++r) {
#pragma unroll
    for (int j = 0; j < N; ++j)
      tile[(threadIdx.y * R + r) * convolve_tile_w + threadIdx.x * N + j] = acc[r][j];
  }
  __syncthreads();
  convolve_store_tile(tile, g, dst, y0, x0);
}

template <class T, int K, bool SkipZeros>
__global__ void __launch_bounds__(convolve_threads_x* convolve_threads_y, convolve_min_blocks<T, K>)
    convolve_separable_kernel(const T* __restrict__ in, T* __restrict__ out, convolve_geometry g,
                              convolve_taps<convolve_acc_t<T>> taps) {
  using A = convolve_acc_t<T>;
  extern __shared__ __align__(16) unsigned char convolve_shared[];
  A* tile = reinterpret_cast<A*>(convolve_shared);
  const convolve_plane p = convolve_plane_of(g);
  const T* src = in + p.image * g.in_stride + p.channel;
  T* dst = out + p.image * g.out_stride + p.channel;
  constexpr int TH = convolve_separable_tile_h<A, K>;
  constexpr int CN = convolve_separable_column_outputs<A, K>;
  const long long x0 = static_cast<long long>(blockIdx.x) * convolve_tile_w;
  const long long y0 = static_cast<long long>(blockIdx.y) * TH;
  convolve_stage_tile<K>(src, g, x0 - g.ax4, y0 - g.ay, tile);
  __syncthreads();

  // Row pass, in place: warp y filters rows y, y + 8, ...; the results of
  // a row take its first 224 columns.
  for (int r = threadIdx.y; r < g.sh; r += convolve_threads_y) {
    A* row = tile + r * g.sw;
    A acc[convolve_outputs_x];
#pragma unroll
    for (int j = 0; j < convolve_outputs_x; ++j)
      acc[j] = A(0);
    convolve_window<K, SkipZeros>(row + (g.ax4 - g.ax) + threadIdx.x * convolve_outputs_x, 1,
                                  taps.w, acc);
    __syncwarp();  // every lane has read its window before any lane writes
#pragma unroll
    for (int j = 0; j < convolve_outputs_x; ++j)
      row[threadIdx.x * convolve_outputs_x + j] = acc[j];
  }
  __syncthreads();

  // Column pass: item = (column, group of CN rows), consecutive threads in
  // consecutive columns.
  const int tid = threadIdx.y * convolve_threads_x + threadIdx.x;
  constexpr int groups = TH / CN;
  const A* w = taps.w + convolve_column_taps_at;
  for (int item = tid; item < groups * convolve_tile_w;
       item += convolve_threads_x * convolve_threads_y) {
    const int group = item / convolve_tile_w;
    const int c = item - group * convolve_tile_w;
    const long long x = x0 + c;
    const long long y = y0 + group * CN;
    if (x >= g.cols || y >= g.rows) continue;
    A acc[CN];
#pragma unroll
    for (int j = 0; j < CN; ++j)
      acc[j] = A(0);
    convolve_window<K, SkipZeros>(tile + group * CN * g.sw + c, g.sw, w, acc);
#pragma unroll
    for (int j = 0; j < CN; ++j) {
      if (y + j < g.rows)
        dst[(y + j) * g.out_ld + x * g.channels] = convolve_store_value<T>(acc[j]);
    }
  }
}

}  // namespace gpuprim::cuda_impl
