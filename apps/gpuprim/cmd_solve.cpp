// `gpuprim solve A.mtx b.npy -o x.npy [--method cg|bicgstab|jacobi|richardson]
// [--precond none|jacobi] [--tol T] [--max-iter N] [--omega W]`: an
// iterative solution of A x = b in double, written as float64.
//
// On convergence prints "iterations N residual R" (R = ||b - A x|| / ||b||)
// and exits 0. Otherwise writes the last iterate, prints "not converged
// after N iterations, residual R" (with the reason after a breakdown) on
// stderr and exits 3. Bad input exits 2 and writes nothing.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/solve.hpp"
#include "sparse_cli.hpp"

namespace gpuprim::cli {
namespace {

struct solve_cli_options {
  std::string matrix;
  std::string rhs;
  std::string output;
  std::string method = "cg";
  std::string precond = "none";
  double tolerance = 1e-8;
  long long max_iterations = 0;
  double omega = 1.0;
  std::string backend;
};

solve_method method_of(const std::string& name) {
  if (name == "bicgstab") return solve_method::bicgstab;
  if (name == "jacobi") return solve_method::jacobi;
  if (name == "richardson") return solve_method::richardson;
  return solve_method::cg;
}

int run_solve(const solve_cli_options& opts) {
  if (opts.max_iterations < 0) {
    throw usage_error("--max-iter " + std::to_string(opts.max_iterations) + ": must be >= 0");
  }
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  const cli_matrix m = read_cli_matrix(opts.matrix);
  const std::vector<double> b = read_cli_vector(opts.rhs, "b");
  solve_options so;
  so.tolerance = opts.tolerance;
  so.max_iterations = static_cast<std::size_t>(opts.max_iterations);
  so.precond = opts.precond == "jacobi" ? preconditioner::jacobi : preconditioner::none;
  so.omega = opts.omega;
  const solve_method method = method_of(opts.method);
  std::vector<double> x;
  solve_result r;
  std::visit(
      [&](const auto& A) {
        if (A.rows() != A.cols()) {
          throw usage_error(opts.matrix + ": the matrix is " + std::to_string(A.rows()) + " x " +
                            std::to_string(A.cols()) + "; a solve needs a square one");
        }
        if (b.size() != A.rows()) {
          throw usage_error(opts.rhs + ": b has " + std::to_string(b.size()) + " elements but " +
                            opts.matrix + " has " + std::to_string(A.rows()) + " rows");
        }
        x.assign(A.rows(), 0.0);
        if (on_cuda) {
          const auto dA = to_device(A);
          const auto db = to_device(b);
          device_vector<double> dx(A.rows());
          r = solve(cuda, method, dA, db, dx, so);
          x = to_host(dx);
        } else {
          r = solve(host, method, A, b, x, so);
        }
      },
      m);
  io::write_npy(opts.output, x);
  if (r.converged) {
    std::printf("iterations %zu residual %.6g\n", r.iterations, r.residual);
    return exit_success;
  }
  std::fprintf(stderr, "not converged after %zu iterations, residual %.6g%s\n", r.iterations,
               r.residual, r.breakdown ? (" (" + r.message + ")").c_str() : "");
  return exit_not_converged;
}

}  // namespace

command add_solve_command(CLI::App& app) {
  auto opts = std::make_shared<solve_cli_options>();
  CLI::App* sub = app.add_subcommand(
      "solve",
      "Solves A x = b iteratively (A from a .mtx file, b a 1-D .npy); writes x as float64 .npy "
      "and prints 'iterations N residual R'; exit 3 when it does not converge");
  sub->add_option("A", opts->matrix, "The matrix (.mtx)")->required()->type_name("");
  sub->add_option("b", opts->rhs, "The right-hand side (.npy, 1-D)")->required()->type_name("");
  sub->add_option("-o,--output", opts->output, "Where to write x (.npy)")->required();
  sub->add_option("--method", opts->method,
                  "cg (default; symmetric positive definite A), "
                  "bicgstab, jacobi or richardson")
      ->check(CLI::IsMember({"cg", "bicgstab", "jacobi", "richardson"}));
  sub->add_option("--precond", opts->precond, "none (default) or jacobi (diagonal)")
      ->check(CLI::IsMember({"none", "jacobi"}));
  sub->add_option("--tol", opts->tolerance, "Relative residual ||b - Ax|| / ||b|| to reach (1e-8)");
  sub->add_option("--max-iter", opts->max_iterations, "Iteration limit (default 10 n)");
  sub->add_option("--omega", opts->omega, "Relaxation factor of richardson / jacobi (1)");
  sub->add_option("--backend", opts->backend, "host or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"host", "cuda"}));
  return [opts] { return run_solve(*opts); };
}

}  // namespace gpuprim::cli
