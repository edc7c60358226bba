// Names of enumerators, for the tables and progress lines.
#pragma once

#include <cstddef>

namespace gpuprim::bench {

// The name of `value` for an enumeration whose enumerators count from 0 in
// declaration order: names[value], or "?" past the end of `names`.
template <class Enum, std::size_t N>
constexpr const char* enum_name(Enum value, const char* const (&names)[N]) {
  const auto i = static_cast<std::size_t>(value);
  return i < N ? names[i] : "?";
}

}  // namespace gpuprim::bench
