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
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/device_vector.hpp"
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/io/npy.hpp"
#include "gpuprim/reduce.hpp"

namespace gpuprim::cli {
namespace {

struct reduce_options {
  std::string file;
  std::string op = "sum";
  std::string backend;
};

template <class T>
std::string to_text(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(value)) return "nan";  // as NumPy prints any NaN
  }
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

// `value` rounded to float16, as the shortest text that reads back as the
// same float16 (NumPy prints float16 results so).
std::string half_text(float value) {
  const half h(value);
  const float exact = static_cast<float>(h);
  if (std::isnan(exact) || std::isinf(exact)) return to_text(exact);
  for (int digits = 1;; ++digits) {
    char text[32];
    std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(exact));
    const double candidate = std::strtod(text, nullptr);
    if (half(static_cast<float>(candidate)).bits == h.bits || digits >= 9) {
      return to_text(candidate);
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
    return to_text(value);
  }
}

template <class T>
inline constexpr bool is_small_integer = std::is_integral_v<T> && sizeof(T) < 4;

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
    std::conditional_t<is_small_integer<T> && !std::is_same_v<T, std::uint8_t>,
                       std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>, T>;
template <class T>
using cuda_arg_input =
    std::conditional_t<is_small_integer<T>,
                       std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>, T>;

template <class D, class T>
device_vector<D> upload_as(std::span<const T> values) {
  if constexpr (std::is_same_v<D, T>) {
    return to_device(values);
  } else {
    std::vector<D> converted(values.size());
    std::transform(values.begin(), values.end(), converted.begin(),
                   [](T x) { return static_cast<D>(x); });
    return to_device(std::span<const D>(converted));
  }
}

template <class Shown, class T>
std::string sum_of(std::span<const T> values, bool on_cuda, bool skip_nan) {
  if constexpr (std::is_same_v<Shown, half>) {
    // NumPy sums float16 in float32 (nansum: NaN counted as 0).
    std::vector<float> v(values.begin(), values.end());
    if (skip_nan)
      std::replace_if(
          v.begin(), v.end(), [](float x) { return std::isnan(x); }, 0.0f);
    return half_text(on_cuda ? reduce(cuda, to_device(std::span<const float>(v)), 0.0f, plus{})
                             : reduce(host, v, 0.0f, plus{}));
  }
  using S = sum_type<T>;
  S total;
  if constexpr (std::is_floating_point_v<T>) {
    if (skip_nan) {
      total = on_cuda ? transform_reduce(cuda, to_device(values), S{0}, plus{}, nan_to_zero{})
                      : transform_reduce(host, values, S{0}, plus{}, nan_to_zero{});
      return shown_text<Shown>(total);
    }
  }
  total = on_cuda ? reduce(cuda, upload_as<cuda_sum_input<T>>(values), S{0}, plus{})
                  : reduce(host, values, S{0}, plus{});
  if constexpr (std::is_integral_v<T> && std::is_signed_v<T>) {
    return to_text(static_cast<std::int64_t>(total));
  } else {
    return shown_text<Shown>(total);
  }
}

template <bool Max, class Shown, class T>
std::string extreme_of(std::span<const T> values, bool on_cuda, nan_rule rule) {
  if constexpr (std::is_floating_point_v<T>) {
    // min_element's value: the same whatever the order of the NaNs.
    if (on_cuda) {
      const device_vector<T> d = to_device(values);
      return shown_text<Shown>(Max ? max_element(cuda, d, rule).value
                                   : min_element(cuda, d, rule).value);
    }
    return shown_text<Shown>(Max ? max_element(host, values, rule).value
                                 : min_element(host, values, rule).value);
  } else {
    using op = std::conditional_t<Max, maximum, minimum>;
    const T init = Max ? std::numeric_limits<T>::lowest() : std::numeric_limits<T>::max();
    if (on_cuda) {
      using D = cuda_min_max_input<T>;
      return to_text(static_cast<T>(reduce(cuda, upload_as<D>(values), D{init}, op{})));
    }
    return to_text(reduce(host, values, init, op{}));
  }
}

template <bool Max, class Shown, class T>
std::string position_of_extreme(std::span<const T> values, bool on_cuda, nan_rule rule) {
  value_index<cuda_arg_input<T>> found;
  if (on_cuda) {
    const auto d = upload_as<cuda_arg_input<T>>(values);
    found = Max ? max_element(cuda, d, rule) : min_element(cuda, d, rule);
  } else {
    const auto f = Max ? max_element(host, values, rule) : min_element(host, values, rule);
    found = {static_cast<cuda_arg_input<T>>(f.value), f.index};
  }
  return shown_text<Shown>(static_cast<T>(found.value)) + " " + to_text(found.index);
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
template <class T, class Shown = T>
std::string reduce_values(std::span<const T> values, std::string op, bool on_cuda) {
  const bool skip_nan = op.starts_with("nan");
  if (skip_nan) op = op.substr(3);
  const nan_rule rule = skip_nan ? nan_rule::skip : nan_rule::propagate;
  if (op == "sum") return sum_of<Shown>(values, on_cuda, skip_nan);
  if (values.empty()) throw usage_error("cannot take the " + op + " of an empty array");
  if (skip_nan && all_nan(values)) {
    if (op.starts_with("arg")) {
      throw usage_error("all values are NaN: nan" + op + " has no answer (numpy raises)");
    }
    std::fprintf(stderr, "gpuprim reduce: warning: all values are NaN, nan%s is nan\n", op.c_str());
  }
  if (op == "min") return extreme_of<false, Shown>(values, on_cuda, rule);
  if (op == "max") return extreme_of<true, Shown>(values, on_cuda, rule);
  if (op == "argmin") return position_of_extreme<false, Shown>(values, on_cuda, rule);
  if (op == "argmax") return position_of_extreme<true, Shown>(values, on_cuda, rule);
  throw usage_error("unknown --op " + op);
}

std::string reduce_array(const io::npy_array& array, const std::string& op, bool on_cuda) {
  switch (array.type) {
    case io::dtype::bool8:  // as uint8: True counts 1
      return reduce_values(
          std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(array.bytes.data()),
                                        array.bytes.size()),
          op, on_cuda);
    case io::dtype::uint8:
      return reduce_values(array.values<std::uint8_t>(), op, on_cuda);
    case io::dtype::int8:
      return reduce_values(array.values<std::int8_t>(), op, on_cuda);
    case io::dtype::uint16:
      return reduce_values(array.values<std::uint16_t>(), op, on_cuda);
    case io::dtype::int16:
      return reduce_values(array.values<std::int16_t>(), op, on_cuda);
    case io::dtype::uint32:
      return reduce_values(array.values<std::uint32_t>(), op, on_cuda);
    case io::dtype::int32:
      return reduce_values(array.values<std::int32_t>(), op, on_cuda);
    case io::dtype::uint64:
      return reduce_values(array.values<std::uint64_t>(), op, on_cuda);
    case io::dtype::int64:
      return reduce_values(array.values<std::int64_t>(), op, on_cuda);
    case io::dtype::float32:
      return reduce_values(array.values<float>(), op, on_cuda);
    case io::dtype::float64:
      return reduce_values(array.values<double>(), op, on_cuda);
    case io::dtype::float16: {
      const std::vector<float> values = io::values_as<float>(array);
      return reduce_values<float, half>(values, op, on_cuda);
    }
  }
  throw usage_error("dtype " + std::string(io::dtype_name(array.type)) + " is not supported");
}

int run_reduce(const reduce_options& opts) {
  const bool on_cuda = resolve_backend(opts.backend) == "cuda";
  const io::npy_array array = io::read_npy(opts.file);
  std::string result;
  try {
    result = reduce_array(array, opts.op, on_cuda);
  } catch (const usage_error& e) {
    throw usage_error(opts.file + ": " + e.what());
  }
  std::printf("%s\n", result.c_str());
  return exit_success;
}

}  // namespace

