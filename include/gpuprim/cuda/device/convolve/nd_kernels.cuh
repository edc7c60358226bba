// The N-D filters on the GPU (gpuprim/convolve_nd.hpp), the kernels:
// scipy.ndimage's correlate1d, uniform_filter1d and correlate with the
// host backend's arithmetic, bit for bit. The host driver (taps upload,
// in-place copy, launches) is cuda/device/device_convolve_nd.cuh.
//
// Shape of the algorithm:
//  1. The taps (1-D weights, or N-D correlate's kept weights and their
//     offsets per axis) reach device memory through upload kernels whose
//     parameter is a 16 KiB chunk of them: no host memory has to outlive
//     the call, and a CUDA-graph capture records the values themselves.
//  2. An input that overlaps the output (the 1-D filters in place) is first
//     gathered into a C-order scratch copy, so no output is written before
//     every read of it.
//  3. correlate1d: one thread per output element (grid-stride). It splits
//     its C-order index into coordinates, reads the taps' inputs along the
//     axis through detail::border_index (cval outside for border::zero),
//     and sums in double in SciPy's order: an odd filter whose halves are
//     equal (opposite) within DBL_EPSILON adds (x[-j] +- x[j]) * w[j] after
//     the centre tap, any other the last tap first, then the rest from the
//     first. Every add and multiply is __dadd_rn / __dmul_rn, so nvcc cannot
//     contract them to FMAs the host does not do.
//  4. uniform_filter1d: SciPy's running sum (the sum of the first window,
//     then sum += entering - leaving, each output sum / size) is
//     sequential, and its bits depend on that order, so a line is never
//     split. A block takes 32 lines (neighbours in memory when the axis is
//     not the last; one line when it is) in chunks of positions: all its
//     threads compute the differences entering - leaving into shared
//     memory, one lane per line adds them to its sum in order, all threads
//     divide and store. Only the adds are sequential.
//  5. correlate (N-D weights): one thread per output element; the kept taps
//     in C order from 0.0, each at its border-mapped position on every
//     axis, or cval when any axis falls outside under border::zero.
//  6. Each result is rounded once to the output type by detail::nd_store
//     (correlate: nd_store_unsigned_safe), the same function the host
//     compiles; the output type is a run-time switch per element, so one
//     kernel per input type serves every output type.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/detail/convolve/nd.hpp"
#include "gpuprim/detail/convolve/plan.hpp"
#include "gpuprim/detail/convolve/precompiled.hpp"

namespace gpuprim::cuda_impl {

// Bytes of taps one upload launch carries (its parameter).
inline constexpr std::size_t nd_upload_bytes = 16 * 1024;

struct nd_upload_chunk {
  unsigned char bytes[nd_upload_bytes];
};

// (A template only so that every translation unit may define it.)
template <int = 0>
__global__ void nd_upload_kernel(nd_upload_chunk chunk, unsigned n, unsigned char* dst) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
    dst[i] = chunk.bytes[i];
}

