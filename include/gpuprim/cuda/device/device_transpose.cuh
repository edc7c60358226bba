// Device-wide transpose: out[b][c][r] = in[b][r][c], one kernel per element
// size (elements are moved as bits).
//
// Shape of the algorithm:
//  1. The matrix is cut into tiles of tile_rows x tile_cols elements (64 x
//     64 for elements up to 8 bytes, 32 x 32 for 16 bytes; a thin matrix
//     gets tiles as thin as it is and as long as the same budget allows, so
//     a 2^24 x 4 matrix still moves 16 KiB per tile). Blocks of 256 threads
//     walk the tiles of every matrix of the stack, grid-stride.
//  2. Load: the block reads its tile row by row, coalesced, with 16-byte
//     vector loads. Where every row starts on a 16-byte boundary (aligned
//     base, leading dimension a multiple of the vector) four vectors per
//     thread are in flight before any is stored. Otherwise (odd leading
//     dimensions such as 10007 x 3001, unaligned views, edges of odd width)
//     each row is cut at the 16-byte boundaries of memory: whole pieces are
//     vector loads, the row's head and tail go element by element, five
//     pieces per thread in flight, and the (row, piece) of each thread is
//     stepped without a division. Only 16-byte elements with 8-byte
//     alignment go element by element throughout.
//  3. The tile goes into shared memory, rows padded by 4 bytes (one bank),
//     so that reading a column later touches every bank once.
//  4. Store: the block writes the tile's columns as the output's rows,
//     again coalesced and with 16-byte vector stores (output rows of any
//     alignment cut the same way), each vector gathered from consecutive
//     rows of the shared tile.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "gpuprim/cuda/detail/check.cuh"
#include "gpuprim/cuda/detail/launch.cuh"
#include "gpuprim/cuda/detail/tune_report.cuh"
#include "gpuprim/detail/transpose/transpose.hpp"
#include "gpuprim/tune/choice.hpp"

