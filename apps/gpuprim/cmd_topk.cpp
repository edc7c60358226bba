// `gpuprim topk IN.npy -k K [--smallest] [-o VALUES.npy] [--indices IDX.npy]`:
// the k largest (smallest) elements of each row of a NumPy array (along its
// last axis, as torch.topk(x, k, dim=-1)) and their int64 indices, sorted,
// NaN the largest value, ties to the smaller index. The outputs have the
// input's shape with k for the last axis. On the CPU backend (the order
// family has no GPU backend yet).
#include <CLI/CLI.hpp>

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "backend.hpp"
#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/topk.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

struct topk_options {
  std::string file;
  std::string output;
  std::string indices;
  std::int64_t k = 0;
  bool smallest = false;
  backend_request backend = backend_request::automatic;
};

template <class T>
void topk_array(const io::npy_array& array, const topk_options& opts) {
  using S = stored_t<T>;
  const std::vector<S> x = stored_values<T>(array.bytes);
  const std::uint64_t cols = array.shape.back();
  const std::uint64_t rows = cols == 0 ? 0 : x.size() / cols;
  if (opts.k < 1 || static_cast<std::uint64_t>(opts.k) > cols) {
    throw usage_error("-k " + std::to_string(opts.k) + ": k must be from 1 to the last axis' " +
                      std::to_string(cols) + " elements");
  }
  const auto k = static_cast<std::size_t>(opts.k);
  std::vector<S> values(rows * k);
  std::vector<std::int64_t> indices(rows * k);
  const topk_end end = opts.smallest ? smallest : largest;
  if (rows == 1) {
    topk(host, x, k, values, indices, end);
  } else if (rows > 1) {
    topk_rows(host, matrix_view<const S>(x.data(), rows, cols), k,
              matrix_view<S>(values.data(), rows, k),
              matrix_view<std::int64_t>(indices.data(), rows, k), end);
  }
  std::vector<std::uint64_t> shape = array.shape;
  shape.back() = k;
  if (!opts.output.empty()) {
    io::write_npy(opts.output, array.type, std::as_bytes(std::span<const S>(values)), shape);
  }
  if (!opts.indices.empty()) {
    io::write_npy(opts.indices, io::dtype::int64,
                  std::as_bytes(std::span<const std::int64_t>(indices)), shape);
  }
}

int run_topk(const topk_options& opts) {
  if (opts.output.empty() && opts.indices.empty()) {
    throw usage_error("nothing to write: give -o VALUES.npy, --indices IDX.npy or both");
  }
  if (!opts.output.empty() && !opts.indices.empty() &&
      std::filesystem::path(opts.indices).lexically_normal() ==
          std::filesystem::path(opts.output).lexically_normal()) {
    throw usage_error("--indices " + opts.indices +
                      " is the values' path; give the indices their own file");
  }
  if (opts.backend == backend_request::cuda) {
    throw usage_error("--backend cuda is not offered yet: top-k runs on the CPU so far");
  }
  const io::npy_array array = io::read_npy(opts.file);
  if (array.shape.empty()) throw usage_error(opts.file + ": a 0-d array has no axis to take k of");
  visit_dtype_but_half(array.type, opts.file,
                       [&]<class T>(std::type_identity<T>) { topk_array<T>(array, opts); });
  return exit_success;
}

constexpr command_help help(R"(
topk: The k largest elements of each row of a NumPy .npy array (along its last axis, as
  torch.topk(x, k, dim=-1)) and their int64 indices, sorted from the largest; NaN is the largest
  value, equal values come in index order. The outputs have the input's shape with k for the last
  axis. Runs on the CPU (the order family has no GPU backend yet)
FILE: The .npy file (bool, int8..int64, uint8..uint64, float32, float64; either byte order, C or
  Fortran order)
-k: How many elements to keep of each row: from 1 to the last axis' length
--smallest: The k smallest instead, from the smallest (NaN last)
--output: Where to write the values (the input's dtype)
--indices: Where to write the indices (int64), positions along the last axis
)");

}  // namespace

command add_topk_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<topk_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}});
  sub->add_option("-k", opts->k, help["-k"])->required()->option_text("K");
  sub->add_flag("--smallest", opts->smallest, help["--smallest"]);
  sub->add_option("-o,--output", opts->output, help["--output"])->option_text("VALUES.npy");
  sub->add_option("--indices", opts->indices, help["--indices"])->option_text("IDX.npy");
  add_backend_option(sub, opts->backend)
      ->description(
          "host (the default; cuda is not offered yet: the order family has no GPU backend)");
  return [opts] { return run_topk(*opts); };
}

}  // namespace gpuprim::cli
