// Probe of one CG iteration on the 2-D Poisson matrix 4096^2 (float
// values, int32 indices), as the bench's "cg iteration" row: production's
// three kernels (device_solve.cuh: matvec_reduce on the staged-rows
// strategy, vector_reduce, vector_update) against variants that keep more
// bytes in flight per thread, each timed on the same vectors and checked
// against production's output from the same state:
//  - vector passes with 16-byte loads (float4; the elements before the
//    vectors' first 16-byte boundary and after their last one one at a
//    time), U float4 of each vector loaded by a thread before it uses any,
//    on a grid of the SMs x resident blocks;
//  - the matvec with a thread per row (R rows a thread), the rows' entries
//    (5 each, then a loop) loaded together before the gathers of x; and
//    with a block per tile of rows whose entries are staged in shared
//    memory by 16-byte loads;
//  - the update (x and p) fused into the next iteration's matvec, p' into
//    a second buffer: two kernels and 9 vector passes an iteration.
// The products are rounded and summed in row order as the staged-rows
// kernel does, so q is equal bit for bit; the dot products are summed in
// another order, so they are compared to a relative 1e-12. Also the whole
// iteration (production's cg_iteration, and gp::solve_cg through the
// public API with tolerance 0 as the bench times it) and the variants'
// iteration. GB/s counts the bench's traffic (A once plus 10 vector
// passes; per kernel, its own vectors), against a device-to-device copy
// measured here. Per kernel: queued launches (batches of 10, median of 20,
// after 3 warm-ups), the state restored before each. Built and run by
// scripts/device-check.sh --probe-cg (tune-cg.txt).
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "gpuprim/cuda/device/device_solve.cuh"
#include "gpuprim/solve.hpp"
#include "gpuprim/sparse.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "probe_timing.cuh"

namespace gp = gpuprim;
namespace gc = gpuprim::cuda_detail;

