// The names of the values of an enum (a split, a key pattern, a border
// mode), for the messages of a test's cases.
#pragma once

#include <cstddef>

namespace gpuprim::test {

// names[i] names the enum's value i (its enumerators numbered from 0, in
// order); "?" for a value past the table.
template <class E, std::size_t N>
constexpr const char* name_in(const char* const (&names)[N], E value) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : "?";
}

}  // namespace gpuprim::test
