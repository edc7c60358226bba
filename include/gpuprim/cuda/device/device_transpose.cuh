// Device-wide transpose, the host driver: the tile shape for a matrix (and
// the tuner's tile sides), the rule between the tiles and the sector-owned
// tiles, their grids and launches, one instantiation per element size. The
// kernels and the shape of their algorithm: cuda/device/transpose/kernels.cuh.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuprim/cuda/device/transpose/kernels.cuh"
#include "gpuprim/cuda/support/check.cuh"
#include "gpuprim/cuda/support/launch.cuh"
#include "gpuprim/cuda/support/tune_report.cuh"
#include "gpuprim/detail/transpose/transpose.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_impl {

// Tile shape for a rows x cols matrix of `Bytes`-byte elements. A full
// tile is side_rows x side_cols (multiples of 32; 0: the default square
// side, the tuner's "transpose" space varies them).
template <std::size_t Bytes>
transpose_tiling transpose_tiling_for(const detail::transpose_shape& s, const void* in,
                                      const void* out, unsigned side_rows = 0,
                                      unsigned side_cols = 0) {
  constexpr unsigned V = 16 / Bytes;
  constexpr unsigned side = Bytes <= 8 ? 64 : 32;
  constexpr unsigned padding = Bytes < 4 ? 4 / Bytes : 1;
  const unsigned full_rows = side_rows > 0 ? side_rows : side;
  const unsigned full_cols = side_cols > 0 ? side_cols : side;
  const unsigned budget = full_rows * full_cols;  // elements per tile
  transpose_tiling t{};
  if (s.cols < full_cols) {
    t.tile_cols = static_cast<unsigned>(s.cols);
    // No more shared memory than a full tile's.
    const unsigned rows_in_budget =
        full_rows * (full_cols + padding) / (t.tile_cols + padding) / 32 * 32;
    t.tile_rows =
        static_cast<unsigned>(std::min<std::uint64_t>(rows_in_budget, ceil_div(s.rows, 32) * 32));
  } else if (s.rows < full_rows) {
    t.tile_rows = static_cast<unsigned>(s.rows);
    t.tile_cols = static_cast<unsigned>(
        std::min<std::uint64_t>(budget / t.tile_rows / 32 * 32, ceil_div(s.cols, 32) * 32));
  } else {
    t.tile_rows = full_rows;
    t.tile_cols = full_cols;
  }
  t.pitch = t.tile_cols + padding;
  const auto aligned = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p) % 16 == 0; };
  t.vector_loads = aligned(in) && s.ld_in % V == 0 && (s.batch == 1 || s.stride_in % V == 0) &&
                   t.tile_cols % V == 0;
  t.vector_stores = aligned(out) && s.ld_out % V == 0 && (s.batch == 1 || s.stride_out % V == 0) &&
                    t.tile_rows % V == 0;
  t.tiles_down = ceil_div(s.rows, t.tile_rows);
  t.tiles_across = ceil_div(s.cols, t.tile_cols);
  return t;
}

// The halo: the largest sector offset (elements) of an output row's first
// element over the stack (periodic in the row and in the matrix, period 32
// / Bytes at most).
template <std::size_t Bytes>
unsigned transpose_sector_halo(const void* out, const detail::transpose_shape& s) {
  constexpr std::uint64_t S = 32 / Bytes;
  const auto first = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(out) / Bytes);
  std::uint64_t halo = 0;
  for (std::uint64_t b = 0; b < std::min<std::uint64_t>(s.batch, S); ++b)
    for (std::uint64_t c = 0; c < std::min<std::uint64_t>(s.cols, S); ++c)
      halo = std::max(halo, (first + b * s.stride_out + c * s.ld_out) % S);
  return static_cast<unsigned>(halo);
}

// The largest rows, columns and leading dimensions taken: bands, tile rows
// (up to 2 x 128 past the last row) and column indices stay ints.
inline constexpr std::uint64_t transpose_sector_limit = (1ull << 31) - 1 - 256;
// Blocks per launch along each axis (grid.x: the tiles of one matrix;
// grid.y: matrices, the kernel steps through larger stacks).
inline constexpr std::uint64_t transpose_sector_max_tiles = (1ull << 31) - 1;
inline constexpr std::uint64_t transpose_sector_max_matrices = 65535;

