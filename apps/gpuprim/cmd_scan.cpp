// `gpuprim scan FILE.npy -o OUT.npy`: prefix sums (or running minimum /
// maximum) of a NumPy array, written as a NumPy array.
//
// Like numpy.cumsum(a) with axis=None: the array is read in C order and the
// result is 1-D with one element per input element. Output dtypes are those
// numpy gives on a 64-bit platform:
//  - sum: bool and signed integers -> int64, unsigned integers -> uint64,
//    wrapping on overflow as numpy does; float32 stays float32 and float64
//    stays float64, accumulated in that precision (in a different order
//    from numpy's sequential one, so the last bits can differ).
//  - min, max (numpy.minimum/maximum.accumulate): the input dtype. NaNs are
//    skipped, as numpy.fmin/fmax.accumulate skip them: an output is NaN only
//    while every element so far has been NaN.
// --exclusive shifts the result by one: out[0] = init and out[i] combines
// in[0..i-1] with init, where init is 0 for sum, the type's largest value
// (+inf for floats) for min and its lowest (-inf) for max.
// The GPU path scans in a type the library precompiles (64-bit integers for
// integer sums, 32-bit ones for the min/max of 8- and 16-bit integers), so
// both backends write the same integers.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/scan.hpp"

namespace gpuprim::cli {
namespace {

struct scan_options {
  std::string file;
  std::string output;
  std::string op = "sum";
  bool exclusive = false;
  std::string backend;
  std::string segments;
};

// Sums of integers run in uint64 (defined wrap-around; signed inputs are
// sign-extended first) and are written as int64 or uint64.
template <class T>
using sum_compute_t = std::conditional_t<std::is_floating_point_v<T>, T, std::uint64_t>;
template <class T>
using sum_output_t =
    std::conditional_t<std::is_floating_point_v<T>, T,
                       std::conditional_t<std::is_unsigned_v<T> && !std::is_same_v<T, bool>,
                                          std::uint64_t, std::int64_t>>;

// Running min / max of 8- and 16-bit integers (and bool) run in 32 bits.
template <class T>
using extreme_compute_t =
    std::conditional_t<std::is_integral_v<T> && sizeof(T) < 4,
                       std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>, T>;

template <class C, class Op>
std::vector<C> scan_values(const std::vector<C>& values, bool exclusive, C init, Op op,
                           bool on_cuda) {
  if (on_cuda) {
    const device_vector<C> in = to_device(values);
    device_vector<C> out(values.size());
    if (exclusive) {
      exclusive_scan(cuda, in, out, init, op);
    } else {
      inclusive_scan(cuda, in, out, op);
    }
    return to_host(out);
  }
  std::vector<C> out(values.size());
  if (exclusive) {
    exclusive_scan(host, values, out, init, op);
  } else {
    inclusive_scan(host, values, out, op);
  }
  return out;
}

// Writes `values` converted to O as a 1-D array (bool as numpy's one byte).
template <class O, class C>
void write_as(const std::string& path, const std::vector<C>& values) {
  using storage = std::conditional_t<std::is_same_v<O, bool>, std::uint8_t, O>;
  std::vector<storage> converted(values.size());
  std::transform(values.begin(), values.end(), converted.begin(),
                 [](C x) { return static_cast<storage>(static_cast<O>(x)); });
  const std::uint64_t length = values.size();
  io::write_npy(path, io::dtype_of<O>, std::as_bytes(std::span<const storage>(converted)),
                std::span<const std::uint64_t>(&length, 1));
}

template <class T>
void write_sums(std::span<const T> values, const scan_options& opts, bool on_cuda) {
  using C = sum_compute_t<T>;
  std::vector<C> widened(values.size());
  std::transform(values.begin(), values.end(), widened.begin(),
                 [](T x) { return static_cast<C>(x); });
  write_as<sum_output_t<T>>(opts.output,
                            scan_values<C>(widened, opts.exclusive, C{0}, plus{}, on_cuda));
}

template <bool Max, class T>
void write_extremes(std::span<const T> values, const scan_options& opts, bool on_cuda) {
  using C = extreme_compute_t<T>;
  using op = std::conditional_t<Max, maximum, minimum>;
  using limits = std::numeric_limits<T>;
  T init;
  if constexpr (limits::has_infinity) {
    init = Max ? -limits::infinity() : limits::infinity();
  } else {
    init = Max ? limits::lowest() : limits::max();
  }
  // NaNs become the operator's identity; the outputs before the first
  // number go back to NaN below (inclusive scans only).
  std::vector<C> converted(values.size());
  std::size_t leading_nans = 0;
  bool seen_number = false;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const T x = values[i];
    bool is_nan = false;
    if constexpr (std::is_floating_point_v<T>) is_nan = std::isnan(x);
    converted[i] = static_cast<C>(is_nan ? init : x);
    seen_number = seen_number || !is_nan;
    if (!seen_number) leading_nans = i + 1;
  }
  std::vector<C> result =
      scan_values<C>(converted, opts.exclusive, static_cast<C>(init), op{}, on_cuda);
  if constexpr (std::is_floating_point_v<T>) {
    if (!opts.exclusive) std::fill_n(result.begin(), leading_nans, limits::quiet_NaN());
  }
  write_as<T>(opts.output, result);
}

template <class T>
void write_scan(std::span<const T> values, const scan_options& opts, bool on_cuda) {
  if (opts.op == "sum") return write_sums(values, opts, on_cuda);
  if (opts.op == "min") return write_extremes<false>(values, opts, on_cuda);
  if (opts.op == "max") return write_extremes<true>(values, opts, on_cuda);
  throw usage_error("unknown --op " + opts.op);
}

void scan_array(const io::npy_array& array, const scan_options& opts, bool on_cuda) {
  switch (array.type) {
    case io::dtype::bool8:
      return write_scan(array.values<bool>(), opts, on_cuda);
    case io::dtype::uint8:
      return write_scan(array.values<std::uint8_t>(), opts, on_cuda);
    case io::dtype::int8:
      return write_scan(array.values<std::int8_t>(), opts, on_cuda);
    case io::dtype::uint16:
      return write_scan(array.values<std::uint16_t>(), opts, on_cuda);
    case io::dtype::int16:
      return write_scan(array.values<std::int16_t>(), opts, on_cuda);
    case io::dtype::uint32:
      return write_scan(array.values<std::uint32_t>(), opts, on_cuda);
    case io::dtype::int32:
      return write_scan(array.values<std::int32_t>(), opts, on_cuda);
    case io::dtype::uint64:
      return write_scan(array.values<std::uint64_t>(), opts, on_cuda);
    case io::dtype::int64:
      return write_scan(array.values<std::int64_t>(), opts, on_cuda);
    case io::dtype::float32:
      return write_scan(array.values<float>(), opts, on_cuda);
    case io::dtype::float64:
      return write_scan(array.values<double>(), opts, on_cuda);
  }
  throw usage_error(opts.file + ": unsupported dtype");
}

int run_scan(const scan_options& opts) {
  if (!opts.segments.empty()) {
    throw usage_error("--segments " + opts.segments +
                      ": segmented scans are not supported yet (planned for a later release)");
  }
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  const io::npy_array array = io::read_npy(opts.file);
  scan_array(array, opts, on_cuda);
  return exit_success;
}

}  // namespace

