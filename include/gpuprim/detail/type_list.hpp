// Compile-time lists of types: the precompiled instantiations of a family
// are one such list, read by the facade's "is this precompiled?" check and
// by the instantiation files CMake generates (detail/instantiate.hpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <type_traits>
#include <utility>

namespace gpuprim::detail {

template <class T, class... U>
inline constexpr bool one_of = (std::is_same_v<T, U> || ...);

template <class... T>
struct type_list {};

// Two types as one table row: spmv's (value, index), solve's (value, matrix).
template <class A, class B>
struct type_pair {
  using first = A;
  using second = B;
};

// concat_t<type_list<A...>, type_list<B...>, ...> = type_list<A..., B...,...>.
template <class... Lists>
struct concat;
template <>
struct concat<> {
  using type = type_list<>;
};
template <class... A>
struct concat<type_list<A...>> {
  using type = type_list<A...>;
};
template <class... A, class... B, class... Rest>
struct concat<type_list<A...>, type_list<B...>, Rest...> {
  using type = typename concat<type_list<A..., B...>, Rest...>::type;
};
template <class... Lists>
using concat_t = typename concat<Lists...>::type;

// The list when `keep`, else the empty list.
template <bool keep, class List>
using keep_if = std::conditional_t<keep, List, type_list<>>;

template <class List, class T>
inline constexpr bool contains = false;
template <class... U, class T>
inline constexpr bool contains<type_list<U...>, T> = one_of<T, U...>;

// The position of T in the list; a compile error when T is not in it.
template <class List, class T>
struct index_of_t;
template <class... U, class T>
struct index_of_t<type_list<U...>, T> {
  static_assert(one_of<T, U...>, "the type is not in the list");
  static constexpr std::size_t value = [] {
    constexpr bool same[] = {std::is_same_v<T, U>...};
    std::size_t i = 0;
    while (!same[i])
      ++i;
    return i;
  }();
};
template <class List, class T>
inline constexpr std::size_t index_of = index_of_t<List, T>::value;

// Calls f(std::type_identity<U>{}) with the n-th type U of the list (every
// call of f returns the same type); `n` past the list throws
// std::logic_error(what).
template <std::size_t I = 0, class... U, class F>
decltype(auto) visit_nth(type_list<U...> list, std::size_t n, F&& f, const char* what) {
  using T = std::tuple_element_t<I, std::tuple<U...>>;
  if (n == I) return f(std::type_identity<T>{});
  if constexpr (I + 1 < sizeof...(U)) {
    return visit_nth<I + 1>(list, n, std::forward<F>(f), what);
  } else {
    throw std::logic_error(what);
  }
}

}  // namespace gpuprim::detail

// The rows families' tables are made of, as tables (below) that other
// tables include: #define GPUPRIM_SCAN_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X).
// A family's table names these and adds only the rows of its own.
// (CMake reads one X(name, type) a line.)
#define GPUPRIM_FLOAT_TYPES(X) \
  X(float, float)              \
  X(double, double)
#define GPUPRIM_32_BIT_INTEGER_TYPES(X) \
  X(int32, std::int32_t)                \
  X(uint32, std::uint32_t)
#define GPUPRIM_NARROW_INTEGER_TYPES(X) \
  X(uint8, std::uint8_t)                \
  X(int8, std::int8_t)                  \
  X(int16, std::int16_t)                \
  X(uint16, std::uint16_t)
// The arithmetic types most families precompile.
#define GPUPRIM_ARITHMETIC_TYPES(X) \
  GPUPRIM_32_BIT_INTEGER_TYPES(X)   \
  X(int64, std::int64_t)            \
  X(uint64, std::uint64_t)          \
  GPUPRIM_FLOAT_TYPES(X)

// A precompiled-type table is an X-macro, one X(name, type) per line, so that
// CMake can read it (cmake/GpuprimInstantiate.cmake generates one source
// file per line) and C++ can expand it. GPUPRIM_TYPE_OF turns a table into
// a comma-led list of its types: one_of<T GPUPRIM_TABLE(GPUPRIM_TYPE_OF)>.
#define GPUPRIM_TYPE_OF(name, ...) , __VA_ARGS__