// Tiles per matrix: bands of Rows owned rows, the last of which may start
// `halo` rows above its band, times 64-column strips.
template <unsigned Rows>
std::uint64_t transpose_sector_tiles(const detail::transpose_shape& s, unsigned halo) {
  return ((s.rows + halo - 1) / Rows + 1) * ceil_div(s.cols, transpose_sector_cols);
}

// Whether the sector-owned tiles index `s` in their 32-bit arithmetic.
// Rows and columns past the limit do not fit in a device's memory with
// both dimensions at least 64 (2^31 rows of 64 columns are 128 GiB of
// 1-byte elements, and as much again for the output); leading dimensions
// past it (rows over 2 GiB apart) can, and go to the peeled tiles.
template <unsigned Rows>
bool transpose_sectors_fit(const detail::transpose_shape& s) {
  constexpr std::uint64_t max_halo = 31;
  return s.rows <= transpose_sector_limit && s.cols <= transpose_sector_limit &&
         s.ld_in <= transpose_sector_limit && s.ld_out <= transpose_sector_limit &&
         transpose_sector_tiles<Rows>(s, max_halo) <= transpose_sector_max_tiles;
}

// Enqueues the sector-owned tiles for `s` (rows and columns of any
// alignment; elements of up to 8 bytes; transpose_sectors_fit<Rows>(s)).
template <std::size_t Bytes, unsigned Rows, bool Rotated>
void launch_transpose_sectors(const void* in, void* out, const detail::transpose_shape& s,
                              stream_t stream) {
  using E = typename transpose_element<Bytes>::type;
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  if (!transpose_sectors_fit<Rows>(s)) {
    throw std::invalid_argument(
        "gpuprim::transpose: matrix too large for the sector-owned tiles (rows, columns and "
        "leading dimensions must be below 2^31 - 257)");
  }
  const unsigned halo = transpose_sector_halo<Bytes>(out, s);
  transpose_sector_shape k;
  k.rows = static_cast<int>(s.rows);
  k.cols = static_cast<int>(s.cols);
  k.ld_in = static_cast<int>(s.ld_in);
  k.ld_out = static_cast<int>(s.ld_out);
  k.tiles_across = static_cast<unsigned>(ceil_div(s.cols, transpose_sector_cols));
  k.halo = halo;
  k.batch = s.batch;
  k.stride_in = s.stride_in;
  k.stride_out = s.stride_out;
  const std::uint64_t tiles = transpose_sector_tiles<Rows>(s, halo);
  const auto matrices =
      static_cast<unsigned>(std::min<std::uint64_t>(s.batch, transpose_sector_max_matrices));
  launch_shape shape;
  shape.grid = dim3(static_cast<unsigned>(tiles), matrices);
  shape.block = dim3(transpose_sector_threads);
  shape.stream = stream;
  const auto kernel = transpose_sectors<Bytes, Rows, Rotated>;
  report_launch_to_tuner(kernel, transpose_sector_threads, 0,
                         static_cast<unsigned>(std::min<std::uint64_t>(tiles * matrices, ~0u)));
  launch("transpose_sectors", "transpose", kernel, shape, static_cast<const E*>(in),
         static_cast<E*>(out), k);
}
}  // namespace gpuprim::cuda_impl

