// Iterative solvers on the GPU: every iteration on the device, the scalars
// in device memory, the host looking at the residual once per batch.
//
// Shape of the algorithm:
//  1. Three kinds of kernel, all grid-stride over a grid of resident blocks:
//     matvec_reduce (A times a vector with an epilogue per row, from
//     spmv/kernels.cuh's row groups, or a thread per row on rows of at most
//     5 entries: solve_thread_per_row), vector_reduce (an update per
//     element, in 16-byte slices of every vector) and vector_update (no
//     dot product, the same slices). The reducing kinds return up to
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
//     replacement: the outer loop both backends share,
//     detail::solve::iterate_with_replacement).
// Files: solve/kernels.cuh (1 and 3), solve/device_solver.cuh (4: the
// launches, the reads, the outer loop); this file: the methods (2).
#pragma once

#include <cuda_runtime.h>

#include <cmath>
#include <cstddef>
#include <string>

#include "gpuprim/cuda/device/solve/device_solver.cuh"
#include "gpuprim/cuda/device/solve/kernels.cuh"

namespace gpuprim::cuda_impl {

// A breakdown found by a finisher: halt before the update that would
// divide by `value` (so x never takes a NaN from it).
__device__ __forceinline__ void break_down(solver_scalars& s, solve_breakdown cause, double value) {
  s.breakdown = static_cast<int>(cause);
  s.breakdown_value = value;
  s.halt = 1;
  s.run_update = 0;
}

// ---- conjugate gradients ------------------------------------------------------------

// p = z = D^-1 r; rr and rz; halt when r meets the tolerance.
template <class T, class Op>
void cg_restart(device_solver<T, Op>& ds, const T* r, T* p, const T* dinv) {
  ds.template reduce<2>(
      {r, p, dinv},
      [=] __device__(auto at, const solver_scalars&) {
        const auto ri = at.load(r);
        const auto z = dinv ? at.load(dinv) * ri : ri;
        at.store(p, z);
        return dots<2>{{dot(ri, ri), dot(ri, z)}};
      },
      [=] __device__(const dots<2>& t, solver_scalars& s) {
        s.rr = t.v[0];
        s.rz = t.v[1];
        s.halt = solve_tolerance_met(s.rr, s.tol2b2) ? 1 : 0;
      },
      guard_none);
}

// One CG iteration, three passes: q = A p with p.q (alpha); r -= alpha q
// with r.r and r.z (beta); x += alpha p, p = z + beta p.
template <class T, class Op>
void cg_iteration(device_solver<T, Op>& ds, T* x, T* r, T* p, T* q, const T* dinv) {
  double* history = ds.history();
  const int ring = ds.check_every();
  ds.template matvec<1>(
      p,
      [=] __device__(std::size_t row, T ax, const solver_scalars&) {
        q[row] = ax;
        return dots<1>{{double(p[row]) * double(ax)}};
      },
      [=] __device__(const dots<1>& t, solver_scalars& sc) {
        // SciPy's cg goes on through p.Ap < 0 (an indefinite matrix often
        // converges still); only a division by zero stops it.
        const double pq = t.v[0];
        if (pq == 0 || !isfinite(pq) || sc.rz == 0) {
          break_down(sc, solve_breakdown::curvature, pq);
        } else {
          sc.alpha = sc.rz / pq;
          sc.run_update = 1;
        }
      },
      guard_halt_clear);
  ds.template reduce<2>(
      {r, q, dinv},
      [=] __device__(auto at, const solver_scalars& sc) {
        const auto ri = at.load(r) - static_cast<T>(sc.alpha) * at.load(q);
        at.store(r, ri);
        const auto z = dinv ? at.load(dinv) * ri : ri;
        return dots<2>{{dot(ri, ri), dot(ri, z)}};
      },
      [=] __device__(const dots<2>& t, solver_scalars& sc) {
        sc.rr = t.v[0];
        sc.beta = t.v[1] / sc.rz;
        sc.rz = t.v[1];
        ++sc.iterations;
        record(sc, history, ring, sc.rr);
        if (solve_tolerance_met(sc.rr, sc.tol2b2)) sc.halt = 1;
      },
      guard_halt);
  ds.update(
      {x, r, p, dinv},
      [=] __device__(auto at, const solver_scalars& sc) {
        const auto pi = at.load(p);
        at.store(x, at.load(x) + static_cast<T>(sc.alpha) * pi);
        const auto ri = at.load(r);
        const auto z = dinv ? at.load(dinv) * ri : ri;
        at.store(p, z + static_cast<T>(sc.beta) * pi);
      },
      guard_update);
}

template <class T, class Op>
void conjugate_gradients(device_solver<T, Op>& ds, const T* b, T* x, const T* dinv,
                         const solve_options& opts, solve_result& res) {
  const typename device_solver<T, Op>::vectors_like work(ds, 3);
  T* r = work.vector(0);
  T* p = work.vector(1);
  T* q = work.vector(2);
  run_krylov(
      ds, b, x, r, opts, res, [&] { cg_restart(ds, r, p, dinv); },
      [&] { cg_iteration(ds, x, r, p, q, dinv); },
      [](const solver_scalars& s) {
        return "breakdown: p.Ap = " + detail::solve::number(s.breakdown_value) +
               " (is the matrix symmetric positive definite?)";
      });
}

// ---- BiCGStab ----------------------------------------------------------------------

// rhat = p = r, p^ = D^-1 p; rr = rho = r.r.
template <class T, class Op>
void bicgstab_restart(device_solver<T, Op>& ds, const T* r, T* rhat, T* p, T* ph, const T* dinv) {
  const double below = detail::solve::bicgstab_breakdown_below<T>;
  ds.template reduce<1>(
      {r, rhat, p, ph, dinv},
      [=] __device__(auto at, const solver_scalars&) {
        const auto ri = at.load(r);
        at.store(rhat, ri);
        at.store(p, ri);
        if (dinv) at.store(ph, at.load(dinv) * ri);
        return dots<1>{{dot(ri, ri)}};
      },
      [=] __device__(const dots<1>& d, solver_scalars& s) {
        s.rr = d.v[0];
        s.rho = d.v[0];
        s.halt = solve_tolerance_met(s.rr, s.tol2b2) ? 1 : 0;
        s.s_converged = 0;
        // (A non-finite r is the divergence record() reports next.)
        if (!s.halt && isfinite(s.rr) && !(fabs(s.rho) >= below))
          break_down(s, solve_breakdown::rho, s.rho);
      },
      guard_none);
}

// BiCGStab's vectors in device memory; ph and sh are p and s when there
// is no preconditioner.
template <class T>
struct bicgstab_vectors {
  T* r;
  T* rhat;
  T* p;
  T* v;
  T* sv;
  T* t;
  T* ph;
  T* sh;
};

// One BiCGStab iteration, five passes: v = A p^ with rhat.v (alpha); s =
// r - alpha v with s.s; t = A s^ with t.t and t.s (omega); x and r with
// r.r and rhat.r (beta); p and p^.
template <class T, class Op>
void bicgstab_iteration(device_solver<T, Op>& ds, T* x, const bicgstab_vectors<T>& w,
                        const T* dinv) {
  T *r = w.r, *rhat = w.rhat, *p = w.p, *v = w.v, *sv = w.sv, *t = w.t, *ph = w.ph, *sh = w.sh;
  const bool pre = dinv != nullptr;
  const double below = detail::solve::bicgstab_breakdown_below<T>;
  double* history = ds.history();
  const int ring = ds.check_every();
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
          break_down(sc, solve_breakdown::omega, rv);
        } else {
          sc.alpha = sc.rho / rv;
          sc.run_update = 1;
          sc.s_converged = 0;
        }
      },
      guard_halt_clear);
  // s = r - alpha v
  ds.template reduce<1>(
      {r, v, sv, sh, dinv},
      [=] __device__(auto at, const solver_scalars& sc) {
        const auto si = at.load(r) - static_cast<T>(sc.alpha) * at.load(v);
        at.store(sv, si);
        if (pre) at.store(sh, at.load(dinv) * si);
        return dots<1>{{dot(si, si)}};
      },
      [=] __device__(const dots<1>& d, solver_scalars& sc) {
        if (solve_tolerance_met(d.v[0], sc.tol2b2)) {
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
        // omega = 0 (t.s = 0) is SciPy's omega breakdown after the update
        // (the next iteration's), as below.
        if (d.v[0] == 0 || !isfinite(d.v[0]) || !isfinite(d.v[1])) {
          break_down(sc, solve_breakdown::omega, d.v[0]);
        } else {
          sc.omega = d.v[1] / d.v[0];
        }
      },
      guard_halt);
  // x += alpha p^ + omega s^, r = s - omega t; r.r and rhat.r
  ds.template reduce<2>(
      {x, ph, sv, sh, t, r, rhat},
      [=] __device__(auto at, const solver_scalars& sc) {
        const T a = static_cast<T>(sc.alpha);
        decltype(at.load(r)) ri;
        if (sc.s_converged) {
          at.store(x, at.load(x) + a * at.load(ph));
          ri = at.load(sv);
        } else {
          const T w = static_cast<T>(sc.omega);
          at.store(x, at.load(x) + (a * at.load(ph) + w * at.load(sh)));
          ri = at.load(sv) - w * at.load(t);
        }
        at.store(r, ri);
        return dots<2>{{dot(ri, ri), dot(at.load(rhat), ri)}};
      },
      [=] __device__(const dots<2>& d, solver_scalars& sc) {
        sc.rr = d.v[0];
        ++sc.iterations;
        record(sc, history, ring, sc.rr);
        if (sc.halt || sc.s_converged || solve_tolerance_met(sc.rr, sc.tol2b2)) {
          sc.halt = 1;
          return;
        }
        // SciPy's order: the tolerance, then rho, then omega (x has taken
        // this iteration's update).
        const double rho_new = d.v[1];
        const bool rho_small = !(fabs(rho_new) >= below);
        if (rho_small || !(fabs(sc.omega) >= below)) {
          sc.breakdown =
              static_cast<int>(rho_small ? solve_breakdown::rho : solve_breakdown::omega);
          sc.breakdown_value = rho_small ? rho_new : sc.omega;
          sc.halt = 1;
          return;
        }
        sc.beta = (rho_new / sc.rho) * (sc.alpha / sc.omega);
        sc.rho = rho_new;
      },
      guard_update);
  // p = r + beta (p - omega v); p^ = D^-1 p
  ds.update(
      {r, p, v, ph, dinv},
      [=] __device__(auto at, const solver_scalars& sc) {
        const auto pi = at.load(r) + static_cast<T>(sc.beta) *
                                         (at.load(p) - static_cast<T>(sc.omega) * at.load(v));
        at.store(p, pi);
        if (pre) at.store(ph, at.load(dinv) * pi);
      },
      guard_halt);
}

