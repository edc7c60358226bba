// Iterative solvers on the GPU: every iteration on the device, the scalars
// in device memory, the host looking at the residual once per batch.
//
// Shape of the algorithm:
//  1. Three kinds of kernel, all grid-stride over a grid of resident blocks:
//     matvec_reduce (A times a vector with an epilogue per row, from
//     device_spmv.cuh's row groups), vector_reduce (an update per element)
//     and vector_update (no dot product). The reducing kinds return up to
//     two dot products: each block folds its threads' values (warp
//     shuffles, then shared memory) into one partial per block; the last
//     block to finish (a ticket counter) folds the partials in block order
//     (so results are run-to-run deterministic) and runs the kernel's
//     finisher on one thread, which computes alpha, beta, omega, the
//     residual, and the halt and breakdown flags into solver_scalars.
//  2. Fusion. CG is three passes per iteration:
//       q = A p with p.q                                     (A + 2n words)
//       r -= alpha q with r.r and r.z, z = D^-1 r on the fly  (3n, +n with D)
//       x += alpha p, p = z + beta p                         (5n, +n with D)
//     BiCGStab is five (v = A p^ with rhat.v; s = r - alpha v with s.s;
//     t = A s^ with t.t and t.s; x and r with r.r and rhat.r; p), Jacobi
//     and Richardson one (r = b - A x_k, x_k+1 = x_k + omega D^-1 r, r.r).
//  3. Stopping without the host: each kernel first reads the halt flag and
//     returns at once when a finisher has set it (convergence, breakdown,
//     or record()'s divergence and stagnation rules: solve_watch, one copy
//     in solver_scalars), so a batch of queued iterations costs only
//     launches past the stopping point, and x is the iterate that met the
//     tolerance (or diverged, or stagnated). A breakdown is flagged before
//     the update that would divide by zero, so x never takes a NaN from it.
//  4. The host enqueues check_every iterations, then copies the scalars and
//     that batch's residuals (one synchronization; the progress callback
//     is called there, adding none). When the recurrence's
//     residual meets the tolerance, the true residual b - A x is computed;
//     if it does not meet it, the iteration restarts from x (residual
//     replacement).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "gpuprim/core/memory.hpp"
#include "gpuprim/core/runtime.hpp"
#include "gpuprim/cuda/detail/launch.cuh"
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
// epilogues spill and one CG iteration took 628 us against 610 us at 62
// registers (H100, evening run 3).
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

// ---- the host side -------------------------------------------------------------

template <class T, class Op>
class device_solver {
 public:
  device_solver(const Op& A, int lanes, const T* b, T* x, const solve_options& opts,
                std::size_t max_iterations, stream_t stream)
      : A_(A),
        lanes_(lanes),
        n_(A.rows),
        b_(b),
        x_(x),
        opts_(opts),
        max_iterations_(max_iterations),
        stream_(stream),
        check_every_(opts.check_every > 0 ? opts.check_every : 32),
        slot_capacity_(static_cast<std::size_t>(current_multiprocessor_count()) * 32),
        state_(sizeof(solver_scalars) + sizeof(unsigned) * 2 + sizeof(double) * check_every_ +
                   sizeof(double) * 2 * slot_capacity_ + 16,
               stream) {
    scalars_ = state_.get<solver_scalars>();
    history_ = reinterpret_cast<double*>(scalars_ + 1);
    ticket_ = reinterpret_cast<unsigned*>(history_ + check_every_);
    partials_ = reinterpret_cast<double*>(
        reinterpret_cast<char*>(state_.get()) +
        align_up(sizeof(solver_scalars) + sizeof(double) * check_every_ + 2 * sizeof(unsigned),
                 16));
    detail::fill_bytes(state_.get(), 0, sizeof(solver_scalars) + sizeof(double) * check_every_ + 8,
                       stream_);
  }

  reduction_slots slots() const { return {partials_, ticket_, scalars_}; }
  solver_scalars* scalars() const { return scalars_; }
  std::size_t n() const { return n_; }

  // Grid of a reducing kernel: at most slot_capacity_ blocks.
  template <class Kernel>
  unsigned reduce_grid(Kernel kernel, std::size_t work) const {
    return std::min<unsigned>(grid_for(kernel, work), static_cast<unsigned>(slot_capacity_));
  }

