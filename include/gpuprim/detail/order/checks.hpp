// The checks every backend of the order family (search, top-k, merge) makes
// before anything runs, beside the shared ones of gpuprim/detail/checks.hpp
// (argument_error, check_same_length, check_disjoint).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "gpuprim/detail/checks.hpp"

namespace gpuprim::detail {

// An index output of type I holds every index up to n.
template <class I>
void order_index_fits(const char* algorithm, std::size_t n) {
  static_assert(std::is_integral_v<I> && !std::is_same_v<I, bool>,
                "gpuprim: an index output must be of an integer type");
  if (n > static_cast<std::size_t>(std::numeric_limits<I>::max())) {
    argument_error(algorithm, "an index output of " + std::to_string(sizeof(I) * 8) +
                                  "-bit integers cannot hold the index " + std::to_string(n));
  }
}

// k of top-k: from 1 to n.
inline void order_check_k(const char* algorithm, std::size_t k, std::size_t n) {
  if (k == 0)
    argument_error(algorithm, "k is 0; it must be from 1 to n (" + std::to_string(n) + ")");
  if (k > n) {
    argument_error(algorithm, "k (" + std::to_string(k) + ") is larger than the " +
                                  std::to_string(n) + " elements");
  }
}

// The element types merge and merge_sort move: trivially copyable, at most
// 64 bytes (what a GPU thread keeps in registers).
template <class T>
inline constexpr bool order_element = std::is_trivially_copyable_v<T> && sizeof(T) <= 64;

[[noreturn]] inline void order_no_gpu(const char* algorithm) {
  throw std::logic_error(std::string("gpuprim::") + algorithm +
                         ": the GPU backend of the order family is not built yet; call it with "
                         "gp::host on host memory");
}

}  // namespace gpuprim::detail
