// `gpuprim generate poisson2d N -o A.mtx` (and random-spd N, rmat SCALE):
// test and benchmark matrices written as Matrix Market files.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "commands.hpp"
#include "gpuprim/io/mtx.hpp"
#include "gpuprim/sparse_generate.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

enum class matrix_kind { poisson2d, random_spd, rmat };
const word_list<matrix_kind> matrix_kind_words = {{"poisson2d", matrix_kind::poisson2d},
                                                  {"random-spd", matrix_kind::random_spd},
                                                  {"rmat", matrix_kind::rmat}};

struct generate_options {
  matrix_kind kind = matrix_kind::poisson2d;
  long long size = 0;
  std::string output;
  long long per_row = 8;
  long long edge_factor = 16;
  unsigned long long seed = 1;
};

int run_generate(const generate_options& opts) {
  // A matrix needs at least one row: poisson2d and random-spd take N >= 1,
  // rmat a scale >= 0 (2^0 = 1 row).
  const bool rmat_kind = opts.kind == matrix_kind::rmat;
  if (opts.size < (rmat_kind ? 0 : 1)) {
    throw usage_error(
        word_of(matrix_kind_words, opts.kind) + " " + std::to_string(opts.size) + ": " +
        (rmat_kind ? "the scale must be >= 0" : "the size must be >= 1 (a matrix needs a row)"));
  }
  const auto n = static_cast<std::size_t>(opts.size);
  switch (opts.kind) {
    case matrix_kind::poisson2d:
      if (n > 46340)
        throw usage_error("poisson2d " + std::to_string(n) + ": at most 46340 (n^2 rows)");
      io::write_mtx(opts.output, poisson2d<double, std::int64_t>(n).view());
      break;
    case matrix_kind::random_spd:
      if (opts.per_row < 0) throw usage_error("--per-row must be >= 0");
      io::write_mtx(opts.output, random_spd<double, std::int64_t>(
                                     n, static_cast<std::size_t>(opts.per_row), opts.seed)
                                     .view());
      break;
    case matrix_kind::rmat:
      if (opts.size > 34)
        throw usage_error("rmat " + std::to_string(opts.size) + ": the scale must be at most 34");
      if (opts.edge_factor < 1) throw usage_error("--edge-factor must be >= 1");
      io::write_mtx(opts.output, rmat<double, std::int64_t>(
                                     static_cast<int>(opts.size),
                                     static_cast<std::size_t>(opts.edge_factor), opts.seed)
                                     .view());
      break;
  }
  return exit_success;
}

// `gpuprim generate --help`: what the command does, then each of its options.
constexpr command_help help(R"(
generate: Writes a test matrix as Matrix Market: poisson2d N (the 5-point Laplacian on an N x N
  grid), random-spd N, rmat SCALE (2^SCALE rows, power-law)
KIND: poisson2d, random-spd or rmat
N: Grid side (poisson2d) or rows (random-spd), at least 1; scale (rmat, 2^N rows), at least 0
--output: Where to write the matrix (.mtx)
--per-row: random-spd: off-diagonal entries per row (8)
--edge-factor: rmat: edges per row (16)
--seed: random-spd and rmat: the seed (1)
)");

}  // namespace

command add_generate_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<generate_options>(app);
  add_choice(sub, "KIND", opts->kind, matrix_kind_words, help["KIND"])->required();
  sub->add_option("N", opts->size, help["N"])->required();
  add_files(sub, help, {}, opts->output, "A.mtx");
  sub->add_option("--per-row", opts->per_row, help["--per-row"]);
  sub->add_option("--edge-factor", opts->edge_factor, help["--edge-factor"]);
  sub->add_option("--seed", opts->seed, help["--seed"]);
  return [opts] { return run_generate(*opts); };
}

}  // namespace gpuprim::cli