  template <int N, class Epilogue, class Finish>
  void matvec(const T* x, Epilogue epilogue, Finish finish, int g) {
    with_lanes(lanes_, [&](auto lanes) {
      constexpr int G = decltype(lanes)::value;
      auto kernel = matvec_reduce<G, N, Op, T, Epilogue, Finish>;
      launch("matvec_reduce", "solve", kernel,
             {dim3(reduce_grid(kernel, row_threads<G>(n_))), dim3(spmv_threads), 0, stream_}, A_, x,
             epilogue, finish, slots(), g);
    });
  }
  template <int N, class Body, class Finish>
  void reduce(Body body, Finish finish, int g) {
    auto kernel = vector_reduce<N, Body, Finish>;
    launch("vector_reduce", "solve", kernel,
           {dim3(reduce_grid(kernel, n_)), dim3(spmv_threads), 0, stream_}, n_, body, finish,
           slots(), g);
  }
  template <class Body>
  void update(Body body, int g) {
    auto kernel = vector_update<Body>;
    launch("vector_update", "solve", kernel,
           {dim3(grid_for(kernel, n_)), dim3(spmv_threads), 0, stream_}, n_, body, scalars_, g);
  }

  // dinv = scale / diag(A), or a std::invalid_argument naming the first row
  // with a zero (or non-finite) diagonal entry.
  void inverse_diagonal_into(T* dinv, T scale, solve_method method) {
    const detail::scratch_buffer bad(sizeof(unsigned long long), stream_);
    detail::fill_bytes(bad.get(), 0xff, sizeof(unsigned long long), stream_);
    auto kernel = inverse_diagonal<Op, T>;
    launch("inverse_diagonal", "solve", kernel,
           {dim3(grid_for(kernel, n_)), dim3(spmv_threads), 0, stream_}, A_, scale, dinv,
           bad.get<unsigned long long>());
    unsigned long long first = 0;
    detail::copy_to_host(&first, bad.get(), sizeof first, stream_);
    synchronize(stream_);
    if (first != ~0ull) {
      throw std::invalid_argument(std::string("gpuprim::solve_") + name_of(method) +
                                  ": the diagonal entry of row " + std::to_string(first) +
                                  " is zero or not finite (the Jacobi iteration and "
                                  "preconditioner divide by it)");
    }
  }

  // Copies the scalars and the residuals recorded since the last read into
  // the result's history; synchronizes.
  solver_scalars read(solve_result& result) {
    solver_scalars s;
    std::vector<double> recent(check_every_);
    detail::copy_to_host(&s, scalars_, sizeof s, stream_);
    detail::copy_to_host(recent.data(), history_, sizeof(double) * check_every_, stream_);
    synchronize(stream_);
    if (opts_.keep_history) {
      for (unsigned long long k = recorded_; k < s.evaluated; ++k)
        result.history.push_back(recent[k % check_every_]);
    }
    recorded_ = s.evaluated;
    if (opts_.progress) {
      const double seconds =
          std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
      if (seconds >= next_progress_) {
        opts_.progress(solve_progress{static_cast<std::size_t>(s.iterations),
                                      s.b2 > 0 ? std::sqrt(s.rr / s.b2) : 0.0, seconds});
        next_progress_ =
            (std::floor(seconds / opts_.progress_interval) + 1) * opts_.progress_interval;
      }
    }
    return s;
  }

  void set_halt(int value) {
    halt_value_ = value;
    detail::copy_to_device(&scalars_->halt, &halt_value_, sizeof(int), stream_);
    synchronize(stream_);
  }

  int check_every() const { return check_every_; }
  stream_t stream() const { return stream_; }
  double* history() const { return history_; }
  std::size_t max_iterations() const { return max_iterations_; }

 private:
  Op A_;
  int lanes_;
  std::size_t n_;
  const T* b_;
  T* x_;
  const solve_options& opts_;
  std::size_t max_iterations_;
  stream_t stream_;
  int check_every_;
  std::size_t slot_capacity_;
  detail::scratch_buffer state_;
  solver_scalars* scalars_ = nullptr;
  double* history_ = nullptr;
  unsigned* ticket_ = nullptr;
  double* partials_ = nullptr;
  unsigned long long recorded_ = 0;
  int halt_value_ = 0;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  double next_progress_ = opts_.progress_interval;
};

