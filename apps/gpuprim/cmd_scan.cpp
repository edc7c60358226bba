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
//  - min, max (numpy.minimum/maximum.accumulate, gp::minimum / maximum):
//    the input dtype; NaN propagates: from the first NaN on, every output
//    is NaN.
//  - nanmin, nanmax (numpy.fmin/fmax.accumulate, gp::minimum_number /
//    maximum_number): NaNs are skipped; an output is NaN only while every
//    element so far has been NaN.
// --exclusive shifts the result by one: out[0] = init and out[i] combines
// in[0..i-1] with init, where init is 0 for sum, the type's largest value
// (+inf for floats) for the minima and its lowest (-inf) for the maxima.
// The GPU path scans in a type the library precompiles (64-bit integers for
// integer sums, 32-bit ones for the min/max of 8- and 16-bit integers), so
// both backends write the same integers.
//
// --segments FLAGS.npy makes it a segmented scan: the scan restarts at every
// segment head (an exclusive one restarts at init). FLAGS.npy is 1-D and is
// either head flags, bool or uint8 with one entry per input element (nonzero
// starts a segment; element 0 always starts one), or offsets, integers with
// num_segments + 1 entries rising from 0 to the input's size (other integer
// dtypes than int64 / uint64 are widened to them). Segmented sums run on
// either backend; segmented min / max only on the host (--backend host), as
// the GPU backend does not precompile them. NaN rules hold per segment.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"

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

// The segments of a segmented scan as the library takes them: one head flag
// per element, or num_segments + 1 offsets. Empty when the scan is not
// segmented.
using segment_list = std::variant<std::monostate, std::vector<std::uint8_t>,
                                  std::vector<std::int64_t>, std::vector<std::uint64_t>>;

bool is_segmented(const segment_list& segments) {
  return !std::holds_alternative<std::monostate>(segments);
}

// Scans `values`, restarting at every segment head. The GPU runs the
// precompiled sums; the caller keeps other operators on the host.
template <class C, class Op>
std::vector<C> segmented_scan_values(const std::vector<C>& values, const segment_list& segments,
                                     bool exclusive, C init, Op op, bool on_cuda) {
  std::vector<C> result(values.size());
  if (values.empty()) return result;
  std::visit(
      [&]<class List>(const List& list) {
        if constexpr (!std::is_same_v<List, std::monostate>) {
          using S = typename List::value_type;
          if constexpr (detail::precompiled_segmented_scan<C, std::uint8_t, Op>) {
            if (on_cuda) {
              const device_vector<C> in = to_device(values);
              const device_vector<S> d_segments = to_device(list);
              device_vector<C> out(values.size());
              if (exclusive) {
                exclusive_segmented_scan(cuda, in, d_segments, out, init, op);
              } else {
                inclusive_segmented_scan(cuda, in, d_segments, out, op);
              }
              result = to_host(out);
              return;
            }
          }
          if (on_cuda) throw usage_error("segmented min/max scans are only on the host backend");
          if (exclusive) {
            exclusive_segmented_scan(host, values, list, result, init, op);
          } else {
            inclusive_segmented_scan(host, values, list, result, op);
          }
        }
      },
      segments);
  return result;
}

