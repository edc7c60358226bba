// The radix sort's plan, shared by both backends: what one sort does once
// the order and key bits a call asks for (sort_order and key_bits,
// gpuprim/sort_types.hpp) are checked.
#pragma once

#include <algorithm>
#include <cstddef>

#include "gpuprim/sort_types.hpp"

namespace gpuprim::detail {

// Keys only: a value type that moves nothing.
struct no_value {};

// What one radix sort call does, after the public API's checks.
struct radix_sort_plan {
  std::size_t n = 0;
  int begin_bit = 0;
  int end_bit = 0;
  bool descending = false;
  int value_bytes = 0;  // 0: keys only; else 4 or 8 (values move as opaque words)

  int passes() const { return (end_bit - begin_bit + 7) / 8; }
  int shift(int pass) const { return begin_bit + 8 * pass; }
  unsigned mask(int pass) const {
    const int bits = std::min(8, end_bit - shift(pass));
    return (1u << bits) - 1u;
  }
};

}  // namespace gpuprim::detail