// ---- the methods ------------------------------------------------------------------

// Records ||r|| / ||b|| as history entry `evaluated` (ring of check_every)
// as the residual after s.iterations iterations, and applies the
// divergence and stagnation rules (solve_watch): halt, with `stopped`
// saying why.
__device__ __forceinline__ void record(solver_scalars& s, double* history, int ring, double rr) {
  history[s.evaluated % static_cast<unsigned long long>(ring)] = sqrt(rr / s.b2);
  if (s.evaluated == 0) s.watch.begin(rr);
  ++s.evaluated;
  if (rr <= s.tol2b2) return;
  const int verdict = s.watch.check(rr, s.iterations);
  if (verdict != solve_watch::go) {
    s.stopped = verdict;
    s.halt = 1;
  }
}

// The result's status and message after a divergence or a stagnation.
inline void report_stop(const solver_scalars& s, const solve_options& opts, solve_result& res) {
  const double residual = std::sqrt(s.rr / s.b2);
  if (s.stopped == solve_watch::diverged) {
    res.status = solve_status::diverged;
    res.message = solve_detail::diverged_message(static_cast<std::size_t>(s.iterations), residual,
                                                 std::sqrt(s.watch.start / s.b2));
  } else if (s.stopped == solve_watch::stagnated) {
    res.status = solve_status::stagnated;
    res.message =
        solve_detail::stagnated_message(static_cast<std::size_t>(s.iterations), residual, opts);
  }
}

// ||b||^2 into b2 and tol2b2; r = b - A x into r; returns nothing (the
// caller reads). Used by every method's start.
template <class T, class Op>
void start(device_solver<T, Op>& ds, const T* b, T* x, T* r, const solve_options& opts) {
  const std::size_t n = ds.n();
  const double tol = opts.tolerance, atol = opts.atol;
  const auto window = static_cast<unsigned long long>(opts.stagnation_window);
  const double improvement = opts.stagnation_improvement;
  ds.template reduce<1>(
      [=] __device__(std::size_t i, const solver_scalars&) {
        return dots<1>{{double(b[i]) * double(b[i])}};
      },
      [=] __device__(const dots<1>& t, solver_scalars& s) {
        s.b2 = t.v[0];
        s.tol2b2 = fmax(tol * tol * t.v[0], atol * atol);
        s.watch.configure(window, improvement);
      },
      guard_none);
  (void)n;
  if (r != nullptr) {
    ds.template matvec<1>(
        x,
        [=] __device__(std::size_t row, T ax, const solver_scalars&) {
          r[row] = b[row] - ax;
          return dots<1>{{0.0}};
        },
        [=] __device__(const dots<1>&, solver_scalars&) {}, guard_none);
  }
}

// p = z = D^-1 r; rr and rz.
template <class T, class Op>
void cg_restart(device_solver<T, Op>& ds, const T* r, T* p, const T* dinv) {
  ds.template reduce<2>(
      [=] __device__(std::size_t i, const solver_scalars&) {
        const T z = dinv ? dinv[i] * r[i] : r[i];
        p[i] = z;
        return dots<2>{{double(r[i]) * double(r[i]), double(r[i]) * double(z)}};
      },
      [=] __device__(const dots<2>& t, solver_scalars& s) {
        s.rr = t.v[0];
        s.rz = t.v[1];
      },
      guard_none);
}

