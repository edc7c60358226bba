// The kernels of the CG probe (probe_cg.cu): production's finishers and
// bodies of one CG iteration, launched one at a time, and the variants
// it times against them (see probe_cg.cu for what each attacks).
// Production's kernels are a thread per row (R = 1) and 16-byte slices of
// one piece a thread (U = 1); the variants here are the other R and U,
// the tile staged in shared memory and the update fused into the matvec.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

#include "gpuprim/cuda/device/device_solve.cuh"

namespace cg_probe {

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_impl;

using T = float;
using I = std::int32_t;
using csr_op = gc::csr_device_operator<T, I>;
using solver = gc::device_solver<T, csr_op>;
constexpr int threads = gc::spmv_threads;  // reduce_and_finish folds 256 threads

// ---- the finishers (production's, from cg_iteration) ------------------------------

struct alpha_finish {
  __device__ void operator()(const gc::dots<1>& t, gc::solver_scalars& sc) const {
    const double pq = t.v[0];
    if (pq == 0 || !isfinite(pq) || sc.rz == 0) {
      gc::break_down(sc, gp::solve_breakdown::curvature, pq);
    } else {
      sc.alpha = sc.rz / pq;
      sc.run_update = 1;
    }
  }
};

struct beta_finish {
  double* history;
  int ring;
  __device__ void operator()(const gc::dots<2>& t, gc::solver_scalars& sc) const {
    sc.rr = t.v[0];
    sc.beta = t.v[1] / sc.rz;
    sc.rz = t.v[1];
    ++sc.iterations;
    gc::record(sc, history, ring, sc.rr);
    if (sc.rr <= sc.tol2b2) sc.halt = 1;
  }
};

// cg_iteration's bodies of the three kernels (no preconditioner), for
// production's kernels launched one at a time.
struct matvec_body {
  const T* p;
  T* q;
  __device__ gc::dots<1> operator()(std::size_t row, T ax, const gc::solver_scalars&) const {
    q[row] = ax;
    return gc::dots<1>{{double(p[row]) * double(ax)}};
  }
};
struct reduce_body {
  T* r;
  const T* q;
  template <class Slice>
  __device__ gc::dots<2> operator()(Slice at, const gc::solver_scalars& sc) const {
    const auto ri = at.load(r) - static_cast<T>(sc.alpha) * at.load(q);
    at.store(r, ri);
    return gc::dots<2>{{gc::dot(ri, ri), gc::dot(ri, ri)}};
  }
};
struct update_body {
  T* x;
  T* p;
  const T* r;
  template <class Slice>
  __device__ void operator()(Slice at, const gc::solver_scalars& sc) const {
    const auto pi = at.load(p);
    at.store(x, at.load(x) + static_cast<T>(sc.alpha) * pi);
    at.store(p, at.load(r) + static_cast<T>(sc.beta) * pi);
  }
};

// ---- vector passes in 16-byte pieces ----------------------------------------------

// Elements before the first 16-byte boundary of `p` (at most n).
std::size_t head_of(const T* p, std::size_t n) {
  const auto address = reinterpret_cast<std::uintptr_t>(p);
  return std::min<std::size_t>(n, ((16 - address % 16) % 16) / sizeof(T));
}

// Grid-stride over the n elements of vectors that share their alignment:
// the `head` elements before the first 16-byte boundary and the last
// (n - head) % 4 by one(i); the quads between by load(q) (q-th quad after
// the head) then finish(q, loaded), U quads of a thread loaded before the
// first is finished, so U x (vectors) 16-byte loads are in flight.
template <int U, class Load, class Finish, class One>
__device__ __forceinline__ void for_each_quad(std::size_t n, std::size_t head, Load load,
                                              Finish finish, One one) {
  const std::size_t t = static_cast<std::size_t>(blockIdx.x) * threads + threadIdx.x;
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  const std::size_t quads = (n - head) / 4, tail = head + quads * 4;
  if (t < head) one(t);
  if (t < n - tail) one(tail + t);
  using loaded = decltype(load(std::size_t{0}));
  for (std::size_t q0 = static_cast<std::size_t>(blockIdx.x) * threads * U + threadIdx.x;
       q0 < quads; q0 += stride * U) {
    loaded v[U];
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (q0 + u * threads < quads) v[u] = load(q0 + u * threads);
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (q0 + u * threads < quads) finish(q0 + u * threads, v[u]);
  }
}

struct two_quads {
  float4 a, b;
};
struct three_quads {
  float4 a, b, c;
};

// r -= alpha q with r.r and r.z (z = r), production's vector_reduce body.
// Bound attacked: latency (long_scoreboard 43-58 cycles an issue with one
// 4-byte load of each vector per thread in flight): U 16-byte loads of r
// and of q in flight per thread.
template <int U>
__global__ void __launch_bounds__(threads)
    reduce_quads(std::size_t n, std::size_t head, T* __restrict__ r, const T* __restrict__ q,
                 gc::reduction_slots slots, beta_finish fin, int g) {
  if (gc::skip_block(g, slots.scalars)) return;
  const T a = static_cast<T>(slots.scalars->alpha);
  gc::dots<2> acc{};
  auto add = [&](T ri) {
    acc.v[0] += double(ri) * double(ri);
    acc.v[1] += double(ri) * double(ri);
  };
  float4* r4 = reinterpret_cast<float4*>(r + head);
  const float4* q4 = reinterpret_cast<const float4*>(q + head);
  for_each_quad<U>(
      n, head,
      [&](std::size_t k) {
        return two_quads{r4[k], __ldcs(q4 + k)};
      },
      [&](std::size_t k, const two_quads& v) {
        float4 o;
        o.x = v.a.x - a * v.b.x;
        o.y = v.a.y - a * v.b.y;
        o.z = v.a.z - a * v.b.z;
        o.w = v.a.w - a * v.b.w;
        r4[k] = o;
        add(o.x);
        add(o.y);
        add(o.z);
        add(o.w);
      },
      [&](std::size_t i) {
        const T ri = r[i] - a * q[i];
        r[i] = ri;
        add(ri);
      });
  gc::reduce_and_finish<2>(acc, slots, fin);
}

// x += alpha p, p = r + beta p, production's vector_update body (no
// preconditioner). Bound attacked: latency (long_scoreboard 102 cycles an
// issue at 95% occupancy, 12 bytes in flight per thread): U 16-byte loads
// of x, p and r in flight per thread.
template <int U>
__global__ void __launch_bounds__(threads)
    update_quads(std::size_t n, std::size_t head, T* __restrict__ x, T* __restrict__ p,
                 const T* __restrict__ r, gc::solver_scalars* scalars, int g) {
  if (gc::skip_block(g, scalars)) return;
  const T a = static_cast<T>(scalars->alpha), b = static_cast<T>(scalars->beta);
  float4* x4 = reinterpret_cast<float4*>(x + head);
  float4* p4 = reinterpret_cast<float4*>(p + head);
  const float4* r4 = reinterpret_cast<const float4*>(r + head);
  for_each_quad<U>(
      n, head,
      [&](std::size_t k) {
        return three_quads{x4[k], p4[k], __ldcs(r4 + k)};
      },
      [&](std::size_t k, const three_quads& v) {
        float4 xo = v.a, po;
        xo.x += a * v.b.x;
        xo.y += a * v.b.y;
        xo.z += a * v.b.z;
        xo.w += a * v.b.w;
        po.x = v.c.x + b * v.b.x;
        po.y = v.c.y + b * v.b.y;
        po.z = v.c.z + b * v.b.z;
        po.w = v.c.w + b * v.b.w;
        __stcs(x4 + k, xo);
        p4[k] = po;
      },
      [&](std::size_t i) {
        const T pi = p[i];
        x[i] += a * pi;
        p[i] = r[i] + b * pi;
      });
}

// ---- the matvec q = A p with p.q ----------------------------------------------------

// The rows' products: production's rows_times (solve/kernels.cuh), R rows
// at a time.
using gc::rows_times;

// The R rows row0, row0 + threads, ... of a thread times x (x[c] =
// x_at(c)), A's offsets and entries through the read-only path; rows past
// the last are empty.
template <int R, class X>
__device__ __forceinline__ void thread_rows_times(const csr_op& A, std::size_t row0, X x_at,
                                                  T (&sum)[R]) {
  int begin[R], end[R];
#pragma unroll
  for (int u = 0; u < R; ++u) {
    const std::size_t row = row0 + u * threads;
    begin[u] = end[u] = 0;
    if (row < A.rows) {
      begin[u] = __ldg(A.offsets + row);
      end[u] = __ldg(A.offsets + row + 1);
    }
  }
  rows_times<R>([&](int k) { return __ldg(A.values + k); },
                [&](int k) { return __ldg(A.cols + k); }, begin, end, x_at, sum);
}

// A thread's rows, grid-stride, R at a time (row0, row0 + threads, ...):
// each row's product with x (x[c] = x_at(c)) handed to visit(row, sum).
template <int R, class X, class Visit>
__device__ __forceinline__ void for_thread_rows(const csr_op& A, X x_at, Visit visit) {
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t row0 = static_cast<std::size_t>(blockIdx.x) * threads * R + threadIdx.x;
       row0 < A.rows; row0 += stride * R) {
    T sum[R];
    thread_rows_times<R>(A, row0, x_at, sum);
#pragma unroll
    for (int u = 0; u < R; ++u) {
      const std::size_t row = row0 + u * threads;
      if (row < A.rows) visit(row, sum[u]);
    }
  }
}

