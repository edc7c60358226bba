// `gpuprim convolve IN -o OUT --filter SPEC [--border MODE] [--correlate]`:
// filters an image as scipy.ndimage would.
//
// IN and OUT are both .png (gray, gray + alpha, RGB or RGBA; palette
// images are expanded; every channel is filtered in float32, and the PNG
// holds |v| rounded to nearest and saturated to 0..255, as OpenCV's
// convertScaleAbs, so that the negative half of a derivative shows; a
// 16-bit image is filtered on its samples, 0..65535 as stored, and written
// as a 16-bit PNG saturated to 0..65535) or both .npy (a 2-D float32 or float64 array;
// the output has the input's dtype and keeps the signed values).
// SPEC names scipy.ndimage's function and computes what it computes:
// sobel-x = sobel(img, axis=1) (positive where the intensity rises to the
// right), sobel-y = sobel(img, axis=0), laplacian = laplace(img), box:R =
// uniform_filter(img, 2R + 1), gaussian:SIGMA[:R] = gaussian_filter(img,
// SIGMA[, radius=R]) (the last two as separable filters). These are
// correlations whatever --correlate says; FILE.npy (a 2-D float array, or a
// 1-D one meaning the same filter along rows and then columns) is convolved
// as scipy.ndimage.convolve does, or correlated with --correlate.
// --border takes scipy's mode names (constant with cval 0, nearest,
// reflect, mirror, wrap; default reflect, as SciPy's); zero and replicate
// are aliases of constant and nearest. Everything is checked before
// anything is written: bad input exits 2 with one line and no output file.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "gpuprim/convolve.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

struct convolve_options {
  std::string input;
  std::string output;
  std::string filter_spec;
  border mode = border::reflect;
  bool correlate = false;
  backend_request backend = backend_request::automatic;
};

// scipy.ndimage's mode names first; zero and replicate are this tool's
// older names.
const word_list<border> border_words = {
    {"constant", border::zero},      {"nearest", border::replicate}, {"reflect", border::reflect},
    {"mirror", border::mirror},      {"wrap", border::wrap},         {"zero", border::zero},
    {"replicate", border::replicate}};

// A parsed --filter: a general 2-D filter, or one 1-D filter run along the
// rows and then the columns.
struct filter_choice {
  std::optional<filter> general;
  std::vector<double> separable;
  // Named filters are scipy.ndimage's functions, which correlate; a file's
  // weights are convolved unless --correlate.
  bool from_file = false;
};

double parse_number(const std::string& spec, const std::string& text, const char* what) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != text.size()) {
    throw usage_error("--filter " + spec + ": " + what + " '" + text + "' is not a number");
  }
  return v;
}

int parse_radius(const std::string& spec, const std::string& text) {
  const double r = parse_number(spec, text, "the radius");
  if (r != std::floor(r) || r < 0) {
    throw usage_error("--filter " + spec + ": the radius must be a whole number >= 0");
  }
  if (2 * r + 1 > static_cast<double>(max_filter_size)) {
    throw usage_error("--filter " + spec + ": radius " + text + " makes a filter of " +
                      std::to_string(2 * static_cast<long long>(r) + 1) + " taps; at most " +
                      std::to_string(max_filter_size) + " (radius 31) are supported");
  }
  return static_cast<int>(r);
}

std::vector<double> weights_of(const io::npy_array& a, const std::string& file) {
  switch (a.type) {
    case io::dtype::float32: {
      const auto v = a.values<float>();
      return std::vector<double>(v.begin(), v.end());
    }
    case io::dtype::float64: {
      const auto v = a.values<double>();
      return std::vector<double>(v.begin(), v.end());
    }
    default:
      throw usage_error(file + ": the filter must be a float32 or float64 array, not " +
                        std::string(io::dtype_name(a.type)));
  }
}

