// The solvers' kernels (see gpuprim/cuda/device/device_solve.cuh for the
// shape of the algorithm): the scalars every iteration reads and writes in
// device memory, and three grid-stride kernel kinds (a matrix-vector
// product with a per-row epilogue, a per-element pass with dot products,
// a per-element update), each starting with a guard on the halt flag; the
// reducing kinds fold their dot products in block order and run a finisher
// on the last block. The vector kinds take 16 bytes of each vector at a
// time (slices); the matvec on rows of at most thread_row_entries entries
// takes a thread per row.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <type_traits>

#include "gpuprim/cuda/device/spmv/kernels.cuh"
#include "gpuprim/cuda/support/vector.cuh"
#include "gpuprim/detail/solve/solve.hpp"

namespace gpuprim::cuda_impl {

struct solver_scalars {
  double b2;
  double tol2b2;  // max(tolerance^2 ||b||^2, atol^2)
  double rr;      // ||r||^2
  double rz;      // r.z (CG)
  double rho;     // rhat.r (BiCGStab)
  double alpha;
  double beta;
  double omega;
  double breakdown_value;
  int halt;
  int breakdown;    // 0, or the solve_breakdown that stopped the iteration
  int stopped;      // solve_watch's verdict: diverged or stagnated
  int run_update;   // this iteration's x update may run
  int s_converged;  // BiCGStab: ||s|| met the tolerance
  unsigned long long iterations;
  unsigned long long evaluated;  // residuals recorded (history entries)
  unsigned long long max_iterations;
  solve_watch watch;
};

template <int N>
struct dots {
  double v[N];
};

// What a kernel checks first.
enum guard : int {
  guard_none = 0,
  guard_halt = 1,        // return when halted
  guard_halt_clear = 2,  // return when halted, and clear run_update
  guard_update = 3,      // return unless run_update
};

struct reduction_slots {
  double* partials;  // gridDim.x * N
  unsigned* ticket;  // 0 between kernels
  solver_scalars* scalars;
};

__device__ __forceinline__ bool skip_block(int g, solver_scalars* s) {
  if (g == guard_none) return false;
  if (g == guard_update) return !s->run_update;
  const bool halted = s->halt != 0;
  // Every block of the grid skips, so the previous kernels are done with
  // run_update: block 0 may clear it.
  if (halted && g == guard_halt_clear && blockIdx.x == 0 && threadIdx.x == 0) s->run_update = 0;
  return halted;
}

template <int N, class Finish>
__device__ __forceinline__ void reduce_and_finish(dots<N> mine, const reduction_slots& slots,
                                                  Finish finish) {
  constexpr int warps = spmv_threads / 32;
  __shared__ double warp_sums[N][warps];
  __shared__ bool last_block;
  const int lane = threadIdx.x % 32, warp = threadIdx.x / 32;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    double v = mine.v[j];
    for (int m = 16; m > 0; m /= 2)
      v += __shfl_xor_sync(0xffffffffu, v, m);
    if (lane == 0) warp_sums[j][warp] = v;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
#pragma unroll
    for (int j = 0; j < N; ++j) {
      double t = 0;
      for (int w = 0; w < warps; ++w)
        t += warp_sums[j][w];
      slots.partials[static_cast<std::size_t>(blockIdx.x) * N + j] = t;
    }
    __threadfence();
    last_block = atomicAdd(slots.ticket, 1u) == gridDim.x - 1;
  }
  __syncthreads();
  if (!last_block) return;
  __threadfence();
  dots<N> total;
#pragma unroll
  for (int j = 0; j < N; ++j) {
    double v = 0;
    for (unsigned b = threadIdx.x; b < gridDim.x; b += spmv_threads)
      v += __ldcg(slots.partials + static_cast<std::size_t>(b) * N + j);
    for (int m = 16; m > 0; m /= 2)
      v += __shfl_xor_sync(0xffffffffu, v, m);
    __syncthreads();
    if (lane == 0) warp_sums[j][warp] = v;
    __syncthreads();
    double t = 0;
    for (int w = 0; w < warps; ++w)
      t += warp_sums[j][w];
    total.v[j] = t;
  }
  if (threadIdx.x == 0) {
    finish(total, *slots.scalars);
    *slots.ticket = 0;
  }
}

