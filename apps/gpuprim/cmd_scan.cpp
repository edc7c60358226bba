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
// in[0..i-1] with init, where init is the operator's identity
// (gp::identity_of): 0 for sum, the type's largest value (+inf for floats)
// for min and its lowest (-inf) for max, and NaN for the float nanmin /
// nanmax, which every number beats; so exclusive out[i] is always inclusive
// out[i - 1].
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
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "commands.hpp"
#include "dtype.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/scan.hpp"
#include "gpuprim/segmented.hpp"
#include "input_file.hpp"
#include "options.hpp"

namespace gpuprim::cli {
namespace {

// The segments of a segmented scan as the library takes them: one head flag
// per element, or num_segments + 1 offsets. Empty when the scan is not
// segmented.
using segment_list = std::variant<std::monostate, std::vector<std::uint8_t>,
                                  std::vector<std::int64_t>, std::vector<std::uint64_t>>;

template <class B, class C, class Op>
std::vector<C> plain_scan(B b, const std::vector<C>& values, bool exclusive, C init, Op op) {
  const auto in = stage(b, values);
  auto out = make_output<C>(b, values.size());
  if (exclusive) {
    exclusive_scan(b, in, out, init, op);
  } else {
    inclusive_scan(b, in, out, op);
  }
  return fetch(std::move(out));
}

// Scans `values`, restarting at every segment head. The GPU runs the
// precompiled sums only.
template <class B, class C, class S, class Op>
std::vector<C> segmented_scan(B b, const std::vector<C>& values, const std::vector<S>& segments,
                              bool exclusive, C init, Op op) {
  if constexpr (is_gpu<B> && !detail::precompiled_segmented_scan<C, std::uint8_t, Op>) {
    throw usage_error("segmented min/max scans are only on the host backend");
  } else {
    if (values.empty()) return {};
    const auto in = stage(b, values);
    const auto heads = stage(b, segments);
    auto out = make_output<C>(b, values.size());
    if (exclusive) {
      exclusive_segmented_scan(b, in, heads, out, init, op);
    } else {
      inclusive_segmented_scan(b, in, heads, out, op);
    }
    return fetch(std::move(out));
  }
}

template <class B, class C, class Op>
std::vector<C> scan_values(B b, const std::vector<C>& values, const segment_list& segments,
                           bool exclusive, C init, Op op) {
  return std::visit(
      [&]<class List>(const List& list) {
        if constexpr (std::is_same_v<List, std::monostate>) {
          return plain_scan(b, values, exclusive, init, op);
        } else {
          return segmented_scan(b, values, list, exclusive, init, op);
        }
      },
      segments);
}

// Writes `values` converted to O as a 1-D array (bool as numpy's one byte).
template <class O, class C>
void write_as(const std::string& path, const std::vector<C>& values) {
  using storage = stored_t<O>;
  std::vector<storage> converted(values.size());
  std::transform(values.begin(), values.end(), converted.begin(),
                 [](C x) { return static_cast<storage>(static_cast<O>(x)); });
  const std::uint64_t length = values.size();
  io::write_npy(path, io::dtype_of<O>, std::as_bytes(std::span<const storage>(converted)),
                std::span<const std::uint64_t>(&length, 1));
}

template <class B, class T>
void write_sums(B b, std::span<const T> values, const segment_list& segments,
                const scan_options& opts) {
  using C = scan_sum_t<T>;
  const std::vector<C> widened(values.begin(), values.end());
  write_as<scan_sum_output_t<T>>(
      opts.output,
      scan_values<B, C>(b, widened, segments, opts.exclusive, identity_of<C>(plus{}), plus{}));
}

// Running minima / maxima with the operator the op names; integers have
// no NaN, so both rules are the plain operator for them. The exclusive
// start is the identity in T (an 8- or 16-bit type's own extremes, not
// those of the wider type it is scanned in).
template <bool Max, bool SkipNan, class B, class T>
void write_extremes(B b, std::span<const T> values, const segment_list& segments,
                    const scan_options& opts) {
  using C = widened_small_t<T>;
  using propagating = std::conditional_t<Max, maximum, minimum>;
  using skipping = std::conditional_t<Max, maximum_number, minimum_number>;
  using op = std::conditional_t<SkipNan && std::is_floating_point_v<T>, skipping, propagating>;
  const std::vector<C> converted(values.begin(), values.end());
  write_as<T>(opts.output, scan_values<B, C>(b, converted, segments, opts.exclusive,
                                             static_cast<C>(identity_of<T>(op{})), op{}));
}

template <class B, class T>
void write_scan(B b, std::span<const T> values, const segment_list& segments,
                const scan_options& opts) {
  switch (opts.op) {
    case scan_op::sum:
      return write_sums(b, values, segments, opts);
    case scan_op::min:
      return write_extremes<false, false>(b, values, segments, opts);
    case scan_op::max:
      return write_extremes<true, false>(b, values, segments, opts);
    case scan_op::nanmin:
      return write_extremes<false, true>(b, values, segments, opts);
    case scan_op::nanmax:
      return write_extremes<true, true>(b, values, segments, opts);
  }
}

template <class B>
void scan_array(B b, const io::npy_array& array, const segment_list& segments,
                const scan_options& opts) {
  visit_dtype_but_half(array.type, opts.file, [&]<class T>(std::type_identity<T>) {
    write_scan(b, array.values<T>(), segments, opts);
  });
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
  const io::npy_array array = read_array(file);
  if (array.shape.size() != 1) {
    throw usage_error(file + ": segments must be a 1-D array, not " +
                      std::to_string(array.shape.size()) + "-D");
  }
  return visit_dtype(array.type, [&]<class T>(std::type_identity<T>) -> segment_list {
    const auto values = array.values<T>();
    if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, std::uint8_t>) {
      if (values.size() != num_values) {
        throw usage_error(file + ": " + std::to_string(values.size()) +
                          " head flags, but the input has " + std::to_string(num_values) +
                          " values (one flag per value)");
      }
      return std::vector<std::uint8_t>(values.begin(), values.end());
    } else if constexpr (std::is_integral_v<T>) {
      using Offset = std::conditional_t<std::is_signed_v<T>, std::int64_t, std::uint64_t>;
      std::vector<Offset> offsets(values.begin(), values.end());
      check_offsets(offsets, num_values, file);
      return offsets;
    } else {
      throw usage_error(file +
                        ": segments are bool or uint8 head flags or integer offsets, not floats");
    }
  });
}

int run_scan(const scan_options& opts) {
  const backend be = resolve(opts.backend);
  const bool segmented = !opts.segments.empty();
  // Checked before any file is read: the answer does not depend on them.
  if (segmented && opts.op != scan_op::sum && opts.backend != backend_request::host) {
    throw usage_error("segmented min/max scans are only on the host backend (add --backend host)");
  }
  const io::npy_array array = read_array(opts.file);
  const segment_list segments =
      segmented ? read_segments(opts.segments, array.size()) : segment_list{};
  std::visit([&](auto b) { scan_array(b, array, segments, opts); }, be);
  return exit_success;
}

// `gpuprim scan --help`: what the command does, then each of its options.
constexpr command_help help(R"(
scan: Prefix sums (or running min / max) of a NumPy .npy array, flattened in C order like
  numpy.cumsum, written to a 1-D .npy array
FILE: The .npy file (bool, int8..int64, uint8..uint64, float32, float64; either byte order, C or
  Fortran order)
--output: Where to write the result. dtype as numpy.cumsum: integer sums as int64 (uint64 for
  unsigned inputs), float sums and the minima / maxima in the input's dtype
--op: sum; min or max, where NaN propagates (numpy.minimum.accumulate: from the first NaN on, all
  NaN); nanmin or nanmax, which skip NaN (numpy.fmin.accumulate: NaN only before the first number)
--exclusive: Exclusive scan: out[i] combines in[0..i-1] and out[0] is the operator's identity (0
  for sum, +inf / the largest value for min, -inf / the lowest for max, NaN for the float nanmin
  and nanmax, which every number beats), so out[i] is the inclusive scan's out[i-1]
--segments: Segmented scan, restarting at every segment: a 1-D .npy of bool or uint8 head flags,
  one per element (nonzero starts a segment), or of integer offsets (num_segments + 1, rising from
  0 to the size). The minima / maxima: --backend host only
--distributed: Under mpirun: each rank reads its own slice of FILE and writes its slice of the
  scan at its offset of OUTPUT (host or GPU ranks, as --backend; not with --segments)
)");

}  // namespace

command add_scan_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<scan_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}}, opts->output, "OUT.npy");
  add_choice(sub, "--op", opts->op, scan_op_words, help["--op"], choice_help::words_and_default);
  sub->add_flag("--exclusive", opts->exclusive, help["--exclusive"]);
  add_backend_option(sub, opts->backend);
  sub->add_option("--segments", opts->segments, help["--segments"])->option_text("FLAGS.npy");
  sub->add_flag("--distributed", opts->distributed, help["--distributed"]);
  return [opts] {
    if (!opts->distributed) return run_scan(*opts);
    if (!opts->segments.empty()) throw usage_error("--distributed does not take --segments");
    return run_distributed(*opts);
  };
}

}  // namespace gpuprim::cli
