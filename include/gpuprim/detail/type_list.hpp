// Compile-time lists of types: the precompiled instantiations of a family
// are one such list, read by the facade's "is this precompiled?" check and
// by the instantiation files CMake generates (detail/instantiate.hpp).
#pragma once

#include <cstdint>
#include <type_traits>

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

}  // namespace gpuprim::detail

// The arithmetic types most families precompile, as a table (below) other
// tables include: #define GPUPRIM_SCAN_TYPES(X) GPUPRIM_ARITHMETIC_TYPES(X).
#define GPUPRIM_ARITHMETIC_TYPES(X) \
  X(int32, std::int32_t)            \
  X(uint32, std::uint32_t)          \
  X(int64, std::int64_t)            \
  X(uint64, std::uint64_t)          \
  X(float, float)                   \
  X(double, double)

// A precompiled-type table is an X-macro, one X(name, type) per line, so that
// CMake can read it (cmake/GpuprimInstantiate.cmake generates one source
// file per line) and C++ can expand it. GPUPRIM_TYPE_OF turns a table into
// a comma-led list of its types: one_of<T GPUPRIM_TABLE(GPUPRIM_TYPE_OF)>.
#define GPUPRIM_TYPE_OF(name, ...) , __VA_ARGS__
