// The host side of the GPU solvers: device_solver (the scalars, the
// history ring and the launches of the three kernel kinds), the steps
// every method starts with, and the GPU side of the outer loop CG and
// BiCGStab share (run_krylov over detail::solve::iterate_with_replacement).
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
#include "gpuprim/cuda/device/device_spmv.cuh"
#include "gpuprim/cuda/device/solve/kernels.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/detail/solve/residual_replacement.hpp"

namespace gpuprim::cuda_impl {

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
    if constexpr (is_csr_operator<Op>) {
      if (lanes_ == thread_row_group) {
        auto kernel = matvec_reduce<thread_row_group, N, Op, T, Epilogue, Finish>;
        launch("matvec_reduce", "solve", kernel,
               {dim3(reduce_grid(kernel, n_)), dim3(spmv_threads), 0, stream_}, A_, x, epilogue,
               finish, slots(), g);
        return;
      }
    }
    with_lanes(lanes_, [&](auto lanes) {
      constexpr int G = decltype(lanes)::value;
      auto kernel = matvec_reduce<G, N, Op, T, Epilogue, Finish>;
      launch("matvec_reduce", "solve", kernel,
             {dim3(reduce_grid(kernel, row_threads<G>(n_))), dim3(spmv_threads), 0, stream_}, A_, x,
             epilogue, finish, slots(), g);
    });
  }
  // The vector kinds: `vectors` lists every vector the body reads or
  // writes (null ones are skipped), which decides the slices' width
  // (layout_of); the body takes a slice and the scalars.
  template <int N, class Body, class Finish>
  void reduce(std::initializer_list<const T*> vectors, Body body, Finish finish, int g) {
    const vector_layout layout = layout_of<T>(n_, vectors);
    with_width<T>(layout, [&](auto width) {
      constexpr int W = decltype(width)::value;
      auto kernel = vector_reduce<W, N, Body, Finish>;
      launch("vector_reduce", "solve", kernel,
             {dim3(reduce_grid(kernel, (n_ + W - 1) / W)), dim3(spmv_threads), 0, stream_}, n_,
             layout.head, body, finish, slots(), g);
    });
  }
  template <class Body>
  void update(std::initializer_list<const T*> vectors, Body body, int g) {
    const vector_layout layout = layout_of<T>(n_, vectors);
    with_width<T>(layout, [&](auto width) {
      constexpr int W = decltype(width)::value;
      auto kernel = vector_update<W, Body>;
      launch("vector_update", "solve", kernel,
             {dim3(grid_for(kernel, (n_ + W - 1) / W)), dim3(spmv_threads), 0, stream_}, n_,
             layout.head, body, scalars_, g);
    });
  }

  // Scratch for `count` vectors of n elements that lie at x's address
  // modulo 16 (so the vector kinds take them with x in 16-byte slices);
  // vector(j) is the j-th.
  class vectors_like {
   public:
    vectors_like(const device_solver& ds, std::size_t count)
        : stride_(align_up(ds.n_, static_cast<std::size_t>(vector_items<T>))),
          buffer_(count * stride_ * sizeof(T) + 16, ds.stream_) {
      const auto want = reinterpret_cast<std::uintptr_t>(ds.x_) % 16;
      const auto have = reinterpret_cast<std::uintptr_t>(buffer_.get()) % 16;
      const std::uintptr_t shift = (want + 16 - have) % 16;
      base_ =
          reinterpret_cast<T*>(buffer_.template get<char>() + (shift % sizeof(T) == 0 ? shift : 0));
    }
    T* vector(std::size_t j) const { return base_ + j * stride_; }

   private:
    std::size_t stride_;
    detail::scratch_buffer buffer_;
    T* base_ = nullptr;
  };

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

// ---- what every method starts with ---------------------------------------------

// Records ||r|| / ||b|| as history entry `evaluated` (ring of check_every)
// as the residual after s.iterations iterations, and applies the
// divergence and stagnation rules (solve_watch): halt, with `stopped`
// saying why.
__device__ __forceinline__ void record(solver_scalars& s, double* history, int ring, double rr) {
  history[s.evaluated % static_cast<unsigned long long>(ring)] = sqrt(rr / s.b2);
  if (s.evaluated == 0) s.watch.begin(rr);
  ++s.evaluated;
  if (solve_tolerance_met(rr, s.tol2b2)) return;
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
    res.message = detail::solve::diverged_message(static_cast<std::size_t>(s.iterations), residual,
                                                 std::sqrt(s.watch.start / s.b2));
  } else if (s.stopped == solve_watch::stagnated) {
    res.status = solve_status::stagnated;
    res.message =
        detail::solve::stagnated_message(static_cast<std::size_t>(s.iterations), residual, opts);
  }
}