template <class C, class Op>
std::vector<C> scan_values(const std::vector<C>& values, const segment_list& segments,
                           bool exclusive, C init, Op op, bool on_cuda) {
  if (is_segmented(segments)) {
    return segmented_scan_values(values, segments, exclusive, init, op, on_cuda);
  }
  return scan_values(values, exclusive, init, op, on_cuda);
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
void write_sums(std::span<const T> values, const segment_list& segments, const scan_options& opts,
                bool on_cuda) {
  using C = sum_compute_t<T>;
  std::vector<C> widened(values.size());
  std::transform(values.begin(), values.end(), widened.begin(),
                 [](T x) { return static_cast<C>(x); });
  write_as<sum_output_t<T>>(
      opts.output, scan_values<C>(widened, segments, opts.exclusive, C{0}, plus{}, on_cuda));
}

// Running minima / maxima with the operator the op names; integers have
// no NaN, so both rules are the plain operator for them.
template <bool Max, bool SkipNan, class T>
void write_extremes(std::span<const T> values, const segment_list& segments,
                    const scan_options& opts, bool on_cuda) {
  using C = extreme_compute_t<T>;
  using propagating = std::conditional_t<Max, maximum, minimum>;
  using skipping = std::conditional_t<Max, maximum_number, minimum_number>;
  using op = std::conditional_t<SkipNan && std::is_floating_point_v<T>, skipping, propagating>;
  using limits = std::numeric_limits<T>;
  T init;
  if constexpr (limits::has_infinity) {
    init = Max ? -limits::infinity() : limits::infinity();
  } else {
    init = Max ? limits::lowest() : limits::max();
  }
  const std::vector<C> converted(values.begin(), values.end());
  write_as<T>(opts.output, scan_values<C>(converted, segments, opts.exclusive, static_cast<C>(init),
                                          op{}, on_cuda));
}

template <class T>
void write_scan(std::span<const T> values, const segment_list& segments, const scan_options& opts,
                bool on_cuda) {
  if (opts.op == "sum") return write_sums(values, segments, opts, on_cuda);
  if (opts.op == "min") return write_extremes<false, false>(values, segments, opts, on_cuda);
  if (opts.op == "max") return write_extremes<true, false>(values, segments, opts, on_cuda);
  if (opts.op == "nanmin") return write_extremes<false, true>(values, segments, opts, on_cuda);
  if (opts.op == "nanmax") return write_extremes<true, true>(values, segments, opts, on_cuda);
  throw usage_error("unknown --op " + opts.op);
}

void scan_array(const io::npy_array& array, const segment_list& segments, const scan_options& opts,
                bool on_cuda) {
  switch (array.type) {
    case io::dtype::bool8:
      return write_scan(array.values<bool>(), segments, opts, on_cuda);
    case io::dtype::uint8:
      return write_scan(array.values<std::uint8_t>(), segments, opts, on_cuda);
    case io::dtype::int8:
      return write_scan(array.values<std::int8_t>(), segments, opts, on_cuda);
    case io::dtype::uint16:
      return write_scan(array.values<std::uint16_t>(), segments, opts, on_cuda);
    case io::dtype::int16:
      return write_scan(array.values<std::int16_t>(), segments, opts, on_cuda);
    case io::dtype::uint32:
      return write_scan(array.values<std::uint32_t>(), segments, opts, on_cuda);
    case io::dtype::int32:
      return write_scan(array.values<std::int32_t>(), segments, opts, on_cuda);
    case io::dtype::uint64:
      return write_scan(array.values<std::uint64_t>(), segments, opts, on_cuda);
    case io::dtype::int64:
      return write_scan(array.values<std::int64_t>(), segments, opts, on_cuda);
    case io::dtype::float32:
      return write_scan(array.values<float>(), segments, opts, on_cuda);
    case io::dtype::float64:
      return write_scan(array.values<double>(), segments, opts, on_cuda);
    case io::dtype::float16:
      break;
  }
  throw usage_error(opts.file + ": dtype " + std::string(io::dtype_name(array.type)) +
                    " is not supported (bool, integers, float32 and float64 are)");
}

template <class To, class From>
std::vector<To> widened(std::span<const From> values) {
  return std::vector<To>(values.begin(), values.end());
}

// Offsets must rise from 0 to the number of values.
template <class Offset>
void check_offsets(const std::vector<Offset>& offsets, std::uint64_t num_values,
                   const std::string& file) {
  const auto fail = [&](const std::string& what) { throw usage_error(file + ": " + what); };
  if (offsets.empty()) fail("no offsets (they need num_segments + 1 entries, from 0 to the size)");
  if (offsets.front() != 0)
    fail("the first offset is " + std::to_string(offsets.front()) + ", not 0");
  for (std::size_t i = 1; i < offsets.size(); ++i) {
    if (offsets[i] < offsets[i - 1]) {
      fail("offsets[" + std::to_string(i) + "] = " + std::to_string(offsets[i]) +
           " is smaller than the offset before it");
    }
  }
  if (static_cast<std::uint64_t>(offsets.back()) != num_values) {
    fail("the last offset is " + std::to_string(offsets.back()) + ", but the input has " +
         std::to_string(num_values) + " values");
  }
}

// Reads --segments: bool / uint8 head flags, one per value, or integer
// offsets (as int64 when signed, uint64 when not).
segment_list read_segments(const std::string& file, std::uint64_t num_values) {
  const io::npy_array array = io::read_npy(file);
  if (array.shape.size() != 1) {
    throw usage_error(file + ": segments must be a 1-D array, not " +
                      std::to_string(array.shape.size()) + "-D");
  }
  const auto flags = [&](std::vector<std::uint8_t> head_flags) -> segment_list {
    if (head_flags.size() != num_values) {
      throw usage_error(file + ": " + std::to_string(head_flags.size()) +
                        " head flags, but the input has " + std::to_string(num_values) +
                        " values (one flag per value)");
    }
    return head_flags;
  };
  const auto offsets = [&](auto list) -> segment_list {
    check_offsets(list, num_values, file);
    return list;
  };
  switch (array.type) {
    case io::dtype::bool8:
      return flags(widened<std::uint8_t>(array.values<bool>()));
    case io::dtype::uint8:
      return flags(widened<std::uint8_t>(array.values<std::uint8_t>()));
    case io::dtype::int8:
      return offsets(widened<std::int64_t>(array.values<std::int8_t>()));
    case io::dtype::int16:
      return offsets(widened<std::int64_t>(array.values<std::int16_t>()));
    case io::dtype::int32:
      return offsets(widened<std::int64_t>(array.values<std::int32_t>()));
    case io::dtype::int64:
      return offsets(widened<std::int64_t>(array.values<std::int64_t>()));
    case io::dtype::uint16:
      return offsets(widened<std::uint64_t>(array.values<std::uint16_t>()));
    case io::dtype::uint32:
      return offsets(widened<std::uint64_t>(array.values<std::uint32_t>()));
    case io::dtype::uint64:
      return offsets(widened<std::uint64_t>(array.values<std::uint64_t>()));
    case io::dtype::float32:
    case io::dtype::float64:
      break;
  }
  throw usage_error(file +
                    ": segments are bool or uint8 head flags or integer offsets, not floats");
}

int run_scan(const scan_options& opts) {
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  const bool segmented = !opts.segments.empty();
  // Checked before any file is read: the answer does not depend on them.
  if (segmented && opts.op != "sum" && opts.backend != "host") {
    throw usage_error("segmented min/max scans are only on the host backend (add --backend host)");
  }
  const io::npy_array array = io::read_npy(opts.file);
  const segment_list segments =
      segmented ? read_segments(opts.segments, array.size()) : segment_list{};
  scan_array(array, segments, opts, on_cuda);
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
                  "The .npy file (bool, int8..int64, uint8..uint64, float32, float64; either "
                  "byte order, C or Fortran order)")
      ->required()
      ->type_name("");
  sub->add_option("-o,--output", opts->output,
                  "Where to write the result. dtype as numpy.cumsum: integer sums as int64 "
                  "(uint64 for unsigned inputs), float sums and the minima / maxima in the "
                  "input's dtype")
      ->required()
      ->type_name("OUT.npy");
  sub->add_option("--op", opts->op,
                  "sum; min or max, where NaN propagates (numpy.minimum.accumulate: from the "
                  "first NaN on, all NaN); nanmin or nanmax, which skip NaN "
                  "(numpy.fmin.accumulate: NaN only before the first number)")
      ->check(CLI::IsMember({"sum", "min", "max", "nanmin", "nanmax"}))
      ->capture_default_str();
  sub->add_flag("--exclusive", opts->exclusive,
                "Exclusive scan: out[i] combines in[0..i-1] (out[0] = 0 for sum, +inf / the "
                "largest value for min and nanmin, -inf / the lowest for max and nanmax)");
  sub->add_option("--backend", opts->backend, "host or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"host", "cuda"}));
  sub->add_option("--segments", opts->segments,
                  "Segmented scan, restarting at every segment: a 1-D .npy of bool or uint8 "
                  "head flags, one per element (nonzero starts a segment), or of integer offsets "
                  "(num_segments + 1, rising from 0 to the size). The minima / maxima: --backend "
                  "host only")
      ->option_text("FLAGS.npy");
  auto distributed = std::make_shared<bool>(false);
  sub->add_flag(
      "--distributed", *distributed,
      "Under mpirun: each rank reads its own slice of FILE and writes its slice of the "
      "scan at its offset of OUTPUT (host or GPU ranks, as --backend; not with --segments)");
  return [opts, distributed] {
    if (!*distributed) return run_scan(*opts);
    if (!opts->segments.empty()) throw usage_error("--distributed does not take --segments");
    distributed_request r;
    r.command = "scan";
    r.file = opts->file;
    r.output = opts->output;
    r.op = opts->op;
    r.exclusive = opts->exclusive;
    r.backend = opts->backend;
    return run_distributed(r);
  };
}

}  // namespace gpuprim::cli