filter_choice parse_filter(const std::string& spec) {
  filter_choice choice;
  if (spec == "sobel-x") {
    choice.general = filters::sobel_x();
  } else if (spec == "sobel-y") {
    choice.general = filters::sobel_y();
  } else if (spec == "laplacian") {
    choice.general = filters::laplacian();
  } else if (spec.rfind("box:", 0) == 0) {
    choice.separable = filters::box_1d(parse_radius(spec, spec.substr(4)));
  } else if (spec.rfind("gaussian:", 0) == 0) {
    const std::string rest = spec.substr(9);
    const std::size_t colon = rest.find(':');
    const double sigma = parse_number(spec, rest.substr(0, colon), "sigma");
    if (!(sigma > 0) || !std::isfinite(sigma)) {
      throw usage_error("--filter " + spec + ": sigma must be a positive number");
    }
    int radius = -1;
    if (colon != std::string::npos) {
      radius = parse_radius(spec, rest.substr(colon + 1));
    } else if (2.0 * filters::gaussian_radius(sigma) + 1 > static_cast<double>(max_filter_size)) {
      throw usage_error("--filter " + spec + ": sigma " + rest +
                        " needs a radius of int(4 sigma + 0.5) = " +
                        std::to_string(filters::gaussian_radius(sigma)) +
                        ", over the 31 supported (give one: gaussian:SIGMA:R)");
    }
    choice.separable = filters::gaussian_1d(sigma, radius);
  } else if (has_extension(spec, ".npy")) {
    const io::npy_array a = io::read_npy(spec);
    std::vector<double> w = weights_of(a, spec);
    if (a.shape.size() != 1 && a.shape.size() != 2) {
      throw usage_error(spec + ": a filter is a 1-D or 2-D array, this one has " +
                        std::to_string(a.shape.size()) + " dimensions");
    }
    for (std::uint64_t side : a.shape) {
      if (side == 0) throw usage_error(spec + ": the filter is empty");
      if (side > max_filter_size) {
        throw usage_error(spec + ": the filter has a side of " + std::to_string(side) +
                          "; at most " + std::to_string(max_filter_size) + " are supported");
      }
    }
    choice.from_file = true;
    if (a.shape.size() == 1) {
      choice.separable = std::move(w);
    } else {
      choice.general = filter(a.shape[0], a.shape[1], std::move(w));
    }
  } else {
    throw usage_error("--filter " + spec +
                      ": unknown filter (box:R, gaussian:SIGMA[:R], sobel-x, sobel-y, "
                      "laplacian, or FILE.npy)");
  }
  return choice;
}

template <class Backend, class In, class Out>
void apply(Backend backend, In in, Out out, const filter_choice& f, border mode, bool flip) {
  if (f.general) {
    if (flip) {
      convolve(backend, in, *f.general, out, mode);
    } else {
      correlate(backend, in, *f.general, out, mode);
    }
  } else if (flip) {
    convolve_separable(backend, in, f.separable, f.separable, out, mode);
  } else {
    correlate_separable(backend, in, f.separable, f.separable, out, mode);
  }
}

// Filters a packed rows x cols x channels image where b runs.
template <class B, class T>
std::vector<T> filter_image(B b, const std::vector<T>& values, std::size_t rows, std::size_t cols,
                            std::size_t channels, const filter_choice& f, border mode, bool flip) {
  const std::size_t ld = cols * channels;
  const auto in = stage(b, values);
  auto out = make_output<T>(b, values.size());
  using view = std::conditional_t<is_gpu<B>, device_image_view<T>, image_view<T>>;
  using const_view = std::conditional_t<is_gpu<B>, device_image_view<const T>, image_view<const T>>;
  apply(b, const_view(in.data(), 1, rows, cols, channels, ld, rows * ld),
        view(out.data(), 1, rows, cols, channels, ld, rows * ld), f, mode, flip);
  return fetch(std::move(out));
}

// The samples of a PNG image (8- or 16-bit), every channel filtered in
// float32 (exact for both), then |v| rounded (ties to even) and saturated
// to the sample's range, in place.
template <class B, class Sample>
void filter_samples(B b, std::vector<Sample>& samples, const png_pixels& image,
                    const convolve_options& opts, const filter_choice& f, bool flip) {
  const std::vector<float> values(samples.begin(), samples.end());
  const std::vector<float> out =
      filter_image(b, values, image.rows, image.cols, image.channels, f, opts.mode, flip);
  static constexpr float largest = std::numeric_limits<Sample>::max();
  std::transform(out.begin(), out.end(), samples.begin(), [](float v) {
    const float m = std::nearbyint(std::fabs(v));
    if (std::isnan(m)) return Sample{0};
    return static_cast<Sample>(std::min(m, largest));
  });
}

// A PNG image filtered and written at its own bit depth.
template <class B>
void filter_png(B b, png_pixels& image, const convolve_options& opts, const filter_choice& f,
                bool flip) {
  {
    const progress_stage working("filtering the " + std::to_string(image.cols) + " x " +
                                 std::to_string(image.rows) + " image " + opts.input);
    if (image.bit_depth == 16) {
      filter_samples(b, image.values16, image, opts, f, flip);
    } else {
      filter_samples(b, image.values, image, opts, f, flip);
    }
  }
  write_png(opts.output, image);
}

