// `gpuprim spmv A.mtx x.npy -o y.npy`: y = A x for a Matrix Market matrix
// and a 1-D NumPy vector, in double (as SciPy computes a float64 matrix
// times any real vector), written as float64.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/sparse.hpp"
#include "sparse_cli.hpp"

namespace gpuprim::cli {
namespace {

struct spmv_options {
  std::string matrix;
  std::string vector;
  std::string output;
  std::string backend;
};

int run_spmv(const spmv_options& opts) {
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  const cli_matrix m = read_cli_matrix(opts.matrix);
  const std::vector<double> x = read_cli_vector(opts.vector, "x");
  std::vector<double> y;
  std::visit(
      [&](const auto& A) {
        if (x.size() != A.cols()) {
          throw usage_error(opts.vector + ": x has " + std::to_string(x.size()) + " elements but " +
                            opts.matrix + " has " + std::to_string(A.cols()) + " columns");
        }
        y.resize(A.rows());
        if (on_cuda) {
          const auto dA = to_device(A);
          const auto dx = to_device(x);
          device_vector<double> dy(A.rows());
          spmv(cuda, 1.0, dA, dx, 0.0, dy);
          y = to_host(dy);
        } else {
          spmv(host, 1.0, A, x, 0.0, y);
        }
      },
      m);
  io::write_npy(opts.output, y);
  return exit_success;
}

}  // namespace

command add_spmv_command(CLI::App& app) {
  auto opts = std::make_shared<spmv_options>();
  CLI::App* sub = app.add_subcommand(
      "spmv", "y = A x: a Matrix Market matrix times a 1-D NumPy vector, written as float64 .npy");
  sub->add_option("A", opts->matrix, "The matrix (.mtx, coordinate or array)")
      ->required()
      ->type_name("");
  sub->add_option("x", opts->vector, "The vector (.npy, 1-D, any real dtype)")
      ->required()
      ->type_name("");
  sub->add_option("-o,--output", opts->output, "Where to write y")->required()->type_name("Y.npy");
  sub->add_option("--backend", opts->backend, "host or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"host", "cuda"}));
  return [opts] { return run_spmv(*opts); };
}

}  // namespace gpuprim::cli