template <class T, class Op>
void conjugate_gradients(device_solver<T, Op>& ds, const T* b, T* x, const T* dinv,
                         const solve_options& opts, solve_result& res) {
  const std::size_t n = ds.n();
  const detail::scratch_buffer work(3 * n * sizeof(T), ds.stream());
  T* r = work.get<T>();
  T* p = r + n;
  T* q = p + n;
  double* history = ds.history();
  const int ring = ds.check_every();
  start(ds, b, x, r, opts);
  cg_restart(ds, r, p, dinv);
  // The initial residual.
  ds.template reduce<1>(
      [=] __device__(std::size_t, const solver_scalars&) { return dots<1>{{0.0}}; },
      [=] __device__(const dots<1>&, solver_scalars& s) {
        record(s, history, ring, s.rr);
        if (s.rr <= s.tol2b2) s.halt = 1;
      },
      guard_none);
  solver_scalars s = ds.read(res);
  if (s.b2 == 0) return;
  const std::size_t max_iter = ds.max_iterations();
  bool true_residual = true;
  for (;;) {
    if (s.halt) {
      if (s.stopped || s.breakdown) break;
      if (true_residual) {
        res.converged = true;
        break;
      }
      // Residual replacement.
      ds.template matvec<1>(
          x,
          [=] __device__(std::size_t row, T ax, const solver_scalars&) {
            r[row] = b[row] - ax;
            return dots<1>{{0.0}};
          },
          [=] __device__(const dots<1>&, solver_scalars&) {}, guard_none);
      cg_restart(ds, r, p, dinv);
      ds.template reduce<1>(
          [=] __device__(std::size_t, const solver_scalars&) { return dots<1>{{0.0}}; },
          [=] __device__(const dots<1>&, solver_scalars& sc) {
            sc.halt = sc.rr <= sc.tol2b2 ? 1 : 0;
          },
          guard_none);
      true_residual = true;
      s = ds.read(res);
      res.residual = std::sqrt(s.rr / s.b2);
      continue;
    }
    if (s.iterations >= max_iter) break;
    const std::size_t batch =
        std::min<std::size_t>(static_cast<std::size_t>(ring), max_iter - s.iterations);
    for (std::size_t k = 0; k < batch; ++k) {
      ds.template matvec<1>(
          p,
          [=] __device__(std::size_t row, T ax, const solver_scalars&) {
            q[row] = ax;
            return dots<1>{{double(p[row]) * double(ax)}};
          },
          [=] __device__(const dots<1>& t, solver_scalars& sc) {
            const double pq = t.v[0];
            if (!(pq > 0) || !isfinite(pq) || !(sc.rz > 0)) {
              sc.breakdown = 1;
              sc.breakdown_value = pq;
              sc.halt = 1;
              sc.run_update = 0;
            } else {
              sc.alpha = sc.rz / pq;
              sc.run_update = 1;
            }
          },
          guard_halt_clear);
      ds.template reduce<2>(
          [=] __device__(std::size_t i, const solver_scalars& sc) {
            const T ri = r[i] - static_cast<T>(sc.alpha) * q[i];
            r[i] = ri;
            const T z = dinv ? dinv[i] * ri : ri;
            return dots<2>{{double(ri) * double(ri), double(ri) * double(z)}};
          },
          [=] __device__(const dots<2>& t, solver_scalars& sc) {
            sc.rr = t.v[0];
            sc.beta = t.v[1] / sc.rz;
            sc.rz = t.v[1];
            ++sc.iterations;
            record(sc, history, ring, sc.rr);
            if (sc.rr <= sc.tol2b2) sc.halt = 1;
          },
          guard_halt);
      ds.update(
          [=] __device__(std::size_t i, const solver_scalars& sc) {
            const T pi = p[i];
            x[i] += static_cast<T>(sc.alpha) * pi;
            const T z = dinv ? dinv[i] * r[i] : r[i];
            p[i] = z + static_cast<T>(sc.beta) * pi;
          },
          guard_update);
    }
    s = ds.read(res);
    true_residual = false;
  }
  if (s.breakdown) {
    res.breakdown = true;
    res.message = "breakdown: p.Ap = " + solve_detail::number(s.breakdown_value) +
                  " (is the matrix symmetric positive definite?)";
  }
  report_stop(s, opts, res);
  res.iterations = s.iterations;
}

// rhat = p = r, p^ = D^-1 p; rr = rho = r.r.
template <class T, class Op>
void bicgstab_restart(device_solver<T, Op>& ds, const T* r, T* rhat, T* p, T* ph, const T* dinv) {
  ds.template reduce<1>(
      [=] __device__(std::size_t i, const solver_scalars&) {
        const T ri = r[i];
        rhat[i] = ri;
        p[i] = ri;
        if (dinv) ph[i] = dinv[i] * ri;
        return dots<1>{{double(ri) * double(ri)}};
      },
      [=] __device__(const dots<1>& d, solver_scalars& s) {
        s.rr = d.v[0];
        s.rho = d.v[0];
        s.halt = s.rr <= s.tol2b2 ? 1 : 0;
        s.s_converged = 0;
      },
      guard_none);
}

