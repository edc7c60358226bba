// `gpuprim histogram FILE --bins N [--range LO HI]`: counts of a NumPy array's
// values (flattened) or of a PNG image's 8-bit channel values in N even bins.
//
// Prints one line per bin, "bin lo hi count" (the bin holds [lo, hi)), then
// "left out: K", the number of values outside the range (and NaNs).
// Without --range: [0, 256) for uint8 / bool arrays and images; otherwise
// from the smallest value to just past the largest (max + 1 for integers,
// the next float after max for floats), so every number is counted.
// Integer data needs integer --range bounds. int64 / uint64 arrays are
// binned as float64 (exact below 2^53); 8- and 16-bit integers as int32.
// PNG images: every channel of every pixel (gray, gray + alpha, RGB or
// RGBA; palettes are expanded; 16-bit images are converted to 8 bits).
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
  long long bins = 0;
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

template <class T>
std::uint64_t count_values(const std::vector<T>& values, std::vector<std::uint64_t>& counts,
                           histogram_level_t<T> lower, histogram_level_t<T> upper, bool on_cuda) {
  if (on_cuda) {
    const device_vector<T> d = to_device(values);
    device_vector<std::uint64_t> d_counts(counts.size());
    const std::uint64_t left_out = histogram_even(cuda, d, d_counts, lower, upper);
    counts = to_host(d_counts);
    return left_out;
  }
  return histogram_even(host, values, counts, lower, upper);
}

// The shortest text that reads back as the same double.
std::string edge_text(double edge) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, edge);
  return std::string(text, result.ptr);
}

// One line per bin with its edges exactly as the library bins with them
// (histogram_even_edge, printed to round trip), so every value counted in
// bin b lies in the printed [lo, hi).
void print_histogram(const std::vector<std::uint64_t>& counts, std::uint64_t left_out, double lower,
                     double upper) {
  const int bins = static_cast<int>(counts.size());
  for (int b = 0; b < bins; ++b) {
    std::printf("%d %s %s %llu\n", b, edge_text(histogram_even_edge(lower, upper, bins, b)).c_str(),
                edge_text(histogram_even_edge(lower, upper, bins, b + 1)).c_str(),
                static_cast<unsigned long long>(counts[b]));
  }
  std::printf("left out: %llu\n", static_cast<unsigned long long>(left_out));
}

// Bins `values` (of a type the library takes) with the options' range, or
// the default one, and prints the result.
template <class T>
void histogram_values(const std::vector<T>& values, const histogram_options& opts, bool on_cuda,
                      bool byte_range) {
  using L = histogram_level_t<T>;
  L lower, upper;
  if (!fixed_histogram_bounds<T>(opts.range, byte_range, lower, upper)) {
    bool any = false;
    T lo{}, hi{};
    for (const T v : values) {
      if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) continue;
      }
      if (!any || v < lo) lo = v;
      if (!any || hi < v) hi = v;
      any = true;
    }
    data_histogram_bounds(any, lo, hi, lower, upper);
  }
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(opts.bins));
  const std::uint64_t left_out = count_values(values, counts, lower, upper, on_cuda);
  print_histogram(counts, left_out, static_cast<double>(lower), static_cast<double>(upper));
}

template <class To, class From>
std::vector<To> converted(std::span<const From> values) {
  return std::vector<To>(values.begin(), values.end());
}

void histogram_array(const io::npy_array& array, const histogram_options& opts, bool on_cuda) {
  switch (array.type) {
    case io::dtype::bool8:
      return histogram_values(converted<std::uint8_t>(array.values<bool>()), opts, on_cuda, true);
    case io::dtype::uint8:
      return histogram_values(converted<std::uint8_t>(array.values<std::uint8_t>()), opts, on_cuda,
                              true);
    case io::dtype::int8:
      return histogram_values(converted<std::int32_t>(array.values<std::int8_t>()), opts, on_cuda,
                              false);
    case io::dtype::uint16:
      return histogram_values(converted<std::int32_t>(array.values<std::uint16_t>()), opts, on_cuda,
                              false);
    case io::dtype::int16:
      return histogram_values(converted<std::int32_t>(array.values<std::int16_t>()), opts, on_cuda,
                              false);
    case io::dtype::uint32:
      return histogram_values(converted<std::uint32_t>(array.values<std::uint32_t>()), opts,
                              on_cuda, false);
    case io::dtype::int32:
      return histogram_values(converted<std::int32_t>(array.values<std::int32_t>()), opts, on_cuda,
                              false);
    case io::dtype::uint64:
      return histogram_values(converted<double>(array.values<std::uint64_t>()), opts, on_cuda,
                              false);
    case io::dtype::int64:
      return histogram_values(converted<double>(array.values<std::int64_t>()), opts, on_cuda,
                              false);
    case io::dtype::float32:
      return histogram_values(converted<float>(array.values<float>()), opts, on_cuda, false);
    case io::dtype::float64:
      return histogram_values(converted<double>(array.values<double>()), opts, on_cuda, false);
  }
  throw usage_error(opts.file + ": unsupported dtype");
}

int run_histogram(const histogram_options& opts) {
  if (opts.bins < 1 || opts.bins > std::numeric_limits<int>::max()) {
    throw usage_error("--bins " + std::to_string(opts.bins) +
                      ": the number of bins must be at "
                      "least 1 and below 2^31");
  }
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  if (ends_with_png(opts.file)) {
    histogram_values(read_png_values(opts.file), opts, on_cuda, true);
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
      "Counts of a NumPy .npy array's values (flattened) or of a PNG image's 8-bit channel "
      "values in even bins; prints 'bin lo hi count' per bin, then 'left out: K'");
  sub->add_option("FILE", opts->file,
                  "A .npy file (bool, int8..int64, uint8..uint64, float32, float64) or a .png "
                  "image")
      ->required()
      ->type_name("");
  sub->add_option("--bins", opts->bins, "Number of bins (at least 1)")->required();
  sub->add_option("--range", opts->range,
                  "Bounds LO HI of the bins: values in [LO, HI) are counted. Default: [0, 256) "
                  "for uint8, bool and images; else min to just past max")
      ->expected(2)
      ->type_name("LO HI");
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