__device__ inline long long nd_thread_index() {
  return static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline long long nd_thread_count() {
  return static_cast<long long>(gridDim.x) * blockDim.x;
}

// Writes v to element `off` of `out`, rounded as SciPy rounds it.
template <bool UnsignedSafe>
__device__ void nd_write(const detail::nd_array& out, long long off, double v) {
  switch (out.type) {
#define GPUPRIM_ND_STORE(name, type)                                                        \
  case detail::nd_type::name:                                                               \
    static_cast<type*>(out.data)[off] =                                                     \
        UnsignedSafe ? detail::nd_store_unsigned_safe<type>(v) : detail::nd_store<type>(v); \
    return;
    GPUPRIM_CONVOLVE_ND_TYPES(GPUPRIM_ND_STORE)
#undef GPUPRIM_ND_STORE
  }
}

// Copies `in` into dst in C order (the scratch copy of an overlapping input).
template <class In>
__global__ void nd_gather_kernel(detail::nd_array in, In* dst, long long total) {
  const In* src = static_cast<const In*>(in.data);
  for (long long i = nd_thread_index(); i < total; i += nd_thread_count()) {
    long long r = i, off = 0;
    for (int a = in.ndim - 1; a >= 0; --a) {
      off += r % in.shape[a] * in.strides[a];
      r /= in.shape[a];
    }
    dst[i] = src[off];
  }
}

// The value at index i of a line of n values `step` apart, under `mode`.
template <class In>
__device__ inline double nd_line_value(const In* line, long long step, long long i, long long n,
                                       border mode, double cval) {
  const long long at = detail::border_index(i, n, mode);
  return at < 0 ? cval : detail::nd_load(line[at * step]);
}

// correlate1d along `axis` with the k taps w (sym: detail::nd_symmetry).
template <class In>
__global__ void nd_correlate1d_kernel(detail::nd_array in, detail::nd_array out, const double* w,
                                      long long total, int axis, long long k, long long origin,
                                      int sym, border mode, double cval) {
  const long long n = in.shape[axis];
  const long long step = in.strides[axis];
  const long long size1 = k / 2;
  const long long size2 = k - size1 - 1;
  const double* fw = w + size1;  // fw[-size1 .. size2]
  for (long long i = nd_thread_index(); i < total; i += nd_thread_count()) {
    long long r = i, in_off = 0, out_off = 0, x = 0;
    for (int a = in.ndim - 1; a >= 0; --a) {
      const long long c = r % in.shape[a];
      r /= in.shape[a];
      if (a == axis) {
        x = c;
      } else {
        in_off += c * in.strides[a];
      }
      out_off += c * out.strides[a];
    }
    const In* line = static_cast<const In*>(in.data) + in_off;
    const long long at = x - origin;  // tap j reads index at + j
    double acc;
    if (sym != 0) {
      acc = __dmul_rn(nd_line_value(line, step, at, n, mode, cval), fw[0]);
      for (long long j = -size1; j < 0; ++j) {
        const double lo = nd_line_value(line, step, at + j, n, mode, cval);
        const double hi = nd_line_value(line, step, at - j, n, mode, cval);
        const double pair = sym > 0 ? __dadd_rn(lo, hi) : __dsub_rn(lo, hi);
        acc = __dadd_rn(acc, __dmul_rn(pair, fw[j]));
      }
    } else {
      acc = __dmul_rn(nd_line_value(line, step, at + size2, n, mode, cval), fw[size2]);
      for (long long j = -size1; j < size2; ++j)
        acc = __dadd_rn(acc, __dmul_rn(nd_line_value(line, step, at + j, n, mode, cval), fw[j]));
    }
    nd_write<false>(out, out_off, acc);
  }
}

// uniform_filter1d: the lines of one block (a group of `group` lines,
// consecutive in the C-order enumeration of every axis but `axis`), and the
// shared memory of the chunks of their running sums.
inline constexpr int nd_mean_threads = 256;
inline constexpr int nd_mean_slots = 2048;  // doubles: chunk x group
inline constexpr int nd_mean_group = 32;    // lines a block, when the axis is not the last

// uniform_filter1d along `axis` (lines: the product of the other axes'
// sizes). Per chunk of positions: (1) every thread computes differences
// entering - leaving, (2) lane g of warp 0 adds line g's differences to its
// running sum in order (the only sequential step: one shared load and one
// add a position), (3) every thread divides and stores. group 32 (the axis
// is not the last): consecutive threads read and write consecutive lines,
// which are neighbours in memory; group 1: consecutive positions of one line.
template <class In>
__global__ void __launch_bounds__(nd_mean_threads)
    nd_uniform1d_kernel(detail::nd_array in, detail::nd_array out, long long lines, int group,
                        int axis, long long k, long long origin, border mode, double cval) {
  __shared__ double sums[nd_mean_slots];
  __shared__ long long in_base[nd_mean_group], out_base[nd_mean_group];
  const In* src = static_cast<const In*>(in.data);
  const int chunk = nd_mean_slots / group;
  const bool lane_is_line = group > 1;
  const long long n = in.shape[axis];
  const long long step = in.strides[axis];
  const long long out_step = out.strides[axis];
  const long long left = k / 2 + origin;  // value t of the padded line is index t - left
  const double kd = static_cast<double>(k);
  const int slots = chunk * group;
  for (long long first = static_cast<long long>(blockIdx.x) * group; first < lines;
       first += static_cast<long long>(gridDim.x) * group) {
    const int count = static_cast<int>(lines - first < group ? lines - first : group);
    if (static_cast<int>(threadIdx.x) < count) {
      long long r = first + threadIdx.x, in_off = 0, out_off = 0;
      for (int a = in.ndim - 1; a >= 0; --a) {
        if (a == axis) continue;
        const long long c = r % in.shape[a];
        r /= in.shape[a];
        in_off += c * in.strides[a];
        out_off += c * out.strides[a];
      }
      in_base[threadIdx.x] = in_off;
      out_base[threadIdx.x] = out_off;
    }
    __syncthreads();
    double sum = 0.0;  // lane g of warp 0: line g's running sum
    if (static_cast<int>(threadIdx.x) < count) {
      const In* line = src + in_base[threadIdx.x];
      for (long long t = 0; t < k; ++t)
        sum = __dadd_rn(sum, nd_line_value(line, step, t - left, n, mode, cval));
    }
    for (long long x0 = 0; x0 < n; x0 += chunk) {
      const int len = static_cast<int>(n - x0 < chunk ? n - x0 : chunk);
      for (int i = threadIdx.x; i < slots; i += blockDim.x) {  // (1)
        const int c = lane_is_line ? i / group : i % chunk;
        const int g = lane_is_line ? i % group : i / chunk;
        const long long x = x0 + c;
        if (c >= len || g >= count || x == 0) continue;
        const In* line = src + in_base[g];
        const double enter = nd_line_value(line, step, x - 1 + k - left, n, mode, cval);
        const double leave = nd_line_value(line, step, x - 1 - left, n, mode, cval);
        sums[c * group + g] = __dsub_rn(enter, leave);
      }
      __syncthreads();
      if (static_cast<int>(threadIdx.x) < count) {  // (2)
        double* at = sums + threadIdx.x;
        for (int c = 0; c < len; ++c, at += group) {
          if (x0 + c > 0) sum = __dadd_rn(sum, *at);
          *at = sum;
        }
      }
      __syncthreads();
      for (int i = threadIdx.x; i < slots; i += blockDim.x) {  // (3)
        const int c = lane_is_line ? i / group : i % chunk;
        const int g = lane_is_line ? i % group : i / chunk;
        if (c >= len || g >= count) continue;
        nd_write<false>(out, out_base[g] + (x0 + c) * out_step, __ddiv_rn(sums[c * group + g], kd));
      }
      __syncthreads();
    }
  }
}

// correlate with N-D weights: `taps` kept taps, weights w, offsets off
// (ndim per tap).
template <class In>
__global__ void nd_correlate_kernel(detail::nd_array in, detail::nd_array out, const double* w,
                                    const long long* off, long long taps, long long total,
                                    border mode, double cval) {
  const In* src = static_cast<const In*>(in.data);
  const int nd = in.ndim;
  long long c[detail::nd_max_axes];
  for (long long i = nd_thread_index(); i < total; i += nd_thread_count()) {
    long long r = i, out_off = 0;
    for (int a = nd - 1; a >= 0; --a) {
      c[a] = r % in.shape[a];
      r /= in.shape[a];
      out_off += c[a] * out.strides[a];
    }
    double acc = 0.0;
    for (long long t = 0; t < taps; ++t) {
      const long long* o = off + t * nd;
      long long at = 0;
      bool outside = false;
      for (int a = 0; a < nd; ++a) {
        const long long p = detail::border_index(c[a] + o[a], in.shape[a], mode);
        if (p < 0) {
          outside = true;
          break;
        }
        at += p * in.strides[a];
      }
      const double v = outside ? cval : detail::nd_load(src[at]);
      acc = __dadd_rn(acc, __dmul_rn(w[t], v));
    }
    nd_write<true>(out, out_off, acc);
  }
}

}  // namespace gpuprim::cuda_impl
