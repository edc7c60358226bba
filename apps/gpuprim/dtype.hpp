// The one place where a .npy file's dtype becomes a C++ type, and the text
// of a number as the commands print it.
#pragma once

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/io/npy.hpp"

namespace gpuprim::cli {

// Calls f(std::type_identity<T>{}) with the element type of `type`: bool,
// the fixed-width integers, float, double, or gp::half for float16. Every
// call of f must return the same type; a command refuses the dtypes it
// does not take inside f (with if constexpr on T).
template <class F>
decltype(auto) visit_dtype(io::dtype type, F&& f) {
  switch (type) {
    case io::dtype::bool8:
      return f(std::type_identity<bool>{});
    case io::dtype::uint8:
      return f(std::type_identity<std::uint8_t>{});
    case io::dtype::int8:
      return f(std::type_identity<std::int8_t>{});
    case io::dtype::uint16:
      return f(std::type_identity<std::uint16_t>{});
    case io::dtype::int16:
      return f(std::type_identity<std::int16_t>{});
    case io::dtype::uint32:
      return f(std::type_identity<std::uint32_t>{});
    case io::dtype::int32:
      return f(std::type_identity<std::int32_t>{});
    case io::dtype::uint64:
      return f(std::type_identity<std::uint64_t>{});
    case io::dtype::int64:
      return f(std::type_identity<std::int64_t>{});
    case io::dtype::float32:
      return f(std::type_identity<float>{});
    case io::dtype::float64:
      return f(std::type_identity<double>{});
    case io::dtype::float16:
      return f(std::type_identity<half>{});
  }
  throw std::logic_error("visit_dtype: not a dtype");
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

// A copy of the elements of `bytes` (a whole array or a slice) as stored_t<T>.
template <class T>
std::vector<stored_t<T>> stored_values(const std::vector<std::byte>& bytes) {
  std::vector<stored_t<T>> values(bytes.size() / sizeof(stored_t<T>));
  if (!values.empty()) std::memcpy(values.data(), bytes.data(), bytes.size());
  return values;
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