namespace gpuprim::cuda_detail {

inline constexpr unsigned transpose_threads = 256;
inline constexpr unsigned transpose_in_flight = 4;  // vectors per thread loaded before storing
// The same for rows of any alignment: a 64-wide row is 17 pieces, so 5 per
// thread cover a 64 x 64 tile (1088 pieces) in one round of loads.
inline constexpr unsigned transpose_in_flight_peeled = 5;
// Resident blocks per SM asked of the peeled kernel (__launch_bounds__; 0:
// no cap). Uncapped it takes 64 registers for 4-byte elements (4 blocks of
// 256 per SM, against 6 for the aligned kernel's 38). A cap spills on sm_90
// (ptxas, 4 / 8-byte elements): 6 blocks (40 registers) 80 / 80 bytes,
// 5 blocks (48 registers) 48 / 56 bytes; with 3 pieces in flight instead
// of 5, 5 blocks spill 4 / 0 bytes. Left uncapped until measured
// (bench/results/notes-2026-11-25-dense-bf16.md).
inline constexpr unsigned transpose_peeled_min_blocks = 0;

// The type an element of `Bytes` bytes moves as.
template <std::size_t Bytes>
struct transpose_element;
template <>
struct transpose_element<1> {
  using type = unsigned char;
};
template <>
struct transpose_element<2> {
  using type = unsigned short;
};
template <>
struct transpose_element<4> {
  using type = unsigned int;
};
template <>
struct transpose_element<8> {
  using type = unsigned long long;
};
// 16-byte elements (complex<double>) need only 8-byte alignment.
struct alignas(8) transpose_pair {
  unsigned long long lo, hi;
};
template <>
struct transpose_element<16> {
  using type = transpose_pair;
};

// Item `first`, `first` + step, ... of a (line, slot) grid with `slots`
// slots per line, walked without a division per item.
struct transpose_walk {
  unsigned line, slot;
  unsigned step_lines, step_slots, slots;
  __device__ transpose_walk(unsigned first, unsigned step, unsigned slots_per_line)
      : line(first / slots_per_line),
        slot(first % slots_per_line),
        step_lines(step / slots_per_line),
        step_slots(step % slots_per_line),
        slots(slots_per_line) {}
  __device__ void advance() {
    line += step_lines;
    slot += step_slots;
    if (slot >= slots) {
      slot -= slots;
      ++line;
    }
  }
};

// Elements from the last 16-byte boundary of memory at or before p.
template <std::size_t Bytes>
__device__ __forceinline__ unsigned element_offset(const void* p) {
  return static_cast<unsigned>(reinterpret_cast<std::uintptr_t>(p) % 16 / Bytes);
}

struct transpose_tiling {
  unsigned tile_rows;
  unsigned tile_cols;
  unsigned pitch;  // elements per row of the shared tile (tile_cols + padding)
  bool vector_loads;
  bool vector_stores;
  std::uint64_t tiles_down;    // tiles per column of one matrix
  std::uint64_t tiles_across;  // tiles per row of one matrix
};

// Peeled: rows of any alignment through vectors (step 2 below); a kernel of
// its own, so that the aligned path keeps its register count (38 against
// 64 for f32 on sm_90, 6 blocks per SM instead of 4).
template <std::size_t Bytes, bool Peeled>
__global__ void __launch_bounds__(transpose_threads, Peeled ? transpose_peeled_min_blocks : 0)
    transpose_tiles(const typename transpose_element<Bytes>::type* __restrict__ in,
                    typename transpose_element<Bytes>::type* __restrict__ out,
                    detail::transpose_shape s, transpose_tiling t) {
  using E = typename transpose_element<Bytes>::type;
  constexpr unsigned V = 16 / Bytes;  // elements per 16-byte vector
  constexpr unsigned K = transpose_in_flight;
  extern __shared__ __align__(16) unsigned char transpose_shared[];
  E* tile = reinterpret_cast<E*>(transpose_shared);

  const std::uint64_t per_matrix = t.tiles_down * t.tiles_across;
  const std::uint64_t total = per_matrix * s.batch;
  for (std::uint64_t id = blockIdx.x; id < total; id += gridDim.x) {
    const std::uint64_t b = id / per_matrix;
    const std::uint64_t rest = id % per_matrix;
    const std::uint64_t r0 = rest / t.tiles_across * t.tile_rows;
    const std::uint64_t c0 = rest % t.tiles_across * t.tile_cols;
    const unsigned nr =
        s.rows - r0 < t.tile_rows ? static_cast<unsigned>(s.rows - r0) : t.tile_rows;
    const unsigned nc =
        s.cols - c0 < t.tile_cols ? static_cast<unsigned>(s.cols - c0) : t.tile_cols;
    const E* src = in + b * s.stride_in + r0 * s.ld_in + c0;
    E* dst = out + b * s.stride_out + c0 * s.ld_out + r0;

    // 2-3. Tile rows into shared memory.
    if (t.vector_loads && nc % V == 0) {
      const unsigned per_row = nc / V;
      const unsigned count = nr * per_row;
      for (unsigned base = threadIdx.x; base < count; base += K * transpose_threads) {
        uint4 v[K];
#pragma unroll
        for (unsigned k = 0; k < K; ++k) {
          const unsigned i = base + k * transpose_threads;
          if (i < count) {
            v[k] = *reinterpret_cast<const uint4*>(src + std::size_t(i / per_row) * s.ld_in +
                                                   i % per_row * V);
          }
        }
#pragma unroll
        for (unsigned k = 0; k < K; ++k) {
          const unsigned i = base + k * transpose_threads;
          if (i < count) {
            E parts[V];
            memcpy(parts, &v[k], 16);
            E* row = tile + (i / per_row) * t.pitch + i % per_row * V;
#pragma unroll
            for (unsigned e = 0; e < V; ++e)
              row[e] = parts[e];
          }
        }
      }
    } else if constexpr (Peeled) {
      // Row starts of any alignment: each row is cut at 16-byte boundaries
      // of memory into `slots` pieces of up to V elements; a whole piece is
      // one vector load, the first and last of the row (the head before the
      // first boundary, the tail after the last) go element by element.
      const unsigned slots = (nc + 2 * V - 2) / V;
      const unsigned first_off = element_offset<Bytes>(src);
      const unsigned ld_off = static_cast<unsigned>(s.ld_in) & (V - 1);
      constexpr unsigned KP = transpose_in_flight_peeled;
      transpose_walk w(threadIdx.x, transpose_threads, slots);
      while (w.line < nr) {
        uint4 v[KP];
        unsigned row_k[KP];
        int col_k[KP];
#pragma unroll
        for (unsigned k = 0; k < KP; ++k) {
          const unsigned r = w.line;
          const int first =
              static_cast<int>(w.slot * V) - static_cast<int>((first_off + r * ld_off) & (V - 1));
          row_k[k] = r;
          col_k[k] = first;
          if (r < nr) {
            const E* row = src + std::size_t(r) * s.ld_in;
            if (first >= 0 && first + static_cast<int>(V) <= static_cast<int>(nc)) {
              v[k] = *reinterpret_cast<const uint4*>(row + first);
            } else {
              E parts[V];
#pragma unroll
              for (unsigned e = 0; e < V; ++e) {
                const int c = first + static_cast<int>(e);
                parts[e] = c >= 0 && c < static_cast<int>(nc) ? row[c] : E{};
              }
              memcpy(&v[k], parts, 16);
            }
          }
          w.advance();
        }
#pragma unroll
        for (unsigned k = 0; k < KP; ++k) {
          if (row_k[k] < nr) {
            E parts[V];
            memcpy(parts, &v[k], 16);
            E* row = tile + row_k[k] * t.pitch;
#pragma unroll
            for (unsigned e = 0; e < V; ++e) {
              const int c = col_k[k] + static_cast<int>(e);
              if (c >= 0 && c < static_cast<int>(nc)) row[c] = parts[e];
            }
          }
        }
      }
    } else {
      const unsigned count = nr * nc;
      for (unsigned base = threadIdx.x; base < count; base += K * transpose_threads) {
        E v[K];
#pragma unroll
        for (unsigned k = 0; k < K; ++k) {
          const unsigned i = base + k * transpose_threads;
          if (i < count) v[k] = src[std::size_t(i / nc) * s.ld_in + i % nc];
        }
#pragma unroll
        for (unsigned k = 0; k < K; ++k) {
          const unsigned i = base + k * transpose_threads;
          if (i < count) tile[(i / nc) * t.pitch + i % nc] = v[k];
        }
      }
    }
    __syncthreads();

    // 4. Tile columns out as rows of the output.
    if (t.vector_stores && nr % V == 0) {
      const unsigned per_row = nr / V;
      const unsigned count = nc * per_row;
      for (unsigned i = threadIdx.x; i < count; i += transpose_threads) {
        const unsigned c = i / per_row;
        const unsigned r = i % per_row * V;
        E parts[V];
#pragma unroll
        for (unsigned e = 0; e < V; ++e)
          parts[e] = tile[(r + e) * t.pitch + c];
        uint4 v;
        memcpy(&v, parts, 16);
        *reinterpret_cast<uint4*>(dst + std::size_t(c) * s.ld_out + r) = v;
      }
    } else if constexpr (Peeled) {
      // The same cut of each output row at 16-byte boundaries of memory.
      const unsigned slots = (nr + 2 * V - 2) / V;
      const unsigned first_off = element_offset<Bytes>(dst);
      const unsigned ld_off = static_cast<unsigned>(s.ld_out) & (V - 1);
      for (transpose_walk w(threadIdx.x, transpose_threads, slots); w.line < nc; w.advance()) {
        const unsigned c = w.line;
        const int first =
            static_cast<int>(w.slot * V) - static_cast<int>((first_off + c * ld_off) & (V - 1));
        E* row = dst + std::size_t(c) * s.ld_out;
        if (first >= 0 && first + static_cast<int>(V) <= static_cast<int>(nr)) {
          E parts[V];
#pragma unroll
          for (unsigned e = 0; e < V; ++e)
            parts[e] = tile[(first + e) * t.pitch + c];
          uint4 v;
          memcpy(&v, parts, 16);
          *reinterpret_cast<uint4*>(row + first) = v;
        } else {
#pragma unroll
          for (unsigned e = 0; e < V; ++e) {
            const int r = first + static_cast<int>(e);
            if (r >= 0 && r < static_cast<int>(nr)) row[r] = tile[r * t.pitch + c];
          }
        }
      }
    } else {
      const unsigned count = nr * nc;
      for (unsigned i = threadIdx.x; i < count; i += transpose_threads) {
        const unsigned c = i / nr;
        const unsigned r = i % nr;
        dst[std::size_t(c) * s.ld_out + r] = tile[r * t.pitch + c];
      }
    }
    __syncthreads();  // the tile is reused by the next iteration
  }
}

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

}  // namespace gpuprim::cuda_detail