// A thread per row, R rows of a thread in flight at once. Bound attacked:
// latency (the staged-rows kernel: 64 registers, 48% occupancy, DRAM
// 45-49%): every thread issues its rows' offsets, entries and gathers
// before it waits, without the shared-memory staging and its syncs.
template <int R>
__global__ void __launch_bounds__(threads)
    matvec_thread_rows(csr_op A, const T* __restrict__ p, T* __restrict__ q,
                       gc::reduction_slots slots, int g) {
  if (gc::skip_block(g, slots.scalars)) return;
  gc::dots<1> acc{};
  for_thread_rows<R>(
      A, [&](I c) { return __ldg(p + c); },
      [&](std::size_t row, T sum) {
        q[row] = sum;
        acc.v[0] += double(p[row]) * double(sum);
      });
  gc::reduce_and_finish<1>(acc, slots, alpha_finish{});
}

// The previous iteration's update (x += alpha p, p' = r + beta p) fused
// into this one's q = A p' with p'.q, a thread per row: p' goes to another
// buffer (a row's neighbours' p' are made again from r and p where they
// are gathered), so an iteration has two kernels and 9 vector passes
// instead of three and 10. Bound attacked: traffic, and one kernel's
// launch and tail.
template <int R>
__global__ void __launch_bounds__(threads)
    update_matvec_thread_rows(csr_op A, T* __restrict__ x, const T* __restrict__ p,
                              const T* __restrict__ r, T* __restrict__ p_next, T* __restrict__ q,
                              gc::reduction_slots slots, int g) {
  if (gc::skip_block(g, slots.scalars)) return;
  const T a = static_cast<T>(slots.scalars->alpha), b = static_cast<T>(slots.scalars->beta);
  gc::dots<1> acc{};
  for_thread_rows<R>(
      A, [&](I c) { return __ldg(r + c) + b * __ldg(p + c); },
      [&](std::size_t row, T sum) {
        const T pi = p[row];
        const T pn = r[row] + b * pi;
        x[row] += a * pi;
        p_next[row] = pn;
        q[row] = sum;
        acc.v[0] += double(pn) * double(sum);
      });
  gc::reduce_and_finish<1>(acc, slots, alpha_finish{});
}