namespace gpuprim::detail {

template <std::size_t Bytes>
void cuda_transpose_sized(const void* in, void* out, const transpose_shape& s, stream_t stream) {
  using E = typename cuda_impl::transpose_element<Bytes>::type;
  if (s.rows == 0 || s.cols == 0 || s.batch == 0) return;
  constexpr std::size_t alignment = alignof(E);
  if (reinterpret_cast<std::uintptr_t>(in) % alignment != 0 ||
      reinterpret_cast<std::uintptr_t>(out) % alignment != 0) {
    throw std::invalid_argument("gpuprim::transpose: device data of " + std::to_string(Bytes) +
                                "-byte elements must be " + std::to_string(alignment) +
                                "-byte aligned");
  }
  // The tuner's "transpose" space (src/tune/config.cpp), keyed by element
  // size: full tile rows and columns, grid in blocks per SM (0: a block per
  // tile). 16-byte elements keep their 32 x 32 tiles.
  tuning::config c = tuning::space_of(tuning::algorithm::transpose).default_config;
  if constexpr (Bytes <= 8) {
    c = tuning::choose(
            tuning::algorithm::transpose,
            tuning::element_type_of<typename cuda_impl::transpose_element<Bytes>::type>(),
            s.rows * s.cols)
            .choice;
  }
  const cuda_impl::transpose_tiling t = cuda_impl::transpose_tiling_for<Bytes>(
      s, in, out, Bytes <= 8 ? unsigned(c[0]) : 0u, Bytes <= 8 ? unsigned(c[1]) : 0u);
  const std::uint64_t tiles = t.tiles_down * t.tiles_across * s.batch;
  const std::uint64_t grid_cap =
      c[2] > 0 ? std::uint64_t(c[2]) * cuda_impl::current_multiprocessor_count() : 1u << 20;
  const auto grid = static_cast<unsigned>(std::min<std::uint64_t>(tiles, grid_cap));
  cuda_impl::launch_shape shape;
  shape.grid = dim3(grid);
  shape.block = dim3(cuda_impl::transpose_threads);
  shape.shared_bytes = t.tile_rows * t.pitch * static_cast<unsigned>(Bytes);
  shape.stream = stream;
  const auto run = [&](auto kernel) {
    cuda_impl::report_launch_to_tuner(kernel, cuda_impl::transpose_threads, shape.shared_bytes,
                                        grid);
    cuda_impl::launch("transpose_tiles", "transpose", kernel, shape, static_cast<const E*>(in),
                        static_cast<E*>(out), s, t);
  };
  // Which kernel: rows that all start on 16-byte boundaries (in and out)
  // keep the vector tiles, which beat the sector-owned tiles there (535.6
  // against 544.7 us at f32 16384^2 on an H200). Any other alignment with
  // both dimensions at least 64 goes, for elements of 1, 2 and 4 bytes, to
  // the sector-owned tiles (H200, 10007 x 3001: 51.5 against 118.9 us for
  // the peeled tiles, 52.8 against 121.4, 77.2 against 104.4). 8-byte
  // elements keep the peeled tiles: the two tie there (152.6 against 155.5
  // us at 10007 x 3001, 332.1 against 333.0 at 8191 x 8193).
  // Thinner matrices keep the peeled tiles, whose thin tiles move a full
  // tile's bytes (sector tiles are 64 columns wide and 64 rows deep), as do
  // shapes beyond the sector tiles' 32-bit indexing (transpose_sectors_fit:
  // leading dimensions of 2^31 - 256 or more). 16-byte elements are one vector each
  // and stay element by element. The tuner's tile shape and grid above are
  // the vector and peeled tiles'; the sector-owned tiles are 64 x 64 with a
  // block per tile (as measured).
  if constexpr (Bytes < 16) {
    if (!(t.vector_loads && t.vector_stores)) {
      if constexpr (Bytes <= 4) {
        constexpr unsigned band = cuda_impl::transpose_sector_rows;
        if (s.rows >= band && s.cols >= cuda_impl::transpose_sector_cols &&
            cuda_impl::transpose_sectors_fit<band>(s)) {
          return cuda_impl::launch_transpose_sectors<Bytes, band, false>(in, out, s, stream);
        }
      }
      return run(cuda_impl::transpose_tiles<Bytes, true>);
    }
  }
  run(cuda_impl::transpose_tiles<Bytes, false>);
}

// Each size is compiled once, in the file CMake generates for it from
// GPUPRIM_TRANSPOSE_SIZES (which defines GPUPRIM_INSTANTIATING); other
// translation units that see this definition refer to those.
#if !defined(GPUPRIM_INSTANTIATING)
extern template void cuda_transpose_sized<1>(const void*, void*, const transpose_shape&, stream_t);
extern template void cuda_transpose_sized<2>(const void*, void*, const transpose_shape&, stream_t);
extern template void cuda_transpose_sized<4>(const void*, void*, const transpose_shape&, stream_t);
extern template void cuda_transpose_sized<8>(const void*, void*, const transpose_shape&, stream_t);
extern template void cuda_transpose_sized<16>(const void*, void*, const transpose_shape&, stream_t);
#endif

}  // namespace gpuprim::detail