namespace gpuprim::detail {

template <std::size_t Bytes>
void cuda_transpose_sized(const void* in, void* out, const transpose_shape& s, stream_t stream) {
  using E = typename cuda_detail::transpose_element<Bytes>::type;
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
            tuning::element_type_of<typename cuda_detail::transpose_element<Bytes>::type>(),
            s.rows * s.cols)
            .choice;
  }
  const cuda_detail::transpose_tiling t = cuda_detail::transpose_tiling_for<Bytes>(
      s, in, out, Bytes <= 8 ? unsigned(c[0]) : 0u, Bytes <= 8 ? unsigned(c[1]) : 0u);
  const std::uint64_t tiles = t.tiles_down * t.tiles_across * s.batch;
  const std::uint64_t grid_cap =
      c[2] > 0 ? std::uint64_t(c[2]) * cuda_detail::current_multiprocessor_count() : 1u << 20;
  const auto grid = static_cast<unsigned>(std::min<std::uint64_t>(tiles, grid_cap));
  cuda_detail::launch_shape shape;
  shape.grid = dim3(grid);
  shape.block = dim3(cuda_detail::transpose_threads);
  shape.shared_bytes = t.tile_rows * t.pitch * static_cast<unsigned>(Bytes);
  shape.stream = stream;
  const auto run = [&](auto kernel) {
    cuda_detail::report_launch_to_tuner(kernel, cuda_detail::transpose_threads, shape.shared_bytes,
                                        grid);
    cuda_detail::launch("transpose_tiles", "transpose", kernel, shape, static_cast<const E*>(in),
                        static_cast<E*>(out), s, t);
  };
  if constexpr (Bytes < 16) {
    if (!(t.vector_loads && t.vector_stores)) return run(cuda_detail::transpose_tiles<Bytes, true>);
  }
  run(cuda_detail::transpose_tiles<Bytes, false>);
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
