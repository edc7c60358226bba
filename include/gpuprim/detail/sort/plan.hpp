// The radix sort's plan, shared by both backends: the order and key bits a
// call asks for (sort_order and key_bits, part of the public API in
// gpuprim/sort.hpp) and what one sort does once they are checked.
#pragma once

#include <algorithm>
#include <cstddef>

namespace gpuprim {

enum class sort_order { ascending, descending };

// Bits [begin, end) of the key's order pattern; end = -1 means the top bit.
struct key_bits {
  int begin = 0;
  int end = -1;
};

namespace detail {

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

}  // namespace detail
}  // namespace gpuprim