// A block per tile of threads x R rows: the tile's row offsets, then its
// entries (values and column indices) from the 16-byte boundary at or
// before the first, in 16-byte loads, all of a thread's loads issued
// before its first store to shared memory; then a thread per row from
// shared memory, gathering x. A tile of more than cap entries reads its
// rows' entries from global memory instead. Bound attacked: latency and
// instruction count of the staged-rows kernel (8-byte loads of 32 rows a
// warp, a warp-synchronous sum per row): the whole tile's entries in
// flight at once in 16-byte loads.
template <int R>
__global__ void __launch_bounds__(threads)
    matvec_block_staged(csr_op A, const T* __restrict__ p, T* __restrict__ q,
                        gc::reduction_slots slots, int g) {
  constexpr int tile_rows = threads * R;
  constexpr int cap = tile_rows * 6;  // entries; Poisson has at most 5 a row
  constexpr int per_thread = (cap / 4 + threads - 1) / threads;  // quads of an array a thread loads
  __shared__ int offsets[tile_rows + 1];
  __shared__ alignas(16) T vals[cap];
  __shared__ alignas(16) I cols[cap];
  if (gc::skip_block(g, slots.scalars)) return;
  gc::dots<1> acc{};
  const std::size_t tiles = (A.rows + tile_rows - 1) / tile_rows;
  for (std::size_t tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
    const std::size_t row0 = tile * tile_rows;
    const int rows = static_cast<int>(std::min<std::size_t>(tile_rows, A.rows - row0));
    for (int i = threadIdx.x; i <= rows; i += threads)
      offsets[i] = __ldg(A.offsets + row0 + i);
    __syncthreads();
    const int e0 = offsets[0], e1 = offsets[rows];
    const int a0 = e0 & ~3;  // values and cols start on a 16-byte boundary (checked by the host)
    const bool staged = e1 - a0 <= cap;
    if (staged) {
      const int quads = (e1 - a0) / 4;
      float4 v[per_thread];
      int4 c[per_thread];
#pragma unroll
      for (int j = 0; j < per_thread; ++j) {
        const int k = threadIdx.x + j * threads;
        if (k < quads) {
          v[j] = __ldcs(reinterpret_cast<const float4*>(A.values + a0) + k);
          c[j] = __ldcs(reinterpret_cast<const int4*>(A.cols + a0) + k);
        }
      }
      const int rest = a0 + quads * 4;  // the last (e1 - a0) % 4 entries one at a time
      if (static_cast<int>(threadIdx.x) < e1 - rest) {
        vals[rest - a0 + threadIdx.x] = __ldcs(A.values + rest + threadIdx.x);
        cols[rest - a0 + threadIdx.x] = __ldcs(A.cols + rest + threadIdx.x);
      }
#pragma unroll
      for (int j = 0; j < per_thread; ++j) {
        const int k = threadIdx.x + j * threads;
        if (k < quads) {
          reinterpret_cast<float4*>(vals)[k] = v[j];
          reinterpret_cast<int4*>(cols)[k] = c[j];
        }
      }
    }
    __syncthreads();
    // Rows past the tile's end: an empty row at 0 (a valid index staged or not).
    int begin[R], end[R];
#pragma unroll
    for (int u = 0; u < R; ++u) {
      const int i = static_cast<int>(threadIdx.x) + u * threads;
      const int base = staged ? a0 : 0;
      begin[u] = i < rows ? offsets[i] - base : 0;
      end[u] = i < rows ? offsets[i + 1] - base : 0;
    }
    T sum[R];
    if (staged) {
      rows_times<R>([&](int k) { return vals[k]; }, [&](int k) { return cols[k]; }, begin, end,
                    [&](I c) { return __ldg(p + c); }, sum);
    } else {
      rows_times<R>([&](int k) { return __ldg(A.values + k); },
                    [&](int k) { return __ldg(A.cols + k); }, begin, end,
                    [&](I c) { return __ldg(p + c); }, sum);
    }
#pragma unroll
    for (int u = 0; u < R; ++u) {
      const int i = static_cast<int>(threadIdx.x) + u * threads;
      if (i < rows) {
        q[row0 + i] = sum[u];
        acc.v[0] += double(p[row0 + i]) * double(sum[u]);
      }
    }
    __syncthreads();  // the next tile overwrites the stage
  }
  gc::reduce_and_finish<1>(acc, slots, alpha_finish{});
}

}  // namespace cg_probe
