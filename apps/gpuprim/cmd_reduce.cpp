// `gpuprim reduce FILE.npy`: sum, min, max, argmin or argmax of every element
// of a NumPy array, and their NaN-skipping forms nansum, nanmin, nanmax,
// nanargmin, nanargmax, printed with full precision (shortest round trip).
//
// The answers are NumPy's for the same file:
//  - Sums of integers are 64-bit (signed ones wrap like two's complement, as
//    NumPy's int64 does); sums of floats are accumulated in double.
//  - min, max, argmin, argmax propagate NaN: the result is nan, at the index
//    of the first NaN (numpy.min, numpy.argmin).
//  - nanmin, nanmax, nanargmin, nanargmax skip NaNs; nansum counts them as 0.
//    All-NaN input: nanmin / nanmax print nan and a warning on stderr
//    (NumPy returns nan with a RuntimeWarning); nanargmin / nanargmax exit 2
//    (NumPy raises ValueError); nansum prints 0.
//  - An empty array has no min, max or arg (exit 2, as NumPy raises); its
//    sum and nansum are 0.
//  - float16: computed on the values as float32 (exact), sums accumulated
//    in float32 as NumPy accumulates float16 sums, and printed as the
//    float16 NumPy returns (the result rounded to float16, written as the
//    shortest text that reads back as that float16).
// The GPU path converts types the library does not precompile (8- and
// 16-bit integers, bool) to one it does, value for value, so both backends
// print the same result for integers.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
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
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/reduce.hpp"
#include "input_file.hpp"
#include "options.hpp"
#include "progress.hpp"

namespace gpuprim::cli {
namespace {

// `value` rounded to float16, as the shortest text that reads back as the
// same float16 (NumPy prints float16 results so).
std::string half_text(float value) {
  const half h(value);
  const float exact = static_cast<float>(h);
  if (std::isnan(exact) || std::isinf(exact)) return number_text(exact);
  for (int digits = 1;; ++digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(exact));
    const double candidate = std::strtod(text, nullptr);
    if (half(static_cast<float>(candidate)).bits == h.bits || digits >= 9) {
      return number_text(candidate);
    }
  }
}

// How a result of type T is printed: as itself, or (Shown = half) as the
// float16 NumPy returns for float16 input.
template <class Shown, class T>
std::string shown_text(T value) {
  if constexpr (std::is_same_v<Shown, half>) {
    return half_text(static_cast<float>(value));
  } else {
    return number_text(value);
  }
}

// The accumulator of a sum: signed integers are summed modulo 2^64 in
// uint64 (defined wrap-around) and reinterpreted as int64 at the end.
template <class T>
using sum_type = std::conditional_t<std::is_floating_point_v<T>, double, std::uint64_t>;

// What an array of T becomes on the GPU, for each reduction, among the
// precompiled instantiations (detail::precompiled_reduce).
template <class T>
using cuda_sum_input =
    std::conditional_t<std::is_floating_point_v<T> || std::is_same_v<T, std::uint8_t>, T,
                       std::uint64_t>;
template <class T>
using cuda_min_max_input =
    std::conditional_t<std::is_same_v<T, std::uint8_t>, T, widened_small_t<T>>;
template <class T>
using cuda_arg_input = widened_small_t<T>;

template <class Shown, class B, class T>
std::string sum_of(B b, std::span<const T> values, bool skip_nan) {
  if constexpr (std::is_same_v<Shown, half>) {
    // NumPy sums float16 in float32 (nansum: NaN counted as 0).
    std::vector<float> v(values.begin(), values.end());
    if (skip_nan)
      std::replace_if(
          v.begin(), v.end(), [](float x) { return std::isnan(x); }, 0.0f);
    return half_text(reduce(b, stage(b, v), 0.0f, plus{}));
  }
  using S = sum_type<T>;
  if constexpr (std::is_floating_point_v<T>) {
    if (skip_nan) {
      return shown_text<Shown>(transform_reduce(b, stage(b, values), S{0}, plus{}, nan_to_zero{}));
    }
  }
  const S total = reduce(b, stage_as<cuda_sum_input<T>>(b, values), S{0}, plus{});
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return number_text(static_cast<std::int64_t>(total));
  } else {
    return shown_text<Shown>(total);
  }
}

