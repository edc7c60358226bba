// The one place where a .npy file's dtype becomes a C++ type, and the text
// of a number as the commands print it.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <span>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include "commands.hpp"
#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/io/npy.hpp"

namespace gpuprim::cli {

// Calls f(std::type_identity<T>{}) with the element type of a dtype: bool,
// the fixed-width integers, float, double, or gp::half for float16 (the
// library's io::visit_dtype). A command refuses the dtypes it does not
// take inside f (with if constexpr on T).
using io::visit_dtype;

// visit_dtype for the commands whose library calls take no float16: f is
// called with bool, the integers, float or double; float16 is a usage
// error naming the file.
template <class F>
void visit_dtype_but_half(io::dtype type, const std::string& file, F&& f) {
  visit_dtype(type, [&]<class T>(std::type_identity<T> t) {
    if constexpr (std::is_same_v<T, half>) {
      throw usage_error(file + ": dtype " + std::string(io::dtype_name(type)) +
                        " is not supported (bool, integers, float32 and float64 are)");
    } else {
      f(t);
    }
  });
}

// How the commands compute on a dtype's elements: numpy's bool as the
// byte it is stored in (True counts 1), every other type as itself.
template <class T>
using stored_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

// The elements of an array of dtype T as stored_t<T>, in place.
template <class T>
std::span<const stored_t<T>> stored_span(const io::npy_array& array) {
  using S = stored_t<T>;
  return {reinterpret_cast<const S*>(array.bytes.data()), array.bytes.size() / sizeof(S)};
}
template <class T>
std::span<stored_t<T>> stored_span(io::npy_array& array) {
  using S = stored_t<T>;
  return {reinterpret_cast<S*>(array.bytes.data()), array.bytes.size() / sizeof(S)};
}

// A copy of the elements of `bytes` (a whole array or a slice) as stored_t<T>.
template <class T>
std::vector<stored_t<T>> stored_values(const std::vector<std::byte>& bytes) {
  std::vector<stored_t<T>> values(bytes.size() / sizeof(stored_t<T>));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
}

// Where the GPU library precompiles no 8- or 16-bit integers (the min, max
// and arg reductions, running min / max), those (and bool) are computed as
// the 32-bit integer of their signedness: the same values.
template <class T>
using widened_small_t =
    std::conditional_t<std::is_integral_v<T> && sizeof(T) < 4,
                       std::conditional_t<std::is_signed_v<T>, std::int32_t, std::uint32_t>, T>;

// Sums of integers run in uint64 (defined wrap-around; signed inputs are
// sign-extended first) and are written as int64 (bool, signed) or uint64
// (unsigned), numpy.cumsum's dtypes; floats stay in their type.
template <class T>
using scan_sum_t = std::conditional_t<std::is_floating_point_v<T>, T, std::uint64_t>;
template <class T>
using scan_sum_output_t =
    std::conditional_t<std::is_floating_point_v<T>, T, io::numpy_integer_sum_t<T>>;

// The identity of a running minimum (Max: maximum) of T: +inf (-inf) for
// floats, T's largest (lowest) value otherwise.
template <class T>
T extreme_identity(bool max) {
  using limits = std::numeric_limits<T>;
  if constexpr (limits::has_infinity) {
    return max ? -limits::infinity() : limits::infinity();
  } else {
    return max ? limits::lowest() : limits::max();
  }
}

// The shortest text that reads back as `value` ("nan" for any NaN, as
// NumPy prints it).
template <class T>
std::string number_text(T value) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(value)) return "nan";
  }
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

}  // namespace gpuprim::cli