template <class T, class Op>
void bicgstab(device_solver<T, Op>& ds, const T* b, T* x, const T* dinv, const solve_options& opts,
              solve_result& res) {
  const std::size_t n = ds.n();
  const bool pre = dinv != nullptr;
  const detail::scratch_buffer work((pre ? 8 : 6) * n * sizeof(T), ds.stream());
  T* r = work.get<T>();
  T* rhat = r + n;
  T* p = rhat + n;
  T* v = p + n;
  T* sv = v + n;
  T* t = sv + n;
  T* ph = pre ? t + n : p;
  T* sh = pre ? ph + n : sv;
  double* history = ds.history();
  const int ring = ds.check_every();
  start(ds, b, x, r, opts);
  bicgstab_restart(ds, r, rhat, p, ph, dinv);
  ds.template reduce<1>(
      [=] __device__(std::size_t, const solver_scalars&) { return dots<1>{{0.0}}; },
      [=] __device__(const dots<1>&, solver_scalars& s) { record(s, history, ring, s.rr); },
      guard_none);
  solver_scalars s = ds.read(res);
  if (s.b2 == 0) return;
  const std::size_t max_iter = ds.max_iterations();
  bool true_residual = true;
  for (;;) {
    if (s.halt) {
      if (s.stopped || s.breakdown) break;
      if (true_residual) {
        res.converged = true;
        break;
      }
      ds.template matvec<1>(
          x,
          [=] __device__(std::size_t row, T ax, const solver_scalars&) {
            r[row] = b[row] - ax;
            return dots<1>{{0.0}};
          },
          [=] __device__(const dots<1>&, solver_scalars&) {}, guard_none);
      bicgstab_restart(ds, r, rhat, p, ph, dinv);
      true_residual = true;
      s = ds.read(res);
      continue;
    }
    if (s.iterations >= max_iter) break;
    const std::size_t batch =
        std::min<std::size_t>(static_cast<std::size_t>(ring), max_iter - s.iterations);
    for (std::size_t k = 0; k < batch; ++k) {
      // v = A p^, alpha = rho / rhat.v
      ds.template matvec<1>(
          ph,
          [=] __device__(std::size_t row, T ax, const solver_scalars&) {
            v[row] = ax;
            return dots<1>{{double(rhat[row]) * double(ax)}};
          },
          [=] __device__(const dots<1>& d, solver_scalars& sc) {
            const double rv = d.v[0];
            if (rv == 0 || !isfinite(rv)) {
              sc.breakdown = 1;
              sc.breakdown_value = rv;
              sc.halt = 1;
              sc.run_update = 0;
            } else {
              sc.alpha = sc.rho / rv;
              sc.run_update = 1;
              sc.s_converged = 0;
            }
          },
          guard_halt_clear);
      // s = r - alpha v
      ds.template reduce<1>(
          [=] __device__(std::size_t i, const solver_scalars& sc) {
            const T si = r[i] - static_cast<T>(sc.alpha) * v[i];
            sv[i] = si;
            if (pre) sh[i] = dinv[i] * si;
            return dots<1>{{double(si) * double(si)}};
          },
          [=] __device__(const dots<1>& d, solver_scalars& sc) {
            if (d.v[0] <= sc.tol2b2) {
              sc.s_converged = 1;
              sc.halt = 1;
            }
          },
          guard_halt);
      // t = A s^, omega = t.s / t.t
      ds.template matvec<2>(
          sh,
          [=] __device__(std::size_t row, T ax, const solver_scalars&) {
            t[row] = ax;
            return dots<2>{{double(ax) * double(ax), double(ax) * double(sv[row])}};
          },
          [=] __device__(const dots<2>& d, solver_scalars& sc) {
            if (d.v[0] == 0 || !isfinite(d.v[0]) || d.v[1] == 0 || !isfinite(d.v[1])) {
              sc.breakdown = 1;
              sc.breakdown_value = d.v[0];
              sc.halt = 1;
              sc.run_update = 0;
            } else {
              sc.omega = d.v[1] / d.v[0];
            }
          },
          guard_halt);
      // x += alpha p^ + omega s^, r = s - omega t; r.r and rhat.r
      ds.template reduce<2>(
          [=] __device__(std::size_t i, const solver_scalars& sc) {
            const T a = static_cast<T>(sc.alpha);
            T ri;
            if (sc.s_converged) {
              x[i] += a * ph[i];
              ri = sv[i];
            } else {
              const T w = static_cast<T>(sc.omega);
              x[i] += a * ph[i] + w * sh[i];
              ri = sv[i] - w * t[i];
            }
            r[i] = ri;
            return dots<2>{{double(ri) * double(ri), double(rhat[i]) * double(ri)}};
          },
          [=] __device__(const dots<2>& d, solver_scalars& sc) {
            sc.rr = d.v[0];
            ++sc.iterations;
            record(sc, history, ring, sc.rr);
            if (sc.halt || sc.s_converged || sc.rr <= sc.tol2b2) {
              sc.halt = 1;
              return;
            }
            const double rho_new = d.v[1];
            if (rho_new == 0 || !isfinite(rho_new) || sc.omega == 0) {
              sc.breakdown = 1;
              sc.breakdown_value = rho_new;
              sc.halt = 1;
              return;
            }
            sc.beta = (rho_new / sc.rho) * (sc.alpha / sc.omega);
            sc.rho = rho_new;
          },
          guard_update);
      // p = r + beta (p - omega v); p^ = D^-1 p
      ds.update(
          [=] __device__(std::size_t i, const solver_scalars& sc) {
            const T pi = r[i] + static_cast<T>(sc.beta) * (p[i] - static_cast<T>(sc.omega) * v[i]);
            p[i] = pi;
            if (pre) ph[i] = dinv[i] * pi;
          },
          guard_halt);
    }
    s = ds.read(res);
    true_residual = false;
  }
  if (s.breakdown) {
    res.breakdown = true;
    res.message = "breakdown: a division by " + solve_detail::number(s.breakdown_value);
  }
  report_stop(s, opts, res);
  res.iterations = s.iterations;
}

