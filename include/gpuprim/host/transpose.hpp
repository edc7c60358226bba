// CPU backend of the transpose family: cache-blocked, OpenMP.
//
// The matrix is cut into square tiles (64 x 64 elements of 2 or 4 bytes,
// 128 x 128 of bytes, 32 x 32 of 8 bytes, 16 x 16 of 16 bytes); each thread takes whole tiles, so a
// cache line of the output is written by one thread, once. A tile is read along the input's rows
// into a local buffer, transposed there (in L1), and written along the output's rows.
#pragma once

#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "gpuprim/core/backend.hpp"

namespace gpuprim {
namespace detail {

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

}  // namespace detail

namespace host_detail {

using detail::transpose_shape;

// An element of `Bytes` bytes, moved as a whole (alignment 1, so the
// byte-generic entry takes any buffer; x86 loads it in one instruction).
template <std::size_t Bytes>
struct raw_element {
  unsigned char bytes[Bytes];
};

template <std::size_t Bytes>
void transpose_sized(host_backend backend, const void* in_bytes, void* out_bytes,
                     const transpose_shape& s) {
  using E = raw_element<Bytes>;
  // 8-16 KiB of buffer; output rows leave in segments of 128-256 bytes
  // (64 x 64 floats beat 32 x 32 and 128 x 128 on the dev machine).
  constexpr std::size_t tile = Bytes == 1 ? 128 : Bytes <= 4 ? 64 : Bytes == 8 ? 32 : 16;
  const auto* in = static_cast<const E*>(in_bytes);
  auto* out = static_cast<E*>(out_bytes);
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  const std::size_t tile_rows = (s.rows + tile - 1) / tile;
  const std::size_t tile_cols = (s.cols + tile - 1) / tile;
  const std::size_t tiles = s.batch * tile_rows * tile_cols;
  const int threads = backend.thread_count > 0 ? backend.thread_count : omp_get_max_threads();
  // Small problems are not worth waking the team.
  const bool parallel = s.batch * s.rows * s.cols * Bytes >= (std::size_t{1} << 16);
  static_cast<void>(parallel);  // (used only by the pragma)
#pragma omp parallel for schedule(static) num_threads(threads) if (parallel)
  for (std::size_t t = 0; t < tiles; ++t) {
    const std::size_t b = t / (tile_rows * tile_cols);
    const std::size_t rest = t % (tile_rows * tile_cols);
    const std::size_t r0 = rest / tile_cols * tile;
    const std::size_t c0 = rest % tile_cols * tile;
    const std::size_t r1 = std::min(r0 + tile, s.rows);
    const std::size_t c1 = std::min(c0 + tile, s.cols);
    const E* src = in + b * s.stride_in;
    E* dst = out + b * s.stride_out;
    // Through a local buffer: the strided side of the transpose is the
    // buffer (in L1), and both matrices are touched along rows only (a
    // power-of-two leading dimension would otherwise send a tile's output
    // lines to one L1 set).
    E buffer[tile][tile];
    for (std::size_t r = r0; r < r1; ++r) {
      const E* row = src + r * s.ld_in;
      for (std::size_t c = c0; c < c1; ++c)
        buffer[c - c0][r - r0] = row[c];
    }
    for (std::size_t c = c0; c < c1; ++c)
      std::memcpy(dst + c * s.ld_out + r0, buffer[c - c0], (r1 - r0) * Bytes);
  }
}

// The same for an element size known only at run time (1, 2, 4, 8 or 16
// bytes; the caller has checked).
inline void transpose_bytes(host_backend backend, std::size_t element_size, const void* in,
                            void* out, const transpose_shape& s) {
  switch (element_size) {
    case 1:
      return transpose_sized<1>(backend, in, out, s);
    case 2:
      return transpose_sized<2>(backend, in, out, s);
    case 4:
      return transpose_sized<4>(backend, in, out, s);
    case 8:
      return transpose_sized<8>(backend, in, out, s);
    default:
      return transpose_sized<16>(backend, in, out, s);
  }
}

}  // namespace host_detail
}  // namespace gpuprim
