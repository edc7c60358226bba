// `gpuprim spmv A.mtx x.npy -o y.npy`: y = A x for a Matrix Market matrix
// and a 1-D NumPy vector, in double (as SciPy computes a float64 matrix
// times any real vector), written as float64.
#include <CLI/CLI.hpp>

#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/sparse.hpp"
#include "options.hpp"
#include "progress.hpp"
#include "sparse_cli.hpp"

namespace gpuprim::cli {
namespace {

struct spmv_options {
  std::string matrix;
  std::string vector;
  std::string output;
  backend_request backend = backend_request::automatic;
};

int run_spmv(const spmv_options& opts) {
  const backend be = resolve(opts.backend);
  const cli_matrix m = read_cli_matrix(opts.matrix);
  const std::vector<double> x = read_cli_vector(opts.vector, "x");
  std::vector<double> y;
  {
    const progress_stage working("multiplying by the matrix of " + opts.matrix);
    std::visit(
        [&](auto b, const auto& A) {
          if (x.size() != A.cols()) {
            throw usage_error(opts.vector + ": x has " + std::to_string(x.size()) +
                              " elements but " + opts.matrix + " has " + std::to_string(A.cols()) +
                              " columns");
          }
          auto out = make_output<double>(b, A.rows());
          spmv(b, 1.0, stage_object(b, A), stage(b, x), 0.0, out);
          y = fetch(std::move(out));
        },
        be, m);
  }
  const progress_stage writing("writing " + opts.output);
  io::write_npy(opts.output, y);
  return exit_success;
}

// `gpuprim spmv --help`: what the command does, then each of its options.
constexpr command_help help(R"(
spmv: y = A x: a Matrix Market matrix times a 1-D NumPy vector, written as float64 .npy
A: The matrix (.mtx, coordinate or array)
x: The vector (.npy, 1-D, any real dtype)
--output: Where to write y
)");

}  // namespace

command add_spmv_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<spmv_options>(app);
  add_files(sub, help, {{"A", &opts->matrix}, {"x", &opts->vector}}, opts->output, "Y.npy");
  add_backend_option(sub, opts->backend);
  return [opts] { return run_spmv(*opts); };
}

}  // namespace gpuprim::cli
