// `gpuprim solve A.mtx b.npy -o x.npy [--method cg|bicgstab|jacobi|richardson]
// [--precond none|jacobi] [--rtol R] [--atol A] [--maxiter N] [--x0 X.npy]
// [--omega W]`: an iterative solution of A x = b in double, written as
// float64. The options are scipy.sparse.linalg.cg's (SciPy >= 1.12):
// converged when ||b - A x|| < max(rtol ||b||, atol), rtol 1e-5, atol 0,
// maxiter 10 n (0: no iteration, x0 is the answer, as SciPy), x0 zeros;
// `--tol` and `--max-iter` are aliases of `--rtol` and `--maxiter`.
//
// On convergence prints "iterations N relative residual R" (R = ||b - A x||
// / ||b||) and exits 0. Otherwise prints one line on stderr saying why (not
// converged after N iterations, diverged, stagnated, a breakdown; for CG on
// a non-symmetric matrix a hint) and exits 3; x is written then only when
// the iteration did not diverge and every value is finite. Solves longer
// than a second print their progress on stderr once a second. Bad input
// (including a zero diagonal entry for the Jacobi iteration or
// preconditioner) exits 2 and writes nothing.
#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/solve.hpp"
#include "options.hpp"
#include "sparse_cli.hpp"

namespace gpuprim::cli {
namespace {

const word_list<solve_method> method_words = {{"cg", solve_method::cg},
                                              {"bicgstab", solve_method::bicgstab},
                                              {"jacobi", solve_method::jacobi},
                                              {"richardson", solve_method::richardson}};
const word_list<preconditioner> precond_words = {{"none", preconditioner::none},
                                                 {"jacobi", preconditioner::jacobi}};

struct solve_cli_options {
  std::string matrix;
  std::string rhs;
  std::string output;
  std::string x0;
  solve_method method = solve_method::cg;
  preconditioner precond = preconditioner::none;
  double rtol = 1e-5;
  double atol = 0.0;
  long long max_iterations = 0;
  bool max_iterations_given = false;  // else 10 n
  double omega = 1.0;
  backend_request backend = backend_request::automatic;
};

// b or x0: n finite values.
std::vector<double> read_vector(const std::string& file, const std::string& what,
                                const std::string& matrix, std::size_t n) {
  std::vector<double> v = read_cli_vector(file, what);
  if (v.size() != n) {
    throw usage_error(file + ": " + what + " has " + std::to_string(v.size()) + " elements but " +
                      matrix + " has " + std::to_string(n) + " rows");
  }
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!std::isfinite(v[i])) {
      throw usage_error(file + ": " + what + "[" + std::to_string(i) + "] is " +
                        std::to_string(v[i]) + "; the values must be finite");
    }
  }
  return v;
}

bool all_finite(const std::vector<double>& x) {
  for (double v : x)
    if (!std::isfinite(v)) return false;
  return true;
}

template <class B, class Matrix>
solve_result run_method(B b, const solve_cli_options& opts, const Matrix& A,
                        const std::vector<double>& rhs, std::vector<double>& x,
                        const solve_options& so) {
  try {
    auto staged_x = stage_in_place(b, x);
    const solve_result r = solve(b, opts.method, stage_object(b, A), stage(b, rhs), staged_x, so);
    write_back(x, staged_x);
    return r;
  } catch (const std::invalid_argument& e) {
    // The library's checks of the matrix (a zero diagonal entry): name the file.
    std::string message = e.what();
    const std::size_t colon = message.find(": ");
    if (message.rfind("gpuprim::", 0) == 0 && colon != std::string::npos)
      message = message.substr(colon + 2);
    throw usage_error(opts.matrix + ": " + message);
  }
}