// Jacobi (scaled = omega D^-1) and Richardson (scaled = omega, or omega D^-1).
template <class T, class Op>
void richardson(device_solver<T, Op>& ds, const T* b, T* x, const T* scaled, T omega,
                const solve_options& opts, solve_result& res, stream_t stream) {
  const std::size_t n = ds.n();
  const detail::scratch_buffer other(n * sizeof(T), stream);
  T* buffers[2] = {x, other.get<T>()};
  double* history = ds.history();
  const int ring = ds.check_every();
  const unsigned long long max_iter = ds.max_iterations();
  start(ds, b, x, static_cast<T*>(nullptr), opts);
  solver_scalars s = ds.read(res);
  if (s.b2 == 0) return;
  std::size_t launched = 0;  // residuals enqueued: iterate k's is the k-th
  for (;;) {
    for (int k = 0; k < ring && launched <= max_iter; ++k, ++launched) {
      const T* from = buffers[launched % 2];
      T* to = buffers[(launched + 1) % 2];
      ds.template matvec<1>(
          from,
          [=] __device__(std::size_t row, T ax, const solver_scalars&) {
            const T ri = b[row] - ax;
            to[row] = from[row] + (scaled ? scaled[row] : omega) * ri;
            return dots<1>{{double(ri) * double(ri)}};
          },
          [=] __device__(const dots<1>& d, solver_scalars& sc) {
            sc.rr = d.v[0];
            record(sc, history, ring, sc.rr);
            if (sc.rr <= sc.tol2b2) {
              sc.halt = 1;
              sc.s_converged = 1;
            } else if (sc.halt || sc.iterations == max_iter) {
              sc.halt = 1;
            } else {
              ++sc.iterations;  // the iterate just written is now x
            }
          },
          guard_halt);
    }
    s = ds.read(res);
    if (s.halt || launched > max_iter) break;
  }
  res.converged = s.s_converged != 0;
  res.residual = std::sqrt(s.rr / s.b2);
  report_stop(s, opts, res);
  res.iterations = s.iterations;
  if (s.iterations % 2 == 1) detail::copy_device_to_device(x, buffers[1], n * sizeof(T), stream);
}