template <class T, class Op>
void bicgstab(device_solver<T, Op>& ds, const T* b, T* x, const T* dinv, const solve_options& opts,
              solve_result& res) {
  const bool pre = dinv != nullptr;
  const typename device_solver<T, Op>::vectors_like work(ds, pre ? 8 : 6);
  bicgstab_vectors<T> w;
  w.r = work.vector(0);
  w.rhat = work.vector(1);
  w.p = work.vector(2);
  w.v = work.vector(3);
  w.sv = work.vector(4);
  w.t = work.vector(5);
  w.ph = pre ? work.vector(6) : w.p;
  w.sh = pre ? work.vector(7) : w.sv;
  run_krylov(
      ds, b, x, w.r, opts, res, [&] { bicgstab_restart(ds, w.r, w.rhat, w.p, w.ph, dinv); },
      [&] { bicgstab_iteration(ds, x, w, dinv); },
      [](const solver_scalars& s) {
        const std::string value = detail::solve::number(s.breakdown_value);
        return s.breakdown == static_cast<int>(solve_breakdown::rho)
                   ? "breakdown: rhat.r = " + value
                   : "breakdown: a division by " + value + " (omega, rhat.Ap or t.t)";
      });
}

// ---- Jacobi and Richardson ---------------------------------------------------------

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
            if (solve_tolerance_met(sc.rr, sc.tol2b2)) {
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

}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <class T, class DeviceOp>
solve_result cuda_solve_operator(solve_method method, const DeviceOp& op, int lanes, const T* b,
                                 T* x, std::size_t n, const solve_options& opts,
                                 std::size_t max_iterations, stream_t stream) {
  using namespace cuda_impl;
  solve_result res;
  if (n == 0) {
    res.converged = true;
    res.status = solve_status::converged;
    if (opts.keep_history) res.history.push_back(0.0);
    return res;
  }
  device_solver<T, DeviceOp> ds(op, lanes, b, x, opts, max_iterations, stream);
  const bool diagonal = detail::solve::needs_diagonal(method, opts);
  const typename device_solver<T, DeviceOp>::vectors_like inverse(ds, diagonal ? 1 : 0);
  T* dinv = diagonal ? inverse.vector(0) : nullptr;
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
    if (res.converged && !detail::solve::relative_residual_met(res.residual, opts, std::sqrt(s.b2)))
      res.converged = false;
  }
  synchronize(stream);
  detail::solve::finish(res);
  return res;
}