int run_solve(const solve_cli_options& opts) {
  if (opts.max_iterations < 0) {
    throw usage_error("--maxiter " + std::to_string(opts.max_iterations) + ": must be >= 0");
  }
  if (!(opts.rtol >= 0) || !(opts.atol >= 0)) {
    throw usage_error(!(opts.rtol >= 0) ? "--rtol " + std::to_string(opts.rtol) + ": must be >= 0"
                                        : "--atol " + std::to_string(opts.atol) + ": must be >= 0");
  }
  const backend be = resolve(opts.backend);
  const cli_matrix m = read_cli_matrix(opts.matrix);
  solve_options so;
  so.tolerance = opts.rtol;
  so.atol = opts.atol;
  if (opts.max_iterations_given) so.max_iterations = static_cast<std::size_t>(opts.max_iterations);
  so.precond = opts.precond;
  so.omega = opts.omega;
  so.use_initial_guess = !opts.x0.empty();
  so.progress = [](const solve_progress& p) {
    std::fprintf(stderr, "gpuprim solve: iteration %zu, relative residual %.3g, %.1f s\n",
                 p.iteration, p.residual, p.seconds);
    std::fflush(stderr);
  };
  std::vector<double> x;
  solve_result r;
  bool symmetric = true;
  std::visit(
      [&](auto b, const auto& A) {
        if (A.rows() != A.cols()) {
          throw usage_error(opts.matrix + ": the matrix is " + std::to_string(A.rows()) + " x " +
                            std::to_string(A.cols()) + "; a solve needs a square one");
        }
        const std::vector<double> rhs = read_vector(opts.rhs, "b", opts.matrix, A.rows());
        x = opts.x0.empty() ? std::vector<double>(A.rows(), 0.0)
                            : read_vector(opts.x0, "x0", opts.matrix, A.rows());
        r = run_method(b, opts, A, rhs, x, so);
        // CG needs a symmetric matrix: one O(nnz) look when it failed.
        if (opts.method == solve_method::cg && !r.converged) symmetric = is_symmetric(A);
      },
      be, m);
  const bool write = r.status != solve_status::diverged && all_finite(x);
  if (write) io::write_npy(opts.output, x);
  if (r.converged) {
    std::printf("iterations %zu relative residual %.6g\n", r.iterations, r.residual);
    return exit_success;
  }
  std::string line;
  if (r.status == solve_status::diverged || r.status == solve_status::stagnated) {
    line = r.message;
  } else {
    char text[96];
    std::snprintf(text, sizeof text, "not converged after %zu iterations, relative residual %.6g",
                  r.iterations, r.residual);
    line = text;
    if (r.status == solve_status::breakdown) line += " (" + r.message + ")";
  }
  if (!symmetric) {
    line +=
        "; the matrix is not symmetric: CG needs a symmetric positive definite matrix; try "
        "--method bicgstab";
  }
  if (!write) {
    line += r.status == solve_status::diverged ? "; x not written"
                                               : "; x not written (it has non-finite values)";
  }
  std::fprintf(stderr, "gpuprim solve: %s\n", line.c_str());
  return exit_not_converged;
}

// `gpuprim solve --help`: what the command does, then each of its options.
constexpr command_help help(R"(
solve: Solves A x = b iteratively (A from a .mtx file, b a 1-D .npy); writes x as float64 .npy and
  prints 'iterations N relative residual R' (R = ||b - A x|| / ||b||). Options and stopping rule as
  scipy.sparse.linalg.cg: converged when ||b - A x|| < max(rtol ||b||, atol). Exit 3 when it does not converge (the iteration
  limit, a breakdown, a residual that is not finite or 1e8 times its start: diverged, x not
  written; or one that has not fallen by 0.1% in 500 iterations: stagnated), with one line saying
  why; progress on stderr once a second for long solves
A: The matrix (.mtx)
b: The right-hand side (.npy, 1-D)
--output: Where to write x (.npy)
--method: cg (default; symmetric positive definite A), bicgstab, jacobi or richardson
--precond: none (default) or jacobi (diagonal)
--rtol: Relative tolerance: ||b - A x|| < rtol ||b|| (default 1e-5, as SciPy)
--atol: Absolute tolerance: ||b - A x|| < atol is enough (default 0, as SciPy)
--maxiter: Iteration limit (default 10 n, as SciPy's cg and bicgstab; 0: x0 as it is)
--x0: The initial guess (.npy, 1-D, n values; default zeros)
--omega: Relaxation factor of richardson / jacobi (1)
)");

}  // namespace

command add_solve_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<solve_cli_options>(app);
  add_files(sub, help, {{"A", &opts->matrix}, {"b", &opts->rhs}}, opts->output, "X.npy");
  add_choice(sub, "--method", opts->method, method_words, help["--method"]);
  add_choice(sub, "--precond", opts->precond, precond_words, help["--precond"]);
  sub->add_option("--rtol,--tol", opts->rtol, help["--rtol"]);
  sub->add_option("--atol", opts->atol, help["--atol"]);
  CLI::Option* maxiter =
      sub->add_option("--maxiter,--max-iter", opts->max_iterations, help["--maxiter"]);
  sub->add_option("--x0", opts->x0, help["--x0"]);
  sub->add_option("--omega", opts->omega, help["--omega"]);
  add_backend_option(sub, opts->backend);
  return [opts, maxiter] {
    opts->max_iterations_given = maxiter->count() > 0;
    return run_solve(*opts);
  };
}

}  // namespace gpuprim::cli