// ---- the matvec --------------------------------------------------------------------

// The solvers' G (lanes per row, device_spmv.cuh's with_lanes) of a thread
// per row, for CSR matrices whose rows have at most thread_row_entries
// entries (the rule: solve_thread_per_row in gpuprim/detail/solve/solve.hpp).
inline constexpr int thread_row_group = -1;
inline constexpr int thread_row_entries = static_cast<int>(detail::solve_thread_row_entries);

__device__ __forceinline__ float mul_rn(float a, float b) {
  return __fmul_rn(a, b);
}
__device__ __forceinline__ double mul_rn(double a, double b) {
  return __dmul_rn(a, b);
}
__device__ __forceinline__ float add_rn(float a, float b) {
  return __fadd_rn(a, b);
}
__device__ __forceinline__ double add_rn(double a, double b) {
  return __dadd_rn(a, b);
}

// A x of R rows, row u's entries at vals(k), cols(k) for k in [begin[u],
// end[u]), x[c] given by x_at(c): thread_row_entries entries of every row
// (indices past a row's end clamped to its last entry, or to entry 0 for
// an empty row: the matrix must have an entry; their products left out),
// then their gathers of x, all issued without a branch before the first
// product; then the products rounded and summed in row order, as the
// staged rows sum them, so A x is the same bit for bit; rows longer than
// thread_row_entries finish in a loop.
template <int R, class T, class I, class V, class C, class X>
__device__ __forceinline__ void rows_times(V vals, C cols, const I (&begin)[R], const I (&end)[R],
                                           X x_at, T (&sum)[R]) {
  constexpr int E = thread_row_entries;
  T v[R][E], xs[R][E];
  I c[R][E];
#pragma unroll
  for (int u = 0; u < R; ++u) {
    const I last = end[u] > 0 ? end[u] - 1 : I(0);
#pragma unroll
    for (int j = 0; j < E; ++j) {
      const I k = begin[u] + j < last ? begin[u] + j : last;
      v[u][j] = vals(k);
      c[u][j] = cols(k);
    }
  }
#pragma unroll
  for (int u = 0; u < R; ++u) {
#pragma unroll
    for (int j = 0; j < E; ++j)
      xs[u][j] = x_at(c[u][j]);
  }
#pragma unroll
  for (int u = 0; u < R; ++u) {
    sum[u] = 0;
#pragma unroll
    for (int j = 0; j < E; ++j)
      sum[u] = begin[u] + j < end[u] ? add_rn(sum[u], mul_rn(v[u][j], xs[u][j])) : sum[u];
    for (I k = begin[u] + E; k < end[u]; ++k)
      sum[u] = add_rn(sum[u], mul_rn(vals(k), x_at(cols(k))));
  }
}

// Calls row_done(row, A x of the row) for every row, a thread per row in a
// grid-stride loop (rows_times). Bound attacked: latency. The staged-rows
// strategy (64 registers, half occupancy, shared-memory stages and their
// syncs) reached 45-49% of DRAM bandwidth on 5-entry rows; here a thread
// issues all its row's loads, then its gathers, before it waits, without
// a branch and at full occupancy.
template <class T, class I, class RowDone>
__device__ __forceinline__ void for_each_thread_row(const csr_device_operator<T, I>& A, const T* x,
                                                    RowDone row_done) {
  for (std::size_t row = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x;
       row < A.rows; row += static_cast<std::size_t>(gridDim.x) * spmv_threads) {
    const I begin[1] = {__ldg(A.offsets + row)};
    const I end[1] = {__ldg(A.offsets + row + 1)};
    T sum[1];
    rows_times<1>([&](I k) { return __ldg(A.values + k); }, [&](I k) { return __ldg(A.cols + k); },
                  begin, end, [&](I c) { return __ldg(x + c); }, sum);
    row_done(row, sum[0]);
  }
}

