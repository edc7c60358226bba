// The element types the package takes, and a visitor from a dtype to its
// C++ type (shared by the bindings and the nvcc-compiled kernels, so it
// includes nothing of Python).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpuprim/detail/type_list.hpp"

namespace gpuprim::python {

enum class dtype : std::uint8_t {
  bool_,
  int8,
  int16,
  int32,
  int64,
  uint8,
  uint16,
  uint32,
  uint64,
  float16,
  float32,
  float64,
};
inline constexpr int dtype_count = 12;

const char* dtype_name(dtype t);
inline std::size_t dtype_size(dtype t) {
  constexpr std::size_t sizes[dtype_count] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 4, 8};
  return sizes[static_cast<int>(t)];
}
inline bool is_floating(dtype t) {
  return t == dtype::float16 || t == dtype::float32 || t == dtype::float64;
}
inline bool is_signed_integer(dtype t) {
  return t == dtype::int8 || t == dtype::int16 || t == dtype::int32 || t == dtype::int64;
}
inline bool is_unsigned_integer(dtype t) {
  return t == dtype::uint8 || t == dtype::uint16 || t == dtype::uint32 || t == dtype::uint64;
}

template <class T>
struct type_tag {
  using type = T;
};

// The C++ type of each dtype, in the enum's order. float16 has none here
// (the callers reject it first); it is visited as float.
using dtype_types =
    detail::type_list<bool, std::int8_t, std::int16_t, std::int32_t, std::int64_t, std::uint8_t,
                      std::uint16_t, std::uint32_t, std::uint64_t, float, float, double>;

// Calls f(type_tag<T>{}) with the C++ type of `t` (bool as bool).
template <class F>
decltype(auto) visit_dtype(dtype t, F&& f) {
  return detail::visit_nth(
      dtype_types{}, static_cast<std::size_t>(t),
      [&]<class T>(std::type_identity<T>) -> decltype(auto) { return f(type_tag<T>{}); },
      "visit_dtype: not a dtype");
}

// The type a dtype's values are handed to the library as: bool as its
// bytes (0 / 1), which order and sum the same.
template <class T>
using stored_t = std::conditional_t<std::is_same_v<T, bool>, std::uint8_t, T>;

// Calls f(type_tag<In>{}, type_tag<Acc>{}) for the stored input type In of
// `in` and the accumulator Acc: int64 or uint64 when `acc` says so (NumPy's
// widened integer sums), else In itself.
template <class F>
void visit_pair(dtype in, dtype acc, F&& f) {
  visit_dtype(in, [&]<class T>(type_tag<T>) {
    using In = stored_t<T>;
    switch (acc) {
      case dtype::int64:
        f(type_tag<In>{}, type_tag<std::int64_t>{});
        return;
      case dtype::uint64:
        f(type_tag<In>{}, type_tag<std::uint64_t>{});
        return;
      default:
        f(type_tag<In>{}, type_tag<In>{});
        return;
    }
  });
}

}  // namespace gpuprim::python