// A 2-D float32 or float64 array, filtered in its own type.
template <class B>
void filter_npy(B b, const io::npy_array& a, const convolve_options& opts, const filter_choice& f,
                bool flip) {
  if (a.shape.size() != 2) {
    throw usage_error(opts.input + ": the image must be a 2-D array, this one has " +
                      std::to_string(a.shape.size()) + " dimensions");
  }
  const auto filter_as = [&]<class T>(std::type_identity<T>) {
    std::vector<T> out;
    {
      const progress_stage working("filtering the " + std::to_string(a.shape[1]) + " x " +
                                   std::to_string(a.shape[0]) + " array " + opts.input);
      const auto v = a.values<T>();
      const std::vector<T> values(v.begin(), v.end());
      out = filter_image(b, values, a.shape[0], a.shape[1], 1, f, opts.mode, flip);
    }
    const progress_stage writing("writing " + opts.output);
    io::write_npy(opts.output, std::span<const T>(out),
                  std::span<const std::uint64_t>(a.shape.data(), a.shape.size()));
  };
  if (a.type == io::dtype::float32) {
    filter_as(std::type_identity<float>{});
  } else if (a.type == io::dtype::float64) {
    filter_as(std::type_identity<double>{});
  } else {
    throw usage_error(opts.input + ": the image must be float32 or float64, not " +
                      std::string(io::dtype_name(a.type)));
  }
}

int run_convolve(const convolve_options& opts) {
  const bool png_in = has_extension(opts.input, ".png");
  const bool npy_in = has_extension(opts.input, ".npy");
  if (!png_in && !npy_in) {
    throw usage_error(opts.input + ": the input must be a .png or .npy file");
  }
  if (!has_extension(opts.output, png_in ? ".png" : ".npy")) {
    throw usage_error("-o " + opts.output + ": the output must be a " + (png_in ? ".png" : ".npy") +
                      " file, like the input");
  }
  const filter_choice f = parse_filter(opts.filter_spec);
  const bool flip = f.from_file && !opts.correlate;
  const backend be = resolve(opts.backend);
  input_data input = read_input(opts.input);
  std::visit(
      [&]<class Input>(auto b, Input& in) {
        if constexpr (std::is_same_v<Input, png_pixels>) {
          filter_png(b, in, opts, f, flip);
        } else {
          filter_npy(b, in, opts, f, flip);
        }
      },
      be, input);
  return exit_success;
}

// `gpuprim convolve --help`: what the command does, then each of its options.
constexpr command_help help(R"(
convolve: Filters a PNG image (every channel) or a 2-D float .npy array as scipy.ndimage.convolve
  (or correlate) would
IN: A .png image (8- or 16-bit) or a 2-D float32/float64 .npy array. A 16-bit PNG is filtered on
  its samples as stored (0..65535, no gamma conversion)
--output: Where to write the result, a .png for a .png IN, a .npy for a .npy IN. A PNG holds |v|
  rounded and saturated to 0..255 (OpenCV's convertScaleAbs), so a derivative's negative side
  shows; a 16-bit IN gives a 16-bit PNG, saturated to 0..65535; a .npy keeps the signed values
--filter: scipy.ndimage's filter of that name: sobel-x (sobel, axis=1: positive where the
  intensity rises to the right), sobel-y (axis=0), laplacian (laplace), box:R (uniform_filter,
  size 2R+1), gaussian:SIGMA or gaussian:SIGMA:R (gaussian_filter, radius R); or FILE.npy, weights
  convolved as scipy.ndimage.convolve (2-D; or 1-D, applied along rows then columns)
--border: scipy.ndimage's mode: constant (cval 0), nearest, reflect (d c b a | a b c d | d c b a),
  mirror (d c b | a b c d | c b a) or wrap; zero and replicate are aliases of constant and nearest
  (default: reflect, as SciPy's)
--correlate: Correlate FILE.npy's weights instead of convolving them (named filters are always
  what SciPy's function of that name computes)
)");

}  // namespace

command add_convolve_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<convolve_options>(app);
  add_files(sub, help, {{"IN", &opts->input}}, opts->output, "OUT");
  sub->add_option("--filter", opts->filter_spec, help["--filter"])->required()->type_name("SPEC");
  add_choice(sub, "--border", opts->mode, border_words, help["--border"], choice_help::none)
      ->type_name("MODE");
  sub->add_flag("--correlate", opts->correlate, help["--correlate"]);
  add_backend_option(sub, opts->backend);
  return [opts] { return run_convolve(*opts); };
}

}  // namespace gpuprim::cli
