// The transpose's plan, shared by both backends.
#pragma once

#include <cstddef>

namespace gpuprim::detail {

// One transpose (or a stack of them), for both backends: out[b][c][r] =
// in[b][r][c] for r < rows, c < cols, b < batch; rows of `in` ld_in elements
// apart, rows of `out` ld_out apart, matrices stride_in / stride_out apart.
struct transpose_shape {
  std::size_t rows = 0;
  std::size_t cols = 0;
  std::size_t ld_in = 0;
  std::size_t ld_out = 0;
  std::size_t batch = 1;
  std::size_t stride_in = 0;
  std::size_t stride_out = 0;
};

}  // namespace gpuprim::detail
