// `gpuprim histogram FILE [--bins N] [--range LO HI]`: numpy.histogram of a
// NumPy array's values (flattened) or of a PNG image's 8-bit channel values.
//
// Prints one line per bin, "bin lo hi count" (the bin holds [lo, hi), the
// last one [lo, hi]), then "left out: K", the number of values outside the
// range (and NaNs). The counts and edges are numpy.histogram(a, bins=N,
// range=(LO, HI))'s: N defaults to 10, the range to [a.min(), a.max()]
// (an error when that is not finite), edges np.linspace(LO, HI, N + 1) in
// the data's floating type (float64 for integers; see gp::numpy_bins), a
// value compared in that type. Bool arrays count as uint8, as numpy does.
// PNG images: every channel of every pixel (gray, gray + alpha, RGB or
// RGBA; palettes are expanded; 16-bit images are converted to 8 bits), as
// a uint8 array.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/histogram.hpp"
#include "gpuprim/io/npy.hpp"
#include "histogram_bounds.hpp"
#include "png_image.hpp"

namespace gpuprim::cli {
namespace {

struct histogram_options {
  std::string file;
  long long bins = 10;
  std::vector<double> range;
  std::string backend;
};

bool ends_with_png(std::string name) {
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return name.size() >= 4 && name.compare(name.size() - 4, 4, ".png") == 0;
}

// All channel values of a PNG image, 8 bits each, row by row.
std::vector<std::uint8_t> read_png_values(const std::string& file) {
  return read_png(file).values;
}

template <class S>
std::uint64_t count_values(const std::vector<S>& values, std::vector<std::uint64_t>& counts,
                           const numpy_bins& bins, bool on_cuda) {
  if (on_cuda) {
    const device_vector<S> d = to_device(values);
    device_vector<std::uint64_t> d_counts(counts.size());
    const std::uint64_t left_out = histogram_even(cuda, d, d_counts, bins);
    counts = to_host(d_counts);
    return left_out;
  }
  return histogram_even(host, values, counts, bins);
}

// The histogram of values of dtype D, binned by the library as samples of
// type S (the same values: small integers as int32, 64-bit integers as
// float64, as numpy bins them, float16 as float32), printed.
template <class S, class D>
void histogram_values(std::span<const D> values, const histogram_options& opts, bool on_cuda) {
  histogram_extent<D> extent;
  if (opts.range.empty()) {
    for (const D v : values)
      extent.add(v);
  }
  const numpy_bins bins = numpy_histogram_bins<D>(opts.range, extent);
  std::vector<S> samples(values.size());
  std::transform(values.begin(), values.end(), samples.begin(),
                 [](D v) { return static_cast<S>(histogram_number(v)); });
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(opts.bins));
  const std::uint64_t left_out = count_values(samples, counts, bins, on_cuda);
  print_numpy_histogram(counts, left_out, bins);
}

void histogram_array(const io::npy_array& array, const histogram_options& opts, bool on_cuda) {
  switch (array.type) {
    case io::dtype::bool8: {
      const auto v = array.values<bool>();
      const std::vector<std::uint8_t> bytes(v.begin(), v.end());
      return histogram_values<std::uint8_t>(std::span<const std::uint8_t>(bytes), opts, on_cuda);
    }
    case io::dtype::uint8:
      return histogram_values<std::uint8_t>(array.values<std::uint8_t>(), opts, on_cuda);
    case io::dtype::int8:
      return histogram_values<std::int32_t>(array.values<std::int8_t>(), opts, on_cuda);
    case io::dtype::uint16:
      return histogram_values<std::int32_t>(array.values<std::uint16_t>(), opts, on_cuda);
    case io::dtype::int16:
      return histogram_values<std::int32_t>(array.values<std::int16_t>(), opts, on_cuda);
    case io::dtype::uint32:
      return histogram_values<std::uint32_t>(array.values<std::uint32_t>(), opts, on_cuda);
    case io::dtype::int32:
      return histogram_values<std::int32_t>(array.values<std::int32_t>(), opts, on_cuda);
    case io::dtype::uint64:
      return histogram_values<double>(array.values<std::uint64_t>(), opts, on_cuda);
    case io::dtype::int64:
      return histogram_values<double>(array.values<std::int64_t>(), opts, on_cuda);
    case io::dtype::float16:
      return histogram_values<float>(array.values<half>(), opts, on_cuda);
    case io::dtype::float32:
      return histogram_values<float>(array.values<float>(), opts, on_cuda);
    case io::dtype::float64:
      return histogram_values<double>(array.values<double>(), opts, on_cuda);
  }
  throw usage_error(opts.file + ": unsupported dtype");
}

int run_histogram(const histogram_options& opts) {
  check_histogram_bins(opts.bins);
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  if (ends_with_png(opts.file)) {
    const std::vector<std::uint8_t> values = read_png_values(opts.file);
    histogram_values<std::uint8_t>(std::span<const std::uint8_t>(values), opts, on_cuda);
  } else {
    histogram_array(io::read_npy(opts.file), opts, on_cuda);
  }
  return exit_success;
}

}  // namespace

command add_histogram_command(CLI::App& app) {
  auto opts = std::make_shared<histogram_options>();
  CLI::App* sub = app.add_subcommand(
      "histogram",
      "numpy.histogram of a NumPy .npy array's values (flattened) or of a PNG image's 8-bit "
      "channel values: N even bins over [LO, HI], the last bin closed; prints 'bin lo hi count' "
      "per bin, then 'left out: K' (values outside the range, NaNs). Edges are "
      "np.linspace(LO, HI, N + 1) in the data's floating type (float64 for integers), printed "
      "shortest; a value is compared with them in that type");
  sub->add_option("FILE", opts->file,
                  "A .npy file (bool, int8..int64, uint8..uint64, float16, float32, float64) or a "
                  ".png image (as a uint8 array)")
      ->required()
      ->type_name("");
  sub->add_option("--bins", opts->bins, "Number of bins, a positive integer (default: 10)")
      ->type_name("N");
  sub->add_option("--range", opts->range,
                  "Bounds LO HI of the bins: values in [LO, HI] are counted (LO == HI widens "
                  "to [LO - 0.5, HI + 0.5]). Default: the data's [min, max]; (0, 1) when empty")
      ->expected(2)
      ->option_text("LO HI");
  sub->add_option("--backend", opts->backend, "host or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"host", "cuda"}));
  auto distributed = std::make_shared<bool>(false);
  sub->add_flag("--distributed", *distributed,
                "Under mpirun: each rank reads its own slice of FILE and the counts are summed "
                "over the ranks (host or GPU ranks, as --backend; .npy only); rank 0 prints them");
  return [opts, distributed] {
    if (!*distributed) return run_histogram(*opts);
    distributed_request r;
    r.command = "histogram";
    r.file = opts->file;
    r.bins = opts->bins;
    r.range = opts->range;
    r.backend = opts->backend;
    return run_distributed(r);
  };
}

}  // namespace gpuprim::cli