command add_reduce_command(CLI::App& app) {
  auto opts = std::make_shared<reduce_options>();
  CLI::App* sub = app.add_subcommand(
      "reduce", "Reduce every element of a NumPy .npy array (any shape) and print the result");
  sub->add_option("FILE", opts->file,
                  "The .npy file (bool, int8..int64, uint8..uint64, float16, float32, float64; "
                  "either byte order, C or Fortran order). float16 is computed in float32, as "
                  "NumPy sums it, and printed as the float16 NumPy returns")
      ->required()
      ->type_name("");
  sub->add_option("--op", opts->op,
                  "sum (integers in 64 bits, floats in double), min, max, argmin or argmax "
                  "(prints the value and the index of its first occurrence); NaN propagates "
                  "as in NumPy. nansum, nanmin, nanmax, nanargmin, nanargmax skip NaNs")
      ->check(CLI::IsMember({"sum", "min", "max", "argmin", "argmax", "nansum", "nanmin", "nanmax",
                             "nanargmin", "nanargmax"}))
      ->capture_default_str();
  sub->add_option("--backend", opts->backend, "host or cuda (default: cuda when a GPU is present)")
      ->check(CLI::IsMember({"host", "cuda"}));
  auto distributed = std::make_shared<bool>(false);
  sub->add_flag("--distributed", *distributed,
                "Under mpirun: each rank reads its own slice of FILE and the ranks reduce it "
                "together (host or GPU ranks, as --backend); rank 0 prints the result");
  return [opts, distributed] {
    if (!*distributed) return run_reduce(*opts);
    distributed_request r;
    r.command = "reduce";
    r.file = opts->file;
    r.op = opts->op;
    r.backend = opts->backend;
    return run_distributed(r);
  };
}

}  // namespace gpuprim::cli
