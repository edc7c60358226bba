// The argument checks several families make before anything runs (order,
// select), and the exception they throw: std::invalid_argument whose
// message is "gpuprim::<algorithm>: <what was wrong>".
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gpuprim::detail {

[[noreturn]] inline void argument_error(const char* algorithm, const std::string& what) {
  throw std::invalid_argument(std::string("gpuprim::") + algorithm + ": " + what);
}

inline void check_same_length(const char* algorithm, const char* a, std::size_t na, const char* b,
                              std::size_t nb) {
  if (na != nb) {
    argument_error(algorithm, std::string(a) + " and " + b + " differ in length (" +
                                  std::to_string(na) + " and " + std::to_string(nb) + " elements)");
  }
}

// Inputs and outputs may not share memory (in-place forms take one array).
inline void check_disjoint(const char* algorithm, const char* a, const void* pa,
                           std::size_t bytes_a, const char* b, const void* pb,
                           std::size_t bytes_b) {
  const auto x = reinterpret_cast<std::uintptr_t>(pa);
  const auto y = reinterpret_cast<std::uintptr_t>(pb);
  if (bytes_a > 0 && bytes_b > 0 && x < y + bytes_b && y < x + bytes_a) {
    argument_error(algorithm, std::string(a) + " and " + b + " overlap");
  }
}

}  // namespace gpuprim::detail