template <class Shown, class B, class T>
std::string extreme_of(B b, std::span<const T> values, bool max, nan_rule rule) {
  if constexpr (std::is_floating_point_v<T>) {
    // min_element's value: the same whatever the order of the NaNs.
    const auto in = stage(b, values);
    return shown_text<Shown>(max ? max_element(b, in, rule).value : min_element(b, in, rule).value);
  } else {
    using D = cuda_min_max_input<T>;
    const auto in = stage_as<D>(b, values);
    const D result = max ? reduce(b, in, D{std::numeric_limits<T>::lowest()}, maximum{})
                         : reduce(b, in, D{std::numeric_limits<T>::max()}, minimum{});
    return number_text(static_cast<T>(result));
  }
}

template <class Shown, class B, class T>
std::string position_of_extreme(B b, std::span<const T> values, bool max, nan_rule rule) {
  const auto in = stage_as<cuda_arg_input<T>>(b, values);
  const auto found = max ? max_element(b, in, rule) : min_element(b, in, rule);
  return shown_text<Shown>(static_cast<T>(found.value)) + " " + number_text(found.index);
}

template <class T>
bool all_nan(std::span<const T> values) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::all_of(values.begin(), values.end(), [](T x) { return std::isnan(x); });
  } else {
    return false;
  }
}

// Shown: how results print (T, or half for float16 input computed as float).
template <class Shown, class B, class T>
std::string reduce_values(B b, std::span<const T> values, reduce_op op) {
  const bool skip_nan = skips_nan(op);
  const reduce_op plain = with_nan(op);
  const nan_rule rule = skip_nan ? nan_rule::skip : nan_rule::propagate;
  if (plain == reduce_op::sum) return sum_of<Shown>(b, values, skip_nan);
  const std::string& name = word_of(reduce_op_words, plain);
  if (values.empty()) throw usage_error("cannot take the " + name + " of an empty array");
  if (skip_nan && all_nan(values)) {
    if (is_arg(op)) {
      throw usage_error("all values are NaN: nan" + name + " has no answer (numpy raises)");
    }
    std::fprintf(stderr, "gpuprim reduce: warning: all values are NaN, nan%s is nan\n",
                 name.c_str());
  }
  if (is_arg(op)) return position_of_extreme<Shown>(b, values, is_max(op), rule);
  return extreme_of<Shown>(b, values, is_max(op), rule);
}

template <class B>
std::string reduce_array(B b, const io::npy_array& array, reduce_op op) {
  return visit_dtype(array.type, [&]<class T>(std::type_identity<T>) {
    if constexpr (std::is_same_v<T, half>) {
      const std::vector<float> values = io::values_as<float>(array);
      return reduce_values<half>(b, std::span<const float>(values), op);
    } else {
      // bool as uint8: True counts 1.
      return reduce_values<stored_t<T>>(b, stored_span<T>(array), op);
    }
  });
}

int run_reduce(const reduce_options& opts) {
  const backend be = resolve(opts.backend);
  const io::npy_array array = read_array(opts.file);
  std::string result;
  try {
    const progress_stage working("reducing " + std::to_string(array.size()) + " values");
    result = std::visit([&](auto b) { return reduce_array(b, array, opts.op); }, be);
  } catch (const usage_error& e) {
    throw usage_error(opts.file + ": " + e.what());
  }
  std::printf("%s\n", result.c_str());
  return exit_success;
}

// `gpuprim reduce --help`: what the command does, then each of its options.
constexpr command_help help(R"(
reduce: Reduce every element of a NumPy .npy array (any shape) and print the result
FILE: The .npy file (bool, int8..int64, uint8..uint64, float16, float32, float64; either byte
  order, C or Fortran order). float16 is computed in float32, as NumPy sums it, and printed as the
  float16 NumPy returns
--op: sum (integers in 64 bits, floats in double), min, max, argmin or argmax (prints the value
  and the index of its first occurrence); NaN propagates as in NumPy. nansum, nanmin, nanmax,
  nanargmin, nanargmax skip NaNs
--distributed: Under mpirun: each rank reads its own slice of FILE and the ranks reduce it
  together (host or GPU ranks, as --backend); rank 0 prints the result
)");

}  // namespace

command add_reduce_command(CLI::App& app) {
  const auto [sub, opts] = help.add_to<reduce_options>(app);
  add_files(sub, help, {{"FILE", &opts->file}});
  add_choice(sub, "--op", opts->op, reduce_op_words, help["--op"], choice_help::words_and_default);
  add_backend_option(sub, opts->backend);
  sub->add_flag("--distributed", opts->distributed, help["--distributed"]);
  return [opts] { return opts->distributed ? run_distributed(*opts) : run_reduce(*opts); };
}

}  // namespace gpuprim::cli
