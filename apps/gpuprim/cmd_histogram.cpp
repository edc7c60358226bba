// `gpuprim histogram FILE [--bins N] [--range LO HI]`: numpy.histogram of a
// NumPy array's values (flattened) or of a PNG image's channel values.
//
// Prints one line per bin, "bin lo hi count" (the bin holds [lo, hi), the
// last one [lo, hi]), then "left out: K", the number of values outside the
// range (and NaNs). The counts and edges are numpy.histogram(a, bins=N,
// range=(LO, HI))'s: N defaults to 10, the range to [a.min(), a.max()]
// (an error when that is not finite), edges np.linspace(LO, HI, N + 1) in
// the data's floating type (float64 for integers; see gp::numpy_bins), a
// value compared in that type. Bool arrays count as uint8, as numpy does.
// PNG images: every channel of every pixel (gray, gray + alpha, RGB or
// RGBA; palettes are expanded), as a uint8 array, or for a 16-bit image as
// a uint16 array of its samples (0..65535, no gamma conversion).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/io/npy.hpp"
#include "histogram_output.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

// The histogram of values of dtype D, printed: the bins are the library's
// numpy_histogram_bins (the data's range by the backend's reduction), the
// counts its histogram_even under them. Where the backend does not bin D
// itself (bins_as_is), the bins come from the values on the host and the
// values are counted widened to histogram_sample_t<D>.
template <class B, class D>
void histogram_values(B b, std::span<const D> values, const histogram_options& opts) {
  std::optional<numpy_range> range;
  if (!opts.range.empty()) range = numpy_range{opts.range[0], opts.range[1]};
  auto counts = make_output<std::uint64_t>(b, static_cast<std::size_t>(opts.bins));
  numpy_bins bins;
  std::uint64_t left_out = 0;
  if constexpr (bins_as_is<B, D>) {
    const auto samples = stage(b, values);
    bins = numpy_histogram_bins(b, samples, range);
    left_out = histogram_even(b, samples, counts, bins);
  } else {
    bins = numpy_histogram_bins(host, values, range);
    const auto widened = histogram_samples(values);
    left_out = histogram_even(b, stage(b, widened), counts, bins);
  }
  print_numpy_histogram(fetch(std::move(counts)), left_out, bins);
}

template <class B>
void histogram_array(B b, const io::npy_array& array, const histogram_options& opts) {
  visit_dtype(array.type, [&]<class T>(std::type_identity<T>) {
    histogram_values(b, stored_span<T>(array), opts);
  });
}

int run_histogram(const histogram_options& opts) {
  check_histogram_bins(opts.bins);
  const backend be = resolve(opts.backend);
  const input_data input = read_input(opts.file);
  const progress_stage working("counting the values of " + opts.file);
  try {
    std::visit(
        [&]<class Input>(auto b, const Input& in) {
          if constexpr (std::is_same_v<Input, png_pixels>) {
            // All channel values of the image, row by row: 8 bits each, or
            // the 16-bit samples as they are stored.
            if (in.bit_depth == 16) {
              histogram_values(b, std::span<const std::uint16_t>(in.values16), opts);
            } else {
              histogram_values(b, std::span<const std::uint8_t>(in.values), opts);
            }
          } else {
            histogram_array(b, in, opts);
          }
        },
        be, input);
  } catch (const histogram_argument_error& e) {
    throw usage_error(opts.file + ": " + e.reason());  // the file, in NumPy's words
  }
  return exit_success;
}

// `gpuprim histogram --help`: what the command does, then each of its options.
constexpr command_help help(R"(
histogram: numpy.histogram of a NumPy .npy array's values (flattened) or of a PNG image's
  channel values: N even bins over [LO, HI], the last bin closed; prints 'bin lo hi count' per
  bin, then 'left out: K' (values outside the range, NaNs). Edges are np.linspace(LO, HI, N + 1)
  in the data's floating type (float64 for integers), printed shortest; a value is compared with
  them in that type
FILE: A .npy file (bool, int8..int64, uint8..uint64, float16, float32, float64) or a .png image
  (as a uint8 array of its channels; a 16-bit image as a uint16 array of its samples, 0..65535,
  as stored: no gamma conversion)
--bins: Number of bins, a positive integer (default: 10)
--range: Bounds LO HI of the bins: values in [LO, HI] are counted (LO == HI widens to [LO - 0.5,
  HI + 0.5]). Default: the data's [min, max]; (0, 1) when empty
--distributed: Under mpirun: each rank reads its own slice of FILE and the counts are summed over
  the ranks (host or GPU ranks, as --backend; .npy only); rank 0 prints them
)");

}  // namespace

command add_histogram_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<histogram_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}});
  sub->add_option("--bins", opts->bins, help["--bins"])->type_name("N");
  sub->add_option("--range", opts->range, help["--range"])->expected(2)->option_text("LO HI");
  add_backend_option(sub, opts->backend);
  sub->add_flag("--distributed", opts->distributed, help["--distributed"]);
  return [opts] { return opts->distributed ? run_distributed(*opts) : run_histogram(*opts); };
}

}  // namespace gpuprim::cli