// No minimum of blocks here: at 48 registers (5 blocks/SM) the solvers'
// epilogues spill on the staged rows, and one CG iteration took 628 us
// against 610 us at 62 registers. A thread per row takes 32 registers (8
// blocks/SM) as rows_times is written: the same code on scalars instead
// of one-row arrays took 40.
template <int G, int N, class Op, class T, class Epilogue, class Finish>
__global__ void __launch_bounds__(spmv_threads)
    matvec_reduce(Op A, const T* __restrict__ x, Epilogue epilogue, Finish finish,
                  reduction_slots slots, int g) {
  if (skip_block(g, slots.scalars)) return;
  const solver_scalars sc = *slots.scalars;
  dots<N> acc{};
  auto row_done = [&](std::size_t row, T ax) {
    const dots<N> d = epilogue(row, ax, sc);
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc.v[j] += d.v[j];
  };
  if constexpr (G == thread_row_group) {
    for_each_thread_row(A, x, row_done);
  } else {
    for_each_row<G>(A, x, row_done);
  }
  reduce_and_finish<N>(acc, slots, finish);
}

// ---- vectors in 16-byte slices ---------------------------------------------------

// W elements of T as one access of W * sizeof(T) bytes (16 bytes: float x
// 4, double x 2; W = vector_items<T>, or 1): the library's vector_of, with
// the arithmetic the solvers' bodies use.
template <class T, int W>
using pack = vector_of<T, W>;

// The pack of f(a[j], b[j]).
template <class T, int W, class F>
__device__ __forceinline__ pack<T, W> elementwise(const pack<T, W>& a, const pack<T, W>& b, F f) {
  pack<T, W> o;
#pragma unroll
  for (int j = 0; j < W; ++j)
    o.items[j] = f(a.items[j], b.items[j]);
  return o;
}
template <class T, int W>
__device__ __forceinline__ pack<T, W> operator+(const pack<T, W>& a, const pack<T, W>& b) {
  return elementwise(a, b, [](T x, T y) { return x + y; });
}
template <class T, int W>
__device__ __forceinline__ pack<T, W> operator-(const pack<T, W>& a, const pack<T, W>& b) {
  return elementwise(a, b, [](T x, T y) { return x - y; });
}
template <class T, int W>
__device__ __forceinline__ pack<T, W> operator*(const pack<T, W>& a, const pack<T, W>& b) {
  return elementwise(a, b, [](T x, T y) { return x * y; });
}
template <class T, int W>
__device__ __forceinline__ pack<T, W> operator*(T a, const pack<T, W>& b) {
  return elementwise(b, b, [a](T y, T) { return a * y; });
}
// The sum of the products in double.
template <class T, int W>
__device__ __forceinline__ double dot(const pack<T, W>& a, const pack<T, W>& b) {
  double s = 0;
#pragma unroll
  for (int j = 0; j < W; ++j)
    s += double(a.items[j]) * double(b.items[j]);
  return s;
}

// The W elements from index i of the vectors a vector kernel walks: a body
// written once against slices (at.load(p), at.store(p, v), the operators
// of pack) runs on one element (W = 1) or on 16 bytes of each vector.
template <int W>
struct slice {
  std::size_t i;
  template <class T>
  __device__ __forceinline__ pack<T, W> load(const T* p) const {
    return *reinterpret_cast<const pack<T, W>*>(p + i);
  }
  template <class T>
  __device__ __forceinline__ void store(T* p, const pack<T, W>& v) const {
    *reinterpret_cast<pack<T, W>*>(p + i) = v;
  }
};

