// The solvers' kernels (see gpuprim/cuda/device/device_solve.cuh for the
// shape of the algorithm): the scalars every iteration reads and writes in
// device memory, and three grid-stride kernel kinds (a matrix-vector
// product with a per-row epilogue, a per-element pass with dot products,
// a per-element update), each starting with a guard on the halt flag; the
// reducing kinds fold their dot products in block order and run a finisher
// on the last block.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/detail/solve/solve.hpp"

namespace gpuprim::cuda_detail {

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
  int breakdown;
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

// No minimum of blocks here: at 48 registers (5 blocks/SM) the solvers'
// epilogues spill, and one CG iteration took 628 us against 610 us at 62
// registers.
template <int G, int N, class Op, class T, class Epilogue, class Finish>
__global__ void __launch_bounds__(spmv_threads)
    matvec_reduce(Op A, const T* __restrict__ x, Epilogue epilogue, Finish finish,
                  reduction_slots slots, int g) {
  if (skip_block(g, slots.scalars)) return;
  const solver_scalars sc = *slots.scalars;
  dots<N> acc{};
  for_each_row<G>(A, x, [&](std::size_t row, T ax) {
    const dots<N> d = epilogue(row, ax, sc);
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc.v[j] += d.v[j];
  });
  reduce_and_finish<N>(acc, slots, finish);
}

template <int N, class Body, class Finish>
__global__ void __launch_bounds__(spmv_threads)
    vector_reduce(std::size_t n, Body body, Finish finish, reduction_slots slots, int g) {
  if (skip_block(g, slots.scalars)) return;
  const solver_scalars sc = *slots.scalars;
  dots<N> acc{};
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * spmv_threads) {
    const dots<N> d = body(i, sc);
#pragma unroll
    for (int j = 0; j < N; ++j)
      acc.v[j] += d.v[j];
  }
  reduce_and_finish<N>(acc, slots, finish);
}

template <class Body>
__global__ void __launch_bounds__(spmv_threads)
    vector_update(std::size_t n, Body body, solver_scalars* scalars, int g) {
  if (skip_block(g, scalars)) return;
  const solver_scalars sc = *scalars;
  for (std::size_t i = static_cast<std::size_t>(blockIdx.x) * spmv_threads + threadIdx.x; i < n;
       i += static_cast<std::size_t>(gridDim.x) * spmv_threads)
    body(i, sc);
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

}  // namespace gpuprim::cuda_detail
