// The printable name of an enumerator, from a table of names in the order
// the enumeration declares its values (0, 1, ...).
#pragma once

#include <cstddef>

namespace gpuprim::detail {

// names[value], or `other` for a value past the table.
template <class E, std::size_t N>
constexpr const char* enum_name(E value, const char* const (&names)[N], const char* other) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : other;
}

}  // namespace gpuprim::detail