// How a vector kernel walks n elements: slices of `width`, after the
// `head` elements before the vectors' common 16-byte boundary.
struct vector_layout {
  int width = 1;
  std::size_t head = 0;
};

// Slices of 16 bytes when every vector a kernel touches (null pointers
// left out) lies at the same address modulo 16 (the solvers place their
// own vectors so: device_solver::vectors_like); else one element at a time.
template <class T>
vector_layout layout_of(std::size_t n, std::initializer_list<const T*> vectors) {
  constexpr int W = vector_items<T>;
  if constexpr (W == 1) {
    return {};
  } else {
    std::uintptr_t offset = 16;  // none seen yet
    for (const T* v : vectors) {
      if (v == nullptr) continue;
      const std::uintptr_t o = reinterpret_cast<std::uintptr_t>(v) % 16;
      if (o % sizeof(T) != 0 || (offset != 16 && o != offset)) return {};
      offset = o;
    }
    const std::size_t head = offset == 16 ? 0 : (16 - offset) % 16 / sizeof(T);
    return {W, std::min(head, n)};
  }
}

// Calls f(slice) over n elements, grid-stride: slices of one element for
// the `head` elements before the common 16-byte boundary and for the last
// (n - head) % W, slices of W (one 16-byte access per vector) between.
template <int W, class F>
__device__ __forceinline__ void for_each_slice(std::size_t n, std::size_t head, F f) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * spmv_threads;
  const std::size_t pieces = (n - head) / W, tail = head + pieces * W;
  if constexpr (W > 1) {
    if (t < head) f(slice<1>{t});
    if (t < n - tail) f(slice<1>{tail + t});
  }
  for (std::size_t k = t; k < pieces; k += stride)
    f(slice<W>{head + k * W});
}

// Calls f(std::integral_constant<int, W>{}) for the layout's width.
template <class T, class F>
void with_width(const vector_layout& layout, F&& f) {
  if (layout.width == vector_items<T>) return f(std::integral_constant<int, vector_items<T>>{});
  return f(std::integral_constant<int, 1>{});
}

// Bound attacked by both vector kinds: latency. One element of each vector
// per thread left 43-102 cycles a memory instruction waiting on DRAM at
// full occupancy; 16 bytes of each per thread keep 4x the bytes in flight.
template <int W, int N, class Body, class Finish>
__global__ void __launch_bounds__(spmv_threads)
    vector_reduce(std::size_t n, std::size_t head, Body body, Finish finish, reduction_slots slots,
                  int g) {
  if (skip_block(g, slots.scalars)) return;
  const solver_scalars sc = *slots.scalars;
  dots<N> acc{};
  for_each_slice<W>(n, head, [&](auto at) {
    const dots<N> d = body(at, sc);
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc.v[j] += d.v[j];
  });
  reduce_and_finish<N>(acc, slots, finish);
}

template <int W, class Body>
__global__ void __launch_bounds__(spmv_threads)
    vector_update(std::size_t n, std::size_t head, Body body, solver_scalars* scalars, int g) {
  if (skip_block(g, scalars)) return;
  const solver_scalars sc = *scalars;
  for_each_slice<W>(n, head, [&](auto at) { body(at, sc); });
}

// Inverse diagonal (times omega) and the first row with a zero or
// non-finite diagonal entry.
template <class Op, class T>
__global__ void __launch_bounds__(spmv_threads)
    inverse_diagonal(Op A, T scale, T* __restrict__ dinv, unsigned long long* first_bad) {
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x;
       i < A.rows; i += static_cast<std::size_t>(gridDim.x) * spmv_threads) {
    const T d = A.diagonal(i);
    if (d == T(0) || !isfinite(d)) {
      atomicMin(first_bad, static_cast<unsigned long long>(i));
      dinv[i] = T(0);
    } else {
      dinv[i] = scale / d;
    }
  }
}

}  // namespace gpuprim::cuda_impl