// ||b - A x|| / ||b|| of the returned x.
template <class T, class Op>
double final_residual(device_solver<T, Op>& ds, const T* b, const T* x, solve_result& scratch) {
  const std::size_t n = ds.n();
  (void)n;
  ds.template matvec<1>(
      x,
      [=] __device__(std::size_t row, T ax, const solver_scalars&) {
        const double ri = double(b[row]) - double(ax);
        return dots<1>{{ri * ri}};
      },
      [=] __device__(const dots<1>& d, solver_scalars& s) { s.rr = d.v[0]; }, guard_none);
  const solver_scalars s = ds.read(scratch);
  return std::sqrt(s.rr / s.b2);
}

}  // namespace gpuprim::cuda_detail

namespace gpuprim::detail {

template <class T, class DeviceOp>
solve_result cuda_solve_operator(solve_method method, const DeviceOp& op, int lanes, const T* b,
                                 T* x, std::size_t n, const solve_options& opts,
                                 std::size_t max_iterations, stream_t stream) {
  using namespace cuda_detail;
  solve_result res;
  if (n == 0) {
    res.converged = true;
    res.status = solve_status::converged;
    if (opts.keep_history) res.history.push_back(0.0);
    return res;
  }
  device_solver<T, DeviceOp> ds(op, lanes, b, x, opts, max_iterations, stream);
  const bool diagonal = solve_detail::needs_diagonal(method, opts);
  const scratch_buffer inverse(diagonal ? n * sizeof(T) : 0, stream);
  T* dinv = diagonal ? inverse.get<T>() : nullptr;
  const T omega = static_cast<T>(opts.omega);
  if (diagonal) {
    // Richardson and Jacobi fold omega into the scaled inverse diagonal.
    const bool stationary = method == solve_method::jacobi || method == solve_method::richardson;
    ds.inverse_diagonal_into(dinv, stationary ? omega : T(1), method);
  }
  // Checks done: x may be written from here on.
  if (!opts.use_initial_guess) fill_bytes(x, 0, n * sizeof(T), stream);
  switch (method) {
    case solve_method::cg:
      conjugate_gradients(ds, b, x, dinv, opts, res);
      break;
    case solve_method::bicgstab:
      bicgstab(ds, b, x, dinv, opts, res);
      break;
    case solve_method::jacobi:
    case solve_method::richardson:
      richardson(ds, b, x, dinv, omega, opts, res, stream);
      break;
  }
  solve_result scratch;
  const solver_scalars s = [&] {
    solver_scalars v;
    copy_to_host(&v, ds.scalars(), sizeof v, stream);
    synchronize(stream);
    return v;
  }();
  if (s.b2 == 0) {
    fill_bytes(x, 0, n * sizeof(T), stream);
    synchronize(stream);
    res = solve_result{};
    res.converged = true;
    res.status = solve_status::converged;
    if (opts.keep_history) res.history.push_back(0.0);
    return res;
  }
  if (method == solve_method::cg || method == solve_method::bicgstab) {
    res.residual = final_residual(ds, b, x, scratch);
    if (res.converged && !(res.residual <= solve_detail::relative_bound(opts, std::sqrt(s.b2))))
      res.converged = false;
  }
  synchronize(stream);
  solve_detail::finish(res);
  return res;
}

template <class T, class Op>
solve_result cuda_solve(solve_method method, const Op& A, const T* b, T* x, std::size_t n,
                        const solve_options& opts, std::size_t max_iterations, stream_t stream) {
  if constexpr (std::is_same_v<Op, device_matrix_view<const T>>) {
    const cuda_detail::dense_device_operator<T> op{A.rows(), A.data(), A.ld()};
    return cuda_solve_operator<T>(method, op, 32, b, x, n, opts, max_iterations, stream);
  } else {
    const cuda_detail::csr_device_operator<T, typename Op::index_type> op{
        A.rows, A.row_offsets.data(), A.col_indices.data(), A.values.data()};
    // The solvers fuse their updates into a row-group kernel's epilogue;
    // merge_path has none, so very uneven rows take a warp per row here.
    const spmv_choice choice = choose_spmv_kernel(A.stats);
    const int lanes = choice.kernel == spmv_kernel::merge_path ? 32 : choice.lanes;
    return cuda_solve_operator<T>(method, op, lanes, b, x, n, opts, max_iterations, stream);
  }
}

}  // namespace gpuprim::detail