command add_scan_command(CLI::App& app) {
  auto opts = std::make_shared<scan_options>();
  CLI::App* sub = app.add_subcommand(
      "scan",
      "Prefix sums (or running min / max) of a NumPy .npy array, flattened in C order like "
      "numpy.cumsum, written to a 1-D .npy array");
  sub->add_option("FILE", opts->file,
                  "The .npy file (bool, int8..int64, uint8..uint64, float32, float64; "
                  "little-endian, C order)")
      ->required()
      ->type_name("");
  sub->add_option("-o,--output", opts->output,
                  "Where to write the result. dtype as numpy.cumsum: integer sums as int64 "
                  "(uint64 for unsigned inputs), float sums and min/max in the input's dtype")
      ->required()
      ->option_text("OUT.npy");
  sub->add_option("--op", opts->op,
                  "sum, min or max (running min / max skip NaNs, like numpy.fmin.accumulate)")
      ->check(CLI::IsMember({"sum", "min", "max"}))
      ->capture_default_str();
  sub->add_flag("--exclusive", opts->exclusive,
                "Exclusive scan: out[i] combines in[0..i-1] (out[0] = 0 for sum, +inf / the "
                "largest value for min, -inf / the lowest for max)");
  sub->add_option("--backend", opts->backend, "host or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"host", "cuda"}));
  sub->add_option("--segments", opts->segments,
                  "Flags marking segment heads (segmented scan; not supported yet)")
      ->option_text("FLAGS.npy");
  return [opts] { return run_scan(*opts); };
}

}  // namespace gpuprim::cli
