// `gpuprim generate poisson2d N -o A.mtx` (and random-spd N, rmat SCALE):
// test and benchmark matrices written as Matrix Market files.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>

#include "commands.hpp"
#include "gpuprim/io/mtx.hpp"
#include "gpuprim/sparse_generate.hpp"

namespace gpuprim::cli {
namespace {

struct generate_options {
  std::string kind;
  long long size = 0;
  std::string output;
  long long per_row = 8;
  long long edge_factor = 16;
  unsigned long long seed = 1;
};

int run_generate(const generate_options& opts) {
  // A matrix needs at least one row: poisson2d and random-spd take N >= 1,
  // rmat a scale >= 0 (2^0 = 1 row).
  const long long least = opts.kind == "rmat" ? 0 : 1;
  if (opts.size < least) {
    throw usage_error(opts.kind + " " + std::to_string(opts.size) + ": " +
                      (opts.kind == "rmat" ? "the scale must be >= 0"
                                           : "the size must be >= 1 (a matrix needs a row)"));
  }
  const auto n = static_cast<std::size_t>(opts.size);
  if (opts.kind == "poisson2d") {
    if (n > 46340)
      throw usage_error("poisson2d " + std::to_string(n) + ": at most 46340 (n^2 rows)");
    io::write_mtx(opts.output, poisson2d<double, std::int64_t>(n).view());
  } else if (opts.kind == "random-spd") {
    if (opts.per_row < 0) throw usage_error("--per-row must be >= 0");
    io::write_mtx(opts.output, random_spd<double, std::int64_t>(
                                   n, static_cast<std::size_t>(opts.per_row), opts.seed)
                                   .view());
  } else {
    if (opts.size > 34)
      throw usage_error("rmat " + std::to_string(opts.size) + ": the scale must be at most 34");
    if (opts.edge_factor < 1) throw usage_error("--edge-factor must be >= 1");
    io::write_mtx(opts.output,
                  rmat<double, std::int64_t>(static_cast<int>(opts.size),
                                             static_cast<std::size_t>(opts.edge_factor), opts.seed)
                      .view());
  }
  return exit_success;
}

}  // namespace

command add_generate_command(CLI::App& app) {
  auto opts = std::make_shared<generate_options>();
  CLI::App* sub = app.add_subcommand(
      "generate",
      "Writes a test matrix as Matrix Market: poisson2d N (the 5-point Laplacian on an N x N "
      "grid), random-spd N, rmat SCALE (2^SCALE rows, power-law)");
  sub->add_option("KIND", opts->kind, "poisson2d, random-spd or rmat")
      ->required()
      ->check(CLI::IsMember({"poisson2d", "random-spd", "rmat"}));
  sub->add_option("N", opts->size,
                  "Grid side (poisson2d) or rows (random-spd), at least 1; scale (rmat, 2^N rows), "
                  "at least 0")
      ->required();
  sub->add_option("-o,--output", opts->output, "Where to write the matrix (.mtx)")
      ->required()
      ->type_name("A.mtx");
  sub->add_option("--per-row", opts->per_row, "random-spd: off-diagonal entries per row (8)");
  sub->add_option("--edge-factor", opts->edge_factor, "rmat: edges per row (16)");
  sub->add_option("--seed", opts->seed, "random-spd and rmat: the seed (1)");
  return [opts] { return run_generate(*opts); };
}

}  // namespace gpuprim::cli