template <class T, class Op>
solve_result cuda_solve(solve_method method, const Op& A, const T* b, T* x, std::size_t n,
                        const solve_options& opts, std::size_t max_iterations, stream_t stream) {
  if constexpr (std::is_same_v<Op, device_matrix_view<const T>>) {
    const cuda_impl::dense_device_operator<T> op{A.rows(), A.data(), A.ld()};
    return cuda_solve_operator<T>(method, op, 32, b, x, n, opts, max_iterations, stream);
  } else {
    const cuda_impl::csr_device_operator<T, typename Op::index_type> op{
        A.rows, A.row_offsets.data(), A.col_indices.data(), A.values.data()};
    // The row strategy: solve_thread_per_row (detail/solve/solve.hpp);
    // merge_path and hot_columns (no per-row epilogue) take a warp per row.
    const spmv_choice choice = choose_spmv_kernel(A.stats);
    const bool merge =
        choice.kernel == spmv_kernel::merge_path || choice.kernel == spmv_kernel::hot_columns;
    const int lanes = solve_thread_per_row(A.stats) ? cuda_impl::thread_row_group
                      : merge                       ? 32
                                                    : choice.lanes;
    return cuda_solve_operator<T>(method, op, lanes, b, x, n, opts, max_iterations, stream);
  }
}

}  // namespace gpuprim::detail