// r = b - A x.
template <class T, class Op>
void residual_into(device_solver<T, Op>& ds, const T* b, const T* x, T* r) {
  ds.template matvec<1>(
      x,
      [=] __device__(std::size_t row, T ax, const solver_scalars&) {
        r[row] = b[row] - ax;
        return dots<1>{{0.0}};
      },
      [=] __device__(const dots<1>&, solver_scalars&) {}, guard_none);
}

// ||b||^2 into b2 and tol2b2, the stagnation rule configured; r = b - A x
// unless r is null. The caller reads.
template <class T, class Op>
void start(device_solver<T, Op>& ds, const T* b, T* x, T* r, const solve_options& opts) {
  const double tol = opts.tolerance, atol = opts.atol;
  const auto window = static_cast<unsigned long long>(opts.stagnation_window);
  const double improvement = opts.stagnation_improvement;
  const double growth = opts.divergence_growth;
  ds.template reduce<1>(
      {b},
      [=] __device__(auto at, const solver_scalars&) {
        const auto bi = at.load(b);
        return dots<1>{{dot(bi, bi)}};
      },
      [=] __device__(const dots<1>& t, solver_scalars& s) {
        s.b2 = t.v[0];
        s.tol2b2 = fmax(tol * tol * t.v[0], atol * atol);
        s.watch.configure(window, improvement, growth);
      },
      guard_none);
  if (r != nullptr) residual_into(ds, b, x, r);
}

// Records rr, the residual the restart computed, as the start's.
template <class T, class Op>
void record_start(device_solver<T, Op>& ds) {
  double* history = ds.history();
  const int ring = ds.check_every();
  ds.template reduce<1>(
      {}, [=] __device__(auto, const solver_scalars&) { return dots<1>{{0.0}}; },
      [=] __device__(const dots<1>&, solver_scalars& s) { record(s, history, ring, s.rr); },
      guard_none);
}

// ---- the outer loop of CG and BiCGStab ---------------------------------------------

// The GPU side of detail::solve::iterate_with_replacement: the scalars as
// last read; restart() starts the method's recurrences from r and sets
// halt when r meets the tolerance; step() queues one iteration, whose
// kernels do nothing once a finisher has set halt.
template <class T, class Op, class Restart, class Step>
class device_krylov {
 public:
  device_krylov(device_solver<T, Op>& ds, const T* b, const T* x, T* r, solve_result& res,
                Restart& restart, Step& step, const solver_scalars& s)
      : ds_(ds), b_(b), x_(x), r_(r), res_(res), restart_(restart), step_(step), s_(s) {}
  detail::solve::krylov_status status() const {
    const bool stopped = s_.halt && (s_.stopped || s_.breakdown);
    return {stopped, s_.halt && !stopped, static_cast<std::size_t>(s_.iterations)};
  }
  void replace() {
    residual_into(ds_, b_, x_, r_);
    restart_();
    s_ = ds_.read(res_);
    res_.residual = std::sqrt(s_.rr / s_.b2);
  }
  // A batch of check_every queued iterations (fewer at the end), then one read.
  void advance(std::size_t most) {
    const std::size_t batch =
        std::min<std::size_t>(static_cast<std::size_t>(ds_.check_every()), most);
    for (std::size_t k = 0; k < batch; ++k)
      step_();
    s_ = ds_.read(res_);
    half_step_ = s_.s_converged != 0;
  }
  const solver_scalars& scalars() const { return s_; }
  // BiCGStab: the last batch's last iteration stopped at its half step.
  bool half_step() const { return half_step_; }

 private:
  device_solver<T, Op>& ds_;
  const T* b_;
  const T* x_;
  T* r_;
  solve_result& res_;
  Restart& restart_;
  Step& step_;
  solver_scalars s_;
  bool half_step_ = false;
};

// A Krylov method on the GPU: r = b - A x, restart(), the start's residual
// recorded, then the shared outer loop over batches of step(); a breakdown
// is reported as breakdown_message(scalars).
template <class T, class Op, class Restart, class Step, class Message>
void run_krylov(device_solver<T, Op>& ds, const T* b, T* x, T* r, const solve_options& opts,
                solve_result& res, Restart restart, Step step, Message breakdown_message) {
  start(ds, b, x, r, opts);
  restart();
  record_start(ds);
  const solver_scalars first = ds.read(res);
  if (first.b2 == 0) return;
  device_krylov<T, Op, Restart, Step> solver(ds, b, x, r, res, restart, step, first);
  detail::solve::iterate_with_replacement(solver, ds.max_iterations(), res);
  const solver_scalars& s = solver.scalars();
  if (s.breakdown) {
    res.breakdown = true;
    res.breakdown_cause = static_cast<solve_breakdown>(s.breakdown);
    res.message = breakdown_message(s);
  }
  res.half_step = solver.half_step();
  report_stop(s, opts, res);
  res.iterations = s.iterations;
}

}  // namespace gpuprim::cuda_impl
