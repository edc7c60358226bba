// The element types the package takes: the library's dtype vocabulary
// (gp::io::dtype, gpuprim/io/npy.hpp, the CLI's too), and the few helpers
// the bindings and the nvcc-compiled entries share (so it includes nothing
// of Python).
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "gpuprim/core/low_precision.hpp"
#include "gpuprim/io/npy.hpp"

namespace gpuprim::python {

using io::dtype;
inline constexpr int dtype_count = static_cast<int>(dtype::float16) + 1;

// dtype_name, dtype_size and visit_dtype below are function objects, not
// functions: a call finds them by ordinary lookup, which keeps
// argument-dependent lookup (dtype is io::dtype) from also finding io's
// functions of the same names and making the call ambiguous.

// NumPy's name of `t` ("bool", "int8", ..., "float64").
struct dtype_name_fn {
  const char* operator()(dtype t) const {
    return io::dtype_name(t).data();  // the names are string literals
  }
};
inline constexpr dtype_name_fn dtype_name{};

struct dtype_size_fn {
  std::size_t operator()(dtype t) const { return io::dtype_size(t); }
};
inline constexpr dtype_size_fn dtype_size{};

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

// Calls f(type_tag<T>{}) with the C++ type of `t` (io::visit_dtype's: bool
// as bool). float16 has no arithmetic here (the callers reject it first);
// it is visited as float so that every caller's body compiles once.
struct visit_dtype_fn {
  template <class F>
  decltype(auto) operator()(dtype t, F&& f) const {
    return io::visit_dtype(t, [&]<class T>(std::type_identity<T>) -> decltype(auto) {
      using visited = std::conditional_t<std::is_same_v<T, half>, float, T>;
      return f(type_tag<visited>{});
    });
  }
};
inline constexpr visit_dtype_fn visit_dtype{};

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