namespace {

using T = float;
using I = std::int32_t;
using csr_op = gc::csr_device_operator<T, I>;
using solver = gc::device_solver<T, csr_op>;
constexpr int threads = gc::spmv_threads;  // reduce_and_finish folds 256 threads

// ---- the finishers (production's, from cg_iteration) ------------------------------

struct alpha_finish {
  __device__ void operator()(const gc::dots<1>& t, gc::solver_scalars& sc) const {
    const double pq = t.v[0];
    if (!(pq > 0) || !isfinite(pq) || !(sc.rz > 0)) {
      gc::break_down(sc, pq);
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
  __device__ gc::dots<2> operator()(std::size_t i, const gc::solver_scalars& sc) const {
    const T ri = r[i] - static_cast<T>(sc.alpha) * q[i];
    r[i] = ri;
    return gc::dots<2>{{double(ri) * double(ri), double(ri) * double(ri)}};
  }
};
struct update_body {
  T* x;
  T* p;
  const T* r;
  __device__ void operator()(std::size_t i, const gc::solver_scalars& sc) const {
    const T pi = p[i];
    x[i] += static_cast<T>(sc.alpha) * pi;
    p[i] = r[i] + static_cast<T>(sc.beta) * pi;
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

// Entries of a row loaded together before its gathers; longer rows finish
// in a loop.
constexpr int row_entries = 5;

// A x of R rows, row u's entries at vals(k), cols(k) for k in [begin[u],
// end[u]), x[c] given by x_at(c): row_entries entries of every row, then
// their gathers of x, issued without a branch before the first product
// (indices past a row clamped to its last entry, or to 0 for an empty row
// -- the matrix has an entry --, their products left out); then products
// rounded and summed in row order (as the staged-rows kernel sums them, so
// the result is equal bit for bit); rows longer than row_entries finish in
// a loop.
template <int R, class V, class C, class X>
__device__ __forceinline__ void rows_times(V vals, C cols, const int (&begin)[R],
                                           const int (&end)[R], X x_at, T (&sum)[R]) {
  T v[R][row_entries], xs[R][row_entries];
  I c[R][row_entries];
#pragma unroll
  for (int u = 0; u < R; ++u) {
#pragma unroll
    for (int j = 0; j < row_entries; ++j) {
      const int k = min(begin[u] + j, max(end[u] - 1, 0));
      v[u][j] = vals(k);
      c[u][j] = cols(k);
    }
  }
#pragma unroll
  for (int u = 0; u < R; ++u) {
#pragma unroll
    for (int j = 0; j < row_entries; ++j)
      xs[u][j] = x_at(c[u][j]);
  }
#pragma unroll
  for (int u = 0; u < R; ++u) {
    sum[u] = 0;
#pragma unroll
    for (int j = 0; j < row_entries; ++j)
      sum[u] = begin[u] + j < end[u] ? __fadd_rn(sum[u], __fmul_rn(v[u][j], xs[u][j])) : sum[u];
    for (int k = begin[u] + row_entries; k < end[u]; ++k)
      sum[u] = __fadd_rn(sum[u], __fmul_rn(vals(k), x_at(cols(k))));
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
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t row0 = static_cast<std::size_t>(blockIdx.x) * threads * R + threadIdx.x;
       row0 < A.rows; row0 += stride * R) {
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
    T sum[R];
    rows_times<R>([&](int k) { return __ldg(A.values + k); },
                  [&](int k) { return __ldg(A.cols + k); }, begin, end,
                  [&](I c) { return __ldg(p + c); }, sum);
#pragma unroll
    for (int u = 0; u < R; ++u) {
      const std::size_t row = row0 + u * threads;
      if (row < A.rows) {
        q[row] = sum[u];
        acc.v[0] += double(p[row]) * double(sum[u]);
      }
    }
  }
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
  const std::size_t stride = static_cast<std::size_t>(gridDim.x) * threads;
  for (std::size_t row0 = static_cast<std::size_t>(blockIdx.x) * threads * R + threadIdx.x;
       row0 < A.rows; row0 += stride * R) {
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
    T sum[R];
    rows_times<R>([&](int k) { return __ldg(A.values + k); },
                  [&](int k) { return __ldg(A.cols + k); }, begin, end,
                  [&](I c) { return __ldg(r + c) + b * __ldg(p + c); }, sum);
#pragma unroll
    for (int u = 0; u < R; ++u) {
      const std::size_t row = row0 + u * threads;
      if (row < A.rows) {
        const T pi = p[row];
        const T pn = r[row] + b * pi;
        x[row] += a * pi;
        p_next[row] = pn;
        q[row] = sum[u];
        acc.v[0] += double(pn) * double(sum[u]);
      }
    }
  }
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

// ---- the state of an iteration and its checks ---------------------------------------

struct vectors {
  gp::device_vector<T> x, r, p, q;
  explicit vectors(std::size_t n) : x(n), r(n), p(n), q(n) {}
};

// A copy of the vectors and the scalars at one point of an iteration.
struct snapshot {
  std::vector<T> x, r, p, q;
  gc::solver_scalars s{};
};

snapshot take(const vectors& v, const gc::solver_scalars* scalars) {
  CHECK_CUDA(cudaDeviceSynchronize());
  snapshot s{gp::to_host(v.x), gp::to_host(v.r), gp::to_host(v.p), gp::to_host(v.q), {}};
  CHECK_CUDA(cudaMemcpy(&s.s, scalars, sizeof s.s, cudaMemcpyDeviceToHost));
  return s;
}

void restore(const snapshot& s, vectors& v, gc::solver_scalars* scalars) {
  const std::size_t bytes = s.x.size() * sizeof(T);
  CHECK_CUDA(cudaMemcpy(v.x.data(), s.x.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(v.r.data(), s.r.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(v.p.data(), s.p.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(v.q.data(), s.q.data(), bytes, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaMemcpy(scalars, &s.s, sizeof s.s, cudaMemcpyHostToDevice));
  CHECK_CUDA(cudaDeviceSynchronize());
}

double relative(double a, double b) {
  return a == b ? 0.0 : std::abs(a - b) / std::max(std::abs(a), std::abs(b));
}

// Elements that differ, bit for bit, and the largest difference relative
// to the largest magnitude of the wanted vector.
struct difference {
  std::size_t count = 0;
  double largest = 0;
};
difference compare(const std::vector<T>& got, const std::vector<T>& want) {
  difference d;
  double scale = 0;
  for (T w : want)
    scale = std::max(scale, double(std::abs(w)));
  for (std::size_t i = 0; i < want.size(); ++i) {
    if (std::memcmp(&got[i], &want[i], sizeof(T)) != 0) {
      ++d.count;
      d.largest = std::max(d.largest, std::abs(double(got[i]) - double(want[i])) / scale);
    }
  }
  return d;
}

// A check's line: every vector equal bit for bit and the scalars within
// 1e-12 ("same as production"), else what differs.
std::string verdict(const snapshot& got, const snapshot& want, bool vectors_exact = true) {
  std::string out;
  const char* names[] = {"x", "r", "p", "q"};
  const std::vector<T>* g[] = {&got.x, &got.r, &got.p, &got.q};
  const std::vector<T>* w[] = {&want.x, &want.r, &want.p, &want.q};
  char text[160];
  for (int k = 0; k < 4; ++k) {
    const difference d = compare(*g[k], *w[k]);
    if (d.count == 0) continue;
    if (!vectors_exact && d.largest <= 1e-5) continue;
    std::snprintf(text, sizeof text, " %s: %zu differ (largest %.3g)", names[k], d.count,
                  d.largest);
    out += text;
  }
  const double scalar_diff =
      std::max({relative(got.s.alpha, want.s.alpha), relative(got.s.beta, want.s.beta),
                relative(got.s.rr, want.s.rr), relative(got.s.rz, want.s.rz)});
  if (scalar_diff > (vectors_exact ? 1e-12 : 1e-5)) {
    std::snprintf(text, sizeof text, " scalars differ by %.3g", scalar_diff);
    out += text;
  }
  if (got.s.halt != want.s.halt || got.s.run_update != want.s.run_update ||
      got.s.iterations != want.s.iterations)
    out += " halt, run_update or iterations differ";
  if (out.empty()) return vectors_exact ? "same as production" : "within 1e-5 of production";
  return "DIFFERS FROM PRODUCTION:" + out;
}

// beta = 0.5 in the device's scalars.
void tame(gc::solver_scalars* scalars) {
  const double half = 0.5;
  CHECK_CUDA(cudaMemcpy(&scalars->beta, &half, sizeof half, cudaMemcpyHostToDevice));
}

// What to add to a timing's line when the kernels had halted by its end
// (a breakdown or a stopping rule: the later launches did no work).
std::string halted_note(const gc::solver_scalars* scalars) {
  int halt = 0;
  CHECK_CUDA(cudaMemcpy(&halt, &scalars->halt, sizeof halt, cudaMemcpyDeviceToHost));
  return halt ? "; HALTED while timed: the time is not valid" : "";
}

// Resident blocks of `kernel` per SM times the SMs.
template <class Kernel>
unsigned resident_grid(Kernel kernel) {
  int per_sm = 0;
  CHECK_CUDA(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
  return static_cast<unsigned>(std::max(per_sm, 1) * gc::current_multiprocessor_count());
}

int run(int argc, char** argv) {
  const std::size_t side = argc > 1 ? std::strtoull(argv[1], nullptr, 10) : 4096;
  cudaDeviceProp prop{};
  CHECK_CUDA(cudaGetDeviceProperties(&prop, 0));
  const gp::csr_matrix<T, I> host_A = gp::poisson2d<T, I>(side);
  const gp::device_csr_matrix<T, I> dA(host_A);
  const auto view = dA.view();
  const std::size_t n = host_A.rows(), nnz = host_A.nnz();
  std::printf("tune_cg: %s, %d SMs; Poisson 2-D %zu^2 (%zu rows, %zu entries), float, int32\n",
              prop.name, prop.multiProcessorCount, side, n, nnz);
  const csr_op A{n, view.row_offsets.data(), view.col_indices.data(), view.values.data()};
  if (nnz == 0 || reinterpret_cast<std::uintptr_t>(A.values) % 16 != 0 ||
      reinterpret_cast<std::uintptr_t>(A.cols) % 16 != 0) {
    std::printf("the matrix is empty or its arrays are not 16-byte aligned\n");
    return 1;
  }

  // Copy bandwidth: a device-to-device copy of 2^26 floats.
  const std::size_t copy_n = std::size_t{1} << 26;
  gp::device_vector<T> copy_from(copy_n), copy_to(copy_n);
  const float copy_ms = median_queued_ms([&] {
    CHECK_CUDA(cudaMemcpyAsync(copy_to.data(), copy_from.data(), copy_n * sizeof(T),
                               cudaMemcpyDeviceToDevice, nullptr));
  });
  const double copy_gbs = 2.0 * copy_n * sizeof(T) / (copy_ms * 1e6);
  std::printf("  copy of 2^26 floats: %.3f ms, %.0f GB/s read + write\n", copy_ms, copy_gbs);

  const double word = sizeof(T);
  const double a_bytes = nnz * (sizeof(T) + sizeof(I)) + (n + 1) * sizeof(I);
  const double iteration_bytes = a_bytes + 10.0 * n * word;
  std::printf(
      "  traffic: A %.1f MB, an iteration %.1f MB; its roofline at the copy's rate %.1f us\n",
      a_bytes / 1e6, iteration_bytes / 1e6, iteration_bytes / (copy_gbs * 1e3));
  auto report = [&](const char* what, double bytes, float ms, const std::string& check) {
    const double gbs = bytes / (ms * 1e6);
    std::printf("  %-46s %8.1f us %6.0f GB/s %5.1f %% of copy  %s\n", what, ms * 1e3, gbs,
                100.0 * gbs / copy_gbs, check.c_str());
  };

  // b random in [0.5, 1.5), as the bench's; tolerance 0 and no stagnation
  // rule, so nothing halts while the probe runs.
  std::vector<T> host_b(n);
  std::mt19937 rng(3);
  std::uniform_real_distribution<T> dist(0.5f, 1.5f);
  for (T& v : host_b)
    v = dist(rng);
  const gp::device_vector<T> b = gp::to_device(host_b);
  gp::solve_options opts;
  opts.tolerance = 0;
  opts.stagnation_window = 0;
  opts.check_every = 32;

  // The whole iteration through the public API, as the bench times it.
  {
    gp::device_vector<T> x(n);
    auto solve = [&](int k) {
      gp::solve_options o = opts;
      o.max_iterations = static_cast<std::size_t>(k);
      o.check_every = k;
      std::vector<double> us;
      for (int run = 0; run < 6; ++run) {
        CHECK_CUDA(cudaDeviceSynchronize());
        const auto t0 = std::chrono::steady_clock::now();
        (void)gp::solve_cg(gp::cuda, dA, b, x, o);
        CHECK_CUDA(cudaDeviceSynchronize());
        us.push_back(
            std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0)
                .count());
      }
      std::sort(us.begin() + 1, us.end());  // the first is a warm-up
      return us[3];
    };
    const double per = (solve(60) - solve(10)) / 50.0;
    report("gp::solve_cg, (K=60 - K=10) / 50", iteration_bytes, static_cast<float>(per * 1e-3),
           "(public API)");
  }

  // Production's solver state after a restart and 3 iterations, so x, r, p
  // and the scalars are those of a running CG.
  vectors v(n);
  solver ds(A, gc::staged_group, b.data(), v.x.data(), opts, 1000000, nullptr);
  solver vs(A, gc::staged_group, b.data(), v.x.data(), opts, 1000000, nullptr);  // the variants'
  CHECK_CUDA(cudaMemset(v.x.data(), 0, n * sizeof(T)));
  gc::start(ds, b.data(), v.x.data(), v.r.data(), opts);
  gc::cg_restart(ds, v.r.data(), v.p.data(), static_cast<const T*>(nullptr));
  gc::record_start(ds);
  for (int k = 0; k < 3; ++k)
    gc::cg_iteration(ds, v.x.data(), v.r.data(), v.p.data(), v.q.data(),
                     static_cast<const T*>(nullptr));
  const snapshot s0 = take(v, ds.scalars());
  if (s0.s.halt) {
    std::printf("production's CG halted during the set-up\n");
    return 1;
  }
  std::printf("  state: after %llu iterations, ||r|| / ||b|| = %.3g, alpha %.4g, beta %.4g\n",
              s0.s.iterations, std::sqrt(s0.s.rr / s0.s.b2), s0.s.alpha, s0.s.beta);
  const std::size_t head = head_of(v.x.data(), n);
  if (head_of(v.r.data(), n) != head || head_of(v.p.data(), n) != head ||
      head_of(v.q.data(), n) != head) {
    std::printf("the vectors do not share their alignment\n");
    return 1;
  }
  T *x = v.x.data(), *r = v.r.data(), *p = v.p.data(), *q = v.q.data();
  double* history = vs.history();
  const int ring = vs.check_every();

  // Production's three kernels, with cg_iteration's bodies (no
  // preconditioner), one launch each.
  auto prod_matvec = [&] {
    ds.template matvec<1>(p, matvec_body{p, q}, alpha_finish{}, gc::guard_halt_clear);
  };
  auto prod_reduce = [&] {
    ds.template reduce<2>(reduce_body{r, q}, beta_finish{ds.history(), ds.check_every()},
                          gc::guard_halt);
  };
  auto prod_update = [&] { ds.update(update_body{x, p, r}, gc::guard_update); };
  // Production's states after each kernel from s0: s1 (matvec), s2
  // (reduce), s3 (update).
  restore(s0, v, ds.scalars());
  prod_matvec();
  const snapshot s1 = take(v, ds.scalars());
  prod_reduce();
  const snapshot s2 = take(v, ds.scalars());
  prod_update();
  const snapshot s3 = take(v, ds.scalars());
  prod_matvec();
  const snapshot s4 = take(v, ds.scalars());
  prod_reduce();
  const snapshot s5 = take(v, ds.scalars());
  // And production's cg_iteration from s0 must give s3.
  restore(s0, v, ds.scalars());
  gc::cg_iteration(ds, x, r, p, q, static_cast<const T*>(nullptr));
  const std::string whole_check = verdict(take(v, ds.scalars()), s3);

  // Times `launch` (queued) from state `from` in the scalars `scalars`, then
  // checks one launch from `from` against `want` (bit for bit, or within
  // 1e-5 where `exact` is false). `tamed`: beta is 0.5 for the timing, so
  // that p = r + beta p repeated some 200 times stays finite.
  auto measure = [&](const std::string& what, double bytes, const snapshot& from,
                     const snapshot& want, gc::solver_scalars* scalars,
                     const std::function<void()>& launch, bool exact = true, bool tamed = false) {
    restore(from, v, scalars);
    if (tamed) tame(scalars);
    const float ms = median_queued_ms(launch);
    const std::string timed = halted_note(scalars);
    restore(from, v, scalars);
    launch();
    CHECK_CUDA(cudaGetLastError());
    report(what.c_str(), bytes, ms, verdict(take(v, scalars), want, exact) + timed);
  };
  const double matvec_bytes = a_bytes + 2.0 * n * word, reduce_bytes = 3.0 * n * word,
               update_bytes = 5.0 * n * word;
  const gc::reduction_slots slots = vs.slots();
  gc::solver_scalars* var_scalars = vs.scalars();
  const beta_finish var_fin{history, ring};
  const unsigned sms = static_cast<unsigned>(gc::current_multiprocessor_count());

  // A variant: its name (with the blocks per SM it runs) and its launch.
  struct variant {
    std::string name;
    std::function<void()> launch;
  };
  // Blocks of `kernel`: `per_sm` per SM, or as many as are resident.
  auto grid_of = [&](auto kernel, unsigned per_sm, const char* what, variant& out) {
    const unsigned grid = std::min(resident_grid(kernel), per_sm * sms);
    char text[120];
    std::snprintf(text, sizeof text, "%s, %u blocks/SM", what, grid / sms);
    out.name = text;
    return grid;
  };
  auto thread_rows = [&](auto rows_per_thread, unsigned per_sm) {
    constexpr int R = decltype(rows_per_thread)::value;
    auto kernel = matvec_thread_rows<R>;
    variant out;
    char what[64];
    std::snprintf(what, sizeof what, "matvec, thread per row x %d", R);
    const unsigned grid = grid_of(kernel, per_sm, what, out);
    out.launch = [=] { kernel<<<grid, threads>>>(A, p, q, slots, gc::guard_halt_clear); };
    return out;
  };
  auto block_staged = [&](auto rows_per_thread) {
    constexpr int R = decltype(rows_per_thread)::value;
    auto kernel = matvec_block_staged<R>;
    variant out;
    char what[64];
    std::snprintf(what, sizeof what, "matvec, tile of 256 x %d rows staged", R);
    const unsigned grid = grid_of(kernel, 32, what, out);
    out.launch = [=] { kernel<<<grid, threads>>>(A, p, q, slots, gc::guard_halt_clear); };
    return out;
  };
  auto reduce_variant = [&](auto unroll, unsigned per_sm) {
    constexpr int U = decltype(unroll)::value;
    auto kernel = reduce_quads<U>;
    variant out;
    char what[64];
    std::snprintf(what, sizeof what, "reduce, float4 x %d", U);
    const unsigned grid = grid_of(kernel, per_sm, what, out);
    out.launch = [=] { kernel<<<grid, threads>>>(n, head, r, q, slots, var_fin, gc::guard_halt); };
    return out;
  };
  auto update_variant = [&](auto unroll, unsigned per_sm) {
    constexpr int U = decltype(unroll)::value;
    auto kernel = update_quads<U>;
    variant out;
    char what[64];
    std::snprintf(what, sizeof what, "update, float4 x %d", U);
    const unsigned grid = grid_of(kernel, per_sm, what, out);
    out.launch = [=] {
      kernel<<<grid, threads>>>(n, head, x, p, r, var_scalars, gc::guard_update);
    };
    return out;
  };
  using one = std::integral_constant<int, 1>;
  using two = std::integral_constant<int, 2>;
  using four = std::integral_constant<int, 4>;

  std::printf("\n  one kernel from the same state, checked against production's\n");
  measure("production matvec_reduce (staged rows)", matvec_bytes, s0, s1, ds.scalars(),
          prod_matvec);
  for (const variant& m : {thread_rows(one{}, 8), thread_rows(two{}, 8), thread_rows(two{}, 4),
                           thread_rows(four{}, 8), block_staged(one{}), block_staged(two{})})
    measure(m.name, matvec_bytes, s0, s1, var_scalars, m.launch);
  measure("production vector_reduce", reduce_bytes, s1, s2, ds.scalars(), prod_reduce);
  for (const variant& m : {reduce_variant(one{}, 8), reduce_variant(two{}, 8),
                           reduce_variant(four{}, 8), reduce_variant(four{}, 4)})
    measure(m.name, reduce_bytes, s1, s2, var_scalars, m.launch);
  measure("production vector_update", update_bytes, s2, s3, ds.scalars(), prod_update, true, true);
  for (const variant& m : {update_variant(one{}, 8), update_variant(two{}, 8),
                           update_variant(four{}, 8), update_variant(four{}, 4)})
    measure(m.name, update_bytes, s2, s3, var_scalars, m.launch, true, true);

  // The update fused into the next matvec, from s2 against s4 (production's
  // update, then its matvec); p' in p2, so a run of launches alternates
  // p and p2 (flip).
  gp::device_vector<T> p2(n);
  T* pp2 = p2.data();
  int flip = 0;
  auto fused_variant = [&](auto rows_per_thread, unsigned per_sm) {
    constexpr int R = decltype(rows_per_thread)::value;
    auto kernel = update_matvec_thread_rows<R>;
    variant out;
    char what[80];
    std::snprintf(what, sizeof what, "update fused into matvec, thread per row x %d", R);
    const unsigned grid = grid_of(kernel, per_sm, what, out);
    int* f = &flip;
    out.launch = [=] {
      const bool odd = (*f)++ % 2 != 0;
      kernel<<<grid, threads>>>(A, x, odd ? pp2 : p, r, odd ? p : pp2, q, slots,
                                gc::guard_halt_clear);
    };
    return out;
  };
  // As measure, for the fused launches: one launch from `from` with flip 0
  // (p' in p2) checked against `want`.
  auto measure_fused = [&](const variant& m, double bytes, const snapshot& from,
                           const snapshot& want, bool exact, bool tamed) {
    restore(from, v, var_scalars);
    if (tamed) tame(var_scalars);
    const float ms = median_queued_ms(m.launch);
    const std::string timed = halted_note(var_scalars);
    restore(from, v, var_scalars);
    flip = 0;
    m.launch();
    CHECK_CUDA(cudaGetLastError());
    snapshot got = take(v, var_scalars);
    got.p = gp::to_host(p2);
    report(m.name.c_str(), bytes, ms, verdict(got, want, exact) + timed);
  };
  const double fused_bytes = a_bytes + 6.0 * n * word;  // x r/w, p, r, p' and q
  for (const variant& m : {fused_variant(one{}, 8), fused_variant(two{}, 8)})
    measure_fused(m, fused_bytes, s2, s4, true, true);

  // Whole iterations, queued, from s0 (CG runs on: some 200 iterations a
  // measurement); one iteration checked against s3. The variants' scalars
  // differ from production's in the last bits (the dot products summed in
  // other orders), so their iteration is checked to 1e-5, not bit for bit.
  std::printf("\n  whole iterations from the same state\n");
  measure("production cg_iteration", iteration_bytes, s0, s3, ds.scalars(),
          [&] { gc::cg_iteration(ds, x, r, p, q, static_cast<const T*>(nullptr)); });
  std::printf("  %-46s %s\n", "(cg_iteration against its kernels one by one)", whole_check.c_str());
  auto iteration = [&](const variant& m, const variant& rd, const variant& up) {
    return variant{m.name + " + " + rd.name + " + " + up.name, [=] {
                     m.launch();
                     rd.launch();
                     up.launch();
                   }};
  };
  for (const variant& it :
       {iteration(thread_rows(one{}, 8), reduce_variant(two{}, 8), update_variant(two{}, 8)),
        iteration(thread_rows(two{}, 8), reduce_variant(four{}, 8), update_variant(four{}, 8)),
        iteration(block_staged(two{}), reduce_variant(four{}, 8), update_variant(four{}, 8))})
    measure(it.name, iteration_bytes, s0, s3, var_scalars, it.launch, false);
  // The fused iteration (update and matvec, then reduce), from s2 against
  // s5 (production's update, matvec and reduce).
  for (const variant& m : {fused_variant(one{}, 8), fused_variant(two{}, 8)}) {
    const variant rd = reduce_variant(four{}, 8);
    measure_fused(variant{m.name + " + " + rd.name,
                          [=] {
                            m.launch();
                            rd.launch();
                          }},
                  iteration_bytes, s2, s5, false, false);
  }
  CHECK_CUDA(cudaDeviceSynchronize());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  return run(argc, argv);
}
