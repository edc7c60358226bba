// `gpuprim transpose IN.npy -o OUT.npy`: the transpose of a 2-D array, or of
// the last two axes of a 3-D array (numpy.swapaxes(a, -1, -2)), written as a
// C-ordered .npy file of the same dtype. Elements move as bits.
#include <CLI/CLI.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/transpose.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

struct transpose_options {
  std::string file;
  std::string output;
  backend_request backend = backend_request::automatic;
};

int run_transpose(const transpose_options& opts) {
  const io::npy_array in = read_array(opts.file);
  const std::size_t rank = in.shape.size();
  if (rank != 2 && rank != 3) {
    throw usage_error(opts.file + ": transpose takes a 2-D or 3-D array; this one has " +
                      std::to_string(rank) + " dimension" + (rank == 1 ? "" : "s"));
  }
  const backend be = resolve(opts.backend);
  const std::size_t batch = rank == 3 ? in.shape[0] : 1;
  const std::size_t rows = in.shape[rank - 2], cols = in.shape[rank - 1];
  const std::size_t element = io::dtype_size(in.type);

  io::npy_array out;
  out.type = in.type;
  out.shape = in.shape;
  out.shape[rank - 2] = cols;
  out.shape[rank - 1] = rows;
  if (!in.bytes.empty()) {
    const progress_stage working("transposing " + shape_text(in.shape));
    std::visit(
        [&](auto b) {
          const auto staged_in = stage(b, in.bytes);
          auto staged_out = make_output<std::byte>(b, in.bytes.size());
          transpose_bytes_batched(b, element, staged_in.data(), staged_out.data(), batch, rows,
                                  cols);
          out.bytes = fetch(std::move(staged_out));
        },
        be);
  }
  const progress_stage writing("writing " + opts.output);
  io::write_npy(opts.output, out);
  return exit_success;
}

// `gpuprim transpose --help`: what the command does, then each of its options.
constexpr command_help help(R"(
transpose: Transpose a 2-D NumPy .npy array (a.T), or the last two axes of a 3-D one
  (numpy.swapaxes(a, -1, -2)), into a C-ordered .npy array of the same dtype
FILE: The .npy array (any dtype the reader takes)
--output: Where to write the transpose
)");

}  // namespace

command add_transpose_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<transpose_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}}, opts->output, "OUT.npy");
  add_backend_option(sub, opts->backend);
  return [opts] { return run_transpose(*opts); };
}

}  // namespace gpuprim::cli
