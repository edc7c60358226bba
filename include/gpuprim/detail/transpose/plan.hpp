// The transpose's plan, shared by both backends, and the step from an
// element size known at run time to the compiled one.
#pragma once

#include <cstddef>
#include <type_traits>

namespace gpuprim::detail {

// One transpose (or a stack of them), for both backends: out[b][c][r] =
// in[b][r][c] for r < rows, c < cols, b < batch; rows of `in` ld_in elements
// apart, rows of `out` ld_out apart, matrices stride_in / stride_out apart.
struct transpose_shape {
  std::size_t rows = 0, cols = 0, ld_in = 0, ld_out = 0;
  std::size_t batch = 1, stride_in = 0, stride_out = 0;
};

// Calls run(std::integral_constant<std::size_t, Bytes>{}) for the element
// size known only at run time (1, 2, 4, 8 or 16 bytes, checked by the
// caller; anything else runs as 16).
template <class Run>
void with_element_size(std::size_t element_size, Run&& run) {
  switch (element_size) {
    case 1:
      return run(std::integral_constant<std::size_t, 1>{});
    case 2:
      return run(std::integral_constant<std::size_t, 2>{});
    case 4:
      return run(std::integral_constant<std::size_t, 4>{});
    case 8:
      return run(std::integral_constant<std::size_t, 8>{});
    default:
      return run(std::integral_constant<std::size_t, 16>{});
  }
}

}  // namespace gpuprim::detail
